// SPDX-License-Identifier: GPL-3.0-or-later
// The app's window-free models: which series a page draws, what a run does
// and its fio equivalent, jobs as result files, the recent-results store.
#include "model/benchmark_description.hpp"
#include "model/benchmark_pages.hpp"
#include "model/page_groups.hpp"
#include "contract/benchmark_kinds.hpp"
#include "results/folder.hpp"
#include "results/job_result.hpp"
#include "model/pass_spread.hpp"
#include "text/progress_text.hpp"
#include "results/recent_results.hpp"
#include "bus/sample_stream.hpp"
#include "types/saved_values.hpp"
#include "model/write_consent.hpp"

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

TEST_CASE("the page list groups every kind: overview first, then read, write, filesystem, drive", "[client-model]")
{
    namespace kinds = diskbench::contract::kinds;
    // Every kind the daemon knows lands in the group of what it does.
    for (const std::string_view kind : kinds::all) {
        const BenchmarkPage* page = benchmark_page(std::string(kind));
        REQUIRE(page);
        const PageGroup group = page_group(kind, page->target);
        INFO(kind);
        if (kind == kinds::overview)
            CHECK(group == PageGroup::Overview);
        else if (kind == kinds::surface || kind == kinds::verify_capacity || kind == kinds::burn_in)
            CHECK(group == PageGroup::Drive);
        else if (kinds::in_folder(kind))
            CHECK(group == PageGroup::Filesystem);
        else if (kinds::writes_device(kind))
            CHECK(group == PageGroup::Write);
        else
            CHECK(group == PageGroup::Read);
    }
    CHECK(page_group(history_page_name, PageTarget::Device) == PageGroup::Drive);
    CHECK(page_group(info_page_name, PageTarget::Device) == PageGroup::Drive);
    // A kind this version does not know goes by how it is started.
    CHECK(page_group("future-kind", PageTarget::Device) == PageGroup::Read);
    CHECK(page_group("future-kind", PageTarget::DeviceWrite) == PageGroup::Write);
    CHECK(page_group("future-kind", PageTarget::Directory) == PageGroup::Filesystem);
    // The list sorts by group, then by the order pages were added.
    CHECK(PageOrder { PageGroup::Overview, 9 } < PageOrder { PageGroup::Read, 0 });
    CHECK(PageOrder { PageGroup::Read, 1 } < PageOrder { PageGroup::Read, 2 });
    CHECK(PageOrder { PageGroup::Filesystem, 99 } < PageOrder { PageGroup::Drive, 0 });
    for (const PageGroup group :
         { PageGroup::Overview, PageGroup::Read, PageGroup::Write, PageGroup::Filesystem, PageGroup::Drive })
        CHECK(std::string(page_group_title(group)).size() > 0);
}

TEST_CASE("latency distributions get a view of their own, named, with p50/p99/p99.9 in the legend", "[client-model]")
{
    const auto cdf_view = [](const char* kind) -> const PageView* {
        const BenchmarkPage* page = benchmark_page(kind);
        for (const PageView& view : page->views)
            if (std::string(view.label) == "CDF")
                return &view;
        return nullptr;
    };
    for (const char* kind : { "seek", "random", "block", "profile", "file-profile" })
        CHECK(cdf_view(kind));
    const PageView& view = *cdf_view("file-profile");
    CHECK(view.spec.x_scale == AxisScale::Log2);
    CHECK(view.spec.x_unit == Unit::Microseconds);
    // Its x is latency, not a place on the device: no device-sized domain.
    const ChartSpec seek_cdf = spec_for(*cdf_view("seek"), "seek", {}, {}, 256ULL << 20);
    CHECK_FALSE(seek_cdf.x_high.has_value());
    CHECK(spec_for(benchmark_page("seek")->views[0], "seek", {}, {}, 256ULL << 20).x_high == 256.0 * (1 << 20));
    CHECK(series_display_name("cdf-seq1m_q8t1-write") == "SEQ1M Q8T1 write");
    CHECK(series_display_name("cdf-rnd4k_q1t1") == "RND4K Q1T1");
    CHECK(series_display_name("cdf-mix-read") == "MIX read");
    CHECK(series_display_name("cdf-4096") == "4 KiB");
    CHECK(series_display_name("cdf") == "latency");
    std::vector<SeriesPoint> points;
    for (const auto& [x, y] : { std::pair { 10.0, 0.0 }, { 85.0, 50.0 }, { 420.0, 99.0 }, { 1200.0, 99.9 },
                                { 5000.0, 100.0 } })
        points.push_back({ x, y });
    const std::vector<SavedSeries> series { { "read", "test", "MB/s", "bar", { { 0, 500 } } },
                                            { "cdf-seq1m_q8t1-read", "us", "%", "line", points } };
    const auto drawn = chart_series_for(view, series, "This run");
    REQUIRE(drawn.size() == 1); // the bars are not on it
    CHECK(drawn[0].label == "This run · SEQ1M Q8T1 read  ·  p50 85 µs  ·  p99 420 µs  ·  p99.9 1.2 ms");
    // With passes, the median's line alone (passes are not separate tests).
    std::vector<SavedSeries> with_passes = series;
    with_passes.push_back({ "cdf-seq1m_q8t1-read.pass2", "us", "%", "line", points });
    CHECK(chart_series_for(view, with_passes, "This run").size() == 1);
    // ... nor the distributions on the bars.
    const auto bars = chart_series_for(benchmark_page("file-profile")->views[0], series, "This run");
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].points.size() == 1);
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
        for (const SeriesPoint& p : series)
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

// ---- folder and raw write benchmarks (issue 5) ----

TEST_CASE("pages of listed write and folder kinds: tailored when known, else generic", "[client-model]")
{
    const BenchmarkPage file_rw = page_for_kind("file-rw", "directory", "R/W file", "Writes. Then reads.");
    CHECK(file_rw.target == PageTarget::Directory);
    CHECK_FALSE(file_rw.generic());
    const auto routes = route_series(file_rw.views[0], { "write", "read" });
    CHECK(routes[0].line == std::optional<std::size_t>(0));
    CHECK(routes[1].line == std::optional<std::size_t>(1));
    const auto chart = chart_series_for(file_rw.views[0],
                                        { { "write", "B", "MB/s", "line", { { 0, 100 } } },
                                          { "read", "B", "MB/s", "line", { { 0, 200 } } } },
                                        "This run");
    REQUIRE(chart.size() == 2);
    CHECK(chart[0].label == "This run · write");
    CHECK(chart[1].label == "This run · read");

    const BenchmarkPage sweep = page_for_kind("write-sweep", "directory", "", "");
    const auto sweep_routes = route_series(sweep.views[0], { "throughput", "throughput-median", "throughput-min",
                                                             "throughput-max", "repetitions" });
    // The median is the line (test_client_routing.cpp has the full rule).
    CHECK_FALSE(sweep_routes[0].line);
    CHECK(sweep_routes[1].line == std::optional<std::size_t>(0));
    CHECK(sweep_routes[2].band_min == std::optional<std::size_t>(0));
    CHECK(sweep_routes[3].band_max == std::optional<std::size_t>(0));

    CHECK(page_for_kind("device-write", "device-write", "", "").target == PageTarget::DeviceWrite);
    const BenchmarkPage unknown = page_for_kind("future-kind", "directory", "Future", "Does things. Many of them.");
    CHECK(unknown.generic());
    CHECK(unknown.title == "Future");
    CHECK(unknown.summary == "Does things.");
    CHECK(unknown.target == PageTarget::Directory);
}

TEST_CASE("generic pages draw the declared series with their own style and units", "[client-model]")
{
    // mixed-load: time series of read and write MB/s, plus an IOPS series of another unit.
    const std::vector<SavedSeries> mixed = {
        { "read", "s", "MB/s", "line", { { 0.5, 100 }, { 1, 110 } } },
        { "write", "s", "MB/s", "line", { { 0.5, 50 } } },
        { "iops", "s", "op/s", "line", { { 0.5, 5000 } } },
    };
    const PageView view = generic_view(mixed);
    CHECK(view.spec.style == ChartStyle::Line);
    CHECK(view.spec.x_unit == Unit::Seconds);
    CHECK(view.spec.y_unit == Unit::MegabytesPerSecond);
    CHECK(view.spec.x_scale == AxisScale::Linear);
    const auto chart = chart_series_for(view, mixed, "");
    REQUIRE(chart.size() == 2);
    CHECK(chart[0].label == "read");
    CHECK(chart[1].points.size() == 1);

    // small-files: bars per file size (log scale), with min/max as the band of a line only.
    const std::vector<SavedSeries> bars = {
        { "create", "B", "op/s", "bar", { { 4096, 900 } } },
        { "create-min", "B", "op/s", "bar", { { 4096, 800 } } },
    };
    const PageView bar_view = generic_view(bars);
    CHECK(bar_view.spec.style == ChartStyle::Bar);
    CHECK(bar_view.spec.x_scale == AxisScale::Log2);
    CHECK(bar_view.spec.y_unit == Unit::OperationsPerSecond);
    CHECK(chart_series_for(bar_view, bars, "").size() == 1);

    const std::vector<SavedSeries> banded = {
        { "throughput", "B", "MB/s", "line", { { 4096, 90 } } },
        { "throughput-min", "B", "MB/s", "line", { { 4096, 80 } } },
        { "throughput-max", "B", "MB/s", "line", { { 4096, 99 } } },
    };
    const auto with_band = chart_series_for(generic_view(banded), banded, "");
    REQUIRE(with_band.size() == 1);
    CHECK(with_band[0].band_min.size() == 1);
    CHECK(with_band[0].band_max[0].y == 99);

    CHECK(chart_series_for(generic_view({}), banded, "").empty());
    CHECK(chart_spec_for_series({ "x", "test", "depth", "scatter", {} }).style == ChartStyle::Scatter);
    CHECK(unit_from_name("s") == Unit::Seconds);
    CHECK(unit_from_name("op/s") == Unit::OperationsPerSecond);
    CHECK(format_value(2.5, Unit::Seconds) == "2.5 s");
    CHECK(format_value(0.002, Unit::Seconds) == "2.0 ms");
    CHECK(format_value(12345, Unit::OperationsPerSecond) == "12.3k op/s");
}

TEST_CASE("the summary line of folder and write runs: MB/s, op/s and seconds", "[client-model]")
{
    const std::string line = summary_line({
        { "write_mb_s", 512.0 },
        { "write_min_mb_s", 100.0 },
        { "write_max_mb_s", 700.0 },
        { "read_mb_s", 601.0 },
        { "create_ops_s", 1500.0 },
        { "read_files_s", 14885.0 },
        { "duration_s", std::int64_t { 3 } },
        { "bytes", std::int64_t { 1 << 20 } },
        { "latency_p99_us", 80.0 },
        { "label_s", std::string("not a number") },
    });
    CHECK(contains(line, "write 512 MB/s"));
    CHECK(contains(line, "read 601 MB/s"));
    CHECK(contains(line, "create 1500 op/s"));
    CHECK(contains(line, "read files 14.9k op/s")); // files per second, not seconds
    CHECK_FALSE(contains(line, "read files 14885"));
    CHECK(contains(line, "duration 3.0 s"));
    CHECK_FALSE(contains(line, "min"));
    CHECK_FALSE(contains(line, "700"));
    CHECK_FALSE(contains(line, "p99"));
    CHECK_FALSE(contains(line, "not a number"));
    // Without the mean, the extremes are the figures.
    const std::string sweep = summary_line({ { "throughput_max_mb_s", 900.0 }, { "throughput_min_mb_s", 50.0 } });
    CHECK(contains(sweep, "throughput max 900 MB/s"));
    CHECK(contains(sweep, "throughput min 50 MB/s"));
    CHECK(summary_line({}).empty());
    // Figures per test (raw writes): the test's name.
    const std::string tests = summary_line({ { "rnd4k q1t1.throughput_mb_s", 37.0 }, { "seq1m q1t1.read_mb_s", 9.0 } });
    CHECK(contains(tests, "RND4K Q1T1 37 MB/s"));
    CHECK(contains(tests, "SEQ1M Q1T1 read 9.0 MB/s"));
}

TEST_CASE("a device's subtitle says what it is and whether it may be written", "[client-model]")
{
    DeviceEntry spare;
    spare.node = "/dev/sda3";
    spare.kind = "partition";
    spare.size = 32 << 20;
    spare.rotational = true;
    CHECK(contains(device_subtitle(spare), "partition"));
    CHECK(contains(device_subtitle(spare), "rotational"));
    CHECK_FALSE(contains(device_subtitle(spare), "system disk"));
    CHECK_FALSE(contains(device_subtitle(spare), "mounted"));
    spare.system_disk = true;
    CHECK(contains(device_subtitle(spare), "system disk"));
    spare.mounted = true;
    CHECK(contains(device_subtitle(spare), "system disk"));
    CHECK(contains(device_subtitle(spare), "mounted"));
}

TEST_CASE("erasing a device is confirmed by its serial, or its node when it has none", "[client-model]")
{
    DeviceEntry disk;
    disk.node = "/dev/sdb";
    disk.model = "Fast SSD";
    disk.serial = "S3Z9NB0K123456";
    disk.erase_confirmation = "S3Z9NB0K123456"; // as the daemon publishes it
    CHECK(write_confirmation(disk) == "S3Z9NB0K123456");
    CHECK(write_confirmed(disk, "S3Z9NB0K123456"));
    CHECK(write_confirmed(disk, "  S3Z9NB0K123456\n"));
    CHECK_FALSE(write_confirmed(disk, "S3Z9NB0K12345"));
    CHECK_FALSE(write_confirmed(disk, "/dev/sdb"));
    CHECK_FALSE(write_confirmed(disk, "s3z9nb0k123456"));
    CHECK(write_device_label(disk) == "Fast SSD (/dev/sdb)");

    DeviceEntry loop;
    loop.node = "/dev/loop3";
    loop.erase_confirmation = "/dev/loop3";
    CHECK(write_confirmation(loop) == "/dev/loop3");
    CHECK(write_confirmed(loop, "/dev/loop3"));
    CHECK_FALSE(write_confirmed(loop, ""));
    CHECK(write_device_label(loop) == "/dev/loop3");
    DeviceEntry nothing;
    CHECK_FALSE(write_confirmed(nothing, ""));

    CHECK(write_blocker(loop).empty());
    loop.in_use = true;
    CHECK_FALSE(write_blocker(loop).empty());
    loop.mounted = true;
    CHECK(contains(write_blocker(loop), "mounted"));
    loop.system_disk = true;
    CHECK(contains(write_blocker(loop), "your system runs from"));

    const SavedValueMap keep = write_options({ { "size", std::int64_t { 4096 } }, { "confirm", std::string("x") } },
                                             WriteMode::Preserve, "typed");
    CHECK(text_of(keep, "mode") == "preserve");
    CHECK_FALSE(keep.count("confirm"));
    CHECK(integer_of(keep, "size") == 4096);
    const SavedValueMap erase = write_options({}, WriteMode::Destroy, " /dev/loop3 ");
    CHECK(text_of(erase, "mode") == "destroy");
    CHECK(text_of(erase, "confirm") == "/dev/loop3");

    // The kinds that only erase, as the daemon lists them (mode's default
    // stays "preserve": the daemon wants destroy said).
    const auto kind = [](std::string name, std::string mode_default) {
        BenchmarkInfo info;
        info.kind = std::move(name);
        info.target = "device-write";
        info.parameters.push_back({ "mode", "string", "", std::move(mode_default) });
        return info;
    };
    CHECK_FALSE(erases_only(kind("device-write", "preserve")));
    CHECK(erases_only(kind("device-write-sweep", "preserve")));
    CHECK(erases_only(kind("sustained-write", "preserve")));
    CHECK(erases_only(kind("some-future-eraser", "destroy")));
}

TEST_CASE("folder results keep their target in the file; files without one are device results", "[client-model]")
{
    JobEntry job = finished_seek();
    job.kind = "file-rw";
    job.target = "/media/ann/USB stick/bench";
    job.device_info = { { "filesystem_type", std::string("ext2/ext3/ext4") }, { "filesystem_free", std::int64_t { 1 << 30 } } };
    job.series = { { "write", "B", "MB/s", "line" }, { "read", "B", "MB/s", "line" } };
    job.points = { { { 0, 100 } }, { { 0, 200 } } };
    const SavedResult result = saved_result_from_job(job);
    CHECK(result.target_kind == "directory");
    CHECK(result.target == "/media/ann/USB stick/bench");
    CHECK(result.folder_name() == "bench");
    const std::string json = result_to_json(result);
    CHECK(contains(json, "\"target_kind\""));
    const auto back = result_from_json(json);
    REQUIRE(std::holds_alternative<SavedResult>(back));
    CHECK(std::get<SavedResult>(back) == result);
    CHECK(result_file_name(result).ends_with("-file-rw-folder-bench.json"));

    // A device run stays a device result.
    const SavedResult device = saved_result_from_job(finished_seek());
    CHECK(device.target_kind == "device");
    CHECK(device.folder_name().empty());

    // A file of 0.1 (no target members) still loads, as a device result.
    const std::string old_file = R"({"schema_version": 1, "kind": "seek", "state": "finished", "backend": "psync",
        "started_at_us": 1, "finished_at_us": 2, "parameters": {}, "summary": {"latency_p50_us": 80.5},
        "device_info": {"node": "/dev/sda"}, "warnings": [], "notes": [],
        "series": [{"name": "latency", "x_unit": "B", "y_unit": "us", "style": "scatter", "points": [[1, 2]]}]})";
    const auto old = result_from_json(old_file);
    REQUIRE(std::holds_alternative<SavedResult>(old));
    CHECK(std::get<SavedResult>(old).target_kind == "device");
    CHECK(std::get<SavedResult>(old).target.empty());
    CHECK(std::get<SavedResult>(old).series.at(0).points.size() == 1);

    // A target kind this version does not know is damage, not a device result.
    std::string odd = json;
    odd.replace(odd.find("\"directory\""), 11, "\"elsewhere\"");
    const auto refused = result_from_json(odd);
    REQUIRE(std::holds_alternative<LoadError>(refused));
    CHECK(std::get<LoadError>(refused).kind == LoadError::Kind::Corrupt);
}

TEST_CASE("folders are opened by the client as directories, with a display name", "[client-model]")
{
    TempDir dir;
    std::string error;
    {
        const DirectoryFd fd = open_directory(dir.path, error);
        CHECK(fd);
        CHECK(error.empty());
        CHECK(fd.get() >= 0);
    }
    std::ofstream(dir.path + "/file") << "x";
    CHECK_FALSE(open_directory(dir.path + "/file", error));
    CHECK_FALSE(error.empty());
    CHECK_FALSE(open_directory(dir.path + "/missing", error));
    CHECK(folder_display_name("/home/ann/Music") == "Music");
    CHECK(folder_display_name("/") == "/");
    DirectoryFd moved = open_directory(dir.path, error);
    DirectoryFd other = std::move(moved);
    CHECK_FALSE(moved);
    CHECK(other);
}

TEST_CASE("a full folder and a refused folder are said in plain words", "[client-model]")
{
    CHECK(contains(error_text({ "org.diskbench.DiskBench1.Error.PermissionDenied", "EACCES" }, "Music").message,
                   "You cannot write in “Music”"));
    CHECK(contains(error_text({ "org.diskbench.DiskBench1.Error.NoSpace", "ENOSPC" }, "stick").message,
                   "“stick” is full"));
    CHECK_FALSE(error_text({ "org.diskbench.DiskBench1.Error.NoSpace", "" }).message.empty());
    // Too many requests waiting for polkit: said, not shown as a failure.
    CHECK(contains(error_text({ "org.diskbench.DiskBench1.Error.LimitsExceeded", "uid 1000 already has 8" }).message,
                   "waiting for authorization"));
}

TEST_CASE("test-indexed bars get the summary's test names, else numbers", "[client-model]")
{
    const std::vector<SavedSeries> series = { { "throughput", "test", "MB/s", "bar", { { 0, 500 }, { 1, 40 }, { 2, 300 } } } };
    const PageView view = generic_view(series);
    CHECK(view.spec.x_scale == AxisScale::Categories);
    CHECK(test_categories({ { "tests", std::string("SEQ1M Q1T1,RND4K Q1T1,RND4K Q32T1") } }, series)
          == std::vector<std::string> { "SEQ1M Q1T1", "RND4K Q1T1", "RND4K Q32T1" });
    CHECK(test_categories({ { "phases", std::string("cache,after cache") } }, series).size() == 2);
    CHECK(test_categories({}, series) == std::vector<std::string> { "1", "2", "3" });
    CHECK(test_categories({}, {}).empty());
    const std::vector<SavedSeries> absurd = { { "x", "test", "MB/s", "bar", { { 1e12, 1 } } } };
    CHECK(test_categories({}, absurd).size() == 256);
    const BenchmarkPage write = page_for_kind("device-write", "device-write", "", "");
    CHECK(write.views.size() == 4); // MB/s, IOPS, p99, p99.9
    CHECK(write.target == PageTarget::DeviceWrite);
}

TEST_CASE("progress text: time left, the end, and the bars of a block-size sweep", "[client-model]")
{
    CHECK(duration_text(42.2) == "43 s");
    CHECK(duration_text(200) == "3 min 20 s");
    CHECK(duration_text(-5) == "0 s");
    CHECK(duration_text(NAN) == "0 s");

    JobEntry job;
    job.state = "running";
    job.started_at_us = 1'000'000'000;
    job.progress = 0.25;
    job.series.push_back({ "throughput", "B", "MB/s", "bar" });
    const JobProgress running = job_progress(job, 1'000'000'000 + 10'000'000);
    CHECK(running.fraction == 0.25);
    CHECK(contains(running.text, "25 %"));
    CHECK(contains(running.text, "30 s")); // 10 s for a quarter: 30 s left
    CHECK_FALSE(running.pulse);

    job.state = "finished";
    job.finished_at_us = job.started_at_us + 65'000'000;
    const JobProgress finished = job_progress(job, 0);
    CHECK(finished.fraction == 1);
    CHECK(contains(finished.text, "1 min 5 s"));

    // 4 KiB to 64 KiB: five sizes; after two (4 and 8 KiB) the next is 16 KiB.
    const SavedValueMap sweep { { "min_block", std::int64_t { 4096 } }, { "max_block", std::int64_t { 65536 } } };
    const RunningBar bar = sweep_running_bar(sweep, 512, 2, 8192);
    CHECK(bar.bars == 5);
    CHECK(bar.next == 16384);
    // Without min_block the sweep starts at the logical block.
    const RunningBar from_logical = sweep_running_bar({ { "max_block", std::int64_t { 4096 } } }, 512, 0, 0);
    CHECK(from_logical.bars == 4);
    CHECK(from_logical.next == 512);
}

TEST_CASE("passes: a line graph draws each pass faintly under the median; progress says which pass", "[client-model]")
{
    const BenchmarkPage& sequential = *benchmark_page("sequential");
    const std::vector<SavedSeries> series = {
        { "throughput.pass1", "B", "MB/s", "line", { { 0, 100 }, { 1, 110 } } },
        { "throughput.pass2", "B", "MB/s", "line", { { 0, 60 }, { 1, 70 } } },
        { "throughput.passes", "B", "MB/s", "line", { { 0, 1 } } }, // not a pass: no number
        { "throughput", "B", "MB/s", "line", { { 0, 100 }, { 1, 110 } } },
    };
    const auto routes = route_series(sequential.views[0], { "throughput.pass1", "throughput.pass2",
                                                            "throughput.passes", "throughput" });
    CHECK(routes[3].line == std::optional<std::size_t>(0));
    CHECK_FALSE(routes[3].faint);
    CHECK(routes[0].faint);
    CHECK(routes[1].faint);
    CHECK_FALSE(routes[2].line);
    const auto chart = chart_series_for(sequential.views[0], series, "This run");
    REQUIRE(chart.size() == 3);
    CHECK_FALSE(chart[0].faint);
    CHECK(chart[0].label == "This run");
    CHECK(chart[1].faint);
    CHECK(chart[1].label.empty()); // no legend entry of its own
    CHECK(chart[2].points[0].y == 60);

    JobEntry job;
    job.state = "running";
    job.started_at_us = 1'000'000'000;
    job.progress = 0.25;
    job.parameters["passes"] = std::int64_t { 5 };
    CHECK(contains(job_progress(job, 1'000'000'000).text, "pass 2 of 5"));
    job.progress = 1.0;
    CHECK(contains(job_progress(job, 1'000'000'000).text, "pass 5 of 5"));
}

TEST_CASE("the Profiles grid's spread over passes comes from the pass series", "[client-model]")
{
    const std::vector<SavedSeries> series = {
        { "throughput.pass1", "test", "MB/s", "bar", { { 0, 100 }, { 1, 10 } } },
        { "throughput.pass2", "test", "MB/s", "bar", { { 0, 120 }, { 1, 10 } } },
        { "throughput.pass3", "test", "MB/s", "bar", { { 0, 80 }, { 1, 10 } } },
        { "throughput", "test", "MB/s", "bar", { { 0, 100 }, { 1, 10 } } },
        { "throughput.passes", "test", "MB/s", "bar", { { 0, 1 } } },
    };
    const auto first = pass_spread(series, "throughput", 0);
    REQUIRE(first);
    CHECK(first->passes == 3);
    CHECK(first->minimum == 80);
    CHECK(first->maximum == 120);
    CHECK(first->cv_percent == Approx(20.0));
    CHECK(pass_spread(series, "throughput", 1)->cv_percent == 0);
    CHECK_FALSE(pass_spread(series, "iops", 0));
    CHECK_FALSE(pass_spread({ series[3] }, "throughput", 0)); // one pass: no spread
}

TEST_CASE("the Profiles grid reads the spread the daemon published, not its own sums", "[client-model]")
{
    // Keys as engine passes.cpp writes them (see the 5-pass profile in the
    // issue 14 hand-over); values that the pass series would not give, so
    // the test fails if the grid recomputed instead of reading.
    const SavedValueMap summary = {
        { "passes", std::int64_t { 5 } },
        { "seq1m_q8t1.throughput_mb_s_min", 1565.4 },
        { "seq1m_q8t1.throughput_mb_s_max", 2006.8 },
        { "seq1m_q8t1.throughput_mb_s_cv_percent", 10.2 },
        { "rnd4k_q1t1.latency_p99_9_us_min", 8000.0 },
        { "rnd4k_q1t1.latency_p99_9_us_max", 9000.0 },
        { "rnd4k_q1t1.latency_p99_9_us_cv_percent", 4.5 },
        { "rnd4k_q1t1.iops_min", 1000.0 },
        { "rnd4k_q1t1.iops_max", 2000.0 },
        { "rnd4k_q1t1.iops_cv_percent", 30.0 },
    };
    const auto seq = summary_pass_spread(summary, "SEQ1M Q8T1", "throughput");
    REQUIRE(seq);
    CHECK(seq->passes == 5);
    CHECK(seq->minimum == 1565.4);
    CHECK(seq->maximum == 2006.8);
    CHECK(seq->cv_percent == 10.2);
    const auto tail = summary_pass_spread(summary, "RND4K Q1T1", "latency_p99_9");
    REQUIRE(tail);
    CHECK(tail->cv_percent == 4.5);
    CHECK(summary_pass_spread(summary, "RND4K Q1T1", "iops")->maximum == 2000.0);
    // Not published (another test, a figure without keys, one pass): nothing, so the grid falls back.
    CHECK_FALSE(summary_pass_spread(summary, "SEQ1M Q1T1", "throughput"));
    CHECK_FALSE(summary_pass_spread(summary, "SEQ1M Q8T1", "latency_p50"));
    SavedValueMap one_pass = summary;
    one_pass["passes"] = std::int64_t { 1 };
    CHECK_FALSE(summary_pass_spread(one_pass, "SEQ1M Q8T1", "throughput"));
}

TEST_CASE("a run's headline line shows the drive's temperature start → max", "[client-model]")
{
    SavedValueMap summary { { "throughput_mb_s", 480.0 } };
    CHECK_FALSE(contains(device_summary_text("sequential", summary), "°C"));
    summary["temperature_start_c"] = 41.2;
    summary["temperature_max_c"] = 52.5;
    CHECK(contains(device_summary_text("sequential", summary), "41 → 52 °C"));
}
