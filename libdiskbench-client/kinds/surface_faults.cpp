// SPDX-License-Identifier: GPL-3.0-or-later
#include "kinds/surface_faults.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/surface.hpp"
#include "text/printf_text.hpp"
#include "text/value_format.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <map>

namespace diskbench::client {

namespace surface_keys = contract::kinds::keys::surface;

namespace {

const SavedSeries* series_named(const SavedResult& result, const char* name)
{
    for (const SavedSeries& series : result.series)
        if (series.name == name)
            return &series;
    return nullptr;
}

// "1.2 TiB", "10 MiB": a position on the disk.
std::string position_text(std::uint64_t bytes)
{
    return format_value(static_cast<double>(bytes), Unit::Bytes);
}

std::string ms_text(double ms)
{
    return format_value(ms * 1000, Unit::Microseconds);
}

} // namespace

SurfaceFaults surface_faults(const SavedResult& result)
{
    // Only a scan's summary means these keys (the surface's module).
    if (result.kind != contract::kinds::surface)
        return {};
    const auto count = [&](std::string_view key) {
        const double value = number_of(result.summary, key, 0);
        return value > 0 ? static_cast<std::uint64_t>(value) : std::uint64_t { 0 };
    };
    SurfaceFaults faults;
    faults.bad_ranges = count(surface_keys::bad_ranges);
    faults.bad_bytes = count(surface_keys::bad_bytes);
    faults.slow_blocks = count(surface_keys::slow_blocks);
    faults.slow_repeatable = count(surface_keys::slow_repeatable);
    faults.threshold_ms = number_of(result.summary, surface_keys::slow_threshold_ms, 0);
    faults.stopped_reason = text_of(result.summary, surface_keys::stopped_reason);
    read_fault_series(result, faults);
    return faults;
}

void read_fault_series(const SavedResult& result, SurfaceFaults& faults)
{
    if (const double block = number_of(result.device_info, "logical_block_size", 0); block > 0)
        faults.logical_block = static_cast<std::uint32_t>(block);
    std::map<double, int> errors;
    if (const SavedSeries* series = series_named(result, "bad_errno"))
        for (const SeriesPoint& point : series->points)
            errors[point.x] = static_cast<int>(point.y);
    if (const SavedSeries* series = series_named(result, "bad"))
        for (const SeriesPoint& point : series->points)
            faults.bad.push_back({ static_cast<std::uint64_t>(point.x), static_cast<std::uint64_t>(point.y),
                                   errors.count(point.x) ? errors[point.x] : 0 });
    std::map<double, double> again;
    if (const SavedSeries* series = series_named(result, "slow_again"))
        for (const SeriesPoint& point : series->points)
            again[point.x] = point.y;
    if (const SavedSeries* series = series_named(result, "slow"))
        for (const SeriesPoint& point : series->points) {
            SlowSpotEntry spot { static_cast<std::uint64_t>(point.x), point.y, std::nullopt, false };
            if (const auto found = again.find(point.x); found != again.end()) {
                spot.again_ms = found->second;
                spot.repeatable = found->second >= faults.threshold_ms;
            }
            faults.slow.push_back(spot);
        }
}

std::string surface_fault_line(const SurfaceFaults& faults)
{
    std::string line;
    if (faults.has_bad()) {
        const std::uint64_t first = faults.bad.empty() ? 0 : faults.bad.front().offset;
        line = printf_text(g_dngettext(GETTEXT_PACKAGE, "%llu bad range, %s unreadable, the first at %s",
                                       "%llu bad ranges, %s unreadable, the first at %s",
                                       static_cast<unsigned long>(faults.bad_ranges)),
                           static_cast<unsigned long long>(faults.bad_ranges), position_text(faults.bad_bytes).c_str(),
                           position_text(first).c_str());
    } else {
        line = _("no bad blocks");
    }
    line += "; ";
    if (faults.slow_blocks > 0)
        line += printf_text(g_dngettext(GETTEXT_PACKAGE, "%llu slow spot, %llu of them slow every time",
                                        "%llu slow spots, %llu of them slow every time",
                                        static_cast<unsigned long>(faults.slow_blocks)),
                            static_cast<unsigned long long>(faults.slow_blocks),
                            static_cast<unsigned long long>(faults.slow_repeatable));
    else
        line += _("no slow spots");
    if (!faults.stopped_reason.empty())
        line += std::string("; ") + _("the scan stopped by itself: too many bad blocks");
    return line;
}

std::string surface_fault_list(const SurfaceFaults& faults)
{
    std::string text;
    const std::uint64_t block = faults.logical_block;
    for (const BadRangeEntry& range : faults.bad) {
        const std::uint64_t first = range.offset / block;
        const std::uint64_t last = (range.offset + range.length) / block - 1;
        text += printf_text(_("bad: LBA %llu–%llu (%s) at %s: %s"), static_cast<unsigned long long>(first),
                            static_cast<unsigned long long>(last), position_text(range.length).c_str(),
                            position_text(range.offset).c_str(),
                            range.error ? g_strerror(range.error) : _("read failed"))
            + "\n";
    }
    if (faults.bad_ranges > faults.bad.size())
        text += printf_text(_("… and %llu more bad ranges not kept"),
                            static_cast<unsigned long long>(faults.bad_ranges - faults.bad.size()))
            + "\n";
    for (const SlowSpotEntry& spot : faults.slow) {
        std::string kind = !spot.again_ms      ? _("not read again")
                           : spot.repeatable   ? printf_text(_("slow again (%s): a weak sector"), ms_text(*spot.again_ms).c_str())
                                               : printf_text(_("%s when read again: a one-off"), ms_text(*spot.again_ms).c_str());
        text += printf_text(_("slow: LBA %llu at %s: %s, %s"), static_cast<unsigned long long>(spot.offset / block),
                            position_text(spot.offset).c_str(), ms_text(spot.ms).c_str(), kind.c_str())
            + "\n";
    }
    return text;
}

} // namespace diskbench::client
