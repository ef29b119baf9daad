// SPDX-License-Identifier: GPL-3.0-or-later
// file-profile on real ext4 (mkfs.ext4 on a loop device, O_DIRECT) and on
// tmpfs without direct I/O (the buffered path and its warning), acting for
// nobody: every test's read and write figures, the I/O really reaching the
// loop device, the test file the caller's and gone at the end, a file
// that does not fit refused before anything is written. Tests run for
// fractions of a second so the suite stays quick.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "fs_bench_support.hpp"
#include "fs_test_support.hpp"
#include "mounts.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <filesystem>
#include <string>

using namespace diskbench::engine;
using namespace diskbench::testing;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

// Short tests, so four tests x two directions + the mix take a few seconds.
ValueMap quick(std::uint64_t file_size)
{
    return { { "file_size", file_size }, { "duration_s", 0.25 }, { "warmup_s", 0.05 }, { "interval_s", 0.0 } };
}

const char* const default_keys[] = { "seq1m_q8t1", "seq1m_q1t1", "rnd4k_q32t1", "rnd4k_q1t1", "mix" };

void check_figures(const Result& result, const std::string& test)
{
    INFO(test);
    for (const char* direction : { "read_", "write_" }) {
        const std::string prefix = test + "." + direction;
        CHECK(number(result, prefix + "mb_s") > 0);
        CHECK(number(result, prefix + "mb_s") < 1e6);
        CHECK(number(result, prefix + "iops") > 0);
        CHECK(number(result, prefix + "latency_p50_us") > 0);
        CHECK(number(result, prefix + "latency_p50_us") <= number(result, prefix + "latency_p99_us"));
        CHECK(number(result, prefix + "latency_p99_us") <= number(result, prefix + "latency_p99_9_us"));
    }
}

// The scratch entries of `dir` and whether a file of the caller's is in one.
struct FileWitness {
    explicit FileWitness(int folder_fd) : folder(folder_fd) {}
    int folder;
    bool seen = false;
    uid_t owner = 0;
    std::uint64_t size = 0;

    // Called on the scope's thread (as the caller) at a point: the open
    // file shows in /proc/self/fd as "... (deleted)" or "/#NNN (deleted)".
    void look()
    {
        if (seen)
            return;
        for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
            std::error_code error;
            const fs::path target = fs::read_symlink(entry.path(), error);
            if (error || target.string().find(scratch_prefix) == std::string::npos
                || target.string().find("(deleted)") == std::string::npos)
                continue;
            struct stat st {};
            if (::stat(entry.path().c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
                owner = st.st_uid;
                size = static_cast<std::uint64_t>(st.st_size);
                seen = true;
            }
        }
    }
};

} // namespace

TEST_CASE("file-profile reads and writes every test on a test file on ext4, as the caller", "[file-profile][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 96 * MiB);
    const LoopDevice& device = *mount.device();
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const UniqueFd home_fd = open_directory(home);
    const std::uint64_t free_before = free_bytes(home);

    HookSink sink;
    FileWitness witness(home_fd.get());
    sink.on_point = [&](std::size_t, const SeriesPoint&) { witness.look(); };
    const std::uint64_t written_before = device.bytes_written();
    const std::uint64_t read_before = device.bytes_read();
    const Result result = run_in(home, "file-profile", quick(32 * MiB), &sink);

    CHECK_FALSE(result.cancelled);
    CHECK(sink.record.last_progress == 1.0);
    CHECK(sink.record.progress_monotonic);
    CHECK(std::get<bool>(result.summary.at("direct_io")));
    CHECK(result.warnings.empty());
    CHECK(number(result, "file_size_bytes") == 32 * MiB);
    CHECK(std::get<std::string>(result.summary.at("data")) == "random");
    CHECK(std::get<std::string>(result.summary.at("tests"))
          == "SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T1,RND4K Q1T1,MIX RND4K Q1T1");
    for (const char* test : default_keys)
        check_figures(result, test);
    // One bar per test and direction, streamed as each test ended.
    CHECK(series_named(result, "read").points.size() == 5);
    CHECK(series_named(result, "write").points.size() == 5);
    CHECK(sink.record.points.at(0).size() == 5);

    // The mix: about 70 % of its requests read.
    const double mix_read = number(result, "mix.read_bytes");
    const double mix_written = number(result, "mix.write_bytes");
    REQUIRE(mix_read + mix_written > 0);
    CHECK(mix_read / (mix_read + mix_written) == Approx(0.70).margin(0.08));

    // Direct I/O: the device saw the fill and every byte the tests wrote,
    // and every byte they read.
    double written = 32 * MiB, read = 0;
    for (const char* test : default_keys) {
        written += number(result, std::string(test) + ".write_bytes");
        read += number(result, std::string(test) + ".read_bytes");
    }
    CHECK(static_cast<double>(device.bytes_written() - written_before) >= written);
    CHECK(static_cast<double>(device.bytes_read() - read_before) >= read);

    // The test file was the caller's, of the size asked, without a name;
    // it and the scratch folder are gone, the space free again.
    REQUIRE(witness.seen);
    CHECK(witness.owner == caller_uid);
    CHECK(witness.size == 32 * MiB);
    CHECK(scratch_entries(home).empty());
    CHECK(fs::is_empty(home));
    // The blocks come back once the kernel has torn down the io_uring rings
    // that had the file registered (asynchronously, after their close).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (free_bytes(home) + MiB < free_before && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(free_bytes(home) + MiB >= free_before);
}

TEST_CASE("file-profile on tmpfs without direct I/O goes through the page cache and says so", "[file-profile]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Tmpfs, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    ValueMap params = quick(16 * MiB);
    params["direct"] = false;
    params["preset"] = std::string("nvme");
    params["mix"] = std::string();
    params["data"] = std::string("zeros");
    RecordingSink sink;
    const Result result = run_in(home, "file-profile", params, &sink);
    CHECK_FALSE(result.cancelled);
    CHECK_FALSE(std::get<bool>(result.summary.at("direct_io")));
    CHECK(mentions(result.warnings, "page cache"));
    CHECK(std::get<std::string>(result.summary.at("data")) == "zeros");
    CHECK(std::get<std::string>(result.summary.at("tests")) == "SEQ1M Q8T1,SEQ128K Q32T1,RND4K Q32T16,RND4K Q1T1");
    for (const char* test : { "seq1m_q8t1", "seq128k_q32t1", "rnd4k_q32t16", "rnd4k_q1t1" })
        check_figures(result, test);
    CHECK(result.summary.count("mix.read_mb_s") == 0);
    CHECK(scratch_entries(home).empty());
    CHECK(fs::is_empty(home));
}

TEST_CASE("file-profile refuses a test file bigger than the free space before writing anything",
          "[file-profile][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const LoopDevice& device = *mount.device();
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t written_before = device.bytes_written();
    const std::uint64_t free_before = free_bytes(home);

    const BenchmarkInfo& info = *find_benchmark("file-profile");
    const UniqueFd fd = open_directory(home);
    try {
        check_directory_benchmark(info, filesystem_facts(fd.get()), validate_request(info, quick(128 * MiB)));
        FAIL("a 128 MiB file was accepted on a 64 MiB filesystem");
    } catch (const IoError& error) {
        CHECK(error.error_number() == ENOSPC);
        CHECK(std::string(error.what()).find("128 MiB") != std::string::npos);
    }
    CHECK(scratch_entries(home).empty());
    CHECK(free_bytes(home) == free_before);
    CHECK(device.bytes_written() == written_before);

    // Not given: the default 1 GiB scales down to what fits, with a note.
    ValueMap defaults = quick(0);
    defaults.erase("file_size");
    defaults["tests"] = std::string("SEQ1M Q1T1");
    defaults["mix"] = std::string();
    RecordingSink sink;
    const Result result = run_in(home, "file-profile", defaults, &sink);
    CHECK(number(result, "file_size_bytes") >= 16 * MiB);
    CHECK(number(result, "file_size_bytes") < 64 * MiB);
    CHECK(mentions(result.notes, "scaled down"));
    check_figures(result, "seq1m_q1t1");
    CHECK(scratch_entries(home).empty());

    // Out of range and bad words name their key.
    for (const auto& [key, value] : std::initializer_list<std::pair<const char*, Value>> {
             { "file_size", std::uint64_t { MiB } }, { "data", std::string("ones") },
             { "preset", std::string("fast") }, { "mix", std::string("MIX") },
             { "mix_read_percent", std::uint64_t { 101 } } }) {
        INFO(key);
        ValueMap bad = quick(16 * MiB);
        bad[key] = value;
        try {
            check_directory_benchmark(info, filesystem_facts(fd.get()), validate_request(info, bad));
            FAIL("accepted");
        } catch (const ParameterError& error) {
            CHECK(error.key() == key);
        }
    }
}

TEST_CASE("file-qd-sweep reads, and writes, every cell on a test file on ext4, as the caller", "[file-profile][loop]")
{
    const bool writes = GENERATE(false, true);
    INFO((writes ? "writes" : "reads"));
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 96 * MiB);
    const LoopDevice& device = *mount.device();
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const UniqueFd home_fd = open_directory(home);

    HookSink sink;
    FileWitness witness(home_fd.get());
    sink.on_point = [&](std::size_t, const SeriesPoint&) { witness.look(); };
    const std::uint64_t written_before = device.bytes_written();
    const std::uint64_t read_before = device.bytes_read();
    const Result result = run_in(home, "file-qd-sweep",
                                 { { "file_size", 32 * MiB }, { "writes", writes },
                                   { "max_queue_depth", std::uint64_t { 4 } }, { "max_threads", std::uint64_t { 2 } },
                                   { "duration_s", 0.1 }, { "warmup_s", 0.02 } },
                                 &sink);
    CHECK_FALSE(result.cancelled);
    CHECK(sink.record.last_progress == 1.0);
    CHECK(sink.record.progress_monotonic);
    CHECK(std::get<bool>(result.summary.at("direct_io")));
    CHECK(result.warnings.empty());
    CHECK(number(result, "file_size_bytes") == 32 * MiB);
    CHECK(std::get<std::string>(result.summary.at("direction")) == (writes ? "write" : "read"));
    CHECK(std::get<std::uint64_t>(result.summary.at("cells")) == 6);
    CHECK(result.summary.count("mode") == 0); // nothing to keep in a file of its own
    for (const char* name : { "iops-t1", "p99-t1", "iops-t2", "p99-t2" }) {
        INFO(name);
        const Series& series = series_named(result, name);
        REQUIRE(series.points.size() == 3);
        CHECK(series.points[2].x == 4);
        for (const auto& point : series.points)
            CHECK(point.y > 0);
    }
    // The measured cells' requests were of one direction only (the block
    // layer's count of them), and direct I/O: the device saw the fill and
    // at least what the cells sent.
    const double issued_read = number(result, "issued_read_bytes");
    const double issued_write = number(result, "issued_write_bytes");
    CHECK((writes ? issued_read : issued_write) == 0);
    CHECK((writes ? issued_write : issued_read) >= 6 * 4096);
    CHECK(static_cast<double>(device.bytes_written() - written_before) >= 32 * MiB + (writes ? issued_write : 0));
    CHECK(static_cast<double>(device.bytes_read() - read_before) >= issued_read);
    // The caller's file, without a name, gone at the end.
    REQUIRE(witness.seen);
    CHECK(witness.owner == caller_uid);
    CHECK(scratch_entries(home).empty());
    CHECK(fs::is_empty(home));
}
