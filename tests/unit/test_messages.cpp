// SPDX-License-Identifier: GPL-3.0-or-later
// The catalogue of the daemon's warnings and notes (contract/messages.hpp):
// every format is well formed and unique, English is rendered from it, an id
// not in it cannot be sent, and a client renders translations with its own
// decimal separator and falls back to the daemon's English for unknown ids.
#include "contract/messages.hpp"
#include "contract/result_file.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>
#include <string>

using namespace diskbench::contract;

TEST_CASE("the catalogue: unique ids, well-formed formats", "[contract][messages]")
{
    std::set<std::string_view> ids, formats;
    REQUIRE(message_catalogue().size() >= 50);
    for (const MessageFormat& format : message_catalogue()) {
        INFO(format.id);
        CHECK(ids.insert(format.id).second);
        CHECK(formats.insert(format.english).second);
        CHECK(find_message_format(format.id) == &format);
        // Every format renders once each argument it names is given.
        std::vector<MessageArg> args;
        for (const std::string& name : format_argument_names(format.english))
            args.emplace_back(name, 1.5);
        CHECK_NOTHROW(english_text({ std::string(format.id), args }));
    }
}

TEST_CASE("English from the catalogue; an unknown id or a missing argument is an error", "[contract][messages]")
{
    const Message message { "cancel-unanswered-device", { { "seconds", 0.25 } } };
    CHECK(english_text(message).starts_with("the device did not answer within 0.25 s of the cancel"));
    CHECK(english_text({ "samples-dropped", { { "dropped", 12 }, { "kept", std::uint64_t { 200000 } } } })
          == "the run made 12 more points than the 200000 a job keeps; they are not in the samples");
    CHECK_THROWS_AS(english_text({ "no-such-message", {} }), std::invalid_argument);
    CHECK_THROWS_AS(english_text({ "samples-dropped", { { "dropped", 12 } } }), std::invalid_argument);
    CHECK_THROWS_AS(render_message("{bad", {}), std::invalid_argument);
    CHECK_THROWS_AS(render_message("{x:3}", { { "x", 1 } }), std::invalid_argument);
}

TEST_CASE("a client renders the translated format with its own numbers, else the English", "[contract][messages]")
{
    const Message message { "cancel-unanswered-device", { { "seconds", 0.25 } } };
    const std::string english = english_text(message);
    const auto czech_numbers = [](double value, int decimals) {
        std::string text = c_number_text(value, decimals);
        for (char& c : text)
            if (c == '.')
                c = ',';
        return text;
    };
    const auto translate = [](const char* format) -> const char* {
        if (std::string_view(format).starts_with("the device did not answer within"))
            return "zařízení neodpovědělo do {seconds:.2f} s";
        return format;
    };
    CHECK(localized_text(message, english, translate, czech_numbers) == "zařízení neodpovědělo do 0,25 s");
    // A newer daemon's id: its English text as it came.
    CHECK(localized_text({ "from-a-newer-daemon", { { "x", 1 } } }, "as the daemon wrote it", translate, czech_numbers)
          == "as the daemon wrote it");
    // A translation naming an argument the message lacks: the English format.
    const auto broken = [](const char*) -> const char* { return "{secs} s"; };
    CHECK(localized_text(message, english, broken, c_number_text) == english);
}

TEST_CASE("a result file keeps the messages, and files without them still load", "[contract][messages]")
{
    SavedResult result;
    result.kind = "seek";
    result.state = "finished";
    const Message note { "no-temperature", {} };
    const Message warning { "device-served-reads",
                            { { "device", "loop3" }, { "served", "1 MiB" }, { "issued", "8 MiB" }, { "share", 12.5 },
                              { "phases", "during seek" } } };
    result.notes = { english_text(note) };
    result.note_messages = { note };
    result.warnings = { english_text(warning) };
    result.warning_messages = { warning };
    const auto loaded = result_from_json(result_to_json(result));
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    const SavedResult& back = std::get<SavedResult>(loaded);
    CHECK(back == result);
    CHECK(english_text(back.warning_messages.at(0)) == result.warnings.at(0));

    // A file of an older client: no "warning_messages" / "note_messages".
    SavedResult old = result;
    old.warning_messages.clear();
    old.note_messages.clear();
    std::string json = result_to_json(old);
    for (const char* key : { "\"warning_messages\" : [],", "\"note_messages\" : [],", "\"warning_messages\":[],",
                             "\"note_messages\":[]," })
        if (const auto at = json.find(key); at != std::string::npos)
            json.erase(at, std::string_view(key).size());
    CHECK(json.find("note_messages") == std::string::npos);
    const auto old_loaded = result_from_json(json);
    REQUIRE(std::holds_alternative<SavedResult>(old_loaded));
    CHECK(std::get<SavedResult>(old_loaded).note_messages.empty());
}
