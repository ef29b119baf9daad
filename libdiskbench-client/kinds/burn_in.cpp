// SPDX-License-Identifier: GPL-3.0-or-later
// Burn-in (every block written and read back): its report leads with the
// verdict and the reasons for it, never a plain "✓" over a drive that lost
// data; the figures after it are the two speeds and what came back wrong.
#include "kinds/burn_in_verdict.hpp"
#include "kinds/kind_presentation.hpp"
#include "kinds/surface_faults.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/burn_in.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>

namespace diskbench::client {

namespace {

namespace burn_in_keys = contract::kinds::keys::burn_in;

constexpr HeadlineCandidate figures[] = {
    { burn_in_keys::write_mb_s, N_("write"), Unit::MegabytesPerSecond },
    { burn_in_keys::read_mb_s, N_("read"), Unit::MegabytesPerSecond },
};

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap&) { return figures; }

// The verdict's reasons as words: "unreadable blocks, blocks read back wrong".
std::string reasons_text(const std::string& reasons)
{
    std::string text;
    std::size_t from = 0;
    while (from <= reasons.size() && !reasons.empty()) {
        const std::size_t comma = reasons.find(',', from);
        const std::string reason = reasons.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        const char* words = reason == "unreadable"     ? _("unreadable blocks")
                            : reason == "mismatched"   ? _("blocks read back other than written")
                            : reason == "write-errors" ? _("failed writes")
                            : reason == "slow"         ? _("slow blocks")
                                                       : reason.c_str();
        text += (text.empty() ? "" : ", ") + std::string(words);
        if (comma == std::string::npos)
            break;
        from = comma + 1;
    }
    return text;
}

std::optional<std::string> report_headline(const SavedResult& result)
{
    const std::string verdict = text_of(result.summary, burn_in_keys::verdict);
    if (verdict.empty())
        return std::nullopt;
    if (verdict == "pass")
        /* TRANSLATORS: the burn-in's verdict; %s is a size such as "931 GiB" */
        return printf_text(_("✓ passed: every block of %s written and read back as written"),
                           format_value(number_of(result.summary, burn_in_keys::verified_bytes, 0) /
                                            std::max<double>(1, number_of(result.summary, burn_in_keys::cycles_done, 1)),
                                        Unit::Bytes)
                               .c_str());
    /* TRANSLATORS: the burn-in's verdict; %s lists the reasons, e.g. "unreadable blocks, slow blocks" */
    return printf_text(_("⚠ failed: %s"), reasons_text(text_of(result.summary, burn_in_keys::verdict_reasons)).c_str());
}

// "write 512 MB/s, read 540 MB/s, 3 blocks wrong"
void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts)
{
    const double write = number_of(summary, burn_in_keys::write_mb_s, NAN);
    const double read = number_of(summary, burn_in_keys::read_mb_s, NAN);
    if (!std::isnan(write) && !std::isnan(read))
        /* TRANSLATORS: the burn-in's two speeds, e.g. "write 512 MB/s, read 540 MB/s" */
        parts.push_back(printf_text(_("write %s, read %s"), format_value(write, Unit::MegabytesPerSecond).c_str(),
                                    format_value(read, Unit::MegabytesPerSecond).c_str()));
    const double wrong = number_of(summary, burn_in_keys::mismatched_blocks, 0);
    if (wrong > 0)
        parts.push_back(printf_text(g_dngettext(GETTEXT_PACKAGE, "%.0f block read back wrong",
                                                "%.0f blocks read back wrong", static_cast<gulong>(wrong)),
                                    wrong));
    const double unreadable = number_of(summary, burn_in_keys::unreadable_ranges, 0);
    if (unreadable > 0)
        parts.push_back(printf_text(g_dngettext(GETTEXT_PACKAGE, "%.0f unreadable range", "%.0f unreadable ranges",
                                                static_cast<gulong>(unreadable)),
                                    unreadable));
}

constexpr std::size_t max_listed = 100; // wrong blocks listed in a report; the rest counted

// Every block read back wrong (the first max_listed), then the unreadable
// ranges and slow blocks as a surface scan lists them; each line escaped on
// its own.
std::string report_findings(const SavedResult& result, const OutsideText& outside)
{
    std::string found;
    const auto add = [&](const std::string& line) { found += "  " + outside(line) + "\n"; };
    const SavedSeries* wrong = nullptr;
    for (const SavedSeries& series : result.series)
        if (series.name == "mismatch")
            wrong = &series;
    if (wrong) {
        for (std::size_t i = 0; i < wrong->points.size() && i < max_listed; ++i)
            /* TRANSLATORS: a burn-in finding: a place on the drive ("1.5 GiB") and how much of the block there read back wrong ("4 KiB") */
            add(printf_text(_("wrong: the block at %s, %s read back other than written"),
                            format_value(wrong->points[i].x, Unit::Bytes).c_str(),
                            format_value(wrong->points[i].y, Unit::Bytes).c_str()));
        const double all = number_of(result.summary, burn_in_keys::mismatched_blocks, 0);
        if (all > static_cast<double>(std::min(wrong->points.size(), max_listed)))
            add(printf_text(_("… and %.0f more blocks read back wrong"),
                            all - static_cast<double>(std::min(wrong->points.size(), max_listed))));
    }
    SurfaceFaults faults;
    faults.bad_ranges = static_cast<std::uint64_t>(number_of(result.summary, burn_in_keys::unreadable_ranges, 0));
    faults.bad_bytes = static_cast<std::uint64_t>(number_of(result.summary, burn_in_keys::unreadable_bytes, 0));
    faults.slow_blocks = static_cast<std::uint64_t>(number_of(result.summary, burn_in_keys::slow_blocks, 0));
    faults.slow_repeatable = static_cast<std::uint64_t>(number_of(result.summary, burn_in_keys::slow_repeatable, 0));
    faults.threshold_ms = number_of(result.summary, burn_in_keys::slow_threshold_ms, 0);
    read_fault_series(result, faults);
    const std::string list = surface_fault_list(faults);
    for (std::size_t start = 0; start < list.size();) {
        const std::size_t end = std::min(list.find('\n', start), list.size());
        add(list.substr(start, end - start));
        start = end + 1;
    }
    return found;
}

} // namespace

bool burn_in_failed(const SavedResult& result)
{
    return text_of(result.summary, burn_in_keys::verdict) == "fail";
}

extern constinit const KindPresentation burn_in_presentation {
    // TRANSLATORS: a page title (keep it short): every block of a drive written and read back before it is trusted
    .title = { contract::kinds::burn_in, N_("Burn-in"),
               N_("Every block written and read back, each sector marked with its place: finds lost, misplaced, "
                  "unreadable and slow blocks before a drive is trusted with data. Erases the data.") },
    .headline_candidates = headline_candidates,
    .summary_parts = summary_parts,
    .report_headline = report_headline,
    .report_findings = report_findings,
};

} // namespace diskbench::client
