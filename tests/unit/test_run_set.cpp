// SPDX-License-Identifier: GPL-3.0-or-later
// Sets of runs (libdiskbench-client/results/run_set): what a set name asks
// for and what is refused, the one result file a session becomes (its runs
// as members, read back whole), its state, title and headline; the kept
// results finding a set's runs by kind; a set as text and as CSV.
#include "results/recent_results.hpp"
#include "results/result_csv.hpp"
#include "results/result_report.hpp"
#include "results/run_set.hpp"
#include "contract/result_file.hpp"

#include <catch2/catch.hpp>
#include <glib.h>

#include <filesystem>

using namespace diskbench;
using namespace diskbench::client;

namespace {

std::vector<BenchmarkInfo> offered()
{
    std::vector<BenchmarkInfo> kinds;
    for (const char* kind : { "overview", "seek", "random", "sequential", "surface", "block", "profile", "qd-sweep" })
        kinds.push_back({ kind, "device", kind, "", {} });
    for (const char* kind : { "device-write", "sustained-write" })
        kinds.push_back({ kind, "device-write", kind, "", {} });
    kinds.push_back({ "file-rw", "directory", "file-rw", "", {} });
    return kinds;
}

RunSetPlan plan(const std::string& name, const std::vector<std::string>& custom = {})
{
    auto planned = plan_run_set(name, offered(), custom);
    if (const auto* error = std::get_if<std::string>(&planned))
        FAIL("refused: " << *error);
    return std::get<RunSetPlan>(planned);
}

std::string refusal(const std::string& name, const std::vector<std::string>& custom = {})
{
    auto planned = plan_run_set(name, offered(), custom);
    REQUIRE(std::holds_alternative<std::string>(planned));
    return std::get<std::string>(planned);
}

SavedResult run(const std::string& kind, std::int64_t started_s, const std::string& state = "finished")
{
    SavedResult result;
    result.kind = kind;
    result.state = state;
    result.backend = "io_uring";
    result.target = "/org/diskbench/DiskBench1/devices/loop0";
    result.started_at_us = started_s * 1'000'000;
    result.finished_at_us = result.started_at_us + 2'000'000;
    result.device_info = { { "node", std::string("/dev/loop0") }, { "serial", std::string("S1") } };
    if (kind == "seek")
        result.summary = { { "reads", std::int64_t { 3 } }, { "latency_mean_us", 8500.0 } };
    else
        result.summary = { { "read_mb_s", 512.0 } };
    result.series = { { kind == "seek" ? "latency" : "read", "B", kind == "seek" ? "us" : "MB/s", "scatter",
                        { { 0, 1.5 }, { 4096, 2.5 } } } };
    return result;
}

struct TempDir {
    std::string path;
    TempDir()
    {
        gchar* made = g_dir_make_tmp("diskbench-run-set-XXXXXX", nullptr);
        REQUIRE(made);
        path = made;
        g_free(made);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

} // namespace

TEST_CASE("a set name gives its benchmarks in order", "[cli]")
{
    CHECK(plan("quick").kinds == std::vector<std::string> { "overview", "profile" });
    CHECK(plan("full-read").kinds
          == std::vector<std::string> { "seek", "random", "sequential", "block", "profile", "qd-sweep" });
    CHECK(plan("custom", { "surface", "seek" }).kinds == std::vector<std::string> { "surface", "seek" });
    const RunSetPlan listed = plan("seek, random");
    CHECK(listed.kinds == std::vector<std::string> { "seek", "random" });
    CHECK(listed.name == "seek, random");
    CHECK(run_set_candidates(offered())
          == std::vector<std::string> { "overview", "seek", "random", "sequential", "surface", "block", "profile",
                                        "qd-sweep" });
}

TEST_CASE("a set that is empty, repeats, writes or names nothing known is refused", "[cli]")
{
    CHECK(refusal("") == "A set needs at least one benchmark.");
    CHECK(refusal(",,") == "A set needs at least one benchmark.");
    CHECK(refusal("custom").find("No custom set is kept yet") == 0);
    CHECK(refusal("seek,random,seek") == "“seek” is named twice in the set.");
    CHECK(refusal("seek,nope").find("There is no benchmark “nope”") == 0);
    CHECK(refusal("device-write").find("“device-write” cannot be in a set") == 0);
    CHECK(refusal("custom", { "seek", "sustained-write" }).find("“sustained-write” cannot be in a set") == 0);
    CHECK(refusal("file-rw").find("“file-rw” cannot be in a set") == 0);
    // A preset the daemon does not offer whole (an older daemon) is refused too.
    std::vector<BenchmarkInfo> old = offered();
    old.erase(old.begin()); // no overview
    CHECK(std::holds_alternative<std::string>(plan_run_set("quick", old, {})));
}

TEST_CASE("a session is one result with its runs as members, read back whole", "[cli]")
{
    const RunSetPlan quick = plan("full-read");
    const SavedResult set = run_set_result(quick, 5, { run("seek", 100), run("random", 107) });
    CHECK(set.kind == "run-set");
    CHECK(set.state == "cancelled"); // 2 of 6 ran
    CHECK(set.started_at_us == 100'000'000);
    CHECK(set.finished_at_us == 109'000'000);
    CHECK(set.target == "/org/diskbench/DiskBench1/devices/loop0");
    CHECK(std::get<std::string>(set.device_info.at("node")) == "/dev/loop0");
    CHECK(std::get<std::string>(set.parameters.at("kinds")) == "seek,random,sequential,block,profile,qd-sweep");
    CHECK(std::get<std::int64_t>(set.parameters.at("pause_s")) == 5);
    CHECK(std::get<std::int64_t>(set.summary.at("benchmarks")) == 6);
    CHECK(std::get<std::int64_t>(set.summary.at("finished")) == 2);
    CHECK(set.series.empty());

    const std::string json = contract::result_to_json(set);
    auto loaded = contract::result_from_json(json);
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    CHECK(std::get<SavedResult>(loaded) == set);
    CHECK(std::get<SavedResult>(loaded).members.size() == 2);
    CHECK(contract::result_to_json(std::get<SavedResult>(loaded)) == json);
    // A result without members keeps the layout it had: no "members" key.
    CHECK(contract::result_to_json(run("seek", 1)).find("\"members\"") == std::string::npos);

    SavedResult changed = set;
    changed.members[1].summary["read_mb_s"] = 511.0;
    CHECK_FALSE(changed == set);

    const RunSetPlan both = plan("seek,random");
    CHECK(run_set_result(both, 0, { run("seek", 1), run("random", 4) }).state == "finished");
    CHECK(run_set_result(both, 0, { run("seek", 1), run("random", 4, "cancelled") }).state == "cancelled");
}

TEST_CASE("a set inside a set's member is refused as damaged", "[cli]")
{
    SavedResult inner = run_set_result(plan("seek"), 0, { run("seek", 1) });
    SavedResult outer = run_set_result(plan("seek"), 0, { inner });
    auto loaded = contract::result_from_json(contract::result_to_json(outer));
    REQUIRE(std::holds_alternative<contract::LoadError>(loaded));
    CHECK(std::get<contract::LoadError>(loaded).message.find("has members of its own") != std::string::npos);
    // A member that is not an object.
    std::string json = contract::result_to_json(inner);
    json.replace(json.find("\"members\" : ["), std::string("\"members\" : [").size(), "\"members\" : [ 7, ");
    auto broken = contract::result_from_json(json);
    REQUIRE(std::holds_alternative<contract::LoadError>(broken));
    CHECK(std::get<contract::LoadError>(broken).kind == contract::LoadError::Kind::Corrupt);
}

TEST_CASE("a set's title and headline name its runs", "[cli]")
{
    const SavedResult quick = run_set_result(plan("quick"), 5, { run("overview", 1), run("profile", 9) });
    CHECK(run_set_title(quick) == "Quick set");
    CHECK(run_set_title(run_set_result(plan("custom", { "seek" }), 5, { run("seek", 1) })) == "Custom set");
    CHECK(run_set_title(run_set_result(plan("seek,random"), 5, { run("seek", 1), run("random", 4) }))
          == "Set of Seek, Random");
    const std::string headline = kept_result_headline(quick);
    CHECK(headline.find("Overview read 512 MB/s") == 0);
    CHECK(headline.find("  ·  Profiles") != std::string::npos);
    CHECK(kept_result_headline(run("seek", 1)).find("access time") != std::string::npos);
}

TEST_CASE("the kept results find a set's runs by kind, the set listed once", "[cli]")
{
    TempDir dir;
    RecentResults recent(dir.path);
    std::string error;
    const RunSetPlan both = plan("seek,random");
    SavedResult set = run_set_result(both, 0, { run("seek", 100) });
    const std::string path = recent.add(set, error);
    REQUIRE(error.empty());
    REQUIRE(recent.add(run("seek", 50), error) != "");
    // The set grows run by run, in the same file.
    set = run_set_result(both, 0, { run("seek", 100), run("random", 110) });
    CHECK(recent.update(path, set).empty());
    CHECK(recent.update(dir.path + "/not-kept.json", set) == "This result is no longer kept.");
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1)
            recent.reload(); // the same from the files
        REQUIRE(recent.results().size() == 2);
        const auto seeks = recent.for_kind("seek", run("seek", 1).device_info);
        REQUIRE(seeks.size() == 2);
        CHECK(seeks[0]->path == path); // the set's run, newest first
        CHECK(seeks[0]->result.kind == "seek");
        CHECK(seeks[0]->result.started_at_us == 100'000'000);
        CHECK(seeks[1]->path != path);
        const auto randoms = recent.for_kind("random", {});
        REQUIRE(randoms.size() == 1);
        CHECK(randoms[0]->path == path);
        CHECK(recent.for_kind("run-set", {}).size() == 1);
    }
    std::string contents;
    CHECK(recent.remove(path, contents).empty());
    CHECK(recent.for_kind("random", {}).empty());
    CHECK(recent.for_kind("seek", {}).size() == 1);
}

TEST_CASE("a set as text and as CSV: each run's own, under the set's heading", "[cli]")
{
    const SavedResult set = run_set_result(plan("seek,random"), 5, { run("seek", 100), run("random", 110) });
    const std::string text = result_report(set, [](std::string_view s) { return std::string(s); });
    CHECK(text.find("Set of Seek, Random on /dev/loop0: finished") == 0);
    CHECK(text.find("2 of 2 benchmarks finished, 5 s rest between them\n") != std::string::npos);
    const std::size_t seek = text.find("seek on /dev/loop0: finished");
    const std::size_t random = text.find("random on /dev/loop0: finished");
    CHECK(seek != std::string::npos);
    CHECK(random > seek);
    CHECK(text.find("----------------------------------------\n") < seek);
    std::vector<std::string> names;
    for (const CsvFile& file : result_csv(set))
        names.push_back(file.series);
    CHECK(names == std::vector<std::string> { "seek-latency", "random-read" });
    // Each run's x column named as its kind names it (random: per block size).
    CHECK(result_csv(set)[1].text == "block size (B),read (MB/s)\r\n0,1.5\r\n4096,2.5\r\n");
}
