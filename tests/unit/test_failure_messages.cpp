// SPDX-License-Identifier: GPL-3.0-or-later
// The catalogue of the daemon's failures (contract/failure_messages.hpp) and
// how a client reads a failure back from its English (failure_matching.hpp):
// every format comes back to its own id and arguments, none is ambiguous
// with another for its own text, every one is translated (cs, ru) with the
// same placeholders, and the daemon's sources name only ids it has.
#include "contract/failure_matching.hpp"
#include "contract/failure_messages.hpp"
#include "contract/messages.hpp"

#include "po_file.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

using namespace diskbench;
using namespace diskbench::contract;

namespace {

// A sample for each argument: words no format has, so they cannot pass
// for a format's literal text; 2.5 for a number with decimals.
std::vector<MessageArg> sample_args(std::string_view format)
{
    std::vector<MessageArg> args;
    for (const std::string& name : format_argument_names(format)) {
        const bool decimal = std::string_view(format).find("{" + name + ":") != std::string_view::npos;
        if (decimal)
            args.emplace_back(name, 2.5);
        else
            args.emplace_back(name, "Sample" + name + "Q");
    }
    return args;
}

std::string captured(const std::vector<MessageArg>& args, const std::string& name)
{
    for (const MessageArg& arg : args)
        if (arg.name == name)
            return std::get<std::string>(arg.value);
    return "(missing)";
}

// The placeholders of a format, "{name}" and "{name:.Nf}" as written, sorted.
std::multiset<std::string> placeholders(const std::string& format)
{
    std::multiset<std::string> found;
    const std::regex placeholder(R"(\{[a-z0-9_]+(:\.[0-9]f)?\})");
    for (auto it = std::sregex_iterator(format.begin(), format.end(), placeholder); it != std::sregex_iterator(); ++it)
        found.insert(it->str());
    return found;
}

} // namespace

TEST_CASE("the failure catalogue: unique ids and formats, apart from the warnings'", "[failures]")
{
    std::set<std::string_view> ids, formats;
    REQUIRE(failure_catalogue().size() >= 100);
    for (const MessageFormat& format : failure_catalogue()) {
        INFO(format.id);
        CHECK(std::string_view(format.id).starts_with("error-"));
        CHECK(ids.insert(format.id).second);
        CHECK(formats.insert(format.english).second);
        CHECK(find_failure_format(format.id) == &format);
        CHECK(find_message_format(format.id) == nullptr);
        CHECK_NOTHROW(render_message(format.english, sample_args(format.english)));
    }
}

TEST_CASE("every failure's English matches back to its own id and arguments, and to no other as well",
          "[failures]")
{
    for (const MessageFormat& format : failure_catalogue()) {
        INFO(format.id);
        const std::vector<MessageArg> args = sample_args(format.english);
        const std::string english = failure_english({ std::string(format.id), args });
        INFO(english);
        const std::optional<FailureMatch> match = match_failure(english);
        REQUIRE(match);
        CHECK(match->id == format.id);
        CHECK(match->prefix.empty());
        for (const MessageArg& arg : args)
            CHECK(captured(match->args, arg.name) == render_message("{" + arg.name + "}", { arg }));
        // No other format matches with as much literal text: the choice is never the catalogue's order.
        const std::size_t literal = failure_format_literal_chars(format.english);
        for (const MessageFormat& other : failure_catalogue()) {
            if (other.id == format.id)
                continue;
            INFO("also " << other.id);
            if (match_failure_format(other.english, english))
                CHECK(failure_format_literal_chars(other.english) < literal);
        }
        // As a ParameterError's text, the key stays as it was.
        const std::optional<FailureMatch> keyed = match_failure("max_block: " + english);
        REQUIRE(keyed);
        CHECK(keyed->prefix == "max_block: ");
        CHECK(keyed->id == format.id);
    }
}

TEST_CASE("a failure in another language: the translated format with the captured arguments", "[failures]")
{
    const auto czech_numbers = [](double value, int decimals) {
        std::string text = c_number_text(value, decimals);
        std::replace(text.begin(), text.end(), '.', ',');
        return text;
    };
    const std::map<std::string, std::string> czech {
        { "{value} is negative", "{value} je záporné" },
        { "{target}: the filesystem is full ({detail})", "{target}: souborový systém je plný ({detail})" },
        { "{target}: fdatasync failed: {reason}", "{target}: fdatasync selhal: {reason}" },
        { "expected {expected}, got {got}", "očekáváno {expected}, dostáno {got}" },
        { "an unsigned integer", "celé číslo bez znaménka" },
        { "a string", "řetězec" },
        { "uid {uid} has {count} scratch folders", "nepoužito" },
    };
    const auto translate = [&](const char* format) -> const char* {
        const auto found = czech.find(format);
        return found == czech.end() ? format : found->second.c_str();
    };
    CHECK(localized_failure("size: -3 is negative", translate, czech_numbers) == "size: -3 je záporné");
    // Nested: the failure an explanation wraps is translated too.
    CHECK(localized_failure("/srv: the filesystem is full (/srv/f: fdatasync failed: No space left on device)",
                            translate, czech_numbers)
          == "/srv: souborový systém je plný (/srv/f: fdatasync selhal: No space left on device)");
    CHECK(localized_failure("count: expected an unsigned integer, got a string", translate, czech_numbers)
          == "count: očekáváno celé číslo bez znaménka, dostáno řetězec");
    // "directory: " before a key's: both kept.
    CHECK(localized_failure("directory: size: -3 is negative", translate, czech_numbers)
          == "directory: size: -3 je záporné");
    // A {target} is a name: a folder called like a catalogue phrase keeps its name.
    CHECK(localized_failure("a string: fdatasync failed: No space left on device", translate, czech_numbers)
          == "a string: fdatasync selhal: No space left on device");
    // A text no format has (an older or newer daemon) stays as it came.
    CHECK(localized_failure("the disk caught fire", translate, czech_numbers) == "the disk caught fire");
    CHECK(localized_failure("", translate, czech_numbers).empty());
}

TEST_CASE("an explanation around a failure is read as the explanation, with the failure inside it",
          "[failures]")
{
    // Every wrapper explained() and the folder check write, around every
    // failure they may wrap: the wrapper's id, its {detail} the inner
    // failure's text, and in Czech no English word of either is left.
    const std::map<std::string, std::string> czech = testing::po_translations("cs");
    const auto translate = [&](const char* format) -> const char* {
        const auto found = czech.find(format);
        return found == czech.end() ? format : found->second.c_str();
    };
    const std::vector<Message> inner {
        { "error-write-failed", { { "target", "/srv/f" }, { "length", 1048576 }, { "offset", 0 },
                                  { "reason", "No space left on device" } } },
        { "error-read-failed", { { "target", "/srv/f" }, { "length", 4096 }, { "offset", 8192 },
                                 { "reason", "Input/output error" } } },
        { "error-scratch-write-failed", { { "target", "/srv" }, { "chunk", "1 MiB" }, { "offset", 0 },
                                          { "reason", "Disk quota exceeded" } } },
        { "error-fdatasync", { { "target", "/srv/f" }, { "reason", "No space left on device" } } },
    };
    for (const char* wrapper : { "error-filesystem-full", "error-quota-used-up", "error-device-io-error",
                                 "error-folder-not-writable" })
        for (const Message& failure : inner) {
            const std::string detail = failure_english(failure);
            const std::string text = failure_english({ wrapper, { { "target", "/srv" }, { "detail", detail } } });
            INFO(text);
            const std::optional<FailureMatch> match = match_failure(text);
            REQUIRE(match);
            CHECK(match->id == wrapper);
            CHECK(captured(match->args, "detail") == detail);
            const std::string translated = localized_failure(text, translate, c_number_text);
            INFO(translated);
            CHECK(translated != text);
            for (const char* english : { "failed", "filesystem is full", "is used up", "reported", "may not create",
                                         " of ", " at " })
                CHECK(translated.find(english) == std::string::npos);
        }
}

TEST_CASE("a {x:.Nf} number is written again in the user's notation", "[failures]")
{
    // The catalogue has no decimal argument yet; the rule is tested on the
    // warnings' formats through the same matching of one format.
    const auto args = match_failure_format("within {seconds:.2f} s", "within 0.25 s");
    REQUIRE(args);
    CHECK(captured(*args, "seconds") == "0.25");
    CHECK_FALSE(match_failure_format("within {seconds:.2f} s", "within  s"));    // a placeholder is never empty
    CHECK_FALSE(match_failure_format("{a} and {a}", "x and y"));                   // a name captures one text
    CHECK(match_failure_format("{a} and {a}", "x and x"));
}

TEST_CASE("every failure is translated into Czech and Russian with the same placeholders", "[failures]")
{
    for (const char* language : { "cs", "ru" }) {
        const std::map<std::string, std::string> po = testing::po_translations(language);
        for (const MessageFormat& format : failure_catalogue()) {
            INFO(language << " " << format.id << ": " << format.english);
            const auto found = po.find(format.english);
            REQUIRE(found != po.end());
            CHECK_FALSE(found->second.empty());
            CHECK(placeholders(found->second) == placeholders(format.english));
        }
    }
}

namespace {

std::string file_text(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("the daemon names only failures the catalogue has, and every one it has", "[failures]")
{
    // The compiler sees that every engine error and D-Bus refusal is built
    // from a contract::Message (errors.hpp, bus_errors.hpp); this sees that
    // the ids in those messages exist, since a wrong one shows the user
    // the id instead of a sentence (failure_english()). An id is a string
    // literal "error-..." in daemon/; a few are put together from parts.
    const std::set<std::string> composed {
        "error-device-in-use-by-stuck",       "error-filesystem-in-use-by-stuck",
        "error-limit-running-stuck",          "error-limit-running-preparing",
        "error-limit-running-stuck-preparing",
    };
    std::set<std::string> named;
    const std::regex literal(R"re("(error-[a-z0-9-]+)")re");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(DISKBENCH_SOURCE_ROOT) + "/daemon")) {
        const std::string extension = entry.path().extension().string();
        if (extension != ".cpp" && extension != ".hpp")
            continue;
        const std::string text = file_text(entry.path());
        for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it) {
            INFO(entry.path().string() << ": " << (*it)[1].str());
            CHECK(find_failure_format((*it)[1].str()) != nullptr);
            named.insert((*it)[1].str());
        }
    }
    for (const MessageFormat& format : failure_catalogue()) {
        INFO(format.id << " is in the catalogue but the daemon never reports it");
        CHECK((named.count(std::string(format.id)) == 1 || composed.count(std::string(format.id)) == 1));
    }
}

namespace {

// A parameter's text refused as the engine refuses it (ParameterError in
// daemon/engine/base/errors.hpp: the key, ": ", the failure's English).
std::string not_a_choice(const std::string& value)
{
    return "backend: "
        + failure_english({ "error-not-a-choice", { { "value", value }, { "choices", "auto, io_uring, psync" } } });
}

std::string repeated(std::string_view piece, std::size_t size)
{
    std::string text;
    while (text.size() + piece.size() <= size)
        text += piece;
    return text;
}

// The most one match may overshoot the budget: its last step.
std::size_t budget_with_last_step(const std::string& text)
{
    return failure_match_budget + 1 + 2 * text.size() / 64;
}

} // namespace

TEST_CASE("matching has a hard bound: a text made to be slow stays English, real ones are translated",
          "[failures]")
{
    const std::map<std::string, std::string> czech = testing::po_translations("cs");
    const auto translate = [&](const char* format) -> const char* {
        const auto found = czech.find(format);
        return found == czech.end() ? format : found->second.c_str();
    };

    SECTION("a value made of the formats' literal parts, 4 KiB and 13 KB")
    {
        // Before the bound, the 4 KiB ones took seconds each (the first
        // 12 s), and 13 KB many minutes: backtracking over every way the
        // repeated parts could end the placeholders before them.
        const std::pair<std::string_view, std::size_t> values[] {
            { ": short read at offset : of  bytes", 4096 },
            { "x: short read at offset 1: 2 of 3 bytes: ", 4096 },
            { "a: ", 4096 },
            { "\" is not one of: a: ", 4096 },
            { ": short read at offset : of  bytes", 13000 },
            { "a: ", 13000 },
            { "x: \"y\" in the benchmark's tree was changed during the run (1 bytes instead of 2)", 13000 },
        };
        for (const auto& [piece, size] : values) {
            const std::string text = not_a_choice(repeated(piece, size));
            INFO(text.size() << " bytes of " << piece);
            MatchCost cost;
            CHECK(localized_failure(text, translate, c_number_text, &cost) == text);
            CHECK(cost.gave_up);
            CHECK(cost.steps <= budget_with_last_step(text));
            MatchCost match_cost;
            CHECK_FALSE(match_failure(text, &match_cost));
            CHECK(match_cost.gave_up);
            CHECK(match_cost.steps <= budget_with_last_step(text));
        }
    }
    SECTION("real failures, the longest ones too, are translated well within the budget")
    {
        MatchCost cost;
        CHECK(localized_failure(not_a_choice("fast"), translate, c_number_text, &cost)
              == "backend: „fast“ není žádná z možností: auto, io_uring, psync");
        CHECK_FALSE(cost.gave_up);
        // The longest text the engine lets through (max_text_bytes), ordinary characters.
        const std::string value(4096, 'x');
        cost = {};
        CHECK(localized_failure(not_a_choice(value), translate, c_number_text, &cost)
              == "backend: „" + value + "“ není žádná z možností: auto, io_uring, psync");
        CHECK_FALSE(cost.gave_up);
        CHECK(cost.steps < failure_match_budget / 10);
        // Two paths of PATH_MAX, a write's failure inside a full filesystem's explanation.
        const std::string folder = "/srv/" + std::string(4090, 'p');
        const std::string write = failure_english({ "error-write-failed", { { "target", folder + "/f" },
                                                                           { "length", 1048576 },
                                                                           { "offset", 0 },
                                                                           { "reason", "No space left on device" } } });
        const std::string full = failure_english({ "error-filesystem-full", { { "target", folder }, { "detail", write } } });
        cost = {};
        const std::string shown = localized_failure("directory: " + full, translate, c_number_text, &cost);
        INFO(shown);
        CHECK(shown.starts_with("directory: " + folder + ": souborový systém je plný ("));
        CHECK(shown.find("failed") == std::string::npos);
        CHECK_FALSE(cost.gave_up);
        CHECK(cost.steps < failure_match_budget / 2);
    }
    SECTION("a text past the length bound is not matched at all")
    {
        const std::string text = not_a_choice(std::string(max_matched_failure_bytes, 'x'));
        MatchCost cost;
        CHECK(localized_failure(text, translate, c_number_text, &cost) == text);
        CHECK(cost.gave_up);
        CHECK(cost.steps == 0);
    }
}
