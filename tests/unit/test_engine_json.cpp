// SPDX-License-Identifier: GPL-3.0-or-later
// What diskbench-engine prints is a result file the client can open.
#include "base/prng.hpp"
#include "benchmark.hpp"
#include "engine_json.hpp"
#include "io/target.hpp"
#include "scratch.hpp"

#include <catch2/catch.hpp>

using namespace diskbench;

TEST_CASE("an engine result written as a result file loads back whole", "[engine-json]")
{
    testing::ScratchDir dir;
    const auto path = testing::make_data_file(dir, "data", 4 << 20);
    const engine::Target target = engine::open_target_for_read(path);
    engine::CancelToken cancel;
    const engine::Result result = engine::run_benchmark(*engine::find_benchmark("seek"), target,
                                                        validate_request(*engine::find_benchmark("seek"), { { "count", std::uint64_t { 50 } } }), nullptr, cancel);
    const contract::SavedResult saved = tools::saved_from_engine(result);
    CHECK(saved.state == "finished");
    CHECK(std::get<std::int64_t>(saved.summary.at("reads")) == 50);
    // The default seed is a 63-bit number; it must survive exactly.
    CHECK(std::get<std::int64_t>(saved.parameters.at("seed")) == static_cast<std::int64_t>(engine::default_seed));
    // The reads' latencies, then their distribution (19 quantiles).
    REQUIRE(saved.series.size() == 2);
    CHECK(saved.series[0].points.size() == 50);
    CHECK(saved.series[1].name == "cdf");
    CHECK(saved.series[1].points.size() == 19);
    CHECK(std::get<std::string>(saved.device_info.at("node")) == path.string());

    const auto loaded = contract::result_from_json(contract::result_to_json(saved));
    REQUIRE(std::holds_alternative<contract::SavedResult>(loaded));
    CHECK(std::get<contract::SavedResult>(loaded) == saved);
}
