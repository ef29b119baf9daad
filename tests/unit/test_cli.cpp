// SPDX-License-Identifier: GPL-3.0-or-later
// diskbenchctl's parts that need no bus: the command line, value typing
// from the daemon's parameter list, exit statuses, tables and result text.
#include "command_line.hpp"
#include "exit_codes.hpp"
#include "parameter_values.hpp"
#include "result_text.hpp"
#include "text_table.hpp"

#include "contract/error_names.hpp"
#include "text/terminal_text.hpp"

#include <catch2/catch.hpp>

#include <clocale>
#include <set>

using namespace diskbench::cli;
using diskbench::client::BenchmarkInfo;
using diskbench::client::ParameterInfo;
using diskbench::client::SavedResult;

namespace {

BenchmarkInfo seek_like()
{
    return BenchmarkInfo {
        "seek", "device", "Access time", "",
        {
            ParameterInfo { "count", "unsigned", "Number of reads.", std::int64_t { 1000 } },
            ParameterInfo { "duration_s", "number", "Seconds.", 1.0 },
            ParameterInfo { "direct", "boolean", "O_DIRECT.", true },
            ParameterInfo { "pattern", "string", "Pattern.", std::string("random") },
        },
    };
}

std::optional<SavedValue> typed(const char* key, const std::string& text, std::string& error)
{
    for (const ParameterInfo& p : seek_like().parameters)
        if (p.key == key)
            return typed_value(p, text, error);
    FAIL("no such test parameter");
    return std::nullopt;
}

} // namespace

TEST_CASE("values are typed from the daemon's parameter types", "[cli]")
{
    std::string error;
    CHECK(typed("count", "1000", error) == SavedValue(std::int64_t { 1000 }));
    CHECK(typed("count", "4k", error) == SavedValue(std::int64_t { 4096 }));
    CHECK(typed("count", "2M", error) == SavedValue(std::int64_t { 2 << 20 }));
    CHECK(typed("count", "1GiB", error) == SavedValue(std::int64_t { 1 } << 30));
    // The app's forms, through the same parser (contract/byte_size).
    CHECK(typed("count", "1 GiB", error) == SavedValue(std::int64_t { 1 } << 30));
    CHECK(typed("count", "512 MiB", error) == SavedValue(std::int64_t { 512 } << 20));
    CHECK(typed("count", "1.5G", error) == SavedValue(std::int64_t { 3 } << 29));
    CHECK(typed("duration_s", "2", error) == SavedValue(2.0));
    CHECK(typed("duration_s", "0.25", error) == SavedValue(0.25));
    CHECK(typed("direct", "no", error) == SavedValue(false));
    CHECK(typed("direct", "TRUE", error) == SavedValue(true));
    CHECK(typed("pattern", "sequential", error) == SavedValue(std::string("sequential")));
    CHECK(error.empty());
}

TEST_CASE("bad values are refused with the key and what was expected", "[cli]")
{
    for (const char* bad : { "-1", "", " 5", "12x", "1.5", "99999999999999999999", "9223372036854775807k" }) {
        std::string error;
        CHECK_FALSE(typed("count", bad, error));
        CHECK(error.rfind("count:", 0) == 0);
    }
    std::string error;
    CHECK_FALSE(typed("duration_s", "fast", error));
    CHECK_FALSE(typed("duration_s", "inf", error));
    CHECK_FALSE(typed("direct", "maybe", error));
    CHECK(error.find("direct") != std::string::npos);
}

TEST_CASE("a decimal point is a dot whatever the locale", "[cli]")
{
    const char* old = std::setlocale(LC_NUMERIC, "de_DE.UTF-8");
    std::string error;
    CHECK(typed("duration_s", "0.5", error) == SavedValue(0.5));
    if (old)
        std::setlocale(LC_NUMERIC, "C");
}

TEST_CASE("KEY=VALUE lists and --passes become the options map", "[cli]")
{
    BenchmarkInfo info = seek_like();
    std::string error;
    auto options = typed_options(info, { "count=200", "pattern=a=b" }, std::nullopt, error);
    REQUIRE(options);
    CHECK(options->at("count") == SavedValue(std::int64_t { 200 }));
    CHECK(options->at("pattern") == SavedValue(std::string("a=b"))); // only the first '=' splits
    CHECK(options->size() == 2);

    CHECK_FALSE(typed_options(info, { "blocks=3" }, std::nullopt, error));
    CHECK(error.find("blocks") != std::string::npos);
    CHECK(error.find("count") != std::string::npos); // says which keys exist
    CHECK_FALSE(typed_options(info, { "count" }, std::nullopt, error));
    CHECK_FALSE(typed_options(info, { "=3" }, std::nullopt, error));
    CHECK_FALSE(typed_options(info, { "count=1", "count=2" }, std::nullopt, error));

    // --passes only where the kind has a "passes" parameter.
    CHECK_FALSE(typed_options(info, {}, std::string("3"), error));
    CHECK(error.find("passes") != std::string::npos);
    info.parameters.push_back(ParameterInfo { "passes", "unsigned", "Passes.", std::int64_t { 1 } });
    options = typed_options(info, {}, std::string("3"), error);
    REQUIRE(options);
    CHECK(options->at("passes") == SavedValue(std::int64_t { 3 }));
    CHECK_FALSE(typed_options(info, { "passes=2" }, std::string("3"), error)); // given twice
}

TEST_CASE("the command line is checked before any bus call", "[cli]")
{
    std::string error;
    auto line = parse_command_line({ "run", "seek", "/dev/loop3", "count=5", "--json", "--output=r.json", "--passes", "2" },
                                   error);
    REQUIRE(line);
    CHECK(line->command == "run");
    CHECK(line->args == std::vector<std::string> { "seek", "/dev/loop3", "count=5" });
    CHECK(line->json);
    CHECK(line->output == "r.json");
    CHECK(line->passes == "2");
    CHECK_FALSE(line->no_save);

    line = parse_command_line({ "--no-ask-password", "history" }, error);
    REQUIRE(line);
    CHECK(line->no_ask_password);

    // "--" ends the options: a folder named "--json".
    line = parse_command_line({ "run", "file-rw", "--", "--json" }, error);
    REQUIRE(line);
    CHECK_FALSE(line->json);
    CHECK(line->args.back() == "--json");

    CHECK_FALSE(parse_command_line({}, error));
    CHECK_FALSE(parse_command_line({ "frobnicate" }, error));
    CHECK(error.find("frobnicate") != std::string::npos);
    CHECK_FALSE(parse_command_line({ "run", "seek" }, error));
    CHECK_FALSE(parse_command_line({ "devices", "extra" }, error));
    CHECK_FALSE(parse_command_line({ "devices", "--bogus" }, error));
    CHECK_FALSE(parse_command_line({ "cancel", "3", "--json" }, error));
    CHECK_FALSE(parse_command_line({ "devices", "--passes", "2" }, error));
    CHECK_FALSE(parse_command_line({ "run", "seek", "/dev/x", "--output" }, error));
    CHECK_FALSE(parse_command_line({ "history", "--json=yes" }, error));
    CHECK(parse_command_line({ "--help" }, error)->command == "help");
}

TEST_CASE("every daemon error has its own exit status", "[cli]")
{
    using diskbench::contract::ErrorCode;
    std::set<int> seen { exit_ok, exit_usage };
    for (ErrorCode code : { ErrorCode::NotAuthorized, ErrorCode::NotAuthorizedCanObtain, ErrorCode::NotAuthorizedDismissed,
                            ErrorCode::InvalidArgument, ErrorCode::NotFound, ErrorCode::DeviceBusy,
                            ErrorCode::PermissionDenied, ErrorCode::NoSpace, ErrorCode::LimitsExceeded,
                            ErrorCode::Cancelled, ErrorCode::Failed }) {
        const int status = exit_code_for_error(diskbench::contract::error_name(code));
        CHECK(seen.insert(status).second);
    }
    CHECK(exit_code_for_error("org.diskbench.DiskBench1.Error.NotAuthorizedCanObtain") == 4);
    CHECK(exit_code_for_error("org.freedesktop.DBus.Error.ServiceUnknown") == exit_no_daemon);
    CHECK(exit_code_for_error("org.diskbench.DiskBench1.Error.SomethingNewer") == exit_no_daemon);
}

TEST_CASE("tables pad by characters and align numbers right", "[cli]")
{
    TextTable table({ "Key", "Value" }, { TextTable::Align::Left, TextTable::Align::Right });
    table.add_row({ "latency_µs", "85" });
    table.add_row({ "mbps", "1234.5" });
    table.add_row({ "short" }); // a missing cell is empty
    CHECK(table.render()
          == "Key          Value\n"
             "latency_µs      85\n"
             "mbps        1234.5\n"
             "short\n");
    CHECK(display_width("µs·") == 3);
    CHECK(TextTable({ "A" }).empty());
}

TEST_CASE("result text: summary, warnings, comparison", "[cli]")
{
    SavedResult a;
    a.kind = "seek";
    a.state = "finished";
    a.device_info = { { "node", std::string("/dev/loop3") } };
    a.summary = { { "iops", 1000.0 }, { "reads", std::int64_t { 200 } } };
    a.warnings = { "The device is a loop device." };
    const std::string text = result_summary_text(a);
    CHECK(text.find("seek on /dev/loop3: finished") != std::string::npos);
    CHECK(text.find("Reads") != std::string::npos);
    CHECK(text.find("200") != std::string::npos);
    CHECK(text.find("⚠ The device is a loop device.") != std::string::npos);

    SavedResult b = a;
    b.summary = { { "iops", 1250.0 }, { "extra", std::string("x") } };
    const std::string compared = comparison_text(a, b);
    CHECK(compared.find("+25.0 %") != std::string::npos);
    CHECK(compared.find("extra") != std::string::npos);
    CHECK(change_text(0, 5).empty());
    CHECK(change_text(200, 100) == "-50.0 %");

    SavedResult folder;
    folder.target_kind = "directory";
    folder.target = "/home/ann/bench";
    CHECK(result_target_text(folder) == "folder /home/ann/bench");
}

TEST_CASE("the progress line: percent, time left, last value with its unit", "[cli]")
{
    diskbench::client::JobEntry job;
    job.kind = "seek";
    job.state = "running";
    job.progress = 0.5;
    const std::int64_t now = 1'800'000'000'000'000;
    job.started_at_us = static_cast<std::uint64_t>(now - 10'000'000); // half done in 10 s
    job.series = { { "latency", "B", "us", "scatter" } };
    job.points = { { { 4096, 85 }, { 8192, 1500 } } };
    const std::string line = progress_line(job, now);
    CHECK(line.rfind("seek  50 %", 0) == 0);
    CHECK(line.find("10 s left") != std::string::npos);
    CHECK(line.find("1.5 ms") != std::string::npos); // the newest point, not the first

    job.points = { {} }; // nothing measured yet: no value
    CHECK(progress_line(job, now).find("ms") == std::string::npos);
}

TEST_CASE("only an exclusive list refuses other values", "[cli]")
{
    std::string error;
    ParameterInfo preset { "preset", "string", "", std::string("default"),
                           { std::string("default"), std::string("nvme") }, true, "" };
    CHECK(typed_value(preset, "nvme", error) == SavedValue(std::string("nvme")));
    CHECK_FALSE(typed_value(preset, "fast", error));
    CHECK(error.find("preset") != std::string::npos);
    // Offered sizes are suggestions: any size is typed (the daemon checks the range).
    error.clear();
    ParameterInfo file_size { "file_size", "unsigned", "", std::int64_t { 1LL << 30 },
                              { std::int64_t { 16LL << 20 }, std::int64_t { 1LL << 30 } }, false, "bytes" };
    CHECK(typed_value(file_size, "3G", error) == SavedValue(std::int64_t { 3LL << 30 }));
    CHECK(error.empty());
}

TEST_CASE("what a result file says reaches the terminal escaped", "[cli]")
{
    // A hostile result file (issue 26): the terminal's title, clear screen,
    // a line of its own, a C1 CSI, a backslash.
    const std::string evil = "x\x1b]0;owned\x07\x1b[2J\n\xc2\x9b" "31mverified OK\\";
    const std::string escaped = "x\\x1b]0;owned\\x07\\x1b[2J\\x0a\\xc2\\x9b31mverified OK\\\\";
    CHECK(diskbench::client::terminal_text(evil) == escaped);
    CHECK(diskbench::client::terminal_text("Samsung SSD 860 · ünï") == "Samsung SSD 860 · ünï");

    SavedResult result;
    result.kind = "seek" + evil;
    result.state = "finished";
    result.backend = evil;
    result.device_info = { { "node", "/dev/sda" + evil } };
    result.summary = { { "iops" + evil, 1000.0 }, { "model", evil } };
    result.warnings = { evil };
    result.notes = { evil };
    for (const std::string& text : { result_summary_text(result), comparison_text(result, result) }) {
        CHECK(text.find('\x1b') == std::string::npos);
        CHECK(text.find('\x07') == std::string::npos);
        CHECK(text.find("\xc2\x9b") == std::string::npos);
        CHECK(text.find("\nverified OK") == std::string::npos);
        CHECK(text.find(escaped) != std::string::npos);
    }

    // Table cells (device models and serials from udisks, history rows).
    TextTable table({ "Model" });
    table.add_row({ evil });
    CHECK(table.render() == "Model\n" + escaped + "\n");
}
