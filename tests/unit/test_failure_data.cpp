// SPDX-License-Identifier: GPL-3.0-or-later
// Failures as data (API 0.16): the real engine's refusals, put into the
// a{sv} the daemon sends (sdbus_types/failure_data.hpp) and read back as a
// client reads it, come back to the same failure; in Czech and Russian
// (po/cs.po, po/ru.po, read without gettext) they are the translated
// format with the same arguments, nested failures translated too, with no
// English matched. A refusal made to defeat the English matcher is still
// translated from its data.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "io/target.hpp"

#include "contract/failure_matching.hpp"
#include "contract/failure_messages.hpp"
#include "sdbus_types/failure_data.hpp"

#include "parameter_checks.hpp"
#include "po_file.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <string_view>

using namespace diskbench;
using namespace diskbench::engine;

namespace {

// The engine's refusal of `params` for `kind`, as the daemon reports it.
contract::FailureReport refused(const std::string& kind, const ValueMap& params)
{
    try {
        check_benchmark(*find_benchmark(kind), testing::unopened_device(), validate_request(*find_benchmark(kind), params));
    } catch (const ParameterError& error) {
        REQUIRE(error.failure());
        return { *error.failure(), error.key() };
    } catch (const Error& error) {
        REQUIRE(error.failure());
        return { *error.failure(), {} };
    }
    FAIL("no refusal");
    return {};
}

// What a client gets: the report through the bus's a{sv} and back.
contract::FailureReport over_the_bus(const contract::FailureReport& report)
{
    const std::optional<contract::FailureReport> read = sdbus_types::failure_report(sdbus_types::failure_data(report));
    REQUIRE(read);
    return *read;
}

const std::map<std::string, std::string>& translations(const std::string& language)
{
    static std::map<std::string, std::map<std::string, std::string>> loaded;
    auto found = loaded.find(language);
    if (found == loaded.end())
        found = loaded.emplace(language, testing::po_translations(language)).first;
    return found->second;
}

std::string in(const std::string& language, const contract::FailureReport& report)
{
    const auto& po = translations(language);
    const auto translate = [&po](const char* format) -> const char* {
        const auto found = po.find(format);
        return found == po.end() ? format : found->second.c_str();
    };
    return contract::localized_failure_report(report, contract::failure_report_english(report), translate,
                                              contract::c_number_text);
}

// The translated format of `id` in `language`, which the test requires to exist.
std::string translated_format(const std::string& language, std::string_view id)
{
    const contract::MessageFormat* format = contract::find_failure_format(id);
    REQUIRE(format);
    const auto found = translations(language).find(format->english);
    REQUIRE(found != translations(language).end());
    return found->second;
}

} // namespace

TEST_CASE("a refusal's failure travels as data and comes back the same", "[failure-data]")
{
    const contract::FailureReport range = refused("sequential", { { "queue_depth", std::uint64_t { 5000 } } });
    CHECK(range.parameter == "queue_depth");
    CHECK(range.failure.id == "error-out-of-range");
    CHECK(over_the_bus(range) == range);
    CHECK(contract::failure_report_english(over_the_bus(range)) == "queue_depth: 5000 is out of range [1, 1024]");

    // The type names are failures of their own, nested as data.
    const contract::FailureReport type = refused("sequential", { { "size", std::string("big") } });
    CHECK(type.failure.id == "error-wrong-type");
    const contract::FailureReport read = over_the_bus(type);
    CHECK(read == type);
    std::map<std::string, std::string> nested;
    for (const contract::MessageArg& arg : read.failure.args) {
        REQUIRE(arg.failure);
        nested[arg.name] = arg.failure->id;
    }
    CHECK(nested == std::map<std::string, std::string> { { "expected", "error-type-unsigned" },
                                                         { "got", "error-type-text" } });

    // The map the bus carries names its parts as the XML says (Job.Failure).
    const sdbus_types::FailureData data = sdbus_types::failure_data(type);
    CHECK(data.at("id").get<std::string>() == "error-wrong-type");
    CHECK(data.at("parameter").get<std::string>() == "size");
    const auto args = data.at("arguments").get<sdbus_types::FailureData>();
    CHECK(args.at("got").get<sdbus_types::FailureData>().at("id").get<std::string>() == "error-type-text");
}

TEST_CASE("a failure as data in Czech and Russian: the translated format, nested failures translated",
          "[failure-data]")
{
    for (const std::string language : { "cs", "ru" }) {
        INFO(language);
        const contract::FailureReport range
            = over_the_bus(refused("sequential", { { "queue_depth", std::uint64_t { 5000 } } }));
        CHECK(in(language, range)
              == "queue_depth: "
                  + contract::render_message(translated_format(language, "error-out-of-range"), range.failure.args));

        const contract::FailureReport type = over_the_bus(refused("sequential", { { "size", std::string("big") } }));
        const std::string shown = in(language, type);
        INFO(shown);
        const std::vector<contract::MessageArg> translated_names {
            { "expected", translated_format(language, "error-type-unsigned") },
            { "got", translated_format(language, "error-type-text") },
        };
        CHECK(shown
              == "size: " + contract::render_message(translated_format(language, "error-wrong-type"), translated_names));
        CHECK(shown.find("unsigned") == std::string::npos);
        CHECK(shown.find("string") == std::string::npos);
    }
}

TEST_CASE("an explanation around an I/O failure is translated at both levels from data", "[failure-data]")
{
    // As file_support.cpp's explained() builds it: the failure explained is
    // the explanation's {detail}.
    const IoError inner(Failure { "error-write-failed", { { "target", "/srv/bench" },
                                                         { "length", std::uint64_t { 4096 } },
                                                         { "offset", std::uint64_t { 0 } },
                                                         { "reason", "No space left on device" } } },
                        ENOSPC);
    const IoError outer(Failure { "error-filesystem-full", { { "target", "/srv/bench" }, failure_argument("detail", inner) } },
                        ENOSPC);
    const contract::FailureReport report = over_the_bus({ *outer.failure(), {} });
    CHECK(contract::failure_report_english(report) == outer.what());
    const std::string shown = in("cs", report);
    INFO(shown);
    const std::string inner_czech = contract::render_message(translated_format("cs", "error-write-failed"),
                                                             inner.failure()->args);
    CHECK(shown
          == contract::render_message(translated_format("cs", "error-filesystem-full"),
                                      { { "target", "/srv/bench" }, { "detail", inner_czech } }));
}

TEST_CASE("a refusal the English matcher gives up on is still translated from its data", "[failure-data]")
{
    // Made of a format's literal parts (test_failure_engine.cpp): matching
    // its English stops at its budget and would show it in English.
    const std::string_view piece = ": short read at offset : of  bytes";
    std::string value;
    while (value.size() + piece.size() <= max_text_bytes)
        value += piece;
    const contract::FailureReport report = over_the_bus(refused("sequential", { { "backend", value } }));
    const std::string english = contract::failure_report_english(report);
    contract::MatchCost cost;
    CHECK_FALSE(contract::match_failure(english, &cost));
    const std::string shown = in("ru", report);
    CHECK(shown != english);
    CHECK(shown.starts_with("backend: "));
    CHECK(shown.find(value) != std::string::npos); // the caller's text, kept as it was
}

TEST_CASE("failure data a client cannot use: the English shown, a bound on nesting", "[failure-data]")
{
    // An id of a newer daemon: the English it sent.
    const contract::FailureReport newer { { "error-from-the-future", { { "device", "/dev/sdz" } } }, {} };
    CHECK(in("cs", over_the_bus(newer)) == contract::failure_report_english(newer));

    // No id, or an empty map (a failure outside the catalogue): no report.
    CHECK_FALSE(sdbus_types::failure_report({}));
    CHECK_FALSE(sdbus_types::failure_report({ { "arguments", sdbus::Variant(sdbus_types::FailureData {}) } }));

    // A map nested 20 deep (no daemon makes one; sd-bus takes no more than
    // 128 containers in all) is read to a bound of 8, not down a client's stack.
    sdbus_types::FailureData deep { { "id", sdbus::Variant(std::string("error-in-folder")) } };
    for (int level = 0; level < 20; ++level)
        deep = { { "id", sdbus::Variant(std::string("error-in-folder")) },
                 { "arguments", sdbus::Variant(sdbus_types::FailureData { { "detail", sdbus::Variant(deep) } }) } };
    const std::optional<contract::FailureReport> read = sdbus_types::failure_report(deep);
    REQUIRE(read);
    int depth = 0;
    for (const contract::Message* at = &read->failure; !at->args.empty() && at->args.front().failure;
         at = at->args.front().failure.get())
        ++depth;
    CHECK(depth <= 9);

    // Arguments that do not fit the format (none where it names one): the English stays.
    const contract::FailureReport odd { { "error-no-device", {} }, {} };
    CHECK(in("cs", odd) == contract::failure_report_english(odd));
}
