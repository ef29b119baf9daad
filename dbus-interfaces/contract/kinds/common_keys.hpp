// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys that code shared by every kind writes (the engine's
// benchmark_support, passes, storage cross-check and stack, the file
// benchmarks' scratch file, the device writes' mode, the daemon's job for
// temperature and speed drop), declared once; and the rules that build a
// key from a prefix, which the kinds' descriptors (contract/kinds/*.hpp)
// use. Daemon and clients both spell keys through these names, so a key
// misspelt on one side does not compile, and test_summary_keys.cpp fails
// when the engine writes a key nobody declared.

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>

namespace diskbench::contract::kinds::keys {

using KeyList = std::span<const std::string_view>;

constexpr bool listed(KeyList names, std::string_view key) noexcept
{
    return std::find(names.begin(), names.end(), key) != names.end();
}

// `prefix` + `name`: the one way a key with a run-time prefix is built.
inline std::string joined(std::string_view prefix, std::string_view name)
{
    std::string key(prefix);
    key += name;
    return key;
}

// Whether `key` is `prefix` followed by one of `names`.
constexpr bool listed_after(std::string_view prefix, KeyList names, std::string_view key) noexcept
{
    return key.starts_with(prefix) && listed(names, key.substr(prefix.size()));
}

} // namespace diskbench::contract::kinds::keys

namespace diskbench::contract::kinds::keys::common {

// A latency distribution (engine's add_latency_summary), under a prefix a
// kind declares ("" for the run's only one, "access_", "read_", a test's
// "seq1m_q8t1."): the prefix + one of these.
inline constexpr std::string_view latency_mean_us = "latency_mean_us";
inline constexpr std::string_view latency_min_us = "latency_min_us";
inline constexpr std::string_view latency_max_us = "latency_max_us";
inline constexpr std::string_view latency_p50_us = "latency_p50_us";
inline constexpr std::string_view latency_p90_us = "latency_p90_us";
inline constexpr std::string_view latency_p99_us = "latency_p99_us";
inline constexpr std::string_view latency_p99_9_us = "latency_p99_9_us";
inline constexpr std::array latency_figures { latency_mean_us, latency_min_us, latency_max_us, latency_p50_us,
                                              latency_p90_us,  latency_p99_us, latency_p99_9_us };

inline std::string latency_key(std::string_view prefix, std::string_view figure) { return joined(prefix, figure); }

constexpr bool is_latency_key(std::string_view prefix, std::string_view key) noexcept
{
    return listed_after(prefix, latency_figures, key);
}

// A run of several passes (engine's passes.cpp): how many, and beside each
// figure its spread over them, the figure's key + one of these suffixes.
inline constexpr std::string_view passes = "passes";
// How the passes were scored, for the kinds that let one choose
// (profile, file-profile): "median" of the passes, or "best" of them after
// one unscored warm-up pass (CrystalDiskMark's way).
inline constexpr std::string_view scoring = "scoring";
inline constexpr std::string_view spread_min_suffix = "_min";
inline constexpr std::string_view spread_max_suffix = "_max";
inline constexpr std::string_view spread_cv_percent_suffix = "_cv_percent";
inline constexpr std::array spread_suffixes { spread_min_suffix, spread_max_suffix, spread_cv_percent_suffix };

inline std::string spread_key(std::string_view figure, std::string_view suffix) { return joined(figure, suffix); }

// The figure a pass-spread key is about ("read_mb_s" of "read_mb_s_min"),
// or "" when `key` is none.
constexpr std::string_view spread_figure(std::string_view key) noexcept
{
    for (const std::string_view suffix : spread_suffixes)
        if (key.size() > suffix.size() && key.ends_with(suffix))
            return key.substr(0, key.size() - suffix.size());
    return {};
}

// The run's I/O and its target (engine's benchmark.cpp, storage/stack.cpp).
inline constexpr std::string_view io_uring_features = "io_uring_features";
inline constexpr std::string_view filesystem = "filesystem";
inline constexpr std::string_view stack = "stack";

// The block layer's count of the run's I/O (engine's storage/cross_check.cpp).
inline constexpr std::string_view checked_device = "checked_device";
inline constexpr std::string_view cross_check_phases = "cross_check_phases";
inline constexpr std::string_view issued_read_bytes = "issued_read_bytes";
inline constexpr std::string_view issued_write_bytes = "issued_write_bytes";
inline constexpr std::string_view device_read_bytes = "device_read_bytes";
inline constexpr std::string_view device_write_bytes = "device_write_bytes";
inline constexpr std::string_view foreign_read_bytes = "foreign_read_bytes";
inline constexpr std::string_view foreign_write_bytes = "foreign_write_bytes";
inline constexpr std::string_view write_cache = "write_cache";
inline constexpr std::string_view backing_device = "backing_device";
inline constexpr std::string_view backing_read_bytes = "backing_read_bytes";
inline constexpr std::string_view backing_write_bytes = "backing_write_bytes";
inline constexpr std::string_view backing_cached_percent = "backing_cached_percent";
inline constexpr std::string_view link = "link";
inline constexpr std::string_view link_limit_mb_s = "link_limit_mb_s";
inline constexpr std::string_view link_degraded = "link_degraded";

// Writes: "destroy" or "preserve" (device_write_support, and the read kinds
// that write on request), and the span of the device they wrote over.
inline constexpr std::string_view mode = "mode";
inline constexpr std::string_view written_range_bytes = "written_range_bytes";
// When the writes were flushed (device_write_support's SyncRule): "end"
// (one fdatasync at the end of each test, inside its time: fio's
// end_fsync=1), "every" (one each sync_every_bytes: fio's fsync=) or
// "batch" (after each batch: preserve mode, which reads a range before it
// writes it back); and how many fdatasyncs the run made.
inline constexpr std::string_view sync_rule = "sync_rule";
inline constexpr std::string_view sync_every_bytes = "sync_every_bytes";
inline constexpr std::string_view syncs = "syncs";

// The folder kinds' scratch file (engine's file_support.cpp).
inline constexpr std::string_view direct_io = "direct_io";
inline constexpr std::string_view scratch_file = "scratch_file";

// The drive's temperature over the run (daemon's job_object.cpp) and a
// sustained write's fall in speed (daemon's speed_drop.cpp).
inline constexpr std::string_view temperature_source = "temperature_source";
inline constexpr std::string_view temperature_start_c = "temperature_start_c";
inline constexpr std::string_view temperature_max_c = "temperature_max_c";
inline constexpr std::string_view temperature_limit_c = "temperature_limit_c";
inline constexpr std::string_view speed_drop_percent = "speed_drop_percent";
inline constexpr std::string_view speed_drop_c = "speed_drop_c";
inline constexpr std::string_view speed_drop_cause = "speed_drop_cause";

inline constexpr std::array declared_keys {
    latency_mean_us,     latency_min_us,      latency_max_us,      latency_p50_us,
    latency_p90_us,      latency_p99_us,      latency_p99_9_us,    passes,
    io_uring_features,   filesystem,          stack,               checked_device,
    cross_check_phases,  issued_read_bytes,   issued_write_bytes,  device_read_bytes,
    device_write_bytes,  foreign_read_bytes,  foreign_write_bytes, write_cache,
    backing_device,      backing_read_bytes,  backing_write_bytes, backing_cached_percent,
    link,                link_limit_mb_s,     link_degraded,       mode,
    written_range_bytes, direct_io,           scratch_file,        temperature_source,
    temperature_start_c, temperature_max_c,   temperature_limit_c, speed_drop_percent,
    speed_drop_c,        speed_drop_cause,    sync_rule,           sync_every_bytes,
    syncs,               scoring,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::common
