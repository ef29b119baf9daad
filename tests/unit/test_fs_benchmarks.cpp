// SPDX-License-Identifier: GPL-3.0-or-later
// The filesystem benchmarks (file-rw, write-sweep) on real ext4 (mkfs.ext4
// on a loop device) and tmpfs, acting for nobody: sane figures, files that
// have no name and belong to the caller, planted and swapped symlinks never
// followed, a full filesystem and a killed run that leave nothing behind.
// Sizes are cut down so the file runs in seconds. Hooks in the sink run on
// the scope's threads as the caller; they only record (Catch2 is not
// thread-safe) and act through fds this thread opened.
#include "benchmark.hpp"
#include "base/errors.hpp"
#include "failure_checks.hpp"
#include "sandbox/fs_beneath.hpp"
#include "sandbox/fs_scope.hpp"
#include "fs_bench_support.hpp"
#include "fs_test_support.hpp"
#include "mounts.hpp"
#include "parameter_checks.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>

using namespace diskbench::engine;
using namespace diskbench::testing;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;

// The sink saw what the result holds, progress reached 1.
void check_streamed(const Result& result, const RecordingSink& sink)
{
    CHECK_FALSE(result.cancelled);
    REQUIRE(sink.series.size() == result.series.size());
    for (std::size_t i = 0; i < result.series.size(); ++i)
        CHECK(sink.points[i].size() == result.series[i].points.size());
    CHECK(sink.progress_monotonic);
    CHECK(sink.last_progress == 1.0);
}

// A series of (position, MB/s) over `size` bytes: positions rise from 0,
// every rate is positive and below what any storage does.
void check_position_series(const Series& series, std::uint64_t size)
{
    REQUIRE(!series.points.empty());
    CHECK(series.points.front().x == 0);
    double last_x = -1;
    for (const auto& point : series.points) {
        CHECK(point.x > last_x);
        CHECK(point.x < static_cast<double>(size));
        CHECK(point.y > 0);
        CHECK(point.y < 1e6);
        last_x = point.x;
    }
}

// What the caller sees of the scratch directory during a run, read from
// the sink (as the caller) through an fd of the folder.
struct ScratchWitness {
    explicit ScratchWitness(int folder_fd) : folder(folder_fd) {}
    int folder;
    bool seen = false;
    uid_t owner = 0;
    std::size_t entries = 0;
    std::string fsuid;        // of the thread that looked
    std::string capabilities; // its CapEff

    void look()
    {
        if (seen)
            return;
        std::ifstream status("/proc/thread-self/status");
        for (std::string line; std::getline(status, line);) {
            std::istringstream fields(line);
            std::string key, real, effective, saved, fs;
            fields >> key;
            if (key == "Uid:" && fields >> real >> effective >> saved >> fs)
                fsuid = fs;
            if (key == "CapEff:")
                fields >> capabilities;
        }
        for (const auto& entry : fs::directory_iterator(fs::path("/proc/self/fd") / std::to_string(folder))) {
            const std::string name = entry.path().filename().string();
            if (!name.starts_with(scratch_prefix))
                continue;
            struct stat st {};
            if (::fstatat(folder, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
                owner = st.st_uid;
            entries = static_cast<std::size_t>(std::distance(fs::directory_iterator(entry.path()),
                                                             fs::directory_iterator()));
            seen = true;
        }
    }
};

} // namespace

TEST_CASE("file-rw and write-sweep complete with sane figures, as the caller, in unnamed files",
          "[fs-bench][loop]")
{
    for (const auto kind : { MountedFilesystem::Kind::Ext4, MountedFilesystem::Kind::Tmpfs }) {
        MountedFilesystem mount(kind, 64 * MiB);
        INFO(mount.type());
        const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
        const UniqueFd home_fd = open_directory(home);
        const std::uint64_t free_before = free_bytes(home);

        {
            HookSink sink;
            ScratchWitness witness(home_fd.get());
            sink.on_point = [&](std::size_t, const SeriesPoint&) { witness.look(); };
            const Result result = run_in(home, "file-rw", { { "size", 8 * MiB }, { "block_size", 256 * KiB } }, &sink);
            check_streamed(result, sink.record);
            check_position_series(series_named(result, "write"), 8 * MiB);
            check_position_series(series_named(result, "read"), 8 * MiB);
            CHECK(number(result, "bytes") == 8 * MiB);
            CHECK(number(result, "write_mb_s") > 0);
            CHECK(number(result, "read_mb_s") > 0);
            CHECK(number(result, "write_min_mb_s") <= number(result, "write_max_mb_s"));
            CHECK(number(result, "write_latency_p50_us") > 0);
            CHECK(std::get<bool>(result.summary.at("direct_io")));
            CHECK(std::get<std::string>(result.summary.at("scratch_file")) == "O_TMPFILE");
            CHECK(std::get<std::string>(result.summary.at("filesystem"))
                  == (kind == MountedFilesystem::Kind::Ext4 ? "ext2/ext3/ext4" : "tmpfs"));
            if (kind == MountedFilesystem::Kind::Tmpfs)
                CHECK((result.warnings.size() == 1 && mentions(result.warnings, "memory")));
            else
                CHECK(result.warnings.empty());
            if (kind == MountedFilesystem::Kind::Tmpfs)
                CHECK((result.notes.size() == 1 && mentions(result.notes, "cross-check cannot run")));
            else
                CHECK(result.notes.empty());
            // During the run: the scratch directory was the caller's, and
            // held only its marker (the data file has no name).
            CHECK(witness.seen);
            CHECK(witness.owner == caller_uid);
            CHECK(witness.entries == 1);
            // The I/O threads (where the sink is called from) act as the
            // caller too: its fsuid, no capabilities (no root reserve).
            CHECK(witness.fsuid == std::to_string(caller_uid));
            CHECK(witness.capabilities == "0000000000000000");
        }
        {
            RecordingSink sink;
            const Result result = run_in(home, "write-sweep",
                                         { { "amount_per_size", MiB }, { "min_block", 4 * KiB }, { "max_block", MiB },
                                           { "repetitions", std::uint64_t { 9 } } },
                                         &sink);
            check_streamed(result, sink);
            const auto& mean = series_named(result, "throughput").points;
            const auto& median = series_named(result, "throughput-median").points;
            const auto& low = series_named(result, "throughput-min").points;
            const auto& high = series_named(result, "throughput-max").points;
            REQUIRE(mean.size() == 9); // 4 KiB .. 1 MiB
            REQUIRE(median.size() == 9);
            REQUIRE(low.size() == 9);
            REQUIRE(high.size() == 9);
            const auto& repetitions = series_named(result, "repetitions").points;
            REQUIRE(repetitions.size() == 81);
            std::uint64_t writes = 0;
            for (std::size_t i = 0; i < mean.size(); ++i) {
                CHECK(mean[i].x == static_cast<double>(4 * KiB << i));
                // The bars summarise exactly the nine repetitions of their size.
                std::vector<double> rates;
                for (const auto& point : repetitions)
                    if (point.x == mean[i].x)
                        rates.push_back(point.y);
                REQUIRE(rates.size() == 9);
                std::sort(rates.begin(), rates.end());
                double sum = 0;
                for (double rate : rates)
                    sum += rate;
                CHECK(mean[i].y == Approx(sum / 9));
                CHECK(median[i].y == rates[4]);
                CHECK(low[i].y == rates.front());
                CHECK(high[i].y == rates.back());
                CHECK(low[i].y > 0);
                CHECK(low[i].y <= median[i].y);
                CHECK(median[i].y <= high[i].y);
                CHECK(low[i].y <= mean[i].y);
                CHECK(mean[i].y <= high[i].y);
                CHECK(high[i].y < 1e6);
                writes += 9 * MiB / (4 * KiB << i);
            }
            CHECK(number(result, "writes") == static_cast<double>(writes));
            CHECK(number(result, "bytes") == 81 * MiB);
            CHECK(number(result, "throughput_max_mb_s") >= number(result, "throughput_min_mb_s"));
            CHECK(number(result, "best_block_size") >= 4 * KiB);
        }
        // Nothing left: no scratch directory, the space free again.
        CHECK(scratch_entries(home).empty());
        CHECK(free_bytes(home) + MiB >= free_before);
    }
}

TEST_CASE("without direct I/O the writes reach the device inside the timing and the reads come from it",
          "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const LoopDevice& device = *mount.device();
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    constexpr std::uint64_t size = 16 * MiB;

    // At every write point the device has been sent at least everything
    // written so far (each point ends with an fdatasync); the whole read
    // pass comes from the device (the cached pages were dropped).
    HookSink sink;
    const std::uint64_t written_before = device.bytes_written();
    std::vector<std::pair<double, std::uint64_t>> written_at_points;
    // Taken at the last write point, before the read pass starts: a
    // baseline taken at the first read point would already hold that
    // point's readahead, which the kernel sizes as it likes.
    std::uint64_t read_before_reading = 0;
    sink.on_point = [&](std::size_t series, const SeriesPoint& point) {
        if (series == 0) {
            written_at_points.emplace_back(point.x, device.bytes_written() - written_before);
            read_before_reading = device.bytes_read();
        }
    };
    const Result result = run_in(home, "file-rw", { { "size", size }, { "block_size", 64 * KiB }, { "direct", false } },
                                 &sink);
    check_streamed(result, sink.record);
    CHECK_FALSE(std::get<bool>(result.summary.at("direct_io")));
    CHECK(mentions(result.warnings, "page cache"));
    check_position_series(series_named(result, "write"), size);
    check_position_series(series_named(result, "read"), size);
    REQUIRE(written_at_points.size() == 64); // a point per 1/64 of the file
    for (const auto& [position, written] : written_at_points) {
        INFO(position);
        CHECK(written >= static_cast<std::uint64_t>(position) + size / 64);
    }
    // The whole file came from the device, not from the page cache.
    CHECK(device.bytes_read() - read_before_reading >= size);

    // The sweep: every repetition's data is on the device when it is timed.
    HookSink sweep_sink;
    const std::uint64_t sweep_written_before = device.bytes_written();
    std::vector<std::uint64_t> written_after_repetition;
    sweep_sink.on_point = [&](std::size_t series, const SeriesPoint&) {
        if (series == 4) // "repetitions"
            written_after_repetition.push_back(device.bytes_written() - sweep_written_before);
    };
    const Result sweep = run_in(home, "write-sweep",
                                { { "amount_per_size", MiB }, { "min_block", 512 }, { "max_block", MiB },
                                  { "repetitions", std::uint64_t { 9 } }, { "direct", false } },
                                &sweep_sink);
    check_streamed(sweep, sweep_sink.record);
    CHECK(mentions(sweep.warnings, "page cache"));
    REQUIRE(written_after_repetition.size() == 108); // 12 sizes, 512 B .. 1 MiB, 9 times each
    for (std::size_t i = 0; i < written_after_repetition.size(); ++i)
        CHECK(written_after_repetition[i] >= (i + 1) * MiB);
}

TEST_CASE("without O_TMPFILE scratch files are named and unlinked at once", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const UniqueFd home_fd = open_directory(home);
    const std::uint64_t free_before = free_bytes(home);
    HookSink sink;
    ScratchWitness witness(home_fd.get());
    sink.on_point = [&](std::size_t, const SeriesPoint&) { witness.look(); };
    const Result result = run_in(home, "file-rw", { { "size", 8 * MiB }, { "block_size", 256 * KiB } }, &sink,
                                 nullptr, [](FilesystemScope& scope) { scope.avoid_tmpfile(); });
    check_streamed(result, sink.record);
    check_position_series(series_named(result, "write"), 8 * MiB);
    CHECK(std::get<std::string>(result.summary.at("scratch_file")) == "unlinked file");
    CHECK(witness.seen);
    CHECK(witness.owner == caller_uid);
    CHECK(witness.entries == 1); // the marker; the file lost its name at once
    CHECK(scratch_entries(home).empty());
    CHECK(free_bytes(home) + MiB >= free_before);
}

TEST_CASE("the defaults scale down to the free space with a note", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 16 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const auto available = [&] {
        const UniqueFd fd = open_directory(home);
        return filesystem_facts(fd.get()).available_bytes;
    }();

    RecordingSink rw_sink;
    const Result rw = run_in(home, "file-rw", {}, &rw_sink);
    check_streamed(rw, rw_sink);
    CHECK(mentions(rw.notes, "scaled down"));
    CHECK(mentions(rw.notes, "free space"));
    CHECK(number(rw, "bytes") > 0);
    CHECK(number(rw, "bytes") <= static_cast<double>(available) * 0.9);

    RecordingSink sweep_sink;
    const Result sweep
        = run_in(home, "write-sweep", { { "min_block", 256 * KiB } }, &sweep_sink);
    check_streamed(sweep, sweep_sink);
    CHECK(mentions(sweep.notes, "scaled down"));
    CHECK(mentions(sweep.notes, "largest block size"));
    CHECK(number(sweep, "bytes_per_size") <= static_cast<double>(available) * 0.9);
    const auto& bars = series_named(sweep, "throughput").points;
    REQUIRE(!bars.empty());
    CHECK(bars.back().x < 16 * MiB);
    CHECK(scratch_entries(home).empty());
}

TEST_CASE("parameters that do not fit the folder are refused before anything is written", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 16 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const UniqueFd fd = open_directory(home);
    const FilesystemFacts facts = filesystem_facts(fd.get());
    const auto rejected = [&](const std::string& kind, const ValueMap& params) { return rejected_key(kind, facts, params); };
    CHECK(rejected("file-rw", { { "size", 64 * MiB } }) == "size");
    CHECK(rejected("file-rw", { { "size", 1000 }, { "block_size", MiB } }) == "size");
    CHECK(rejected("write-sweep", { { "amount_per_size", 64 * MiB } }) == "amount_per_size");
    CHECK(rejected("write-sweep", { { "min_block", 3000 } }) == "min_block");
    CHECK(rejected("write-sweep", { { "min_block", 8192 }, { "max_block", 4096 } }) == "max_block");
    CHECK(rejected("write-sweep", { { "amount_per_size", MiB }, { "max_block", 4 * MiB } }) == "max_block");
    // The dd study: fewer than 9 repetitions do not show the spread.
    CHECK(rejected("write-sweep", { { "repetitions", std::uint64_t { 8 } } }) == "repetitions");
    CHECK(rejected("file-rw", {}) == "(accepted)");
    CHECK(rejected("write-sweep", {}) == "(accepted)");
    CHECK(tree_snapshot(home).empty());

    // Device and directory benchmarks do not mix.
    CHECK_THROWS_AS(check_directory_benchmark(*find_benchmark("seek"), facts, {}), Error);
    ScratchDir dir;
    const Target target = open_target_for_read(make_data_file(dir, "data", MiB));
    CancelToken cancel;
    CHECK_THROWS_AS(run_benchmark(*find_benchmark("file-rw"), target, {}, nullptr, cancel), Error);
    CHECK_THROWS_AS(check_benchmark(*find_benchmark("write-sweep"), target, {}), Error);
}

TEST_CASE("a benchmark never follows a planted symlink or a scratch directory swapped for one", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    // Writable by the caller too: only the engine's care keeps it intact.
    const fs::path outside = make_owned_directory(mount.path(), "outside", caller_uid, caller_gid, 0755);
    {
        std::ofstream(outside / "precious") << "the caller's thesis";
        std::ofstream(outside / "file-0") << "a name the fallback could pick";
    }
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    fs::create_symlink(outside, home / ".diskbench-scratch-planted");
    fs::create_symlink(outside / "precious", home / "precious");
    const std::string before = tree_snapshot(outside);
    const UniqueFd home_fd = open_directory(home);

    for (const std::string kind : { "file-rw", "write-sweep" }) {
        INFO(kind);
        // At the first point, as the caller could: the scratch directory
        // renamed away and a symlink to `outside` put in its place.
        HookSink sink;
        bool swapped = false;
        sink.on_point = [&](std::size_t, const SeriesPoint&) {
            if (swapped)
                return;
            // Through the folder's fd: the caller cannot walk the test's
            // root-only path to it.
            for (const std::string& name : list_directory(home_fd.get())) {
                struct stat st {};
                ::fstatat(home_fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW);
                if (name.starts_with(scratch_prefix) && S_ISDIR(st.st_mode)) {
                    swapped = ::renameat(home_fd.get(), name.c_str(), home_fd.get(), ("moved-" + kind).c_str()) == 0
                        && ::symlinkat(outside.c_str(), home_fd.get(), name.c_str()) == 0;
                    break;
                }
            }
        };
        const ValueMap params = kind == "file-rw"
            ? ValueMap { { "size", 8 * MiB }, { "block_size", MiB } }
            : ValueMap { { "amount_per_size", MiB }, { "min_block", 256 * KiB }, { "max_block", MiB },
                         { "repetitions", std::uint64_t { 9 } } };
        const Result result = run_in(home, kind, params, &sink);
        CHECK(swapped);
        CHECK_FALSE(result.cancelled);
        CHECK(tree_snapshot(outside) == before);
        // The moved scratch directory was emptied through its fd.
        CHECK(fs::is_empty(home / ("moved-" + kind)));
    }
    CHECK(fs::is_symlink(home / ".diskbench-scratch-planted"));
    CHECK(fs::is_symlink(home / "precious"));
}

TEST_CASE("a folder the caller may not write is a permission error before anything is written", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 16 * MiB);
    const fs::path closed = make_owned_directory(mount.path(), "roots", 0, 0, 0755);
    const std::string before = tree_snapshot(mount.path());
    const auto available = free_bytes(mount.path());
    try {
        run_in(closed, "file-rw", { { "size", MiB } }, nullptr);
        FAIL("it ran");
    } catch (const IoError& error) {
        CHECK(error.error_number() == EACCES);
        CHECK_THAT(error.what(), Catch::Contains("may not create files"));
    }
    CHECK(tree_snapshot(mount.path()) == before);
    CHECK(free_bytes(mount.path()) == available);
}

TEST_CASE("a full filesystem ends the run with a clear error and the scratch removed", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t free_before = free_bytes(home);
    // Opened by root; written through by the hook, as the caller: it fills
    // what the caller may fill, the way another program would mid-run.
    const UniqueFd filler(::open((mount.path() / "filler").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
    REQUIRE(filler.valid());
    const auto fill = [&] {
        const std::vector<char> chunk(64 * KiB, 'f');
        for (std::size_t size = chunk.size(); size >= 1024; size /= 2)
            while (::write(filler.get(), chunk.data(), size) == static_cast<ssize_t>(size)) {
            }
        ::fsync(filler.get());
    };

    for (const std::string kind : { "file-rw", "write-sweep" }) {
        INFO(kind);
        HookSink sink;
        bool filled = false;
        sink.on_point = [&](std::size_t, const SeriesPoint&) {
            if (!filled)
                fill();
            filled = true;
        };
        const ValueMap params = kind == "file-rw"
            ? ValueMap { { "size", 24 * MiB }, { "block_size", MiB } }
            : ValueMap { { "amount_per_size", 8 * MiB }, { "min_block", MiB }, { "max_block", 4 * MiB },
                         { "repetitions", std::uint64_t { 9 } } };
        check_full_mid_run([&] { run_in(home, kind, params, &sink); }, home.string());
        CHECK(filled);
        CHECK(scratch_entries(home).empty());
        REQUIRE(::ftruncate(filler.get(), 0) == 0);
        ::fsync(filler.get());
    }
    CHECK(free_bytes(home) + MiB >= free_before);

    // Full before it starts: a clear error too, and nothing left behind,
    // whether the check or the scope notices first.
    fill();
    try {
        FilesystemScope scope(open_directory(home), home.string(), test_caller());
        FAIL("a scratch directory was made");
    } catch (const IoError& error) {
        CHECK(error.error_number() == ENOSPC);
        CHECK_THAT(error.what(), Catch::Contains("the filesystem is full"));
    }
    try {
        run_in(home, "file-rw", {}, nullptr);
        FAIL("the run started");
    } catch (const IoError& error) {
        CHECK(error.error_number() == ENOSPC);
        CHECK_THAT(error.what(), Catch::Contains("full"));
    }
    CHECK(scratch_entries(home).empty());
}

TEST_CASE("a run killed mid-write leaves no data, and the next run removes its scratch directory", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t free_before = free_bytes(home);
    run_killed_child([&] {
        HookSink sink;
        int points = 0;
        sink.on_point = [&](std::size_t, const SeriesPoint&) {
            if (++points == 16)
                ::kill(::getpid(), SIGKILL); // 16 MiB written
        };
        run_in(home, "file-rw", { { "size", 32 * MiB }, { "block_size", MiB } }, &sink);
    });
    CHECK(scratch_entries(home).size() == 1);
    // The unnamed file died with the process.
    CHECK(free_bytes(home) + MiB >= free_before);

    RecordingSink sink;
    const Result result = run_in(home, "file-rw", { { "size", MiB } }, &sink);
    CHECK(mentions(result.notes, "left behind by an earlier run"));
    CHECK(scratch_entries(home).empty());
    CHECK(free_bytes(home) + MiB >= free_before);
}

TEST_CASE("a cancelled filesystem benchmark stops early and cleans up", "[fs-bench][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Tmpfs, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    for (const std::string kind : { "file-rw", "write-sweep" }) {
        INFO(kind);
        CancelToken cancel;
        HookSink sink;
        sink.on_point = [&](std::size_t, const SeriesPoint&) { cancel.cancel(); };
        const Result result = run_in(home, kind, { { kind == "file-rw" ? "size" : "amount_per_size", 16 * MiB } },
                                     &sink, &cancel);
        CHECK(result.cancelled);
        CHECK(sink.record.last_progress < 1.0);
        CHECK(scratch_entries(home).empty());
    }
}
