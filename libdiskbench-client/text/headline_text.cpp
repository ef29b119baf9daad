// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/headline_text.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/file_profile.hpp"
#include "contract/kinds/overview.hpp"
#include "contract/kinds/profile.hpp"
#include "contract/kinds/qd_sweep.hpp"
#include "contract/kinds/shared_figures.hpp"
#include "contract/kinds/test_keys.hpp"
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
namespace overview_keys = contract::kinds::keys::overview;
namespace per_test_keys = contract::kinds::keys::per_test;
namespace profile_keys = contract::kinds::keys::profile;
namespace qd_sweep_keys = contract::kinds::keys::qd_sweep;
namespace shared_keys = contract::kinds::keys::shared;

namespace {

struct Candidate {
    std::string_view key;
    const char* label; // N_() marked
    Unit unit;
};

// TRANSLATORS: names of a result's headline figures in the History list and
// its trend, e.g. "access time 8.50 ms", "read 512 MB/s".
constexpr Candidate seek_figures[] = {
    { common_keys::latency_mean_us, N_("access time"), Unit::Microseconds },
    { common_keys::latency_p99_us, N_("p99"), Unit::Microseconds },
};
constexpr Candidate overview_figures[] = {
    { overview_keys::read_mb_s, N_("read"), Unit::MegabytesPerSecond },
    { overview_keys::write_mb_s, N_("write"), Unit::MegabytesPerSecond },
    { overview_keys::access_latency_mean_us, N_("access time"), Unit::Microseconds },
};
// No kind writes a plain "iops" (contract/kinds/ declares none): random's
// and the others' are kept as they were, an open question of issue 41.
constexpr std::string_view undeclared_iops = "iops";
constexpr Candidate random_figures[] = {
    { undeclared_iops, N_("IOPS"), Unit::Iops },
    { common_keys::latency_mean_us, N_("mean latency"), Unit::Microseconds },
};
constexpr Candidate qd_sweep_figures[] = {
    { qd_sweep_keys::best_iops, N_("best IOPS"), Unit::Iops },
};
// A queue-depth sweep that wrote (its summary's direction).
constexpr Candidate qd_sweep_write_figures[] = {
    { qd_sweep_keys::best_iops, N_("best write IOPS"), Unit::Iops },
};
// Every other kind: throughput first, in the words the pages use.
constexpr Candidate common_figures[] = {
    { shared_keys::throughput_mb_s, N_("throughput"), Unit::MegabytesPerSecond },
    { shared_keys::read_mb_s, N_("read"), Unit::MegabytesPerSecond },
    { shared_keys::write_mb_s, N_("write"), Unit::MegabytesPerSecond },
    { undeclared_iops, N_("IOPS"), Unit::Iops },
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
    std::span<const Candidate> candidates = common_figures;
    if (kind == contract::kinds::seek)
        candidates = seek_figures;
    else if (kind == contract::kinds::overview)
        candidates = overview_figures;
    else if (kind == contract::kinds::random)
        candidates = random_figures;
    else if (kind == contract::kinds::qd_sweep || kind == contract::kinds::file_qd_sweep)
        candidates = text_of(summary, qd_sweep_keys::direction) == "write" ? std::span<const Candidate>(qd_sweep_write_figures)
                                                               : std::span<const Candidate>(qd_sweep_figures);
    for (const Candidate& candidate : candidates)
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
