// SPDX-License-Identifier: GPL-3.0-or-later
// The contract library: what the daemon and its clients agree on.
#include "contract/benchmark_kinds.hpp"
#include "contract/byte_size.hpp"
#include "contract/confirmation.hpp"
#include "contract/display_text.hpp"
#include "contract/error_names.hpp"
#include "contract/result_file.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

using namespace diskbench::contract;

TEST_CASE("every error code has a name under the prefix that maps back to it", "[contract]")
{
    const ErrorCode all[] = {
        ErrorCode::NotAuthorized,  ErrorCode::NotAuthorizedCanObtain, ErrorCode::NotAuthorizedDismissed,
        ErrorCode::InvalidArgument, ErrorCode::NotFound,              ErrorCode::DeviceBusy,
        ErrorCode::PermissionDenied, ErrorCode::NoSpace,              ErrorCode::LimitsExceeded,
        ErrorCode::Cancelled,      ErrorCode::Failed,
    };
    std::set<std::string_view> names;
    for (const ErrorCode code : all) {
        const std::string_view name = error_name(code);
        CHECK(name.starts_with(error_prefix));
        CHECK(name.size() > error_prefix.size());
        CHECK(error_code_from_name(name) == code);
        CHECK_FALSE(error_meaning(code).empty());
        names.insert(name);
    }
    CHECK(names.size() == std::size(all));
    CHECK(error_name(ErrorCode::NoSpace) == "org.diskbench.DiskBench1.Error.NoSpace");
    CHECK(error_name(ErrorCode::NotAuthorizedDismissed) == "org.diskbench.DiskBench1.Error.NotAuthorizedDismissed");

    CHECK_FALSE(error_code_from_name("org.freedesktop.DBus.Error.ServiceUnknown"));
    CHECK_FALSE(error_code_from_name("NoSpace")); // only full names
    CHECK_FALSE(error_code_from_name("org.diskbench.DiskBench1.Error."));
    CHECK_FALSE(error_code_from_name(""));
}

TEST_CASE("the erase confirmation ignores blanks around, nothing else", "[contract]")
{
    CHECK(without_blanks_around("  S3Z9\t\r\n") == "S3Z9");
    CHECK(without_blanks_around(" a b ") == "a b");
    CHECK(without_blanks_around(" \t\n").empty());

    CHECK(confirmation_matches("S3Z9NB0K123456", "S3Z9NB0K123456"));
    CHECK(confirmation_matches("  S3Z9NB0K123456\n", "S3Z9NB0K123456"));
    CHECK(confirmation_matches("S3Z9NB0K123456", "  S3Z9NB0K123456 ")); // a padded serial
    CHECK_FALSE(confirmation_matches("S3Z9NB0K12345", "S3Z9NB0K123456"));
    CHECK_FALSE(confirmation_matches("s3z9nb0k123456", "S3Z9NB0K123456"));
    CHECK_FALSE(confirmation_matches("S3Z9 NB0K123456", "S3Z9NB0K123456"));
    CHECK_FALSE(confirmation_matches("", ""));
    CHECK_FALSE(confirmation_matches("  ", " "));
}

TEST_CASE("benchmark kinds: names, which write the device, which only erase", "[contract]")
{
    const std::set<std::string_view> names(kinds::all.begin(), kinds::all.end());
    CHECK(names.size() == kinds::all.size());
    for (const std::string_view kind : kinds::erase_only)
        CHECK(kinds::writes_device(kind));
    for (const std::string_view kind : kinds::raw_writes)
        CHECK_FALSE(kinds::in_folder(kind));
    CHECK(kinds::writes_device("device-write"));
    CHECK_FALSE(kinds::erases_only("device-write"));
    CHECK(kinds::erases_only("sustained-write"));
    CHECK_FALSE(kinds::writes_device("seek"));
    CHECK(kinds::in_folder("small-files"));
    CHECK_FALSE(kinds::in_folder("sequential"));

    CHECK(kinds::sweep_size_count(512, 512) == 1);
    CHECK(kinds::sweep_size_count(512, 16 * 1024 * 1024) == 16);
    CHECK(kinds::sweep_size_count(4096, 65536) == 5);
    CHECK(kinds::sweep_size_count(4096, 6000) == 1);
    CHECK(kinds::sweep_size_count(0, 4096) == 0);
    CHECK(kinds::sweep_size_count(8192, 4096) == 0);
}

TEST_CASE("a result file written and read back is the same result", "[contract]")
{
    SavedResult result;
    result.kind = std::string(kinds::file_rw);
    result.state = "finished";
    result.backend = "io_uring";
    result.target_kind = "directory";
    result.target = "/home/ann/Music";
    result.started_at_us = 1'700'000'000'000'000;
    result.finished_at_us = 1'700'000'012'345'678;
    result.parameters = { { "size", std::int64_t { 1 } << 30 }, { "direct", true }, { "pattern", std::string("seq") } };
    result.summary = { { "throughput_mb_s", 512.25 }, { "files", std::int64_t { -3 } } };
    result.device_info = { { "filesystem_type", std::string("ext4") } };
    result.warnings = { "the page cache was warm" };
    result.notes = { "size scaled down to 1 GiB", "ünïcødé ✓" };
    result.series = { { "write", "B", "MB/s", "line", { { 0, 1.5 }, { 4096, 1e9 }, { 8192, 0.1 } } },
                      { "read", "B", "MB/s", "line", {} } };

    const std::string text = result_to_json(result);
    CHECK(text.ends_with("\n"));
    const auto loaded = result_from_json(text);
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    CHECK(std::get<SavedResult>(loaded) == result);
    CHECK(std::get<SavedResult>(loaded).folder_name() == "Music");
    // The same text again: writing is deterministic, so files diff cleanly.
    CHECK(result_to_json(std::get<SavedResult>(loaded)) == text);

    const auto broken = result_from_json(text.substr(0, text.size() / 2));
    REQUIRE(std::holds_alternative<LoadError>(broken));
    CHECK(std::get<LoadError>(broken).kind == LoadError::Kind::Corrupt);
}

TEST_CASE("byte sizes are read as people write them", "[contract]")
{
    const std::uint64_t KiB = 1024, MiB = KiB << 10, GiB = MiB << 10, TiB = GiB << 10;
    CHECK(parse_byte_size("4096") == 4096u);
    CHECK(parse_byte_size("1 GiB") == GiB);
    CHECK(parse_byte_size("1G") == GiB);
    CHECK(parse_byte_size("1g") == GiB);
    CHECK(parse_byte_size("1gib") == GiB);
    CHECK(parse_byte_size("512 MiB") == 512 * MiB);
    CHECK(parse_byte_size("4k") == 4 * KiB);
    CHECK(parse_byte_size("4 K") == 4 * KiB);
    CHECK(parse_byte_size(" 2 TiB ") == 2 * TiB);
    CHECK(parse_byte_size("1.5 GiB") == GiB + GiB / 2);
    CHECK(parse_byte_size("0.25k") == 256u);
    CHECK(parse_byte_size("100 B") == 100u);
    // Fractions of a byte, signs, SI units, words, overflow: refused.
    for (const char* bad : { "", "GiB", "-1", "+1", "1.", ".5G", "0.1k", "1.5", "1 GB", "1 KB", "1 GiBs", "12x",
                             "1 G iB", "one", "9223372036854775808", "8388608 TiB", "1e3" })
        CHECK_FALSE(parse_byte_size(bad).has_value());
    CHECK(parse_byte_size("9223372036854775807") == 9223372036854775807u);
}

TEST_CASE("byte sizes are shown exactly, and read back the same", "[contract]")
{
    const std::uint64_t KiB = 1024, MiB = KiB << 10, GiB = MiB << 10;
    CHECK(byte_size_text(GiB) == "1 GiB");
    CHECK(byte_size_text(512 * MiB) == "512 MiB");
    CHECK(byte_size_text(4 * KiB) == "4 KiB");
    CHECK(byte_size_text(GiB + GiB / 2) == "1.5 GiB");
    CHECK(byte_size_text(GiB + GiB / 4) == "1.25 GiB");
    CHECK(byte_size_text(GiB + 1) == "1073741825 B"); // no unit shows it exactly in two decimals
    CHECK(byte_size_text(1536 * KiB) == "1.5 MiB");
    CHECK(byte_size_text(0) == "0 B");
    CHECK(byte_size_text(1000) == "1000 B");
    const ByteUnitNames russian = { "Б", "КиБ", "МиБ", "ГиБ", "ТиБ" };
    CHECK(byte_size_text(GiB, russian) == "1 ГиБ");
    CHECK(parse_byte_size("1 ГиБ", russian) == GiB);
    CHECK(parse_byte_size("1 гиб", russian) == GiB);
    CHECK(parse_byte_size("1 GiB", russian) == GiB); // English keeps working
    for (const std::uint64_t bytes : { std::uint64_t { 0 }, std::uint64_t { 1 }, 4 * KiB, 1000 * KiB, 3 * GiB / 4,
                                       GiB + 12345, 100 * GiB, (std::uint64_t { 1 } << 62) + 3 * MiB })
        CHECK(parse_byte_size(byte_size_text(bytes)) == bytes);
}

TEST_CASE("result files too deep or too large are refused before json-glib parses them", "[contract]")
{
    // 200,000 nested arrays: valid JSON that overflowed json-glib's
    // recursive parser (a crash of every reader, issue 26).
    const std::size_t levels = 200000;
    const std::string deep = std::string(levels, '[') + std::string(levels, ']');
    auto loaded = result_from_json(deep);
    REQUIRE(std::holds_alternative<LoadError>(loaded));
    CHECK(std::get<LoadError>(loaded).kind == LoadError::Kind::Corrupt);
    CHECK(std::get<LoadError>(loaded).message.find("64") != std::string::npos);
    // Brackets inside strings are text, not nesting.
    SavedResult result;
    result.kind = "seek";
    result.state = "finished";
    result.notes = { std::string(100, '[') + std::string(100, '{') };
    loaded = result_from_json(result_to_json(result));
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    CHECK(std::get<SavedResult>(loaded) == result);

    // Through the file reader: a regular file only, within the size limit.
    char directory[] = "/tmp/diskbench-contract-XXXXXX";
    REQUIRE(::mkdtemp(directory));
    const std::string folder = directory;
    const std::string deep_file = folder + "/deep.json";
    std::FILE* file = std::fopen(deep_file.c_str(), "w");
    REQUIRE(file);
    std::fputs(deep.c_str(), file);
    std::fclose(file);
    loaded = result_from_file(deep_file);
    REQUIRE(std::holds_alternative<LoadError>(loaded));
    CHECK(std::get<LoadError>(loaded).kind == LoadError::Kind::Corrupt);

    const std::string large_file = folder + "/large.json";
    file = std::fopen(large_file.c_str(), "w");
    REQUIRE(file);
    REQUIRE(::ftruncate(::fileno(file), static_cast<off_t>(max_result_file_bytes) + 1) == 0); // sparse
    std::fclose(file);
    loaded = result_from_file(large_file);
    REQUIRE(std::holds_alternative<LoadError>(loaded));
    CHECK(std::get<LoadError>(loaded).kind == LoadError::Kind::Unreadable);

    const std::string fifo = folder + "/fifo.json";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    loaded = result_from_file(fifo); // refused at once, not waiting for a writer
    REQUIRE(std::holds_alternative<LoadError>(loaded));
    CHECK(std::get<LoadError>(loaded).kind == LoadError::Kind::Unreadable);

    const std::string good_file = folder + "/good.json";
    file = std::fopen(good_file.c_str(), "w");
    REQUIRE(file);
    std::fputs(result_to_json(result).c_str(), file);
    std::fclose(file);
    loaded = result_from_file(good_file);
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    CHECK(std::get<SavedResult>(loaded) == result);

    for (const std::string& path : { deep_file, large_file, fifo, good_file })
        std::remove(path.c_str());
    ::rmdir(directory);
}

TEST_CASE("result JSON carries DEL and C1 controls as \\u escapes", "[contract]")
{
    SavedResult result;
    result.kind = "seek";
    result.state = "finished";
    result.notes = { "a\x1b]0;title\x07 b\x7f c\xc2\x9b" "31m d\xc3\xa9" };
    const std::string text = result_to_json(result);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find('\x7f') == std::string::npos);
    CHECK(text.find("\xc2\x9b") == std::string::npos);
    CHECK(text.find("\\u007f") != std::string::npos);
    CHECK(text.find("\\u009b") != std::string::npos);
    CHECK(text.find("d\xc3\xa9") != std::string::npos); // other characters stay
    const auto loaded = result_from_json(text);
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    CHECK(std::get<SavedResult>(loaded) == result);
}

TEST_CASE("display text: C1 controls escaped only when asked", "[contract]")
{
    using diskbench::contract::Controls;
    using diskbench::contract::display_text;
    CHECK(display_text("a\xc2\x9b" "b") == "a\xc2\x9b" "b");
    CHECK(display_text("a\xc2\x9b" "b", Controls::C0AndC1) == "a\\xc2\\x9bb");
    CHECK(display_text("\xc2\x80\xc2\x9f\xc2\xa0", Controls::C0AndC1) == "\\xc2\\x80\\xc2\\x9f\xc2\xa0");
    CHECK(display_text("\x1b[2J\x7f\n", Controls::C0AndC1) == "\\x1b[2J\\x7f\\x0a");
}
