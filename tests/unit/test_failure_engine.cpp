// SPDX-License-Identifier: GPL-3.0-or-later
// Real refusals of the real engine, read back as a client reads them: the
// English of each comes back to the failure the engine threw, and with the
// Czech translations of po/cs.po (read here without gettext: the text a
// Czech user gets, without needing a Czech locale on the machine) becomes
// Czech.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "io/target.hpp"

#include "contract/failure_matching.hpp"
#include "contract/failure_messages.hpp"

#include "parameter_checks.hpp"
#include "po_file.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string_view>
#include <string>

using namespace diskbench;
using namespace diskbench::engine;

namespace {

template <typename Refusal>
Error refusal(const Refusal& refuse)
{
    try {
        refuse();
    } catch (const Error& error) {
        return error;
    }
    FAIL("no refusal");
    return Error("unreachable");
}

const std::map<std::string, std::string>& czech()
{
    static const std::map<std::string, std::string> translations = testing::po_translations("cs");
    return translations;
}

std::string in_czech(const std::string& english)
{
    const auto translate = [](const char* format) -> const char* {
        const auto found = czech().find(format);
        return found == czech().end() ? format : found->second.c_str();
    };
    return contract::localized_failure(english, translate, contract::c_number_text);
}

// The English `error` is read back to its own failure, and in Czech is that
// failure's Czech format with the same arguments (and the key before it).
void check_read_back(const Error& error, const std::string& key)
{
    const std::string english = error.what();
    INFO(english);
    REQUIRE(error.failure());
    const std::optional<contract::FailureMatch> match = contract::match_failure(english);
    REQUIRE(match);
    CHECK(match->id == error.failure()->id);
    CHECK(match->prefix == (key.empty() ? "" : key + ": "));

    const contract::MessageFormat* format = contract::find_failure_format(error.failure()->id);
    const auto czech_format = czech().find(format->english);
    REQUIRE(czech_format != czech().end());
    const std::string shown = in_czech(english);
    INFO(shown);
    CHECK(shown != english);
    CHECK(shown.starts_with(match->prefix));
    // Rendered from the Czech format; nested arguments may be Czech too,
    // so compare with the Czech format rendered from the same message.
    std::vector<contract::MessageArg> args = error.failure()->args;
    for (contract::MessageArg& arg : args)
        if (const auto* text = std::get_if<std::string>(&arg.value))
            arg.value = in_czech(*text);
    CHECK(shown == match->prefix + contract::render_message(czech_format->second, args));
}

} // namespace

TEST_CASE("the engine's real refusals read back as their failures, and in Czech", "[failures-engine]")
{
    const Target device = testing::unopened_device();
    const auto check = [&](const std::string& kind, const ValueMap& params) {
        return refusal([&] { check_benchmark(*find_benchmark(kind), device, validate_request(*find_benchmark(kind), params)); });
    };

    SECTION("a value out of range")
    {
        const Error error = check("sequential", { { "queue_depth", std::uint64_t { 5000 } } });
        CHECK(std::string(error.what()) == "queue_depth: 5000 is out of range [1, 1024]");
        check_read_back(error, "queue_depth");
    }
    SECTION("an unknown parameter")
    {
        const Error error = check("sequential", { { "speed", std::uint64_t { 1 } } });
        check_read_back(error, "speed");
    }
    SECTION("a value of the wrong type: the type names are translated too")
    {
        const Error error = check("sequential", { { "size", std::string("big") } });
        CHECK(std::string(error.what()) == "size: expected an unsigned integer, got a string");
        check_read_back(error, "size");
        CHECK(in_czech(error.what()).find("unsigned") == std::string::npos);
    }
    SECTION("a block size the device cannot take")
    {
        const Error error = check("sequential", { { "block_size", std::uint64_t { 6000 } } });
        check_read_back(error, "block_size");
    }
    SECTION("an offset past the device")
    {
        const Error error = check("sequential", { { "offset", std::uint64_t { 100 } } });
        check_read_back(error, "offset");
    }
    SECTION("a profile test larger than the device")
    {
        const Error error = check("profile", { { "tests", std::string("SEQ128M Q1T1") } });
        check_read_back(error, "tests");
    }
}

TEST_CASE("a target the engine cannot open reads back, its system error text kept", "[failures-engine]")
{
    CHECK_THROWS_AS(open_target_for_read("/nonexistent/diskbench-failure-test"), TargetError);
    const Error error = refusal([] { open_target_for_read("/nonexistent/diskbench-failure-test"); });
    check_read_back(error, "");
    CHECK(in_czech(error.what()).find("/nonexistent/diskbench-failure-test") == 0);
}

TEST_CASE("a 4 KiB text the engine echoes in its refusal: read back when plain, English when made to be slow",
          "[failures-engine]")
{
    const Target device = testing::unopened_device();
    const auto refused = [&](const std::string& backend) {
        return refusal([&] { check_benchmark(*find_benchmark("sequential"), device, validate_request(*find_benchmark("sequential"), { { "backend", backend } })); });
    };
    // The most the engine takes (max_text_bytes): still the user's language.
    const Error plain = refused(std::string(max_text_bytes, 'x'));
    REQUIRE(plain.failure());
    CHECK(plain.failure()->id == "error-not-a-choice");
    check_read_back(plain, "backend");

    // Made of a format's literal parts: matching it gives up within its
    // budget (failure_matching.hpp) and the refusal stays as the daemon wrote it.
    const std::string_view piece = ": short read at offset : of  bytes";
    std::string value;
    while (value.size() + piece.size() <= max_text_bytes)
        value += piece;
    const Error crafted = refused(value);
    const std::string english = crafted.what();
    CHECK(english == "backend: \"" + value + "\" is not one of: auto, io_uring, psync");
    contract::MatchCost cost;
    CHECK_FALSE(contract::match_failure(english, &cost));
    CHECK(cost.gave_up);
    CHECK(cost.steps <= contract::failure_match_budget + 1 + english.size() / 64);
    CHECK(in_czech(english) == english);
}
