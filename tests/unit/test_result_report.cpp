// SPDX-License-Identifier: GPL-3.0-or-later
// A result as text (libdiskbench-client/results/result_report): what
// `diskbenchctl run` and `show` print and the app's Copy as text gives.
// Golden files: a seek on a loop device (headline with percentiles, named
// figures with units, the checks as ✓/⚠, the warnings the checks do not
// cover, the device line) and a fake stick's capacity check; the raw keys
// only with --keys. A change of the layout changes the files, on purpose.
#include "result_text.hpp"

#include "results/result_csv.hpp"
#include "results/crystal_report.hpp"
#include "results/result_report.hpp"
#include "text/figure_labels.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>

using namespace diskbench;
using client::SavedResult;

namespace {

// The expected text of NAME; with DISKBENCH_UPDATE_GOLDEN=1 in the
// environment, ACTUAL is written there first (then review the diff).
std::string golden(const std::string& name, const std::string& actual)
{
    const std::string path = std::string(DISKBENCH_SOURCE_ROOT) + "/tests/unit/golden/" + name;
    if (const char* update = std::getenv("DISKBENCH_UPDATE_GOLDEN"); update && std::string(update) == "1")
        std::ofstream(path) << actual;
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

SavedResult seek_result()
{
    SavedResult result;
    result.kind = "seek";
    result.state = "finished";
    result.backend = "io_uring";
    result.target = "/org/diskbench/DiskBench1/devices/loop0";
    result.started_at_us = 1'800'000'000'000'000;
    result.finished_at_us = result.started_at_us + 3'200'000;
    result.device_info = { { "node", std::string("/dev/loop0") },
                           { "model", std::string("WDC WD40EFRX") },
                           { "size", std::int64_t { 4'000'787'030'016 } },
                           { "stack_line", std::string("loop0 (file on ext4) → vda, virtual (virtio)") } };
    result.summary = {
        { "reads", std::int64_t { 1000 } },
        { "latency_mean_us", 8'512.5 },
        { "latency_min_us", 96.0 },
        { "latency_p50_us", 8'100.0 },
        { "latency_p90_us", 14'200.0 },
        { "latency_p99_us", 21'400.0 },
        { "latency_p99_9_us", 420'479.0 },
        { "latency_max_us", 431'002.0 },
        { "bytes", std::int64_t { 4'096'000 } },
        { "seconds", 8.61 },
        { "checked_device", std::string("loop0") },
        { "issued_read_bytes", std::int64_t { 4'096'000 } },
        { "device_read_bytes", std::int64_t { 4'096'000 } },
        { "issued_write_bytes", std::int64_t { 0 } },
        { "device_write_bytes", std::int64_t { 0 } },
        { "backing_read_bytes", std::int64_t { 647'168 } },
        { "link", std::string("virtual (loop)") },
        { "stack", std::string("loop0 (file on ext4) → vda, virtual (virtio)") },
        { "io_uring_features", std::string("defer_taskrun,registered_ring") },
    };
    result.warnings = { "the target is a regular file: the figures include its filesystem and the device under it" };
    result.notes = { "block sizes below 4 KiB left out: the device's logical block is 4096 bytes" };
    return result;
}

struct UtcClock {
    UtcClock()
    {
        setenv("TZ", "UTC", 1);
        tzset();
    }
};

} // namespace

TEST_CASE("a seek as text: headline, named figures with units, checks, device line", "[cli]")
{
    const UtcClock utc;
    const SavedResult result = seek_result();
    const std::string text = cli::result_summary_text(result);
    CHECK(text == golden("seek-report.txt", text));
    // The raw keys only when asked for.
    CHECK(text.find("latency_p99_9_us") == std::string::npos);
    CHECK(text.find("backing_read_bytes") == std::string::npos);
    const std::string keys = cli::result_summary_text(result, true);
    CHECK(keys.starts_with(text));
    CHECK(keys.find("latency_p99_9_us") != std::string::npos);
    CHECK(keys.find("420479") != std::string::npos);
    // The app's Copy as text: the same, unescaped.
    CHECK(client::result_report(result, [](std::string_view s) { return std::string(s); }) == text);
}

TEST_CASE("a fake stick's capacity check as text leads with the loss", "[cli]")
{
    const UtcClock utc;
    SavedResult result = seek_result();
    result.kind = "verify-capacity";
    result.summary = { { "claimed_bytes", std::int64_t { 256LL << 30 } },
                       { "real_size_bytes", std::int64_t { 16'965'120'000 } },
                       { "lost_bytes", std::int64_t { (256LL << 30) - 16'965'120'000 } },
                       { "boundary_uncertainty_bytes", std::int64_t { 0 } },
                       { "failure", std::string("wraps") },
                       { "probes", std::int64_t { 4197 } },
                       { "probe_block", std::int64_t { 65536 } },
                       { "mode", std::string("destroy") },
                       { "written_range_bytes", std::int64_t { 256LL << 30 } } };
    result.warnings = { "data beyond 15.8 GiB of the claimed 256 GiB is lost: this device is not what it claims; keep "
                        "nothing on it past 15.8 GiB" };
    result.notes = {};
    const std::string text = cli::result_summary_text(result);
    CHECK(text == golden("capacity-report.txt", text));
}

TEST_CASE("a device's Profiles as text in CrystalDiskMark's layout, with the checks and the device", "[cli]")
{
    const UtcClock utc;
    SavedResult result = seek_result();
    result.kind = "profile";
    result.parameters = { { "preset", std::string("peak") }, { "duration_s", 5.0 }, { "interval_s", 2.0 },
                          { "passes", std::int64_t { 3 } } };
    result.summary = { { "tests", std::string("SEQ1M Q8T1,RND4K Q32T16") },
                       { "region_size", std::int64_t { 1LL << 30 } },
                       { "interval_s", 2.0 },
                       { "seq1m_q8t1.throughput_mb_s", 3512.345678 },
                       { "seq1m_q8t1.iops", 3349.6 },
                       { "seq1m_q8t1.latency_mean_us", 2386.71 },
                       { "rnd4k_q32t16.throughput_mb_s", 1234.5 },
                       { "rnd4k_q32t16.iops", 301391.6 },
                       { "rnd4k_q32t16.latency_mean_us", 1698.4 },
                       { "checked_device", std::string("loop0") },
                       { "issued_read_bytes", std::int64_t { 4'096'000 } },
                       { "device_read_bytes", std::int64_t { 4'096'000 } } };
    result.warnings = {};
    result.notes = {};
    const std::string text = cli::result_summary_text(result);
    CHECK(text == golden("profile-report.txt", text));
    CHECK(client::result_report(result, [](std::string_view s) { return std::string(s); }) == text);
    // CrystalDiskMark's own scoring, said in the footer.
    result.summary["scoring"] = std::string("best");
    result.summary["passes"] = std::int64_t { 3 };
    CHECK_THAT(cli::result_summary_text(result), Catch::Contains("\n  Score: best of 3 passes, after a warm-up pass\n"));
    result.summary["scoring"] = std::string("median");
    CHECK_THAT(cli::result_summary_text(result), Catch::Contains("\n  Score: median of 3 passes\n"));
    CHECK(client::crystal_test_name("SEQ128K Q32T1") == "SEQ  128KiB (Q= 32, T= 1)");
    CHECK(client::crystal_test_name("RND4K Q1T16") == "RND    4KiB (Q=  1, T=16)");
    CHECK(client::crystal_test_name("MIX RND4K Q1T1") == "MIX RND4K Q1T1"); // not a test's own name
    CHECK(client::crystal_test_name("SEQ1M Q8") == "SEQ1M Q8");
}

TEST_CASE("a device's Profiles with the write column: [Read], [Write] and [Mix] as CrystalDiskMark's", "[cli]")
{
    const UtcClock utc;
    SavedResult result = seek_result();
    result.kind = "profile";
    result.parameters = { { "write", true }, { "mode", std::string("destroy") } };
    result.summary = { { "tests", std::string("SEQ1M Q8T1,RND4K Q32T1,MIX RND4K Q1T1") },
                       { "written_tests", std::string("SEQ1M Q8T1,RND4K Q32T1") },
                       { "mode", std::string("destroy") },
                       { "region_size", std::int64_t { 1LL << 30 } },
                       { "seq1m_q8t1.throughput_mb_s", 3512.5 },
                       { "seq1m_q8t1.iops", 3349.6 },
                       { "seq1m_q8t1.latency_mean_us", 2386.71 },
                       { "seq1m_q8t1.write_throughput_mb_s", 2980.25 },
                       { "seq1m_q8t1.write_iops", 2842.2 },
                       { "seq1m_q8t1.write_latency_mean_us", 2812.5 },
                       { "rnd4k_q32t1.throughput_mb_s", 812.0 },
                       { "rnd4k_q32t1.iops", 198242.2 },
                       { "rnd4k_q32t1.write_throughput_mb_s", 402.0 },
                       { "rnd4k_q32t1.write_iops", 98144.5 },
                       { "mix.total_mb_s", 61.5 },
                       { "mix.read_percent", std::int64_t { 70 } },
                       { "mix.read_iops", 10500.0 },
                       { "mix.write_iops", 4500.0 },
                       { "mix.read_latency_mean_us", 70.0 },
                       { "mix.write_latency_mean_us", 40.0 } };
    result.warnings = {};
    result.notes = {};
    const std::string text = cli::result_summary_text(result);
    CHECK_THAT(text, Catch::Contains("[Read]\n  SEQ    1MiB (Q=  8, T= 1):  3512.500 MB/s [    3349.6 IOPS] < 2386.71 us>\n"));
    CHECK_THAT(text, Catch::Contains("[Write]\n  SEQ    1MiB (Q=  8, T= 1):  2980.250 MB/s [    2842.2 IOPS] < 2812.50 us>\n"
                                     "  RND    4KiB (Q= 32, T= 1):   402.000 MB/s [   98144.5 IOPS] <       - us>\n"));
    // The mixed test's mean latency weighs each direction by its requests.
    CHECK_THAT(text, Catch::Contains("[Mix] Read 70%/Write 30%\n  RND    4KiB (Q=  1, T= 1):    61.500 MB/s [   15000.0 IOPS] <   61.00 us>\n"));
    CHECK_THAT(text, !Catch::Contains("data kept"));
    // Written keeping the data: said, since CrystalDiskMark's writes erase.
    result.summary["mode"] = std::string("preserve");
    CHECK_THAT(cli::result_summary_text(result),
               Catch::Contains("[Write]\n  SEQ    1MiB (Q=  8, T= 1):  2980.250 MB/s [    2842.2 IOPS] < 2812.50 us>\n"));
    CHECK_THAT(cli::result_summary_text(result), Catch::Contains("  (data kept: each range read first"));
}

TEST_CASE("text from a result file cannot reach the terminal as control characters", "[cli]")
{
    const UtcClock utc;
    SavedResult result = seek_result();
    result.device_info["model"] = std::string("Evil\x1b]0;owned\x07\nDisk");
    result.warnings = { "warning\x1b[2J" };
    // A headline label made from a summary key (a rate's name).
    result.kind = "file-rw";
    result.summary = { { "evil\x1b]0;x\x07_mb_s", 12.0 } };
    const std::string text = cli::result_summary_text(result);
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find("Evil\\x1b]0;owned\\x07\\x0aDisk") != std::string::npos);
    CHECK(text.find("⚠ warning\\x1b[2J") != std::string::npos);
    CHECK(text.find("evil\\x1b]0;x\\x07 12 MB/s") != std::string::npos);
}

TEST_CASE("figure labels: rates of files and operations are rates, not times", "[cli]")
{
    CHECK(client::figure_label("read_files_s").unit == client::Unit::OperationsPerSecond);
    CHECK(client::figure_label("delete_ops_s").unit == client::Unit::OperationsPerSecond);
    CHECK(client::figure_label("read_files_s").label == "Read files");
    CHECK(client::figure_label("cliff_at_s").unit == client::Unit::Seconds);
    CHECK(client::figure_label("seq1m_q8t1.throughput_mb_s").label == "SEQ1M Q8T1 throughput");
    CHECK_FALSE(client::figure_label("backing_read_bytes").shown);
    CHECK(client::figure_value_text(client::figure_label("bad_bytes"), 1e300) != "");
}

TEST_CASE("a result's series as CSV: one file per series, units in the header, C numbers", "[cli]")
{
    SavedResult result = seek_result();
    result.kind = "overview";
    result.series = { { "read", "B", "MB/s", "line", { { 0, 151.25 }, { 10485760, 1e-3 } } },
                      { "read.partial", "B", "MB/s", "line", { { 0, 1 } } },
                      { "access, \"odd\"", "B", "us", "scatter", { { 4096, 8512.5 } } },
                      { "../../etc/passwd", "s", "", "line", {} } };
    const auto files = client::result_csv(result);
    REQUIRE(files.size() == 3); // the partial series is a live view, not data
    CHECK(files[0].series == "read");
    CHECK(files[0].text == "position (B),read (MB/s)\r\n0,151.25\r\n10485760,0.001\r\n");
    CHECK(files[1].text == "position (B),\"access, \"\"odd\"\" (us)\"\r\n4096,8512.5\r\n");
    CHECK(files[2].text == "time (s),../../etc/passwd\r\n");
    // File names stay in the prefix's folder, whatever a series is called.
    CHECK(client::csv_file_name("out/seek", files[0]) == "out/seek-read.csv");
    CHECK(client::csv_file_name("out/seek", files[2]) == "out/seek-_._.__etc_passwd.csv");
    result.series = { { "", "s", "", "line", {} } };
    CHECK(client::csv_file_name("out/seek", client::result_csv(result).at(0)) == "out/seek-series.csv");
    CHECK(client::csv_field("plain") == "plain");
    CHECK(client::csv_field("a\nb") == "\"a\nb\"");
}

TEST_CASE("CSV of a hostile result: no formula, no control character, no file written over another", "[cli]")
{
    SavedResult result = seek_result();
    result.kind = "overview";
    const std::vector<contract::SeriesPoint> points { { -1, -2.5 }, { 0, 1e-3 } };
    result.series = { { "=HYPERLINK(\"http://x\")", "B", "", "line", points },
                      { "+1", "B", "", "line", points },
                      { "-2", "B", "", "line", points },
                      { "@SUM(A1)", "B", "", "line", points },
                      { "\tx", "B", "", "line", points },
                      { "\rx", "B", "", "line", points },
                      { "evil\x1b]0;owned\x07\x1b[2J\nverified OK \u009b31m\x7f", "B", "", "line", points },
                      { "a/b", "s", "=cmd", "line", points },
                      { "a_b", "s", "", "line", points },
                      { "A_B", "s", "", "line", points },
                      { "a_b-2", "s", "", "line", points } };
    const std::vector<client::CsvFile> files = client::result_csv(result);
    REQUIRE(files.size() == 11);
    // Formula-leading text cells get their "'"; the numbers we write, negative ones too, stay numbers.
    CHECK(files[0].text == "position (B),\"'=HYPERLINK(\"\"http://x\"\")\"\r\n-1,-2.5\r\n0,0.001\r\n");
    CHECK(files[1].text.starts_with("position (B),'+1\r\n-1,-2.5\r\n"));
    CHECK(files[2].text.starts_with("position (B),'-2\r\n-1,-2.5\r\n"));
    CHECK(files[3].text.starts_with("position (B),'@SUM(A1)\r\n"));
    // A tab or CR is written as its \xNN text, no longer first: no "'" needed, none added.
    CHECK(files[4].text.starts_with("position (B),\\x09x\r\n"));
    CHECK(files[5].text.starts_with("position (B),\\x0dx\r\n"));
    CHECK(files[6].text.starts_with(
        "position (B),evil\\x1b]0;owned\\x07\\x1b[2J\\x0averified OK \\xc2\\x9b31m\\x7f\r\n-1,-2.5\r\n"));
    CHECK(files[7].text.starts_with("time (s),a/b (=cmd)\r\n"));
    for (const client::CsvFile& file : files) {
        INFO(file.text);
        CHECK(std::none_of(file.text.begin(), file.text.end(), [](char c) {
            const auto byte = static_cast<unsigned char>(c);
            return (byte < 0x20 && c != '\r' && c != '\n') || byte == 0x7F;
        }));
        CHECK(file.text.find("\xC2\x9B") == std::string::npos);
        // One header row and the points' rows: no line break of a name starts a row.
        CHECK(std::count(file.text.begin(), file.text.end(), '\n') == 3);
    }
    // The cell rule alone, for any text.
    CHECK(client::csv_text_field("-3") == "'-3");
    CHECK(client::csv_text_field("=1+2") == "'=1+2");
    CHECK(client::csv_text_field("a=1") == "a=1");
    CHECK(client::csv_text_field("") == "");
    CHECK(client::csv_text_field("x, y") == "\"x, y\"");
    // Names that come to the same file: numbered in the result's order,
    // the case ignored (FAT, exFAT), a name already numbered taken into account.
    std::vector<std::string> names;
    for (const client::CsvFile& file : files)
        names.push_back(client::csv_file_name("out/r", file));
    CHECK(names[7] == "out/r-a_b.csv");
    CHECK(names[8] == "out/r-a_b-2.csv");
    CHECK(names[9] == "out/r-A_B-3.csv");
    CHECK(names[10] == "out/r-a_b-2-2.csv");
    std::set<std::string> folded;
    for (std::string name : names) {
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        CHECK(folded.insert(name).second);
    }
    // The same result, the same names.
    CHECK(client::csv_file_name("out/r", client::result_csv(result)[9]) == names[9]);
}
