// SPDX-License-Identifier: GPL-3.0-or-later
// The app's window-free models: which series a page draws, what a run does
// and its fio equivalent, jobs as result files, the recent-results store.
#include "model/benchmark_description.hpp"
#include "model/benchmark_pages.hpp"
#include "model/job_result.hpp"
#include "model/recent_results.hpp"
#include "model/sample_stream.hpp"
#include "model/saved_values.hpp"

#include <catch2/catch.hpp>
#include <glib.h>
#include <glib/gstdio.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace diskbench::client;

namespace {

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

struct TempDir {
    std::string path;
    TempDir()
    {
        gchar* made = g_dir_make_tmp("diskbench-model-XXXXXX", nullptr);
        REQUIRE(made);
        path = made;
        g_free(made);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

JobEntry finished_seek()
{
    JobEntry job;
    job.path = "/org/diskbench/DiskBench1/jobs/3";
    job.kind = "seek";
    job.state = "finished";
    job.backend = "io_uring";
    job.started_at_us = 1'795'000'000'000'000;
    job.finished_at_us = 1'795'000'002'000'000;
    job.parameters = { { "count", std::int64_t { 3 } } };
    job.device_info = { { "node", std::string("/dev/loop7") }, { "size", std::int64_t { 1 << 26 } } };
    job.summary = { { "latency_p50_us", 80.5 } };
    job.series = { { "latency", "B", "us", "scatter" } };
    job.points = { { { 4096, 70 }, { 8192, 90 }, { 512, 80.5 } } };
    job.warnings = { "a warning" };
    return job;
}

} // namespace

TEST_CASE("every daemon kind has a page with at least one view", "[client-model]")
{
    for (const char* kind : { "seek", "random", "sequential", "surface", "block", "profile", "qd-sweep" }) {
        const BenchmarkPage* page = benchmark_page(kind);
        REQUIRE(page);
        CHECK_FALSE(page->views.empty());
    }
    CHECK(benchmark_page("nonsense") == nullptr);
}

TEST_CASE("views route the series they show, bands go around the line", "[client-model]")
{
    const BenchmarkPage& surface = *benchmark_page("surface");
    const auto routes = route_series(surface.views[0], { "mean", "min", "max" });
    REQUIRE(routes.size() == 3);
    CHECK(routes[0].line == std::optional<std::size_t>(0));
    CHECK_FALSE(routes[1].line);
    CHECK(routes[1].band_min == std::optional<std::size_t>(0));
    CHECK(routes[2].band_max == std::optional<std::size_t>(0));

    const BenchmarkPage& qd = *benchmark_page("qd-sweep");
    const auto qd_routes = route_series(qd.views[0], { "iops-t1", "p99-t1", "iops-t2", "p99-t2" });
    CHECK(qd_routes[0].line == std::optional<std::size_t>(0));
    CHECK_FALSE(qd_routes[1].line);
    CHECK(qd_routes[2].line == std::optional<std::size_t>(1));

    const std::vector<SavedSeries> series = {
        { "iops-t1", "depth", "IOPS", "line", { { 1, 100 }, { 2, 180 } } },
        { "p99-t1", "depth", "us", "line", { { 1, 50 } } },
        { "iops-t2", "depth", "IOPS", "line", { { 1, 190 } } },
    };
    const auto chart = chart_series_for(qd.views[0], series, "");
    REQUIRE(chart.size() == 2);
    CHECK(chart[0].points.size() == 2);
    CHECK(chart[1].points[0].y == 190);
    CHECK(contains(chart[0].label, "1"));
    CHECK(contains(chart[1].label, "2"));
}

TEST_CASE("position graphs get the device's extent as x domain; profiles their test names", "[client-model]")
{
    const BenchmarkPage& surface = *benchmark_page("surface");
    const ChartSpec spec = spec_for(surface.views[0], "surface", {}, {}, 1 << 30);
    CHECK(spec.x_low == 0.0);
    CHECK(spec.x_high == static_cast<double>(1 << 30));

    const BenchmarkPage& cont = *benchmark_page("sequential");
    // 4 GiB asked on a 256 MiB device: the graph spans what will be read.
    const ChartSpec seq = spec_for(cont.views[0], "sequential",
                                   { { "offset", std::int64_t { 0 } }, { "size", std::int64_t { 4LL << 30 } } }, {},
                                   256 << 20);
    CHECK(seq.x_high == static_cast<double>(256 << 20));

    const BenchmarkPage& profile = *benchmark_page("profile");
    const ChartSpec tests = spec_for(profile.views[0], "profile", {}, { { "tests", std::string("SEQ1M Q8T1,RND4K Q1T1") } }, 0);
    CHECK(tests.categories == std::vector<std::string> { "SEQ1M Q8T1", "RND4K Q1T1" });
    const ChartSpec preset = spec_for(profile.views[0], "profile", { { "preset", std::string("nvme") } }, {}, 0);
    REQUIRE(preset.categories.size() == 4);
    CHECK(preset.categories[2] == "RND4K Q32T16");
}

TEST_CASE("descriptions state sizes and give runnable fio command lines", "[client-model]")
{
    const auto seek = describe_benchmark("seek", { { "count", std::int64_t { 1000 } }, { "block_size", std::int64_t { 0 } } },
                                         "/dev/sdb", 4096);
    CHECK(contains(seek.what, "1000"));
    CHECK(contains(seek.what, "4 KiB"));
    REQUIRE(seek.fio_commands.size() == 1);
    CHECK(contains(seek.fio_commands[0], "--filename=/dev/sdb"));
    CHECK(contains(seek.fio_commands[0], "--bs=4k"));
    CHECK(contains(seek.fio_commands[0], "--number_ios=1000"));
    CHECK(contains(seek.fio_commands[0], "--readonly"));
    CHECK(contains(seek.fio_commands[0], "--direct=1"));

    // One fio run per block size: 512 .. 1 MiB is 12 sizes.
    const auto random = describe_benchmark("random", { { "min_block", std::int64_t { 0 } }, { "max_block", std::int64_t { 1 << 20 } },
                                                       { "count_per_size", std::int64_t { 100 } } },
                                           "/dev/sdb", 512);
    REQUIRE(random.fio_commands.size() == 12);
    CHECK(contains(random.fio_commands.front(), "--bs=512 "));
    CHECK(contains(random.fio_commands.back(), "--bs=1m"));

    const auto profile = describe_benchmark("profile", { { "tests", std::string("SEQ1M Q8T1, RND4K Q32T16") },
                                                         { "duration_s", 5.0 }, { "warmup_s", 1.0 },
                                                         { "region_size", std::int64_t { 1LL << 30 } } },
                                            "/dev/nvme0n1", 512);
    REQUIRE(profile.fio_commands.size() == 2);
    CHECK(contains(profile.fio_commands[0], "--rw=read --bs=1m --iodepth=8 --numjobs=1"));
    CHECK(contains(profile.fio_commands[1], "--rw=randread --bs=4k --iodepth=32 --numjobs=16"));
    CHECK(contains(profile.fio_commands[1], "--size=1g"));
    CHECK(contains(profile.fio_commands[1], "--runtime=5"));

    const auto qd = describe_benchmark("qd-sweep", { { "max_queue_depth", std::int64_t { 4 } }, { "max_threads", std::int64_t { 2 } } },
                                       "/dev/sdb", 512);
    CHECK(qd.fio_commands.size() == 6); // QD 1, 2, 4 on 1 and 2 threads
}

TEST_CASE("a job becomes a result file with every series and fact", "[client-model]")
{
    const JobEntry job = finished_seek();
    const SavedResult result = saved_result_from_job(job);
    CHECK(result.kind == "seek");
    REQUIRE(result.series.size() == 1);
    CHECK(result.series[0].points.size() == 3);
    CHECK(result.series[0].style == "scatter");
    CHECK(result.warnings == job.warnings);
    const auto back = result_from_json(result_to_json(result));
    REQUIRE(std::holds_alternative<SavedResult>(back));
    CHECK(std::get<SavedResult>(back) == result);
}

TEST_CASE("recent results: stored under the directory, listed newest first, same disk first", "[client-model]")
{
    TempDir dir;
    RecentResults store(dir.path + "/results");
    SavedResult older = saved_result_from_job(finished_seek());
    SavedResult newer = older;
    newer.finished_at_us += 60'000'000;
    SavedResult other_disk = older;
    other_disk.finished_at_us += 120'000'000;
    other_disk.device_info["node"] = std::string("/dev/loop9");
    std::string error;
    const std::string first = store.add(older, error);
    REQUIRE(error.empty());
    store.add(newer, error);
    store.add(other_disk, error);
    REQUIRE(error.empty());
    CHECK(first.starts_with(dir.path + "/results/"));
    CHECK(first.ends_with("-seek-loop7.json"));

    // A damaged file in the directory is skipped, not fatal.
    std::ofstream(dir.path + "/results/broken.json") << "{ \"schema_version\": 1, ";

    RecentResults reread(dir.path + "/results");
    reread.reload();
    REQUIRE(reread.results().size() == 3);
    CHECK(reread.results()[0].result.finished_at_us == other_disk.finished_at_us);
    const auto ranked = reread.for_kind("seek", { { "node", std::string("/dev/loop7") }, { "size", std::int64_t { 1 << 26 } } });
    REQUIRE(ranked.size() == 3);
    CHECK(ranked[0]->result.finished_at_us == newer.finished_at_us);
    CHECK(ranked[1]->result.finished_at_us == older.finished_at_us);
    CHECK(ranked[2]->result.finished_at_us == other_disk.finished_at_us);
    CHECK(reread.for_kind("surface", {}).empty());
}

TEST_CASE("the same disk is recognised by serial, WWN, model and size, else node", "[client-model]")
{
    CHECK(same_device({ { "serial", std::string("S1") }, { "node", std::string("/dev/sda") } },
                      { { "serial", std::string("S1") }, { "node", std::string("/dev/sdb") } }));
    CHECK_FALSE(same_device({ { "serial", std::string("S1") } }, { { "serial", std::string("S2") } }));
    CHECK_FALSE(same_device({ { "serial", std::string("S1") } }, { { "node", std::string("/dev/sda") } }));
    CHECK(same_device({ { "model", std::string("X") }, { "size", std::int64_t { 5 } } },
                      { { "model", std::string("X") }, { "size", std::int64_t { 5 } } }));
    CHECK_FALSE(same_device({ { "model", std::string("X") }, { "size", std::int64_t { 5 } } },
                            { { "model", std::string("X") }, { "size", std::int64_t { 6 } } }));
    CHECK(same_device({ { "node", std::string("/dev/loop0") }, { "size", std::int64_t { 5 } } },
                      { { "node", std::string("/dev/loop0") }, { "size", std::int64_t { 5 } } }));
}

TEST_CASE("a dismissed password prompt is quiet; refusals say what to do", "[client-model]")
{
    CHECK(error_text({ "org.diskbench.DiskBench1.Error.NotAuthorizedDismissed", "x" }).quiet);
    const ErrorText refused = error_text({ "org.diskbench.DiskBench1.Error.NotAuthorized", "x" });
    CHECK_FALSE(refused.quiet);
    CHECK(contains(refused.message, "polkit"));
    CHECK(contains(error_text({ "org.diskbench.DiskBench1.Error.InvalidArgument", "count: must be > 0" }).message,
                   "count: must be > 0"));
    CHECK(contains(error_text({ "org.freedesktop.DBus.Error.ServiceUnknown", "" }).message, "diskbenchd"));
}

TEST_CASE("writing a file atomically reports failures and leaves no file", "[client-model]")
{
    TempDir dir;
    CHECK(write_file_atomically(dir.path + "/a.json", "{}").empty());
    CHECK(std::filesystem::exists(dir.path + "/a.json"));
    CHECK_FALSE(write_file_atomically(dir.path + "/missing/b.json", "{}").empty());
    CHECK_FALSE(std::filesystem::exists(dir.path + "/missing"));
}

namespace {

std::vector<IndexedSample> batch(std::uint64_t first, std::size_t count)
{
    std::vector<IndexedSample> samples;
    for (std::size_t i = 0; i < count; ++i)
        samples.push_back({ static_cast<std::uint32_t>((first + i) % 2), static_cast<double>(first + i), 1.0 });
    return samples;
}

// Every sample 0..n-1 exactly once, in order, split over the two series.
void check_complete(const SampleStream::Points& points, std::size_t n)
{
    std::vector<double> xs;
    for (const auto& series : points)
        for (const GraphPoint& p : series)
            xs.push_back(p.x);
    std::sort(xs.begin(), xs.end());
    REQUIRE(xs.size() == n);
    for (std::size_t i = 0; i < n; ++i)
        CHECK(xs[i] == static_cast<double>(i));
    for (const auto& series : points)
        CHECK(std::is_sorted(series.begin(), series.end(), [](auto a, auto b) { return a.x < b.x; }));
}

} // namespace

TEST_CASE("samples: catch-up then signals gives each sample once", "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    REQUIRE(stream.begin_catch_up() == 0);
    // Batches signalled while GetSamples(0) was on its way are in its reply.
    CHECK(stream.on_signal(10, batch(10, 5), points) == SampleStream::Signal::Dropped);
    CHECK(stream.on_reply(0, batch(0, 15), points));
    CHECK(stream.next() == 15);
    CHECK(stream.on_signal(15, batch(15, 5), points) == SampleStream::Signal::Appended);
    check_complete(points, 20);
}

TEST_CASE("samples: a missed batch asks for a catch-up from the gap", "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    stream.begin_catch_up();
    stream.on_reply(0, batch(0, 10), points);
    CHECK(stream.on_signal(20, batch(20, 5), points) == SampleStream::Signal::NeedCatchUp);
    CHECK(stream.begin_catch_up() == 10);
    stream.on_reply(10, batch(10, 15), points);
    check_complete(points, 25);
}

TEST_CASE("samples: overlapping batches and replies are not appended twice", "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    stream.begin_catch_up();
    stream.on_reply(0, batch(0, 10), points);
    CHECK(stream.on_signal(5, batch(5, 10), points) == SampleStream::Signal::Appended); // 5..9 known
    stream.begin_catch_up();
    CHECK_FALSE(stream.on_reply(0, batch(0, 15), points)); // nothing new
    check_complete(points, 15);
}

TEST_CASE("samples: a failed catch-up lets signals through again; bad series indices are dropped", "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    stream.begin_catch_up();
    stream.catch_up_failed();
    CHECK(stream.on_signal(0, batch(0, 3), points) == SampleStream::Signal::Appended);
    const std::vector<IndexedSample> bad = { { 4'000'000'000U, 3, 1 } };
    stream.on_signal(3, bad, points);
    CHECK(points.size() == 2);
    CHECK(stream.next() == 4); // the index is used up, the next batch follows on
}

TEST_CASE("typed reads of saved maps, and the profile's tests", "[client-model]")
{
    const SavedValueMap map = { { "n", std::int64_t { 7 } }, { "d", 2.5 }, { "s", std::string("x") }, { "b", true } };
    CHECK(integer_of(map, "n") == 7);
    CHECK(integer_of(map, "d") == 2);
    CHECK(integer_of(map, "s", -1) == -1);
    CHECK(number_of(map, "n", 0) == 7.0);
    CHECK(number_of(map, "missing", 1.5) == 1.5);
    CHECK(text_of(map, "s") == "x");
    CHECK(text_of(map, "n", "none") == "none");
    CHECK(boolean_of(map, "b", false));
    CHECK(split_profile_tests(" SEQ1M Q8T1 ,, RND4K Q1T1 ") == std::vector<std::string> { "SEQ1M Q8T1", "RND4K Q1T1" });
    CHECK(profile_tests_of({ { "tests", std::string("RND4K Q32T16") }, { "preset", std::string("nvme") } }) == "RND4K Q32T16");
    CHECK(split_profile_tests(profile_tests_of({ { "preset", std::string("nvme") } }))[1] == "SEQ128K Q32T1");
    CHECK(split_profile_tests(profile_tests_of({}))[1] == "SEQ1M Q1T1");
}

TEST_CASE("absurd parameters from the daemon give bounded descriptions", "[client-model]")
{
    const auto huge = describe_benchmark("random", { { "min_block", std::int64_t { 1 } }, { "max_block", std::int64_t { INT64_MAX } } },
                                         "/dev/sdb", 512);
    CHECK(huge.fio_commands.size() <= 64);
    const auto negative = describe_benchmark("block", { { "min_block", std::int64_t { -4 } }, { "max_block", std::int64_t { -1 } } },
                                             "/dev/sdb", 512);
    CHECK(negative.fio_commands.size() <= 64);
    CHECK(integer_of({ { "x", std::nan("") } }, "x", 5) == 5);
    CHECK(integer_of({ { "x", 1e300 } }, "x", 5) == 5);
}

TEST_CASE("recent results are read again only when the directory changed", "[client-model]")
{
    TempDir dir;
    RecentResults writer(dir.path + "/results");
    RecentResults reader(dir.path + "/results");
    std::string error;
    writer.add(saved_result_from_job(finished_seek()), error);
    REQUIRE(error.empty());
    reader.reload_if_changed();
    CHECK(reader.results().size() == 1);
    // A damaged file replacing a good one without a directory change would
    // still be listed: proof that nothing was parsed again.
    std::ofstream(reader.results()[0].path) << "garbage";
    reader.reload_if_changed();
    CHECK(reader.results().size() == 1);
    SavedResult later = saved_result_from_job(finished_seek());
    later.finished_at_us += 1'000'000;
    writer.add(later, error);
    reader.reload_if_changed(); // a new file: the directory changed
    CHECK(reader.results().size() == 1); // the garbage one is skipped now, the new one read
    CHECK(reader.results()[0].result.finished_at_us == later.finished_at_us);
}
