// SPDX-License-Identifier: GPL-3.0-or-later
// The folder Profiles page's models: the grid's rows filling in as a run's
// tests end, its text in CrystalDiskMark's layout, the drop-down values of parameters with
// a list (sizes as "1 GiB").
#include "model/benchmark_description.hpp"
#include "model/file_profile_report.hpp"
#include "model/parameter_choices.hpp"
#include "results/result_report.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

using namespace diskbench::client;

namespace {

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// A file-profile run as the daemon reports it: parameters with every key,
// bars "read"/"write" at x = test index.
SavedResult running_run()
{
    SavedResult r;
    r.kind = "file-profile";
    r.state = "running";
    r.target_kind = "directory";
    r.target = "/home/ann/bench";
    r.started_at_us = 1'764'000'000'000'000;
    r.parameters = { { "preset", std::string("default") }, { "tests", std::string() },
                     { "mix", std::string("RND4K Q1T1") }, { "mix_read_percent", std::int64_t { 70 } },
                     { "file_size", std::int64_t { 1LL << 30 } }, { "data", std::string("random") },
                     { "duration_s", 5.0 }, { "warmup_s", 1.0 } };
    r.device_info = { { "node", std::string("/dev/nvme0n1") }, { "model", std::string("Samsung SSD 980") },
                      { "filesystem_type", std::string("ext4") }, { "kernel", std::string("6.1.0") } };
    r.series = { { "read", "test", "MB/s", "bar", { { 0, 3456.78 } } }, { "write", "test", "MB/s", "bar", {} } };
    return r;
}

SavedResult finished_run()
{
    SavedResult r = running_run();
    r.state = "finished";
    r.finished_at_us = r.started_at_us + 60'000'000;
    r.series[0].points = { { 0, 3456.78 }, { 1, 2100 }, { 2, 900.5 }, { 3, 60.25 }, { 4, 40.25 } };
    r.series[1].points = { { 0, 2900.5 }, { 1, 1800 }, { 2, 700 }, { 3, 150.75 }, { 4, 17.5 } };
    r.summary["tests"] = std::string("SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T1,RND4K Q1T1,MIX RND4K Q1T1");
    r.summary["file_size_bytes"] = std::int64_t { 1LL << 30 };
    r.summary["data"] = std::string("random");
    r.summary["direct_io"] = true;
    const char* keys[] = { "seq1m_q8t1", "seq1m_q1t1", "rnd4k_q32t1", "rnd4k_q1t1", "mix" };
    for (int i = 0; i < 5; ++i)
        for (int w = 0; w < 2; ++w) {
            const std::string prefix = std::string(keys[i]) + (w ? ".write_" : ".read_");
            r.summary[prefix + "mb_s"] = r.series[static_cast<std::size_t>(w)].points[static_cast<std::size_t>(i)].y;
            r.summary[prefix + "iops"] = 1000.0 * (i + 1) + w;
            r.summary[prefix + "latency_p50_us"] = 10.0 * (i + 1);
            r.summary[prefix + "latency_p99_us"] = 20.0 * (i + 1);
            r.summary[prefix + "latency_p99_9_us"] = 30.0 * (i + 1) + w;
            r.summary[prefix + "latency_mean_us"] = 15.0 * (i + 1) + w;
        }
    r.summary["mix.total_mb_s"] = 57.75;
    r.summary["mix.read_percent"] = std::int64_t { 70 };
    r.warnings = { "drive is warm" };
    return r;
}

} // namespace

TEST_CASE("the folder Profiles grid has a row per test, filled in as each test ends", "[client-model]")
{
    // Before the run reports its tests: what its parameters ask for.
    const std::vector<FileProfileRow> live = file_profile_rows(running_run());
    REQUIRE(live.size() == 5);
    CHECK(live[0].test == "SEQ1M Q8T1");
    CHECK(live[3].test == "RND4K Q1T1");
    CHECK(live[4].test == "MIX RND4K Q1T1");
    // The first test's read has ended (a bar arrived), nothing else yet.
    REQUIRE(live[0].read.mb_s);
    CHECK(*live[0].read.mb_s == Approx(3456.78));
    CHECK_FALSE(live[0].write.mb_s);
    CHECK_FALSE(live[1].read.mb_s);
    CHECK_FALSE(live[0].read.iops); // the summary comes at the end

    SavedResult nvme = running_run();
    nvme.parameters["preset"] = std::string("nvme");
    nvme.parameters["mix"] = std::string();
    const auto rows = file_profile_rows(nvme);
    REQUIRE(rows.size() == 4);
    CHECK(rows[1].test == "SEQ128K Q32T1");
    CHECK(rows[2].test == "RND4K Q32T16");

    const std::vector<FileProfileRow> done = file_profile_rows(finished_run());
    REQUIRE(done.size() == 5);
    for (const FileProfileRow& row : done) {
        INFO(row.test);
        CHECK(row.read.mb_s);
        CHECK(row.write.mb_s);
        CHECK(row.read.iops);
        CHECK(row.write.p99_9_us);
    }
    CHECK(*done[3].write.mb_s == Approx(150.75));
    CHECK(*done[4].write.p99_9_us == Approx(151));
}

TEST_CASE("the folder Profiles as text reads like CrystalDiskMark's", "[client-model]")
{
    const std::string text = result_report(finished_run(), [](std::string_view t) { return std::string(t); });
    INFO(text);
    std::istringstream in(text);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    const auto index_of = [&](const std::string& line) {
        return std::find(lines.begin(), lines.end(), line) - lines.begin();
    };
    // CrystalDiskMark's blocks, in its order, a line per test in its notation and widths.
    const auto read = index_of("[Read]"), write = index_of("[Write]"), mix = index_of("[Mix] Read 70%/Write 30%");
    REQUIRE(read < write);
    REQUIRE(write < mix);
    REQUIRE(mix + 1 < static_cast<std::ptrdiff_t>(lines.size()));
    CHECK(lines[static_cast<std::size_t>(read) + 1] == "  SEQ    1MiB (Q=  8, T= 1):  3456.780 MB/s [    1000.0 IOPS] <   15.00 us>");
    CHECK(lines[static_cast<std::size_t>(read) + 4] == "  RND    4KiB (Q=  1, T= 1):    60.250 MB/s [    4000.0 IOPS] <   60.00 us>");
    CHECK(lines[static_cast<std::size_t>(write) + 1] == "  SEQ    1MiB (Q=  8, T= 1):  2900.500 MB/s [    1001.0 IOPS] <   16.00 us>");
    // The mixed test: the total rate, both directions' requests, their mean latency weighted by count.
    CHECK(lines[static_cast<std::size_t>(mix) + 1] == "  RND    4KiB (Q=  1, T= 1):    57.750 MB/s [   10001.0 IOPS] <   75.50 us>");
    // The footer: profile, test size and passes with the folder, data and I/O, times, date.
    CHECK(contains(text, "Profile: Standard"));
    CHECK(contains(text, "   Test: 1 GiB (x1) [folder /home/ann/bench]"));
    CHECK(contains(text, "   Mode: random data, direct I/O"));
    CHECK(contains(text, " Device: /dev/nvme0n1 (Samsung SSD 980), ext4"));
    CHECK(contains(text, "   Time: Measure 5 sec / Interval 5 sec"));
    CHECK(contains(text, "2025")); // 1764000000 s: the date of the run
    CHECK(contains(text, "⚠ drive is warm"));

    // A run still going: its missing figures are "-", not zeros.
    const std::string partial = result_report(running_run(), [](std::string_view t) { return std::string(t); });
    INFO(partial);
    CHECK(contains(partial, "  SEQ    1MiB (Q=  8, T= 1):  3456.780 MB/s [         - IOPS] <       - us>"));
    CHECK_FALSE(contains(partial, "0.000 MB/s"));
    CHECK(contains(partial, "  State: running"));
}

TEST_CASE("the folder Profiles page says what the run does", "[client-model]")
{
    const std::string what = describe_benchmark("file-profile", running_run().parameters, "/dev/sdX", 512).what;
    INFO(what);
    CHECK(contains(what, "1 GiB"));
    CHECK(contains(what, "SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1"));
    CHECK(contains(what, "RND4K Q1T1, 70 % reads"));
    CHECK(contains(what, "1.0 s of warm-up for 5.0 s"));
}

TEST_CASE("parameters with a list show as drop-downs, sizes in binary units", "[client-model]")
{
    ParameterInfo size { "file_size", "unsigned", "", std::int64_t { 1LL << 30 },
                         { std::int64_t { 16 << 20 }, std::int64_t { 512 << 20 }, std::int64_t { 1LL << 30 },
                           std::int64_t { 64LL << 30 } },
                         false, "bytes" };
    CHECK(choice_label(size, std::int64_t { 1LL << 30 }) == "1 GiB");
    CHECK(choice_label(size, std::int64_t { 16 << 20 }) == "16 MiB");
    CHECK(choice_label(size, std::int64_t { 64LL << 30 }) == "64 GiB");
    CHECK(offered_values(size, std::int64_t { 1LL << 30 }).size() == 4);
    // A size set elsewhere stays choosable.
    const auto with_other = offered_values(size, std::int64_t { 3LL << 30 });
    REQUIRE(with_other.size() == 5);
    CHECK(choice_label(size, with_other.back()) == "3 GiB");

    ParameterInfo preset { "preset", "string", "", std::string("default"),
                           { std::string("default"), std::string("nvme") }, true, "" };
    CHECK(choice_label(preset, std::string("nvme")) == "NVMe SSD"); // translated words (parameter_labels)
    CHECK(offered_values(preset, std::string("default")).size() == 2);
}
