// SPDX-License-Identifier: GPL-3.0-or-later
// The fio command lines of the info popover run: each is given to the real
// fio (Debian's) against a file of ours in a temporary folder (the read
// kinds take a device node; fio reads a file the same way, --readonly) and
// must exit 0. A line fio rejects (a misspelt option, a size it cannot
// parse, a job that reads past the end) fails here, not in a user's shell.
#include "model/benchmark_description.hpp"

#include "contract/benchmark_kinds.hpp"
#include "scratch.hpp"

#include <catch2/catch.hpp>
#include <glib.h>
#include <glib/gstdio.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace diskbench::client;
namespace kinds = diskbench::contract::kinds;

namespace {

constexpr std::int64_t MiB = 1 << 20;
constexpr std::int64_t file_bytes = 64 * MiB;

// A folder of our own in the build tree, removed with what fio left in it.
// Not in $TMPDIR: a tmpfs there (no O_DIRECT before Linux 6.6) would fail
// every --direct=1 line for a reason that is not ours.
struct TempFolder {
    std::string path;
    TempFolder()
    {
        std::string name = std::string(DISKBENCH_BUILD_ROOT) + "/diskbench-fio-XXXXXX";
        REQUIRE(g_mkdtemp(name.data()) != nullptr);
        path = name;
    }
    ~TempFolder()
    {
        const std::string command = "rm -rf -- '" + path + "'";
        [[maybe_unused]] const int ignored = std::system(command.c_str());
    }
};

// A file of random bytes standing in for a device.
std::string random_file(const std::string& folder)
{
    const std::string path = folder + "/device.img";
    std::ofstream out(path, std::ios::binary);
    std::mt19937_64 random(42);
    std::vector<std::uint64_t> chunk(MiB / 8);
    for (std::int64_t written = 0; written < file_bytes; written += MiB) {
        for (auto& word : chunk)
            word = random();
        out.write(reinterpret_cast<const char*>(chunk.data()), MiB);
    }
    REQUIRE(out.good());
    return path;
}

// Runs `command` in sh; its exit status, with fio's messages in `errors`.
int run(const std::string& command, const std::string& folder, std::string& errors)
{
    const std::string log = folder + "/fio.err";
    // In the folder: fio writes the logs some lines ask for (--write_bw_log) to its working directory.
    // fio's report goes nowhere; a dd loop's lines (the write sweep's) print to stderr only.
    const std::string quiet = command.starts_with("fio ") ? " --output=/dev/null" : "";
    const std::string line = "cd '" + folder + "' && " + command + quiet + " 2>'" + log + "'";
    const int status = std::system(line.c_str());
    std::ifstream in(log);
    errors.assign(std::istreambuf_iterator<char>(in), {});
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Settings that keep each run short and inside the 64 MiB file; sizes as
// the daemon would take them.
SavedValueMap short_run(std::string_view kind)
{
    SavedValueMap p { { "duration_s", 0.2 }, { "warmup_s", 0.0 } };
    if (kind == kinds::overview)
        p["access_reads"] = std::int64_t { 200 };
    if (kind == kinds::seek)
        p["count"] = std::int64_t { 200 };
    if (kind == kinds::random) {
        p["min_block"] = std::int64_t { 4096 }; // direct I/O on any disk's filesystem
        p["count_per_size"] = std::int64_t { 20 };
    }
    if (kind == kinds::block) {
        p["min_block"] = std::int64_t { 4096 };
        p["amount_per_size"] = std::int64_t { 2 * MiB };
    }
    if (kind == kinds::sequential)
        p["size"] = std::int64_t { 16 * MiB };
    if (kind == kinds::profile || kind == kinds::qd_sweep)
        p["region_size"] = std::int64_t { 32 * MiB };
    if (kind == kinds::qd_sweep || kind == kinds::file_qd_sweep) {
        p["max_queue_depth"] = std::int64_t { 2 };
        p["max_threads"] = std::int64_t { 2 };
    }
    if (kind == kinds::file_profile || kind == kinds::file_qd_sweep)
        p["file_size"] = std::int64_t { 16 * MiB };
    return p;
}

bool have_fio()
{
    return std::system("fio --version >/dev/null 2>&1") == 0;
}

} // namespace

TEST_CASE("every fio line of the read kinds, file-profile and file-qd-sweep runs", "[fio]")
{
    // fio is one of the test packages (.ci/debian-packages): missing, the
    // test fails and says so instead of passing without running anything.
    REQUIRE(have_fio());
    TempFolder folder;
    const std::string device = random_file(folder.path);
    std::size_t ran = 0;
    // Every line of a description through fio; each must exit 0.
    const auto run_all = [&](const BenchmarkDescription& d) {
        for (const std::string& command : d.fio_commands) {
            INFO(command);
            std::string errors;
            const int status = run(command, folder.path, errors);
            INFO(errors);
            CHECK(status == 0);
            ++ran;
        }
    };
    for (const std::string_view kind : kinds::all) {
        // The write kinds' lines write: on a device they destroy it, and
        // the folder kinds' dd loops run minutes; file-profile's and
        // file-qd-sweep's own lines write only their own file, which
        // --unlink removes.
        if (kinds::writes_device(kind)
            || (kinds::in_folder(kind) && kind != kinds::file_profile && kind != kinds::file_qd_sweep))
            continue;
        INFO(kind);
        const std::string target = kinds::in_folder(kind) ? folder.path : device;
        const BenchmarkDescription d = describe_benchmark(std::string(kind), short_run(kind), target, 4096);
        CHECK_FALSE(d.fio_commands.empty());
        run_all(d);
    }
    // Mixed, write-only and read-only selections of file-profile, and the new presets.
    for (const char* select : { "write", "read", "mix" }) {
        SavedValueMap p = short_run(kinds::file_profile);
        p["select"] = std::string(select);
        p["preset"] = std::string("real-world");
        const BenchmarkDescription d = describe_benchmark("file-profile", p, folder.path, 4096);
        CHECK(d.fio_commands.size() == (std::string_view(select) == "mix" ? 1U : 2U));
        run_all(d);
    }
    // The queue-depth sweep's sequential streams.
    SavedValueMap sequential = short_run(kinds::qd_sweep);
    sequential["pattern"] = std::string("sequential");
    run_all(describe_benchmark("qd-sweep", sequential, device, 4096));
    // The folder sweep's writes (randwrite with its end_fsync); the
    // device's keep the data, which fio cannot: no lines, and said so.
    SavedValueMap writes = short_run(kinds::file_qd_sweep);
    writes["writes"] = true;
    const BenchmarkDescription folder_writes = describe_benchmark("file-qd-sweep", writes, folder.path, 4096);
    REQUIRE(folder_writes.fio_commands.size() == 4);
    CHECK(folder_writes.fio_commands[0].find("--rw=randwrite") != std::string::npos);
    CHECK(folder_writes.fio_commands[0].find("--end_fsync=1") != std::string::npos);
    run_all(folder_writes);
    SavedValueMap device_writes = short_run(kinds::qd_sweep);
    device_writes["writes"] = true;
    const BenchmarkDescription kept = describe_benchmark("qd-sweep", device_writes, device, 4096);
    CHECK(kept.fio_commands.empty());
    CHECK(kept.what.find("fio has no write that keeps the data") != std::string::npos);
    CHECK(ran > 30);
    // --unlink=1: file-profile's fio runs leave no file behind.
    CHECK_FALSE(g_file_test((folder.path + "/diskbench-fio.tmp").c_str(), G_FILE_TEST_EXISTS));
}

// The raw write kinds' lines erase what they name: here a file of ours in
// the build tree, made anew for each line, never a device.
TEST_CASE("every fio line of the device write kinds runs, flushing as the engine does", "[fio]")
{
    REQUIRE(have_fio());
    TempFolder folder;
    std::size_t ran = 0;
    const auto run_all = [&](const BenchmarkDescription& d) {
        REQUIRE_FALSE(d.fio_commands.empty());
        for (const std::string& command : d.fio_commands) {
            INFO(command);
            const std::string device = random_file(folder.path);
            std::string errors;
            const int status = run(command, folder.path, errors);
            INFO(errors);
            CHECK(status == 0);
            ++ran;
        }
    };
    const std::string device = folder.path + "/device.img";
    SavedValueMap write { { "mode", std::string("destroy") }, { "size", std::int64_t { 8 * MiB } },
                          { "block_size", std::int64_t { MiB } }, { "region_size", std::int64_t { 16 * MiB } },
                          { "duration_s", 0.2 } };
    const BenchmarkDescription at_end = describe_benchmark("device-write", write, device, 4096);
    REQUIRE(at_end.fio_commands.size() == 3);
    for (const std::string& command : at_end.fio_commands) {
        CHECK(command.find("--end_fsync=1") != std::string::npos);
        CHECK(command.find("--fdatasync") == std::string::npos);
    }
    CHECK(at_end.what.find("keeps its queue full and ends with one flush") != std::string::npos);
    run_all(at_end);
    write["sync_every"] = std::int64_t { 2 * MiB };
    const BenchmarkDescription every = describe_benchmark("device-write", write, device, 4096);
    CHECK(every.fio_commands[0].ends_with(" --fdatasync=2")); // 1 MiB writes
    CHECK(every.fio_commands[1].find("--fdatasync=512 ") != std::string::npos); // 4 KiB writes
    run_all(every);
    SavedValueMap sustained { { "mode", std::string("destroy") }, { "size", std::int64_t { 16 * MiB } },
                              { "block_size", std::int64_t { MiB } }, { "window_s", 0.1 } };
    run_all(describe_benchmark("sustained-write", sustained, device, 4096));
    sustained["sync_every"] = std::int64_t { 4 * MiB };
    const BenchmarkDescription sustained_every = describe_benchmark("sustained-write", sustained, device, 4096);
    CHECK(sustained_every.fio_commands[0].find("--fdatasync=4 ") != std::string::npos);
    run_all(sustained_every);
    // The dd study's loops, on the same file.
    run_all(describe_benchmark("device-write-sweep",
                               { { "mode", std::string("destroy") }, { "min_block", std::int64_t { 4096 } },
                                 { "max_block", std::int64_t { 65536 } }, { "amount_per_size", std::int64_t { MiB } },
                                 { "repetitions", std::int64_t { 2 } } },
                               device, 4096));
    // The Profiles' write column: each test written, then the mixed test.
    SavedValueMap profile { { "write", true }, { "mode", std::string("destroy") },
                            { "tests", std::string("SEQ1M Q2T1, RND4K Q4T1") },
                            { "region_size", std::int64_t { 32 * MiB } }, { "duration_s", 0.2 }, { "warmup_s", 0.0 } };
    const BenchmarkDescription column = describe_benchmark("profile", profile, device, 4096);
    REQUIRE(column.fio_commands.size() == 2 + 2 + 1);
    CHECK(column.fio_commands[2].find("--rw=write ") != std::string::npos);
    CHECK(column.fio_commands[3].find("--rw=randwrite ") != std::string::npos);
    CHECK(column.fio_commands[4].find("--rw=randrw ") != std::string::npos);
    CHECK(column.fio_commands[4].ends_with("--rwmixread=70"));
    for (std::size_t i = 2; i < column.fio_commands.size(); ++i) {
        CHECK(column.fio_commands[i].find("--end_fsync=1") != std::string::npos);
        CHECK(column.fio_commands[i].find("--readonly") == std::string::npos);
    }
    run_all(column);
    profile["mode"] = std::string("preserve");
    const BenchmarkDescription kept = describe_benchmark("profile", profile, device, 4096);
    CHECK(kept.fio_commands.size() == 2); // the reads: fio cannot keep the data
    CHECK(kept.what.find("fio has no write that keeps the data") != std::string::npos);
    CHECK(ran == 3 + 3 + 2 + 5 + 5);
}

// steady-state's purge is blkdiscard, which needs a block device: its
// lines run on a loop device of ours over a file in the build tree.
TEST_CASE("steady-state's purge, preconditioning and rounds run as blkdiscard and fio", "[fio]")
{
    REQUIRE(have_fio());
    TempFolder folder;
    const std::string backing = random_file(folder.path);
    diskbench::testing::LoopDevice loop(backing);
    SavedValueMap steady { { "mode", std::string("destroy") }, { "size", std::int64_t { 8 * MiB } },
                           { "round_s", 0.2 }, { "max_rounds", std::int64_t { 10 } } };
    const BenchmarkDescription d = describe_benchmark("steady-state", steady, loop.path(), 512);
    REQUIRE(d.fio_commands.size() == 3);
    CHECK(d.fio_commands[0] == "blkdiscard --length 8388608 " + loop.path());
    CHECK(d.fio_commands[1].find("--rw=write --bs=128k --iodepth=32 --size=8m --loops=2 ") != std::string::npos);
    CHECK(d.fio_commands[2].find("--rw=randwrite --bs=4k --iodepth=32 --size=8m ") != std::string::npos);
    CHECK(d.fio_commands[2].find("--runtime=2000ms --steadystate=iops:10% --steadystate_duration=1000ms")
          != std::string::npos);
    for (const std::string& command : d.fio_commands) {
        INFO(command);
        std::string errors;
        const int status = run(command, folder.path, errors);
        INFO(errors);
        CHECK(status == 0);
    }
    // A set amount of preconditioning, and the 70/30 mix.
    steady["precondition_bytes"] = std::int64_t { 4 * MiB };
    steady["read_percent"] = std::int64_t { 70 };
    steady["purge"] = false;
    const BenchmarkDescription mixed = describe_benchmark("steady-state", steady, loop.path(), 512);
    REQUIRE(mixed.fio_commands.size() == 2);
    CHECK(mixed.fio_commands[0].find("--io_size=4m ") != std::string::npos);
    CHECK(mixed.fio_commands[1].find("--rw=randrw --rwmixread=70 ") != std::string::npos);
    for (const std::string& command : mixed.fio_commands) {
        INFO(command);
        std::string errors;
        const int status = run(command, folder.path, errors);
        INFO(errors);
        CHECK(status == 0);
    }
}
