// SPDX-License-Identifier: GPL-3.0-or-later
// The mixed-load benchmark (DiskThrasher) on real ext4 (mkfs.ext4 on a
// loop device) and tmpfs, acting for nobody, with files of a few MiB: it
// sorts, its figures add up to the chunk moves the sort must make (worked
// out here from the seed, independently of the run), the device saw that
// I/O, the same seed repeats the run move for move, a cancel stops it at
// once, and the scratch files are gone afterwards. Sink hooks run on the
// scope's thread; they only record and act through the cancel token or
// fds this thread opened.
#include "benchmark.hpp"
#include "benchmark_support.hpp"
#include "benchmarks/chunk_quicksort.hpp"
#include "base/errors.hpp"
#include "failure_checks.hpp"
#include "sandbox/fs_scope.hpp"
#include "fs_bench_support.hpp"
#include "fs_test_support.hpp"
#include "io/io_buffers.hpp"
#include "mounts.hpp"
#include "base/prng.hpp"
#include "parameter_checks.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "io/write_data.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

using namespace diskbench::engine;
using namespace diskbench::testing;
namespace fs = std::filesystem;

namespace {


Result run_in(const fs::path& dir, const ValueMap& params, SampleSink* sink, const CancelToken* cancel = nullptr)
{
    return diskbench::testing::run_in(dir, "mixed-load", params, sink, cancel);
}

// What the sort of `threads` files of `chunks` chunks from `seed` must do,
// worked out from the documented data (xoshiro256** per chunk, seeded from
// the thread's stream) by the same quicksort on the keys alone.
benchmarks::ChunkSortCounts expected_counts(std::uint64_t seed, unsigned threads, std::uint64_t chunks)
{
    benchmarks::ChunkSortCounts total;
    const IoBuffers buffer(1, MiB, 4096);
    for (unsigned thread = 0; thread < threads; ++thread) {
        SplitMix64 chunk_seeds(worker_seed(seed, thread));
        std::vector<std::uint64_t> keys;
        for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
            fill_pseudo_random(buffer.slot(0), MiB, chunk_seeds.next());
            keys.push_back(benchmarks::chunk_key(buffer.slot(0)));
        }
        const auto counts = benchmarks::chunk_quicksort_keys(keys);
        total.comparisons += counts.comparisons;
        total.swaps += counts.swaps;
        total.reads += counts.reads;
        total.writes += counts.writes;
    }
    return total;
}

// A finished run: streamed what it holds, sorted, figures that add up.
void check_completed(const Result& result, const RecordingSink& sink, unsigned threads, std::uint64_t file_size)
{
    CHECK_FALSE(result.cancelled);
    REQUIRE(sink.series.size() == result.series.size());
    for (std::size_t i = 0; i < result.series.size(); ++i)
        CHECK(sink.points[i].size() == result.series[i].points.size());
    CHECK(sink.progress_monotonic);
    CHECK(sink.last_progress == 1.0);
    CHECK(std::get<bool>(result.summary.at("sorted")));
    CHECK(number(result, "threads") == threads);
    CHECK(number(result, "file_size") == static_cast<double>(file_size));
    CHECK(number(result, "chunk_size") == MiB);
    CHECK(number(result, "read_mb_s") > 0);
    CHECK(number(result, "write_mb_s") > 0);
    CHECK(number(result, "bytes_read") == number(result, "chunk_reads") * MiB);
    CHECK(number(result, "bytes_written") == number(result, "chunk_writes") * MiB);
    CHECK(number(result, "chunk_writes") == 2 * number(result, "swaps"));
    CHECK(number(result, "chunk_reads") >= number(result, "comparisons") + number(result, "swaps"));
    CHECK(number(result, "syncs") == threads);
    // DiskThrasher's figure: all threads' bytes over one thread's mean time.
    CHECK(number(result, "read_mb_s")
          == Approx(number(result, "bytes_read") / 1e6 / (number(result, "read_time_s") / threads)));
    CHECK(number(result, "write_mb_s")
          == Approx(number(result, "bytes_written") / 1e6 / (number(result, "write_time_s") / threads)));
    CHECK(number(result, "sort_s") > 0);
    CHECK(number(result, "read_latency_p50_us") > 0);
    CHECK(number(result, "write_latency_p50_us") > 0);
    CHECK(result.backend == "psync");
    for (const std::string name : { "read", "write" }) {
        INFO(name);
        const Series& series = series_named(result, name);
        CHECK(series.info.x_unit == "s");
        CHECK(series.info.y_unit == "MB/s");
        REQUIRE(!series.points.empty());
        double last_x = 0;
        for (const auto& point : series.points) {
            CHECK(point.x > last_x);
            CHECK(point.y > 0);
            CHECK(point.y < 1e6);
            last_x = point.x;
        }
        CHECK(last_x <= number(result, "sort_s") + 1);
    }
}

} // namespace

TEST_CASE("mixed-load sorts every file as the caller, moving exactly the chunks the sort must", "[mixed-load][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const LoopDevice& device = *mount.device();
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t free_before = free_bytes(home);
    const std::uint64_t read_before = device.bytes_read();
    const std::uint64_t written_before = device.bytes_written();

    RecordingSink sink;
    const Result result = run_in(home, { { "threads", std::uint64_t { 2 } }, { "file_size", 8 * MiB } }, &sink);
    check_completed(result, sink, 2, 8 * MiB);
    CHECK(std::get<bool>(result.summary.at("direct_io")));
    CHECK(std::get<std::string>(result.summary.at("scratch_file")) == "O_TMPFILE");
    CHECK(result.warnings.empty());
    CHECK(result.notes.empty());

    // The moves are those of the quicksort of these keys, no more, no less.
    const auto expected = expected_counts(default_seed, 2, 8);
    CHECK(number(result, "chunk_reads") == expected.reads);
    CHECK(number(result, "chunk_writes") == expected.writes);
    CHECK(number(result, "comparisons") == expected.comparisons);
    CHECK(number(result, "swaps") == expected.swaps);
    CHECK(expected.writes > 0);

    // With O_DIRECT the device saw it all: both files written, then every
    // chunk the sort moved (and the keys read back).
    CHECK(device.bytes_written() - written_before >= 2 * 8 * MiB + expected.writes * MiB);
    CHECK(device.bytes_read() - read_before >= expected.reads * MiB);

    CHECK(scratch_entries(home).empty());
    CHECK(free_bytes(home) + MiB >= free_before);
}

TEST_CASE("the same seed repeats mixed-load move for move", "[mixed-load][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const auto moves = [&](std::uint64_t seed) {
        RecordingSink sink;
        const Result result = run_in(home, { { "threads", std::uint64_t { 3 } }, { "file_size", 6 * MiB },
                                             { "seed", seed } }, &sink);
        check_completed(result, sink, 3, 6 * MiB);
        const auto expected = expected_counts(seed, 3, 6);
        CHECK(number(result, "chunk_reads") == expected.reads);
        CHECK(number(result, "chunk_writes") == expected.writes);
        return std::vector<double> { number(result, "chunk_reads"), number(result, "chunk_writes"),
                                     number(result, "comparisons"), number(result, "swaps") };
    };
    const auto first = moves(11);
    CHECK(moves(11) == first);
    moves(12); // another seed, other files: checked against its own keys
}

TEST_CASE("mixed-load without direct I/O warns that the page cache was in the way, and still sorts",
          "[mixed-load][loop]")
{
    {
        MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
        const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
        RecordingSink sink;
        const Result result = run_in(home, { { "threads", std::uint64_t { 2 } }, { "file_size", 4 * MiB },
                                             { "direct", false } }, &sink);
        check_completed(result, sink, 2, 4 * MiB);
        CHECK_FALSE(std::get<bool>(result.summary.at("direct_io")));
        REQUIRE(result.warnings.size() == 1);
        CHECK(mentions(result.warnings, "direct I/O was turned off"));
        CHECK(mentions(result.warnings, "page cache"));
        CHECK(mentions(result.warnings, "fdatasync"));
        CHECK(scratch_entries(home).empty());
    }
    {
        // tmpfs: memory, said as such; O_DIRECT only where this kernel's
        // tmpfs has it (6.6 and later), else the buffered warning too.
        MountedFilesystem mount(MountedFilesystem::Kind::Tmpfs, 64 * MiB);
        const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
        RecordingSink sink;
        const Result result = run_in(home, { { "threads", std::uint64_t { 2 } }, { "file_size", 4 * MiB } }, &sink);
        check_completed(result, sink, 2, 4 * MiB);
        CHECK(mentions(result.warnings, "memory"));
        if (!std::get<bool>(result.summary.at("direct_io")))
            CHECK(mentions(result.warnings, "does not allow direct I/O"));
        CHECK(scratch_entries(home).empty());
    }
}

TEST_CASE("a cancelled mixed-load stops within a second, while writing its files or sorting", "[mixed-load][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 256 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t free_before = free_bytes(home);
    using Clock = std::chrono::steady_clock;

    for (const bool while_sorting : { true, false }) {
        INFO((while_sorting ? "while sorting" : "while writing the files"));
        CancelToken cancel;
        HookSink sink;
        Clock::time_point cancelled_at {};
        const auto stop = [&] {
            if (!cancel.cancelled()) {
                cancelled_at = Clock::now();
                cancel.cancel();
            }
        };
        if (while_sorting)
            sink.on_point = [&](std::size_t, const SeriesPoint&) { stop(); };
        else
            sink.on_progress = [&](double progress) {
                if (progress > 0)
                    stop();
            };
        // 2 x 48 chunks: seconds of sorting, far more than the first point.
        const Result result = run_in(home, { { "threads", std::uint64_t { 2 } }, { "file_size", 48 * MiB } },
                                     &sink, &cancel);
        const auto took = Clock::now() - cancelled_at;
        REQUIRE(cancel.cancelled());
        CHECK(result.cancelled);
        CHECK(took < std::chrono::seconds(1));
        CHECK(sink.record.last_progress < 1.0);
        CHECK(result.summary.find("sorted") == result.summary.end());
        if (while_sorting) {
            // What was measured so far is kept.
            CHECK(number(result, "bytes_read") > 0);
            CHECK(number(result, "chunk_reads") < static_cast<double>(expected_counts(default_seed, 2, 48).reads));
        } else {
            CHECK(sink.record.last_progress <= 0.05);
            CHECK(result.summary.find("bytes_read") == result.summary.end());
        }
        CHECK(scratch_entries(home).empty());
        CHECK(free_bytes(home) + MiB >= free_before);
    }
}

TEST_CASE("mixed-load refuses bad parameters naming the key, before anything is written", "[mixed-load][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 16 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const UniqueFd fd = open_directory(home);
    const FilesystemFacts facts = filesystem_facts(fd.get());
    const auto rejected = [&](const ValueMap& params) { return rejected_key("mixed-load", facts, params); };
    CHECK(rejected({ { "threads", std::uint64_t { 0 } } }) == "threads");
    CHECK(rejected({ { "threads", std::uint64_t { 65 } } }) == "threads");
    CHECK(rejected({ { "file_size", MiB + MiB / 2 } }) == "file_size");
    CHECK(rejected({ { "file_size", MiB / 2 } }) == "file_size");
    CHECK(rejected({ { "file_size", std::uint64_t { 0 } } }) == "file_size");
    // Given and too big for the free space: refused, not scaled.
    CHECK(rejected({ { "file_size", 16 * MiB } }) == "file_size");
    CHECK(rejected({ { "threads", std::uint64_t { 2 } }, { "file_size", 8 * MiB } }) == "file_size");
    // Not even one chunk per thread.
    CHECK(rejected({ { "threads", std::uint64_t { 64 } } }) == "threads");
    CHECK(rejected({ { "direct", std::string("yes") } }) == "direct");
    // It has no I/O backend to choose: it does its own pread()/pwrite().
    CHECK(rejected({ { "backend", std::string("io_uring") } }) == "backend");
    CHECK(rejected({ { "chunk_size", MiB } }) == "chunk_size");
    CHECK(rejected({}) == "(accepted)");
    CHECK(rejected({ { "threads", std::uint64_t { 2 } }, { "file_size", 2 * MiB } }) == "(accepted)");
    CHECK(tree_snapshot(home).empty());
}

TEST_CASE("mixed-load's default files scale down to the free space with a note", "[mixed-load][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 16 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const auto available = [&] {
        const UniqueFd fd = open_directory(home);
        return filesystem_facts(fd.get()).available_bytes;
    }();
    RecordingSink sink;
    const Result result = run_in(home, { { "threads", std::uint64_t { 2 } } }, &sink);
    const double file_size = number(result, "file_size");
    REQUIRE(file_size >= MiB);
    check_completed(result, sink, 2, static_cast<std::uint64_t>(file_size));
    CHECK(mentions(result.notes, "scaled down from 256 MiB"));
    CHECK(mentions(result.notes, "free space"));
    CHECK(std::fmod(file_size, MiB) == 0);
    CHECK(2 * file_size <= static_cast<double>(available) * 0.9);
    CHECK(scratch_entries(home).empty());
}

TEST_CASE("a filesystem that fills up while mixed-load writes its files ends it with a clear error",
          "[mixed-load][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 256 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t free_before = free_bytes(home);
    // Opened by root, written through by the hook as the caller: fills
    // what the caller may fill, as another program would mid-run.
    const UniqueFd filler(::open((mount.path() / "filler").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    REQUIRE(filler.valid());
    HookSink sink;
    bool filled = false;
    sink.on_progress = [&](double) {
        if (filled)
            return;
        filled = true;
        const std::vector<char> chunk(64 * 1024, 'f');
        for (std::size_t size = chunk.size(); size >= 1024; size /= 2)
            while (::write(filler.get(), chunk.data(), size) == static_cast<ssize_t>(size)) {
            }
        ::fsync(filler.get());
    };
    // 2 x 80 MiB: fits the free space when checked, not once filled.
    // Big enough that writing them outlasts the first progress report
    // (after 20 ms), where the hook fills the filesystem: with 2 x 20
    // MiB a fast run had written everything by then and ended well.
    check_full_mid_run([&] { run_in(home, { { "threads", std::uint64_t { 2 } }, { "file_size", 80 * MiB } }, &sink); },
                       home.string());
    CHECK(filled);
    CHECK(scratch_entries(home).empty());
    REQUIRE(::ftruncate(filler.get(), 0) == 0);
    ::fsync(filler.get());
    CHECK(free_bytes(home) + MiB >= free_before);
}
