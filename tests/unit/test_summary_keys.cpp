// SPDX-License-Identifier: GPL-3.0-or-later
// Every summary key the engine writes is declared in the contract
// (dbus-interfaces/contract/kinds/): the kinds are taken from the registry
// and run with quick parameters, and each key of each result must be its
// kind's, the shared code's (common_keys.hpp) or the pass spread of one of
// those. A key misspelt in the engine, or added without its declaration,
// fails here rather than in a client that reads it by another spelling.
#include "benchmark.hpp"
#include "fs_test_support.hpp"
#include "mounts.hpp"
#include "sandbox/fs_scope.hpp"
#include "scratch.hpp"
#include "small_runs.hpp"

#include "contract/kinds/all_keys.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace diskbench;
using namespace diskbench::engine;
using namespace diskbench::testing;
namespace keys = diskbench::contract::kinds::keys;

namespace {

// `dir` holds the device kinds' target file and the caller's folder "home".
Result run_small(const BenchmarkInfo& info, const ScratchDir& dir, const ValueMap& params)
{
    CancelToken cancel;
    if (info.target() == TargetKind::Directory) {
        const auto home = dir.path() / "home";
        FilesystemScope scope(open_directory(home), home.string(), test_caller());
        return run_directory_benchmark(info, scope, validate_request(info, params), nullptr, cancel);
    }
    const auto file = dir.path() / "target";
    const Target target = info.target_for(params) == TargetKind::DeviceWrite ? open_target_for_write(file.string())
                                                                            : open_target_for_read(file.string());
    return run_benchmark(info, target, validate_request(info, params), nullptr, cancel);
}

// The keys of `result`'s summary that its kind does not declare.
std::set<std::string> undeclared_keys(const Result& result)
{
    std::set<std::string> undeclared;
    for (const auto& [key, value] : result.summary)
        if (!keys::declares_summary_key(result.kind, key))
            undeclared.insert(key);
    return undeclared;
}

// "mix.read_percent", as the contract builds it.
std::string mix_read_percent_key()
{
    return keys::per_test::test_key(keys::file_profile::mix_test, keys::file_profile::read_percent);
}

} // namespace

TEST_CASE("every kind's summary keys are declared in its contract descriptor", "[summary-keys]")
{
    ScratchDir dir;
    make_data_file(dir, "target", 16 * MiB);
    make_owned_directory(dir.path(), "home", caller_uid, caller_gid, 0755);
    std::set<std::string> kinds;
    for (const BenchmarkInfo& info : all_benchmarks()) {
        INFO(info.kind);
        kinds.insert(std::string(info.kind));
        if (info.target() == TargetKind::DeviceWrite)
            make_data_file(dir, "target", 16 * MiB); // a write before overwrote it
        const Result result = run_small(info, dir, small_run(info.kind));
        CHECK_FALSE(result.summary.empty());
        CHECK(undeclared_keys(result) == std::set<std::string> {});
    }
    // The registry is what was enumerated, and each of its kinds has a
    // descriptor: a kind added later is covered.
    CHECK(kinds.size() == all_benchmarks().size());
    for (const std::string& kind : kinds) {
        INFO(kind);
        CHECK(keys::descriptor_of(kind) != nullptr);
    }
}

TEST_CASE("the keys of a run's optional parts are declared too", "[summary-keys]")
{
    ScratchDir dir;
    make_data_file(dir, "target", 16 * MiB);
    make_owned_directory(dir.path(), "home", caller_uid, caller_gid, 0755);
    const auto run = [&](std::string_view kind, ValueMap params) {
        const BenchmarkInfo* info = find_benchmark(kind);
        REQUIRE(info);
        return run_small(*info, dir, params);
    };

    SECTION("the overview's writes")
    {
        ValueMap params = small_run("overview");
        params["write"] = true;
        const Result result = run("overview", params);
        CHECK(result.summary.count(std::string(keys::overview::write_mb_s)) == 1);
        CHECK(undeclared_keys(result) == std::set<std::string> {});
    }
    SECTION("the folder profile's mixed test")
    {
        ValueMap params = small_run("file-profile");
        params["mix"] = std::string("RND4K Q1T1");
        const Result result = run("file-profile", params);
        CHECK(result.summary.count(mix_read_percent_key()) == 1);
        CHECK(undeclared_keys(result) == std::set<std::string> {});
    }
    SECTION("the spread of several passes")
    {
        ValueMap params = small_run("seek");
        params["passes"] = std::uint64_t { 2 };
        const Result result = run("seek", params);
        CHECK(result.summary.count(keys::common::spread_key(keys::common::latency_mean_us,
                                                            keys::common::spread_cv_percent_suffix))
              == 1);
        CHECK(undeclared_keys(result) == std::set<std::string> {});
    }
}

TEST_CASE("a key no descriptor declares is found", "[summary-keys]")
{
    // The check above is only as good as this: a misspelling is refused,
    // in a kind's own key, a shared key, a test's figure and a spread.
    CHECK(keys::declares_summary_key("surface", "bad_ranges"));
    CHECK_FALSE(keys::declares_summary_key("surface", "bad_range"));
    CHECK(keys::declares_summary_key("seek", "temperature_max_c"));
    CHECK_FALSE(keys::declares_summary_key("seek", "temperature_maxc"));
    CHECK(keys::declares_summary_key("profile", "rnd4k_q32t16.latency_p99_9_us"));
    CHECK_FALSE(keys::declares_summary_key("profile", "rnd4k_q32t16.latency_p99_8_us"));
    CHECK_FALSE(keys::declares_summary_key("profile", "rnd4k_32t16.iops"));
    CHECK(keys::declares_summary_key("file-profile", "mix.read_percent"));
    CHECK_FALSE(keys::declares_summary_key("file-profile", "seq1m_q1t1.read_percent"));
    CHECK(keys::declares_summary_key("overview", "read_mb_s_cv_percent"));
    CHECK_FALSE(keys::declares_summary_key("overview", "read_mb_s_cv"));
    // A key of another kind is not this kind's.
    CHECK_FALSE(keys::declares_summary_key("seek", "bad_ranges"));
    CHECK_FALSE(keys::declares_summary_key("no-such-kind", "bad_ranges"));
}
