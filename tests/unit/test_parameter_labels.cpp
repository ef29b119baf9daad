// SPDX-License-Identifier: GPL-3.0-or-later
// The settings form's words: a label for every parameter the daemon lists,
// sizes shown and read as "1 GiB", fixed words translated. The daemon's
// list is its real catalogue (engine::all_benchmarks(), what
// Manager.ListBenchmarks() and ListParameterChoices() publish), so a new
// parameter or choice without a label fails here.
#include "benchmark.hpp"

#include "model/parameter_choices.hpp"
#include "text/parameter_labels.hpp"

#include "po_file.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

using namespace diskbench;
using namespace diskbench::client;

TEST_CASE("every parameter of every benchmark the daemon lists has a label", "[client-model]")
{
    std::set<std::string_view> listed;
    for (const engine::BenchmarkInfo& info : engine::all_benchmarks())
        for (const engine::ParamSpec& spec : info.params) {
            INFO(info.kind << " " << spec.key);
            CHECK(has_parameter_label(spec.key));
            CHECK(parameter_label(spec.key) != spec.key); // words, not the key
            listed.insert(spec.key);
            // Byte fields hold unsigned numbers, and the daemon's offered
            // sizes are always of a parameter the table calls bytes.
            if (is_byte_parameter_key(spec.key))
                CHECK(spec.type == engine::ParamType::Unsigned);
            if (!spec.choices_bytes.empty())
                CHECK(is_byte_parameter_key(spec.key));
            for (const std::string_view word : spec.choices) {
                INFO(word);
                CHECK(has_choice_word(spec.key, word));
            }
        }
    CHECK(listed.size() > 30);
    // No stale rows: every key of the table is one the daemon lists.
    for (const std::string_view key : labelled_parameter_keys()) {
        INFO(key);
        CHECK(listed.count(key) == 1);
    }
}

TEST_CASE("every parameter's help the daemon publishes is translated (cs, ru)", "[client-model]")
{
    // po/meson.build extracts the help from the engine's *_param() calls;
    // a help built another way (not a literal there) would not be in the
    // catalogue, and the app would show it in English.
    for (const char* language : { "cs", "ru" }) {
        const std::map<std::string, std::string> po = testing::po_translations(language);
        std::size_t helps = 0;
        for (const engine::BenchmarkInfo& info : engine::all_benchmarks())
            for (const engine::ParamSpec& spec : info.params) {
                INFO(language << " " << info.kind << " " << spec.key << ": " << spec.description);
                const auto found = po.find(std::string(spec.description));
                REQUIRE(found != po.end());
                CHECK_FALSE(found->second.empty());
                CHECK(found->second != spec.description);
                ++helps;
            }
        CHECK(helps > 100);
    }
    // Without a catalogue bound (the test runs in the C locale) the help
    // is the daemon's, as it is for a text this version lacks.
    CHECK(parameter_help("Number of reads.") == "Number of reads.");
    CHECK(parameter_help("").empty());
}

TEST_CASE("labels and fixed words read as words, unknown ones as the daemon says", "[client-model]")
{
    CHECK(parameter_label("region_size") == "Test area");
    CHECK(parameter_label("block_size") == "Block size");
    CHECK(parameter_label("some_new_key") == "some_new_key");
    CHECK_FALSE(has_parameter_label("some_new_key"));
    CHECK(choice_word_label("mode", "preserve") == "Keep the data");
    CHECK(choice_word_label("backend", "io_uring") == "io_uring"); // a name
    CHECK(choice_word_label("backend", "windows") == "windows");   // unknown: as written

    ParameterInfo mode { "mode", "string", "", std::string("preserve"),
                         { std::string("preserve"), std::string("destroy") }, true, "" };
    CHECK(choice_label(mode, std::string("destroy")) == "Overwrite the data");
}

TEST_CASE("byte fields show sizes as people write them and read them back", "[client-model]")
{
    const ParameterInfo region { "region_size", "unsigned", "", std::int64_t { 1LL << 30 } };
    const ParameterInfo count { "count", "unsigned", "", std::int64_t { 1000 } };
    const ParameterInfo offered { "new_size", "unsigned", "", std::int64_t { 0 }, {}, false, "bytes" };
    CHECK(is_byte_parameter(region));
    CHECK_FALSE(is_byte_parameter(count));
    CHECK(is_byte_parameter(offered)); // the daemon says so (ListParameterChoices unit)

    CHECK(size_field_text("region_size", 1ULL << 30) == "1 GiB");
    CHECK(size_field_text("region_size", 3ULL << 29) == "1.5 GiB");
    CHECK(size_field_text("block_size", 4096) == "4 KiB");
    CHECK(size_field_text("region_size", 0) == "0 B");
    // 0 means something for these: an empty field with that as placeholder.
    CHECK(size_field_text("block_size", 0).empty());
    CHECK(zero_meaning("block_size") == "Device's block size");
    CHECK(zero_meaning("region_size").empty());

    for (const auto& [text, bytes] : std::initializer_list<std::pair<const char*, std::int64_t>> {
             { "1 GiB", 1LL << 30 }, { "1G", 1LL << 30 }, { "512 MiB", 512LL << 20 }, { "4k", 4096 },
             { "4096", 4096 }, { " 2 TiB", 2LL << 40 }, { "1.5 GiB", 3LL << 29 } }) {
        INFO(text);
        const SizeInput read = read_size_field(region, text);
        CHECK(read.value == bytes);
        CHECK(read.error.empty());
    }
    for (const char* bad : { "lots", "1 GB", "-4k", "0.1k", "12 parsecs", "" }) {
        INFO(bad);
        const SizeInput read = read_size_field(region, bad);
        CHECK_FALSE(read.value.has_value());
        CHECK_FALSE(read.error.empty());
    }
    // An empty field is 0 where 0 has a meaning.
    const ParameterInfo block { "block_size", "unsigned", "", std::int64_t { 0 } };
    CHECK(read_size_field(block, "").value == 0);
}

TEST_CASE("byte fields keep to the range the daemon gives", "[client-model]")
{
    ParameterInfo region { "region_size", "unsigned", "", std::int64_t { 1LL << 30 } };
    region.ranged = true;
    region.minimum = 1 << 20;
    region.maximum = static_cast<double>(1ULL << 40);
    CHECK(read_size_field(region, "1 MiB").value == 1 << 20);
    CHECK(read_size_field(region, "1 TiB").value == 1LL << 40);
    const SizeInput small = read_size_field(region, "4k");
    CHECK_FALSE(small.value.has_value());
    CHECK(small.error == "At least 1 MiB.");
    const SizeInput big = read_size_field(region, "2 TiB");
    CHECK_FALSE(big.value.has_value());
    CHECK(big.error == "At most 1 TiB.");
    // The real catalogue's ranges hold each byte parameter's default.
    for (const engine::BenchmarkInfo& info : engine::all_benchmarks())
        for (const engine::ParamSpec& spec : info.params)
            if (is_byte_parameter_key(spec.key)) {
                INFO(info.kind << " " << spec.key);
                const auto fallback = std::get<std::uint64_t>(spec.default_value);
                ParameterInfo p { std::string(spec.key), "unsigned", "", static_cast<std::int64_t>(fallback) };
                p.ranged = true;
                p.minimum = spec.minimum;
                p.maximum = spec.maximum;
                const SizeInput shown = read_size_field(p, size_field_text(spec.key, fallback));
                CHECK(shown.value == static_cast<std::int64_t>(fallback));
            }
}
