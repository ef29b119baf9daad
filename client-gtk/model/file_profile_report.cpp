// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_profile_report.hpp"

#include "results/job_result.hpp"
#include "types/saved_values.hpp"
#include "text/value_format.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/file_profile.hpp"
#include "contract/kinds/test_keys.hpp"

#include <glib/gi18n-lib.h>

#include <fmt/format.h>

#include <algorithm>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace file_profile_keys = contract::kinds::keys::file_profile;
namespace per_test_keys = contract::kinds::keys::per_test;

namespace {

// "SEQ1M Q8T1" -> "seq1m_q8t1", "MIX RND4K Q1T1" -> "mix": the daemon's
// summary prefix of a test (contract/kinds/file_profile.hpp).
std::string summary_key(const std::string& test)
{
    if (test.starts_with("MIX"))
        return std::string(file_profile_keys::mix_test);
    return per_test_keys::test_name(test);
}

std::optional<double> summary_number(const SavedValueMap& summary, const std::string& key)
{
    if (summary.find(key) == summary.end())
        return std::nullopt;
    return number_of(summary, key.c_str(), 0);
}

// A direction: its series, and its keys' prefix after the test's.
struct Direction {
    const char* series;
    std::string_view key_prefix;
};
constexpr Direction reading { "read", file_profile_keys::read_prefix };
constexpr Direction writing { "write", file_profile_keys::write_prefix };

FileProfileFigures figures(const SavedResult& result, const std::string& test, const Direction& direction,
                           std::size_t index)
{
    const auto number = [&](std::string_view figure) {
        return summary_number(result.summary, file_profile_keys::direction_key(test, direction.key_prefix, figure));
    };
    FileProfileFigures f;
    f.mb_s = number(file_profile_keys::mb_s);
    if (!f.mb_s)
        f.mb_s = point_at_test(result.series, direction.series, index);
    f.iops = number(file_profile_keys::iops);
    f.mean_us = number(common_keys::latency_mean_us);
    f.p50_us = number(common_keys::latency_p50_us);
    f.p99_us = number(common_keys::latency_p99_us);
    f.p99_9_us = number(common_keys::latency_p99_9_us);
    return f;
}

} // namespace

std::vector<std::string> file_profile_tests(const SavedValueMap& parameters, const SavedValueMap& summary)
{
    const std::string reported = text_of(summary, file_profile_keys::tests);
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
        rows.push_back({ tests[i], figures(result, key, reading, i), figures(result, key, writing, i) });
    }
    return rows;
}

} // namespace diskbench::client
