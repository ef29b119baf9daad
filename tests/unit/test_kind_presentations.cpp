// SPDX-License-Identifier: GPL-3.0-or-later
// The client library's presentation of each kind (libdiskbench-client/kinds/):
// one for every kind the daemon has, each headline figure a key its kind's
// descriptor declares, and the common text for a kind the client lacks.
#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/all_keys.hpp"
#include "kinds/presentation_registry.hpp"
#include "results/result_csv.hpp"
#include "text/headline_text.hpp"
#include "text/kind_titles.hpp"
#include "text/progress_text.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace diskbench;
using namespace diskbench::client;

TEST_CASE("kind presentations: one for every kind, none for a kind the daemon lacks", "[client-model]")
{
    std::set<std::string_view> presented;
    for (const KindPresentation* presentation : kind_presentations()) {
        INFO(presentation->title.kind);
        CHECK(presented.insert(presentation->title.kind).second);
        CHECK(kind_presentation(presentation->title.kind) == presentation);
        CHECK(std::string_view(presentation->title.title).size() > 0);
        CHECK(std::string_view(presentation->title.summary).size() > 0);
        CHECK((std::find(contract::kinds::all.begin(), contract::kinds::all.end(), presentation->title.kind)
                   != contract::kinds::all.end()
               || presentation->title.kind == contract::kinds::run_set));
    }
    for (const std::string_view kind : contract::kinds::all) {
        INFO(kind);
        CHECK(presented.contains(kind));
    }
    CHECK(presented.contains(contract::kinds::run_set));
    CHECK(kind_presentation("no-such-kind") == nullptr);
    CHECK(kind_title("no-such-kind") == nullptr);
    CHECK(kind_title_text("no-such-kind") == "no-such-kind");
}

TEST_CASE("kind presentations: every headline figure is a key its kind declares", "[client-model]")
{
    // Both directions, for the sweeps whose figures depend on it.
    const SavedValueMap reading {}, writing { { "direction", std::string("write") } };
    for (const KindPresentation* presentation : kind_presentations()) {
        if (!presentation->headline_candidates)
            continue;
        for (const SavedValueMap* summary : { &reading, &writing })
            for (const HeadlineCandidate& candidate : presentation->headline_candidates(*summary)) {
                INFO(presentation->title.kind << ": " << candidate.key);
                CHECK(contract::kinds::keys::declares_summary_key(presentation->title.kind, candidate.key));
            }
    }
}

TEST_CASE("kind presentations: the plain figures' operation and the CSV's byte axis", "[client-model]")
{
    for (const KindPresentation* presentation : kind_presentations()) {
        INFO(presentation->title.kind);
        // A kind that writes the device never has its figures called reads.
        if (contract::kinds::writes_device(presentation->title.kind))
            CHECK((presentation->metrics_op == nullptr || std::string_view(presentation->metrics_op) == "write"));
    }
    const auto x_column = [](const std::string& kind) {
        SavedResult result;
        result.kind = kind;
        result.series.push_back({ "throughput", "B", "MB/s", "bar", { { 4096, 1 } } });
        return result_csv(result).at(0).text.substr(0, result_csv(result).at(0).text.find(','));
    };
    CHECK(x_column("seek") == "distance (B)");
    CHECK(x_column("random") == "block size (B)");
    CHECK(x_column("device-write-sweep") == "block size (B)");
    CHECK(x_column("sequential") == "position (B)");
    CHECK(x_column("no-such-kind") == "position (B)");
}

TEST_CASE("kind presentations: a kind the client lacks gets the common text", "[client-model]")
{
    const SavedValueMap summary { { "throughput_mb_s", 512.0 }, { "latency_mean_us", 250.0 },
                                  { "best_iops", 9000.0 } };
    const auto figures = headline_figures("no-such-kind", summary);
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].key == "throughput_mb_s");
    CHECK(figures[1].key == "latency_mean_us");
    // The sweep's best cell is the sweep's to say, not every kind's.
    CHECK(device_summary_text("no-such-kind", summary).find("queue depth") == std::string::npos);
    CHECK(device_summary_text("qd-sweep", summary).find("queue depth") != std::string::npos);
}

TEST_CASE("a sustained write's line says how much it took before the cliff, and the speed after", "[client-model]")
{
    const client::SavedValueMap fell { { "throughput_mb_s", 610.0 },
                                       { "burst_mb_s", 1900.0 },
                                       { "steady_mb_s", 480.0 },
                                       { "cliff", true },
                                       { "cliff_at_bytes", std::int64_t { 24LL << 30 } },
                                       { "bytes", std::int64_t { 100LL << 30 } } };
    CHECK_THAT(device_summary_text("sustained-write", fell),
               Catch::Contains("  ·  about 24 GiB at 1900 MB/s, then 480 MB/s"));
    client::SavedValueMap level = fell;
    level["cliff"] = false;
    level.erase("cliff_at_bytes");
    CHECK_THAT(device_summary_text("sustained-write", level), Catch::Contains("  ·  no cliff in the 100 GiB written"));
}

TEST_CASE("a steady-state run's line gives the steady figure beside the fresh one", "[client-model]")
{
    const client::SavedValueMap steady { { "fresh_iops", 96000.0 },    { "steady_iops", 21400.0 },
                                         { "steady_state", true },     { "steady_first_round", std::int64_t { 9 } },
                                         { "rounds", std::int64_t { 13 } }, { "latency_p99_us", 2400.0 } };
    CHECK_THAT(device_summary_text("steady-state", steady),
               Catch::StartsWith("steady 21.4k IOPS from round 9 (fresh 96.0k IOPS)"));
    client::SavedValueMap unsettled = steady;
    unsettled["steady_state"] = false;
    unsettled["rounds"] = std::int64_t { 25 };
    CHECK_THAT(device_summary_text("steady-state", unsettled),
               Catch::StartsWith("not steady in 25 rounds: last 21.4k IOPS (fresh 96.0k IOPS)"));
    client::SavedValueMap short_run { { "fresh_iops", 96000.0 }, { "rounds", std::int64_t { 3 } } };
    CHECK_THAT(device_summary_text("steady-state", short_run), Catch::StartsWith("3 rounds, fresh 96.0k IOPS"));
}

TEST_CASE("a burn-in's line gives both speeds and what came back wrong", "[client-model]")
{
    const client::SavedValueMap failed { { "write_mb_s", 512.0 }, { "read_mb_s", 540.0 },
                                         { "mismatched_blocks", std::int64_t { 3 } },
                                         { "unreadable_ranges", std::int64_t { 1 } }, { "verdict", std::string("fail") } };
    CHECK_THAT(device_summary_text("burn-in", failed),
               Catch::StartsWith("write 512 MB/s, read 540 MB/s  ·  3 blocks read back wrong  ·  1 unreadable range"));
    const client::SavedValueMap passed { { "write_mb_s", 512.0 }, { "read_mb_s", 540.0 },
                                         { "mismatched_blocks", std::int64_t { 0 } }, { "verdict", std::string("pass") } };
    CHECK_THAT(device_summary_text("burn-in", passed), Catch::StartsWith("write 512 MB/s, read 540 MB/s"));
    CHECK_THAT(device_summary_text("burn-in", passed), !Catch::Contains("wrong"));
}
