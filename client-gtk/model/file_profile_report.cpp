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

FileProfileFigures figures(const SavedResult& result, const std::string& key, const char* direction,
                           std::size_t index)
{
    const std::string prefix = key + "." + direction + "_";
    FileProfileFigures f;
    f.mb_s = summary_number(result.summary, prefix + "mb_s");
    if (!f.mb_s)
        f.mb_s = point_at_test(result.series, direction, index);
    f.iops = summary_number(result.summary, prefix + "iops");
    f.mean_us = summary_number(result.summary, prefix + "latency_mean_us");
    f.p50_us = summary_number(result.summary, prefix + "latency_p50_us");
    f.p99_us = summary_number(result.summary, prefix + "latency_p99_us");
    f.p99_9_us = summary_number(result.summary, prefix + "latency_p99_9_us");
    return f;
}

} // namespace

std::vector<std::string> file_profile_tests(const SavedValueMap& parameters, const SavedValueMap& summary)
{
    const std::string reported = text_of(summary, "tests");
    if (!reported.empty())
        return split_profile_tests(reported);
    // CrystalDiskMark's test mode (`select`): the mixed test alone, the
    // listed tests alone, or both.
    const std::string select = text_of(parameters, "select", "read-write");
    std::vector<std::string> tests;
    if (select != "mix")
        tests = split_profile_tests(profile_tests_of(parameters));
    // The daemon's default mixed test unless the run says otherwise.
    const auto mix = parameters.find("mix");
    const std::string mix_test = mix == parameters.end() ? "RND4K Q1T1" : text_of(parameters, "mix");
    if (!mix_test.empty() && (select == "read-write" || select == "mix"))
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

} // namespace diskbench::client
