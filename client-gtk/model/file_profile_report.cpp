// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_profile_report.hpp"

#include "results/job_result.hpp"
#include "types/saved_values.hpp"
#include "text/value_format.hpp"

#include <glib/gi18n-lib.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace diskbench::client {

namespace {

// "SEQ1M Q8T1" -> "seq1m_q8t1", "MIX RND4K Q1T1" -> "mix": the daemon's
// summary prefix of a test (engine/benchmarks/file_profile.cpp).
std::string summary_key(const std::string& test)
{
    if (test.starts_with("MIX"))
        return "mix";
    std::string key;
    for (const char c : test)
        key += c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return key;
}

std::optional<double> summary_number(const SavedValueMap& summary, const std::string& key)
{
    if (summary.find(key) == summary.end())
        return std::nullopt;
    return number_of(summary, key.c_str(), 0);
}

std::optional<double> point_at(const SavedResult& result, const char* series, std::size_t index)
{
    for (const SavedSeries& s : result.series)
        if (s.name == series)
            for (const SeriesPoint& point : s.points)
                if (static_cast<std::size_t>(point.x) == index)
                    return point.y;
    return std::nullopt;
}

FileProfileFigures figures(const SavedResult& result, const std::string& key, const char* direction,
                           std::size_t index)
{
    const std::string prefix = key + "." + direction + "_";
    FileProfileFigures f;
    f.mb_s = summary_number(result.summary, prefix + "mb_s");
    if (!f.mb_s)
        f.mb_s = point_at(result, direction, index);
    f.iops = summary_number(result.summary, prefix + "iops");
    f.p50_us = summary_number(result.summary, prefix + "latency_p50_us");
    f.p99_us = summary_number(result.summary, prefix + "latency_p99_us");
    f.p99_9_us = summary_number(result.summary, prefix + "latency_p99_9_us");
    return f;
}

std::string figure(const std::optional<double>& value, const char* format_text = "{:.2f}")
{
    return value ? fmt::format(fmt::runtime(format_text), *value) : std::string("-");
}

} // namespace

std::string byte_size_text(std::uint64_t bytes)
{
    return format_value(static_cast<double>(bytes), Unit::Bytes);
}

std::vector<std::string> file_profile_tests(const SavedValueMap& parameters, const SavedValueMap& summary)
{
    const std::string reported = text_of(summary, "tests");
    if (!reported.empty())
        return split_profile_tests(reported);
    std::vector<std::string> tests = split_profile_tests(profile_tests_of(parameters));
    // The daemon's default mixed test unless the run says otherwise.
    const auto mix = parameters.find("mix");
    const std::string mix_test = mix == parameters.end() ? "RND4K Q1T1" : text_of(parameters, "mix");
    if (!mix_test.empty())
        tests.push_back("MIX " + mix_test);
    return tests;
}

std::vector<FileProfileRow> file_profile_rows(const SavedResult& result)
{
    std::vector<FileProfileRow> rows;
    const std::vector<std::string> tests = file_profile_tests(result.parameters, result.summary);
    for (std::size_t i = 0; i < tests.size() && i < 64; ++i) {
        const std::string key = summary_key(tests[i]);
        rows.push_back({ tests[i], figures(result, key, "read", i), figures(result, key, "write", i) });
    }
    return rows;
}

std::string file_profile_settings(const SavedValueMap& parameters, const SavedValueMap& summary)
{
    const std::int64_t size = integer_of(summary, "file_size_bytes", integer_of(parameters, "file_size", 1 << 30));
    const std::string data = text_of(summary, "data", text_of(parameters, "data", "random"));
    std::string text = fmt::format(fmt::runtime(_("test file {}, {} data, {} s per test after {} s warm-up")),
                                   byte_size_text(static_cast<std::uint64_t>(size)),
                                   data == "zeros" ? _("zero") : _("random"),
                                   number_of(parameters, "duration_s", 5), number_of(parameters, "warmup_s", 1));
    if (const std::int64_t passes = integer_of(parameters, "passes", 0); passes > 0)
        text += fmt::format(fmt::runtime(_(", passes: {}")), passes);
    if (const auto mix = parameters.find("mix"); mix == parameters.end() || !text_of(parameters, "mix").empty())
        text += fmt::format(fmt::runtime(_(", mix {} % reads")), integer_of(parameters, "mix_read_percent", 70));
    if (summary.find("direct_io") != summary.end())
        text += boolean_of(summary, "direct_io", true) ? _(", direct I/O") : _(", through the page cache");
    return text;
}

std::string file_profile_report(const SavedResult& result)
{
    std::string text = fmt::format("{}: {}\n", _("Disk Benchmark"), _("Profiles in a folder (file-profile)"));
    const auto line = [&](const char* label, const std::string& value) {
        if (!value.empty())
            text += fmt::format("{:<12} {}\n", std::string(label) + ":", value);
    };
    line(_("Folder"), result.target);
    std::string device = text_of(result.device_info, "node");
    if (const std::string model = text_of(result.device_info, "model"); !model.empty())
        device += (device.empty() ? "" : " ") + std::string("(") + model + ")";
    line(_("Device"), device);
    line(_("Filesystem"), text_of(result.device_info, "filesystem_type"));
    line(_("Date"), result_date_text(result.finished_at_us ? result.finished_at_us : result.started_at_us));
    line(_("Settings"), file_profile_settings(result.parameters, result.summary));
    line(_("Kernel"), text_of(result.device_info, "kernel"));
    text += "\n";

    // MB/s = 10^6 bytes per second, as CrystalDiskMark; latencies in µs.
    text += fmt::format("{:<16} {:>10} {:>10} {:>10} {:>10} {:>26} {:>26}\n", _("Test"), _("Read MB/s"),
                        _("Write MB/s"), _("Read IOPS"), _("Write IOPS"), _("Read p50/p99/p99.9 µs"),
                        _("Write p50/p99/p99.9 µs"));
    const auto latency = [](const FileProfileFigures& f) {
        return f.p50_us ? fmt::format("{:.0f}/{:.0f}/{:.0f}", *f.p50_us, f.p99_us.value_or(0), f.p99_9_us.value_or(0))
                        : std::string("-");
    };
    for (const FileProfileRow& row : file_profile_rows(result))
        text += fmt::format("{:<16} {:>10} {:>10} {:>10} {:>10} {:>26} {:>26}\n", row.test, figure(row.read.mb_s),
                            figure(row.write.mb_s), figure(row.read.iops, "{:.0f}"), figure(row.write.iops, "{:.0f}"),
                            latency(row.read), latency(row.write));
    for (const std::string& warning : result.warnings)
        text += fmt::format("\n{}: {}", _("Warning"), warning);
    if (!result.warnings.empty())
        text += "\n";
    return text;
}

} // namespace diskbench::client
