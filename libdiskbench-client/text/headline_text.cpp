// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/headline_text.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/file_profile.hpp"
#include "contract/kinds/profile.hpp"
#include "contract/kinds/shared_figures.hpp"
#include "contract/kinds/test_keys.hpp"
#include "kinds/presentation_registry.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string_view>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace file_profile_keys = contract::kinds::keys::file_profile;
namespace per_test_keys = contract::kinds::keys::per_test;
namespace profile_keys = contract::kinds::keys::profile;
namespace shared_keys = contract::kinds::keys::shared;

namespace {

// Every kind without candidates of its own: throughput first, in the words
// the pages use.
// TRANSLATORS: names of a result's headline figures in the History list and
// its trend, e.g. "access time 8.50 ms", "read 512 MB/s".
constexpr HeadlineCandidate common_figures[] = {
    { shared_keys::throughput_mb_s, N_("throughput"), Unit::MegabytesPerSecond },
    { shared_keys::read_mb_s, N_("read"), Unit::MegabytesPerSecond },
    { shared_keys::write_mb_s, N_("write"), Unit::MegabytesPerSecond },
    { common_keys::latency_mean_us, N_("mean latency"), Unit::Microseconds },
};

bool has_number(const SavedValueMap& summary, std::string_view key)
{
    return std::isfinite(number_of(summary, key, NAN));
}

// "seq1m_q8t1_read_throughput_mb_s" -> "seq1m q8t1 read",
// "write.files_s" -> "write"
std::string label_from_key(std::string_view key, std::string_view suffix)
{
    std::string label(key.substr(0, key.size() - suffix.size()));
    while (!label.empty() && (label.back() == '_' || label.back() == '.'))
        label.pop_back();
    std::replace(label.begin(), label.end(), '_', ' ');
    std::replace(label.begin(), label.end(), '.', ' ');
    return label;
}

} // namespace

std::vector<HeadlineFigure> headline_figures(const std::string& kind, const SavedValueMap& summary, std::size_t limit)
{
    std::vector<HeadlineFigure> figures;
    const auto add = [&](std::string_view key, std::string label, Unit unit) {
        if (figures.size() >= limit || !has_number(summary, key))
            return;
        if (std::any_of(figures.begin(), figures.end(), [&](const HeadlineFigure& f) { return f.key == key; }))
            return;
        figures.push_back({ std::string(key), std::move(label), unit });
    };
    const KindPresentation* presentation = kind_presentation(kind);
    const std::span<const HeadlineCandidate> candidates = presentation && presentation->headline_candidates
        ? presentation->headline_candidates(summary)
        : std::span<const HeadlineCandidate>(common_figures);
    for (const HeadlineCandidate& candidate : candidates)
        add(candidate.key, _(candidate.label), candidate.unit);
    // Profiles (device and folder) in the order their tests ran, named as
    // the user knows them: "SEQ1M Q8T1 1701 MB/s", "SEQ1M Q8T1 read …".
    for (const std::string& test : split_profile_tests(text_of(summary, profile_keys::tests))) {
        const std::string key = profile_summary_key(test);
        add(per_test_keys::test_key(key, profile_keys::throughput_mb_s), test, Unit::MegabytesPerSecond);
        /* TRANSLATORS: a profile test's read figure, e.g. "SEQ1M Q8T1 read" */
        add(file_profile_keys::direction_key(key, file_profile_keys::read_prefix, file_profile_keys::mb_s),
            printf_text(_("%s read"), test.c_str()), Unit::MegabytesPerSecond);
        /* TRANSLATORS: a profile test's write figure, e.g. "SEQ1M Q8T1 write" */
        add(file_profile_keys::direction_key(key, file_profile_keys::write_prefix, file_profile_keys::mb_s),
            printf_text(_("%s write"), test.c_str()), Unit::MegabytesPerSecond);
    }
    // Kinds whose figures carry a test's or phase's name (profile:
    // "seq1m_q8t1_read_throughput_mb_s", small-files: "write_files_s"): the
    // rates in the summary's order, the slowest/fastest pass left out.
    for (const auto& [key, value] : summary) {
        const std::string_view name = key;
        if (name.ends_with("_min_mb_s") || name.ends_with("_max_mb_s"))
            continue;
        if (name.ends_with("throughput_mb_s"))
            add(name, label_from_key(name, "throughput_mb_s"), Unit::MegabytesPerSecond);
        else if (name.ends_with("_mb_s"))
            add(name, label_from_key(name, "_mb_s"), Unit::MegabytesPerSecond);
    }
    for (const auto& [key, value] : summary) {
        const std::string_view name = key;
        if (name.ends_with("_ops_s") || name.ends_with("_files_s"))
            add(name, label_from_key(name, name.ends_with("_ops_s") ? "_ops_s" : "_files_s"), Unit::OperationsPerSecond);
    }
    return figures;
}

std::string headline_text(const std::string& kind, const SavedValueMap& summary, std::size_t limit)
{
    std::string text;
    for (const HeadlineFigure& figure : headline_figures(kind, summary, limit)) {
        const std::string value = format_value(number_of(summary, figure.key.c_str(), 0), figure.unit);
        text += (text.empty() ? "" : "  ·  ") + (figure.label.empty() ? value : figure.label + " " + value);
    }
    return text.empty() ? "–" : text;
}

} // namespace diskbench::client
