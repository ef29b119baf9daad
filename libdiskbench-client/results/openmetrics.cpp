// SPDX-License-Identifier: GPL-3.0-or-later
#include "openmetrics.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/job_states.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/profile.hpp"
#include "kinds/presentation_registry.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace profile_keys = contract::kinds::keys::profile;

namespace {

struct Family {
    const char* name;
    const char* type; // gauge or summary
    const char* unit; // "" for none
    const char* help;
};

// Every family, in the order they are written.
constexpr Family run_timestamp { "diskbench_run_timestamp_seconds", "gauge", "seconds",
                                 "When the run ended, in seconds since the Unix epoch." };
constexpr Family run_duration { "diskbench_run_duration_seconds", "gauge", "seconds", "How long the run took." };
constexpr Family throughput { "diskbench_throughput_bytes_per_second", "gauge", "bytes_per_second",
                              "Data moved per second, by test and operation." };
constexpr Family iops { "diskbench_iops", "gauge", "", "I/O operations per second, by test and operation." };
constexpr Family latency { "diskbench_latency_seconds", "summary", "seconds",
                           "Time one I/O took: quantiles 0.5, 0.99 and 0.999." };
constexpr Family latency_mean { "diskbench_latency_mean_seconds", "gauge", "seconds", "Mean time one I/O took." };
constexpr Family pass_cv { "diskbench_pass_cv_ratio", "gauge", "ratio",
                           "How much a figure varied across repeated passes (coefficient of variation)." };
constexpr Family warnings { "diskbench_check_warnings", "gauge", "",
                            "Warnings of the run's self-checks, by check (cache, foreign_io, link, spread, "
                            "temperature, other)." };
constexpr Family temperature { "diskbench_drive_temperature_celsius", "gauge", "celsius",
                               "The drive's highest temperature during the run." };
constexpr Family temperature_limit { "diskbench_drive_temperature_limit_celsius", "gauge", "celsius",
                                     "The drive's own warning threshold, where its sensor has one." };
// The drive's health when the run started (Job.DeviceInfo smart_*/nvme_*).
constexpr Family drive_failing { "diskbench_drive_health_failing", "gauge", "",
                                 "1 when the drive predicted its own failure (ATA SMART) or set an NVMe critical "
                                 "warning when the run started, else 0." };
constexpr Family nvme_critical_warning { "diskbench_drive_nvme_critical_warning", "gauge", "",
                                         "The NVMe health log's critical warning bits (0: none)." };
constexpr Family nvme_media_errors { "diskbench_drive_nvme_media_errors", "gauge", "",
                                     "Media and data integrity errors the NVMe drive counted in its life." };
constexpr Family nvme_percentage_used { "diskbench_drive_nvme_used_ratio", "gauge", "ratio",
                                        "The NVMe drive's estimate of its life used (1: all; may exceed 1)." };
constexpr Family nvme_available_spare { "diskbench_drive_nvme_available_spare_ratio", "gauge", "ratio",
                                        "The NVMe drive's spare capacity left." };
constexpr Family smart_bad_sectors { "diskbench_drive_smart_bad_sectors", "gauge", "",
                                     "Reallocated and pending sectors of the ATA drive (SMART 5 + 197)." };
constexpr Family device_info { "diskbench_device_info", "gauge", "",
                               "What the run was on: link and storage stack (value 1)." };
// What `diskbenchctl scheduled` adds about itself.
constexpr Family scheduled_last_run { "diskbench_scheduled_last_run_timestamp_seconds", "gauge", "seconds",
                                      "When the last scheduled run ended, in seconds since the Unix epoch." };
constexpr Family scheduled_skipped { "diskbench_scheduled_skipped", "gauge", "",
                                     "Devices the last scheduled run did not measure (value 1), by reason: busy "
                                     "(in use by someone else), failed (the run failed)." };
constexpr Family scheduled_busy { "diskbench_scheduled_busy_ratio", "gauge", "ratio",
                                  "How busy the device was in the quiet rule's window before the scheduled run "
                                  "(share of the time with I/O in flight)." };
constexpr const Family* families[] { &run_timestamp, &run_duration, &throughput, &iops, &latency, &latency_mean,
                                     &pass_cv, &warnings, &temperature, &temperature_limit, &drive_failing,
                                     &nvme_critical_warning, &nvme_media_errors, &nvme_percentage_used,
                                     &nvme_available_spare, &smart_bad_sectors, &device_info,
                                     &scheduled_last_run, &scheduled_skipped, &scheduled_busy };

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
    const Family* family;
    Labels labels;
    double value;
};

std::string label_text(const Labels& labels)
{
    std::string text;
    for (const auto& [name, value] : labels)
        text += fmt::format("{}{}=\"{}\"", text.empty() ? "" : ",", name, escape_label_value(value));
    return text;
}

// Numbers as Go's strconv would parse them: shortest round trip; NaN and
// infinities spelled as both formats want.
std::string number_text(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    return fmt::format("{}", value);
}

// The operation a kind's plain figures are about.
std::string default_op(std::string_view kind)
{
    if (const KindPresentation* presentation = kind_presentation(kind); presentation && presentation->metrics_op)
        return presentation->metrics_op;
    return contract::kinds::writes_device(kind) ? "write" : "read";
}

// "seq1m_q8t1" (a summary key's prefix) -> "SEQ1M Q8T1", the test as the
// app and CrystalDiskMark name it.
std::string test_label(std::string_view prefix)
{
    std::string label;
    for (char c : prefix)
        label += c == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return label;
}

// The warning's check, by its catalogue id (contract/messages.cpp).
std::string check_of(std::string_view id)
{
    static const std::pair<std::string_view, const char*> prefixes[] {
        { "speed-drop-throttling", "temperature" },
        { "speed-drop-cache", "cache" },
        { "loop-page-cache", "cache" },
        { "loop-backing", "cache" },
        { "device-served-reads", "cache" },
        { "device-absorbed-writes", "cache" },
        { "files-stayed-cached", "cache" },
        { "cross-check-memory-fs", "cache" },
        { "foreign-io", "foreign_io" },
        { "link-", "link" },
        { "rotating-impossible", "link" },
        { "passes-varied", "spread" },
        { "write-speed-unsettled", "spread" },
    };
    for (const auto& [prefix, check] : prefixes)
        if (id.starts_with(prefix))
            return check;
    return "other";
}

struct FigureName {
    std::string test, op, rest; // rest: the key without its test prefix and op
};

// "seq1m_q8t1.read_latency_p99_us" -> { "SEQ1M Q8T1", "read", "latency_p99_us" };
// "read_mb_s" (file-rw) -> { "", "read", "throughput_mb_s" }; a key of no
// test ("latency_p50_us" of seek) has test "" and the kind's operation.
FigureName split_key(const std::string& key, std::string_view kind)
{
    FigureName figure;
    std::string name = key;
    if (const auto dot = key.rfind('.'); dot != std::string::npos) {
        figure.test = test_label(std::string_view(key).substr(0, dot));
        name = key.substr(dot + 1);
    }
    figure.op = default_op(kind);
    for (const std::string_view op : { "read_", "write_" }) {
        if (name.starts_with(op)) {
            figure.op = std::string(op.substr(0, op.size() - 1));
            name = name.substr(op.size());
        }
    }
    // file-rw's "read_mb_s" is a throughput like profile's "throughput_mb_s".
    if (name.starts_with("mb_s"))
        name = "throughput_" + name;
    figure.rest = name;
    return figure;
}

void add_result(const SavedResult& result, std::vector<Sample>& out)
{
    const Labels base {
        { "device", metrics_device_label(result) },
        { "model", text_of(result.device_info, "model") },
        { "serial", text_of(result.device_info, "serial") },
        { "kind", result.kind },
    };
    const auto with = [&](Labels extra) {
        Labels labels = base;
        labels.insert(labels.end(), extra.begin(), extra.end());
        return labels;
    };
    out.push_back({ &run_timestamp, base, static_cast<double>(result.finished_at_us) / 1e6 });
    if (result.finished_at_us > result.started_at_us && result.started_at_us > 0)
        out.push_back({ &run_duration, base,
                        static_cast<double>(result.finished_at_us - result.started_at_us) / 1e6 });

    static const std::pair<std::string_view, const char*> quantiles[] {
        { common_keys::latency_p50_us, "0.5" },
        { common_keys::latency_p99_us, "0.99" },
        { common_keys::latency_p99_9_us, "0.999" },
    };
    // The figures of any kind or test (split_key's rest): the profile's
    // names, which the others' are made to read as.
    static const std::string throughput_cv
        = common_keys::spread_key(profile_keys::throughput_mb_s, common_keys::spread_cv_percent_suffix);
    static const std::string iops_cv
        = common_keys::spread_key(profile_keys::iops, common_keys::spread_cv_percent_suffix);
    for (const auto& [key, value] : result.summary) {
        const std::optional<double> number = as_number(value);
        if (!number || !std::isfinite(*number))
            continue;
        const FigureName f = split_key(key, result.kind);
        const Labels labels = with({ { "test", f.test }, { "op", f.op } });
        if (f.rest == profile_keys::throughput_mb_s)
            out.push_back({ &throughput, labels, *number * 1e6 }); // MB/s of 10^6 bytes (IoRunStats)
        else if (f.rest == profile_keys::iops)
            out.push_back({ &iops, labels, *number });
        else if (f.rest == common_keys::latency_mean_us)
            out.push_back({ &latency_mean, labels, *number / 1e6 });
        else if (f.rest == throughput_cv || f.rest == iops_cv)
            out.push_back({ &pass_cv, with({ { "test", f.test }, { "op", f.op },
                                             { "figure", f.rest.substr(0, f.rest.find("_cv")) } }),
                            *number / 100 });
        for (const auto& [quantile_key, quantile] : quantiles)
            if (f.rest == quantile_key)
                out.push_back({ &latency, with({ { "test", f.test }, { "op", f.op }, { "quantile", quantile } }),
                                *number / 1e6 });
    }

    std::map<std::string, int> counts { { "cache", 0 }, { "foreign_io", 0 }, { "link", 0 },
                                        { "spread", 0 }, { "temperature", 0 }, { "other", 0 } };
    for (const auto& message : result.warning_messages)
        ++counts[check_of(message.id)];
    // Files written before the catalogue (API 0.5) have texts only.
    if (result.warning_messages.empty())
        counts["other"] += static_cast<int>(result.warnings.size());
    for (const auto& [check, count] : counts)
        out.push_back({ &warnings, with({ { "check", check } }), static_cast<double>(count) });

    if (const double max_c = number_of(result.summary, common_keys::temperature_max_c, NAN);
        std::isfinite(max_c) && max_c > 0)
        out.push_back({ &temperature, base, max_c });
    if (const double limit_c = number_of(result.summary, common_keys::temperature_limit_c, NAN);
        std::isfinite(limit_c) && limit_c > 0)
        out.push_back({ &temperature_limit, base, limit_c });
    const SavedValueMap& info = result.device_info;
    if (info.count("smart_failing"))
        out.push_back({ &drive_failing, base, boolean_of(info, "smart_failing", false) ? 1.0 : 0.0 });
    if (info.count("nvme_critical_warning")) {
        out.push_back({ &nvme_critical_warning, base, number_of(info, "nvme_critical_warning", 0) });
        out.push_back({ &nvme_media_errors, base, number_of(info, "nvme_media_errors", 0) });
        out.push_back({ &nvme_percentage_used, base, number_of(info, "nvme_percentage_used", 0) / 100 });
        out.push_back({ &nvme_available_spare, base, number_of(info, "nvme_available_spare_percent", 0) / 100 });
    }
    if (info.count("smart_bad_sectors"))
        out.push_back({ &smart_bad_sectors, base, number_of(info, "smart_bad_sectors", 0) });
    out.push_back({ &device_info,
                    with({ { "link", text_of(result.device_info, "link") },
                           { "stack", text_of(result.device_info, "stack_line") } }),
                    1 });
}

} // namespace

std::string escape_label_value(std::string_view value)
{
    gchar* valid = g_utf8_make_valid(value.data(), static_cast<gssize>(value.size()));
    const std::string text = valid ? valid : "";
    g_free(valid);
    std::string escaped;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        // U+0080..U+009F, C2 80..C2 9F: valid UTF-8 already.
        const bool c1 = byte == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
        if (c == '\\')
            escaped += "\\\\";
        else if (c == '"')
            escaped += "\\\"";
        else if (c == '\n')
            escaped += "\\n";
        else if (byte < 0x20 || byte == 0x7F)
            escaped += fmt::format("\\\\x{:02x}", byte); // the text \x1b, its backslash escaped
        else if (c1)
            escaped += fmt::format("\\\\xc2\\\\x{:02x}", static_cast<unsigned char>(text[++i]));
        else
            escaped += c;
    }
    return escaped;
}

std::string metrics_device_label(const SavedResult& result)
{
    if (std::string by_id = text_of(result.device_info, "by_id"); !by_id.empty())
        return by_id;
    if (std::string wwn = text_of(result.device_info, "wwn"); !wwn.empty())
        return "wwn-" + wwn;
    if (const std::string node = text_of(result.device_info, "node"); !node.empty())
        return node.substr(node.find_last_of('/') + 1);
    return result.target;
}

std::string metrics_device_label(const DeviceEntry& device)
{
    if (!device.by_id.empty())
        return device.by_id;
    if (!device.wwn.empty())
        return "wwn-" + device.wwn;
    return device.name;
}

std::string openmetrics_text(const std::vector<SavedResult>& results, const ScheduledRun* scheduled)
{
    // The newest result per device and kind.
    std::map<std::pair<std::string, std::string>, const SavedResult*> newest;
    for (const auto& result : results) {
        // A cancelled run's figures cover part of it only.
        if (result.state != contract::job_states::finished)
            continue;
        const SavedResult*& kept = newest[{ metrics_device_label(result), result.kind }];
        if (!kept || result.finished_at_us > kept->finished_at_us)
            kept = &result;
    }
    std::vector<Sample> samples;
    for (const auto& [key, result] : newest)
        add_result(*result, samples);
    if (scheduled) {
        samples.push_back({ &scheduled_last_run, {}, scheduled->ended_at });
        for (const ScheduledDevice& device : scheduled->devices) {
            const Labels labels { { "device", device.device }, { "model", device.model }, { "serial", device.serial } };
            if (device.busy_ratio)
                samples.push_back({ &scheduled_busy, labels, *device.busy_ratio });
            if (!device.skipped.empty()) {
                Labels skipped = labels;
                skipped.emplace_back("reason", device.skipped);
                samples.push_back({ &scheduled_skipped, skipped, 1 });
            }
        }
    }

    std::string text;
    for (const Family* family : families) {
        std::string lines;
        for (const auto& sample : samples)
            if (sample.family == family)
                lines += sample.labels.empty()
                    ? fmt::format("{} {}\n", family->name, number_text(sample.value))
                    : fmt::format("{}{{{}}} {}\n", family->name, label_text(sample.labels), number_text(sample.value));
        if (lines.empty())
            continue;
        text += fmt::format("# HELP {} {}\n# TYPE {} {}\n", family->name, family->help, family->name, family->type);
        if (*family->unit)
            text += fmt::format("# UNIT {} {}\n", family->name, family->unit);
        text += lines;
    }
    return text + "# EOF\n";
}

} // namespace diskbench::client
