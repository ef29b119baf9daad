// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/figure_labels.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/seek.hpp"
#include "contract/kinds/shared_figures.hpp"
#include "contract/kinds/steady_state.hpp"
#include "contract/kinds/surface.hpp"
#include "contract/kinds/sustained_write.hpp"
#include "contract/kinds/verify_capacity.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace seek_keys = contract::kinds::keys::seek;
namespace shared_keys = contract::kinds::keys::shared;
namespace steady_keys = contract::kinds::keys::steady_state;
namespace surface_keys = contract::kinds::keys::surface;
namespace sustained_write_keys = contract::kinds::keys::sustained_write;
namespace verify_capacity_keys = contract::kinds::keys::verify_capacity;

namespace {

struct KnownFigure {
    std::string_view key;
    const char* label; // N_()
    Unit unit;
    double scale = 1;
};

// The figures most kinds share, named as the app names them.
constexpr std::array known {
    /* TRANSLATORS: a result's figures, as diskbenchctl and Copy as text list them */
    KnownFigure { surface_keys::bad_ranges, N_("Bad ranges"), Unit::Plain },
    KnownFigure { surface_keys::bad_bytes, N_("Unreadable"), Unit::Bytes },
    KnownFigure { surface_keys::slow_blocks, N_("Slow spots"), Unit::Plain },
    KnownFigure { verify_capacity_keys::claimed_bytes, N_("Claimed size"), Unit::Bytes },
    KnownFigure { verify_capacity_keys::real_size_bytes, N_("Real size"), Unit::Bytes },
    KnownFigure { verify_capacity_keys::lost_bytes, N_("Lost"), Unit::Bytes },
    KnownFigure { shared_keys::throughput_mb_s, N_("Throughput"), Unit::MegabytesPerSecond },
    KnownFigure { shared_keys::iops, N_("IOPS"), Unit::Iops },
    KnownFigure { common_keys::latency_mean_us, N_("Mean latency"), Unit::Microseconds },
    KnownFigure { common_keys::latency_min_us, N_("Fastest"), Unit::Microseconds },
    KnownFigure { common_keys::latency_p50_us, N_("p50 latency"), Unit::Microseconds },
    KnownFigure { common_keys::latency_p90_us, N_("p90 latency"), Unit::Microseconds },
    KnownFigure { common_keys::latency_p99_us, N_("p99 latency"), Unit::Microseconds },
    KnownFigure { common_keys::latency_p99_9_us, N_("p99.9 latency"), Unit::Microseconds },
    KnownFigure { common_keys::latency_max_us, N_("Slowest"), Unit::Microseconds },
    KnownFigure { shared_keys::bytes, N_("Data moved"), Unit::Bytes },
    KnownFigure { shared_keys::seconds, N_("Time"), Unit::Seconds },
    KnownFigure { shared_keys::reads, N_("Reads"), Unit::Plain },
    KnownFigure { seek_keys::block_size, N_("Block size"), Unit::Bytes },
    // No kind writes "size" nor "temperature_min_c" (contract/kinds/ declares
    // neither): kept as they were, an open question of issue 41.
    KnownFigure { "size", N_("Amount of data"), Unit::Bytes },
    KnownFigure { common_keys::passes, N_("Passes"), Unit::Plain },
    KnownFigure { common_keys::temperature_max_c, N_("Hottest"), Unit::Celsius },
    KnownFigure { "temperature_min_c", N_("Coolest"), Unit::Celsius },
    KnownFigure { sustained_write_keys::burst_mb_s, N_("Burst speed"), Unit::MegabytesPerSecond },
    KnownFigure { sustained_write_keys::steady_mb_s, N_("Steady speed"), Unit::MegabytesPerSecond },
    KnownFigure { steady_keys::steady_iops, N_("Steady IOPS"), Unit::Iops },
    KnownFigure { steady_keys::fresh_iops, N_("Fresh IOPS"), Unit::Iops },
    KnownFigure { steady_keys::fresh_mb_s, N_("Fresh speed"), Unit::MegabytesPerSecond },
    KnownFigure { steady_keys::rounds, N_("Rounds"), Unit::Plain },
    KnownFigure { steady_keys::steady_first_round, N_("Window from round"), Unit::Plain },
    KnownFigure { steady_keys::precondition_bytes, N_("Preconditioned"), Unit::Bytes },
    KnownFigure { steady_keys::precondition_mb_s, N_("Preconditioning speed"), Unit::MegabytesPerSecond },
    KnownFigure { steady_keys::precondition_seconds, N_("Preconditioning time"), Unit::Seconds },
    KnownFigure { steady_keys::purge_seconds, N_("Purge time"), Unit::Seconds },
};

// What the checks lines and the device line say already, and bookkeeping
// a reader has no use for in a table (all of it stays in the JSON).
constexpr std::array hidden {
    common_keys::checked_device,      common_keys::issued_read_bytes,      common_keys::issued_write_bytes,
    common_keys::device_read_bytes,   common_keys::device_write_bytes,     common_keys::foreign_read_bytes,
    common_keys::foreign_write_bytes, common_keys::cross_check_phases,     common_keys::backing_device,
    common_keys::backing_read_bytes,  common_keys::backing_write_bytes,    common_keys::backing_cached_percent,
    common_keys::link,                common_keys::link_limit_mb_s,        common_keys::link_degraded,
    common_keys::stack,               common_keys::io_uring_features,      common_keys::written_range_bytes,
    common_keys::temperature_source,  common_keys::temperature_limit_c,
};

bool ends_with(std::string_view text, std::string_view end)
{
    return text.size() > end.size() && text.substr(text.size() - end.size()) == end;
}

// "seq1m_q8t1" -> "SEQ1M Q8T1".
std::string test_label(std::string_view prefix)
{
    std::string label;
    for (const char c : prefix)
        label += c == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return label;
}

// A key nobody named, in words: "first_lost_offset" -> "First lost offset".
std::string words(std::string_view key)
{
    std::string text(key);
    std::replace(text.begin(), text.end(), '_', ' ');
    if (!text.empty())
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

} // namespace

FigureLabel figure_label(std::string_view key)
{
    FigureLabel figure;
    // A profile test's figures: "seq1m_q8t1.throughput_mb_s".
    if (const auto dot = key.rfind('.'); dot != std::string_view::npos) {
        FigureLabel inner = figure_label(key.substr(dot + 1));
        std::string label = inner.label;
        if (!label.empty())
            label[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(label[0])));
        inner.label = test_label(key.substr(0, dot)) + " " + (inner.unit == Unit::Iops ? inner.label : label);
        return inner;
    }
    if (std::find(hidden.begin(), hidden.end(), key) != hidden.end()
        || key.starts_with("speed_drop_") || key.starts_with("foreign_"))
        figure.shown = false;
    for (std::size_t i = 0; i < known.size(); ++i)
        if (known[i].key == key) {
            figure.label = _(known[i].label);
            figure.unit = known[i].unit;
            figure.order = static_cast<int>(i);
            return figure;
        }
    figure.label = words(key);
    // The unit from the key's end, the daemon's naming rule (docs/api-rules.md).
    if (ends_with(key, "_bytes") || ends_with(key, "_offset") || ends_with(key, "_block") || ends_with(key, "_spacing"))
        figure.unit = Unit::Bytes;
    else if (ends_with(key, "_mb_s"))
        figure.unit = Unit::MegabytesPerSecond;
    else if (ends_with(key, "_us"))
        figure.unit = Unit::Microseconds;
    else if (ends_with(key, "_files_s") || ends_with(key, "_ops_s"))
        figure.unit = Unit::OperationsPerSecond;
    else if (ends_with(key, "_ms"))
        figure = { figure.label, Unit::Microseconds, 1000, false, figure.shown };
    else if (ends_with(key, "_s"))
        figure.unit = Unit::Seconds;
    else if (ends_with(key, "_c"))
        figure.unit = Unit::Celsius;
    else if (ends_with(key, "_percent"))
        figure.percent = true;
    else if (ends_with(key, "_iops"))
        figure.unit = Unit::Iops;
    // The word for the unit goes, the value says it: "Slowest read ms" ->
    // "Slowest read".
    for (const std::string_view unit : { " bytes", " mb s", " us", " ms", " s", " c", " percent", " iops" })
        if (figure.label.size() > unit.size() && figure.label.ends_with(unit)) {
            figure.label.erase(figure.label.size() - unit.size());
            break;
        }
    return figure;
}

std::string figure_value_text(const FigureLabel& label, double value)
{
    if (label.percent)
        return printf_text("%.1f %%", value);
    if (label.unit == Unit::Bytes && value >= 1024 && value < 1.8e19) { // no cast past what fits
        const std::unique_ptr<gchar, decltype(&g_free)> text(
            g_format_size_full(static_cast<guint64>(value), G_FORMAT_SIZE_IEC_UNITS), g_free);
        return text.get();
    }
    return format_value(value * label.scale, label.unit);
}

} // namespace diskbench::client
