// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark.hpp"
#include "benchmark_support.hpp"
#include "base/errors.hpp"
#include "parameters/parameters.hpp"
#include "parameter_checks.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string_view>

using namespace diskbench::engine;

namespace {

std::string error_key(const std::vector<ParamSpec>& schema, const ValueMap& given)
{
    try {
        validate_parameters(schema, given);
    } catch (const ParameterError& error) {
        return error.key();
    }
    return "(accepted)";
}

const std::vector<ParamSpec>& schema()
{
    static const std::vector<ParamSpec> specs {
        unsigned_param("count", "", 1000, 1, 1'000'000),
        real_param("duration_s", "", 5.0, 0.05, 3600),
        bool_param("aligned", "", true),
        text_param("preset", "", "default", { "default", "nvme" }),
    };
    return specs;
}

} // namespace

TEST_CASE("defaults fill in what the caller left out", "[parameters]")
{
    const ParameterSet set = validate_parameters(schema(), { { "count", std::uint64_t { 5 } } });
    CHECK(set.unsigned_value("count") == 5);
    CHECK(set.given("count"));
    CHECK_FALSE(set.given("duration_s"));
    CHECK(set.real("duration_s") == 5.0);
    CHECK(set.boolean("aligned"));
    CHECK(set.text("preset") == "default");
}

TEST_CASE("integers of either signedness are accepted where they fit", "[parameters]")
{
    const ParameterSet set = validate_parameters(
        schema(), { { "count", std::int64_t { 7 } }, { "duration_s", std::uint64_t { 2 } } });
    CHECK(set.unsigned_value("count") == 7);
    CHECK(set.real("duration_s") == 2.0);
}

TEST_CASE("bad parameters are rejected naming the key", "[parameters]")
{
    CHECK(error_key(schema(), { { "colour", std::string("red") } }) == "colour");
    CHECK(error_key(schema(), { { "count", std::uint64_t { 0 } } }) == "count");
    CHECK(error_key(schema(), { { "count", std::int64_t { -1 } } }) == "count");
    CHECK(error_key(schema(), { { "count", std::uint64_t { 2'000'000 } } }) == "count");
    CHECK(error_key(schema(), { { "count", std::string("1000") } }) == "count");
    CHECK(error_key(schema(), { { "count", 3.5 } }) == "count");
    CHECK(error_key(schema(), { { "duration_s", 0.0 } }) == "duration_s");
    CHECK(error_key(schema(), { { "duration_s", std::numeric_limits<double>::quiet_NaN() } }) == "duration_s");
    CHECK(error_key(schema(), { { "aligned", std::uint64_t { 1 } } }) == "aligned");
    CHECK(error_key(schema(), { { "preset", std::string("fast") } }) == "preset");
    CHECK(error_key(schema(), { { "preset", true } }) == "preset");
}

TEST_CASE("the message says what was wrong", "[parameters]")
{
    try {
        validate_parameters(schema(), { { "count", std::string("many") } });
        FAIL("accepted a string for an unsigned parameter");
    } catch (const ParameterError& error) {
        CHECK_THAT(error.what(), Catch::Contains("count") && Catch::Contains("unsigned integer")
                                     && Catch::Contains("string"));
    }
}

TEST_CASE("every benchmark documents every parameter with a default of its type", "[parameters]")
{
    for (const auto& info : all_benchmarks()) {
        INFO(info.kind);
        CHECK(!info.description.empty());
        std::set<std::string_view> keys;
        for (const auto& spec : info.params) {
            INFO(spec.key);
            // One meaning per key: a second spec of the same key would be
            // listed twice and validated by whichever comes first.
            CHECK(keys.insert(spec.key).second);
            CHECK(!spec.description.empty());
            // The schema's own default must pass its own validation.
            ValueMap one { { std::string(spec.key), spec.default_value } };
            CHECK_NOTHROW(validate_parameters(info.params, one));
        }
    }
}

TEST_CASE("a run takes the parameters validated for its own kind, once", "[parameters]")
{
    // What the daemon and diskbench-engine do with a request: validate it
    // once and hand the result on. A ParameterSet of another kind (equal
    // keys or not) is a caller's bug, refused before anything is checked
    // against the device.
    const Target device = diskbench::testing::unopened_device();
    const BenchmarkInfo& seek = *find_benchmark("seek");
    const BenchmarkInfo& random = *find_benchmark("random");
    const ParameterSet for_seek = validate_request(seek, { { "count", std::uint64_t { 10 } } });
    CHECK(for_seek.validated_for(seek.params));
    CHECK_FALSE(for_seek.validated_for(random.params));
    CHECK_NOTHROW(check_benchmark(seek, device, for_seek));
    CHECK_THROWS_WITH(check_benchmark(random, device, for_seek),
                      "internal: the parameters of random were not validated for it");
    // One that was never validated at all (default-made) is refused the same way.
    CHECK_THROWS_AS(check_benchmark(seek, device, ParameterSet {}), Error);
    // The request's own errors come from validate_request, the one check.
    CHECK_THROWS_AS(validate_request(seek, { { "count", std::string("ten") } }), ParameterError);
}
