// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/latency_text.hpp"

#include "text/value_format.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"
#include "contract/kinds/common_keys.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;

namespace {

struct LatencyFigure {
    std::string_view key; // after the prefix
    const char* label; // N_() marked; the percentile names stay as they are in most languages
    bool percentile;
};

// TRANSLATORS: latency figures of a run: the mean, the fastest, the slowest
// read and the percentiles (p99.9: 999 of 1000 reads were at least this fast).
constexpr LatencyFigure figures[] = {
    { common_keys::latency_mean_us, N_("mean"), false }, { common_keys::latency_min_us, N_("min"), false },
    { common_keys::latency_p50_us, N_("p50"), true },    { common_keys::latency_p90_us, N_("p90"), false },
    { common_keys::latency_p99_us, N_("p99"), true },    { common_keys::latency_p99_9_us, N_("p99.9"), true },
    { common_keys::latency_max_us, N_("max"), false },
};

} // namespace

std::optional<std::string> access_time_headline(const SavedValueMap& summary)
{
    const double mean_us = number_of(summary, common_keys::latency_mean_us, NAN);
    if (!std::isfinite(mean_us) || mean_us < 0)
        return std::nullopt;
    // Always in milliseconds, as the access time of disks is quoted
    // (GNOME Disks: "Average Access Time 12.34 msec"); two decimals keep an
    // SSD's 0.08 ms from reading as zero.
    /* TRANSLATORS: Seek's headline; %.2f is the mean access time in milliseconds */
    return printf_text(_("average access time %.2f ms"), mean_us / 1000.0);
}

std::vector<std::string> percentile_parts(const SavedValueMap& summary, const std::string& prefix)
{
    std::vector<std::string> parts;
    for (const LatencyFigure& figure : figures) {
        if (!figure.percentile)
            continue;
        const double value = number_of(summary, common_keys::latency_key(prefix, figure.key), NAN);
        if (std::isfinite(value))
            parts.push_back(std::string(_(figure.label)) + " " + format_value(value, Unit::Microseconds));
    }
    return parts;
}

std::string latency_tooltip_text(const SavedValueMap& summary, const std::string& prefix)
{
    std::string text;
    for (const LatencyFigure& figure : figures) {
        const double value = number_of(summary, common_keys::latency_key(prefix, figure.key), NAN);
        if (std::isfinite(value))
            text += (text.empty() ? "" : "\n") + std::string(_(figure.label)) + " " + format_value(value, Unit::Microseconds);
    }
    return text;
}

} // namespace diskbench::client
