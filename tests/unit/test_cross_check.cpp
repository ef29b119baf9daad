// SPDX-License-Identifier: GPL-3.0-or-later
// The block-layer cross-check: figures from sysfs trees built here (for
// the logic and hardware this machine lacks) and from real loop devices
// (a clean run, a page-cache-backed loop device, a second reader, tmpfs).
#include "benchmark.hpp"
#include "fs_bench_support.hpp"
#include "mounts.hpp"
#include "scratch.hpp"
#include "storage/cross_check.hpp"
#include "storage/stack.hpp"
#include "sysfs_tree.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <catch2/catch.hpp>

using namespace diskbench::engine;
using namespace diskbench::engine::storage;
using diskbench::testing::LoopDevice;
using diskbench::testing::make_data_file;
using diskbench::testing::MountedFilesystem;
using diskbench::testing::ScratchDir;
using diskbench::testing::SysfsTree;

namespace {

const std::string nvme_disk = "pci0000:00/0000:00:01.1/0000:01:00.0/nvme/nvme0/nvme0n1";

std::uint64_t key(const Result& result, const std::string& name)
{
    const auto it = result.summary.find(name);
    REQUIRE(it != result.summary.end());
    return std::get<std::uint64_t>(it->second);
}

std::vector<std::string> matching(const std::vector<std::string>& lines, const std::string& part)
{
    std::vector<std::string> found;
    for (const auto& line : lines)
        if (line.find(part) != std::string::npos)
            found.push_back(line);
    return found;
}

std::string all_of(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& line : lines)
        text += line + "\n";
    return text;
}

// One phase through the cross-check, the device's counters moved by the given sectors meanwhile.
void phase(BlockCrossCheck& check, const SysfsTree& tree, const std::string& device_path, IoDirection direction,
           const std::string& name, std::uint64_t issued, std::uint64_t& read_sectors, std::uint64_t& write_sectors,
           std::uint64_t more_read_sectors, std::uint64_t more_write_sectors)
{
    IoRunSpec spec;
    spec.direction = direction;
    spec.phase = name;
    check.phase_starting(spec);
    read_sectors += more_read_sectors;
    write_sectors += more_write_sectors;
    tree.set_stat(device_path, read_sectors, write_sectors);
    IoRunStats stats;
    stats.bytes = issued;
    check.phase_finished(spec, stats);
}

} // namespace

TEST_CASE("a block stat line gives bytes in 512-byte sectors", "[cross-check]")
{
    const auto counters = parse_block_stat("    4000   12  80000  300   500  3  16000  90  0  400  390  0  0  0  0  0  0\n");
    REQUIRE(counters);
    CHECK(counters->read_bytes == 80000u * 512);
    CHECK(counters->write_bytes == 16000u * 512);
    CHECK_FALSE(parse_block_stat("1 2 3"));
}

TEST_CASE("a partition's counters come from its own stat file, not its disk's", "[cross-check]")
{
    SysfsTree tree;
    tree.block(nvme_disk, makedev(259, 0), 1'000'000, 1'000'000);
    tree.block(nvme_disk + "/nvme0n1p3", makedev(259, 3), 100, 100);
    tree.write("sys/devices/" + nvme_disk + "/nvme0n1p3/partition", "3");
    const Sysfs sysfs(tree.root());
    const CheckedDevices devices = checked_devices_of_block(sysfs, makedev(259, 3));
    REQUIRE(devices.device);
    CHECK(devices.device->name == "nvme0n1p3");
    CHECK_FALSE(devices.loop);
    CHECK(sysfs.counters(devices.device->directory)->read_bytes == 100 * 512);
    CHECK_FALSE(checked_devices_of_block(sysfs, makedev(8, 0)).device);
}

TEST_CASE("the device serving what was asked gives the keys and no warning", "[cross-check]")
{
    SysfsTree tree;
    tree.block(nvme_disk, makedev(259, 0));
    BlockCrossCheck check(Sysfs(tree.root()), checked_devices_of_block(Sysfs(tree.root()), makedev(259, 0)));
    std::uint64_t r = 0, w = 0;
    phase(check, tree, nvme_disk, IoDirection::Read, "SEQ1M Q8T1", 1024 * 1024 * 100, r, w, 204800, 0);
    phase(check, tree, nvme_disk, IoDirection::Write, "writes", 1024 * 1024 * 10, r, w, 0, 20480);
    Result result;
    Recorder recorder(result, nullptr);
    check.report(result, recorder);
    CHECK(key(result, "issued_read_bytes") == 100u * 1024 * 1024);
    CHECK(key(result, "device_read_bytes") == 100u * 1024 * 1024);
    CHECK(key(result, "issued_write_bytes") == 10u * 1024 * 1024);
    CHECK(key(result, "device_write_bytes") == 10u * 1024 * 1024);
    CHECK(key(result, "cross_check_phases") == 2);
    CHECK_FALSE(result.summary.contains("foreign_read_bytes"));
    CHECK_FALSE(result.summary.contains("foreign_write_bytes"));
    CHECK(result.warnings.empty());
}

TEST_CASE("a cache that answered reads and a page cache that kept writes are named with their figures",
          "[cross-check]")
{
    SysfsTree tree;
    tree.block(nvme_disk, makedev(259, 0));
    BlockCrossCheck check(Sysfs(tree.root()), checked_devices_of_block(Sysfs(tree.root()), makedev(259, 0)));
    std::uint64_t r = 0, w = 0;
    // 94 % served: just below the 95 % line.
    phase(check, tree, nvme_disk, IoDirection::Read, "the run", 100 * 1024 * 1024, r, w, 204800 * 94 / 100, 0);
    Result result;
    Recorder recorder(result, nullptr);
    check.report(result, recorder);
    REQUIRE(result.warnings.size() == 1);
    CHECK(result.warnings[0] == "a cache answered reads: nvme0n1 served 94 MiB of 100 MiB read (94.0 %) during the run");

    SysfsTree writes_tree;
    writes_tree.block(nvme_disk, makedev(259, 0));
    BlockCrossCheck writes(Sysfs(writes_tree.root()), checked_devices_of_block(Sysfs(writes_tree.root()), makedev(259, 0)));
    r = w = 0;
    phase(writes, writes_tree, nvme_disk, IoDirection::Write, "the writes", 64 * 1024 * 1024, r, w, 0, 2048);
    Result written;
    Recorder written_recorder(written, nullptr);
    writes.report(written, written_recorder);
    REQUIRE(written.warnings.size() == 1);
    CHECK(written.warnings[0]
          == "writes absorbed by the page cache inside the timing: nvme0n1 received 1 MiB of 64 MiB written (1.6 %) "
             "during the writes");
}

TEST_CASE("95 % served is no warning; more than 1 % (and 64 KiB) beyond ours is foreign I/O", "[cross-check]")
{
    CheckedDevices devices;
    devices.device = CheckedDevice { "/nonexistent", "sdb" };
    const std::uint64_t issued = 100 * 1024 * 1024;
    PhaseFigures exact_line { "SEQ1M Q8T1", issued, 0, issued * 95 / 100, 0 };
    PhaseFigures within { "RND4K Q1T1", issued, 0, issued + issued / 100, 0 };
    Result result;
    Recorder recorder(result, nullptr);
    report_phases(devices, { exact_line, within }, result, recorder);
    CHECK(result.warnings.empty());
    CHECK_FALSE(result.summary.contains("foreign_read_bytes"));

    PhaseFigures beyond { "RND4K Q1T1", issued, 0, issued + issued / 100 + 4096, 12 * 1024 * 1024 };
    Result foreign;
    Recorder foreign_recorder(foreign, nullptr);
    report_phases(devices, { exact_line, beyond }, foreign, foreign_recorder);
    CHECK(key(foreign, "foreign_read_bytes") == issued / 100 + 4096);
    CHECK(key(foreign, "foreign_write_bytes") == 12u * 1024 * 1024);
    REQUIRE(foreign.warnings.size() == 1);
    CHECK(foreign.warnings[0]
          == "other I/O on sdb during the test (more than 1 % beyond the benchmark's own): during RND4K Q1T1: 1.0 MiB "
             "read, 12 MiB written");

    // A small phase: the 64 KiB floor, not 1 %, decides.
    PhaseFigures small { "the run", 4096, 0, 4096 + 64 * 1024, 0 };
    Result floor;
    Recorder floor_recorder(floor, nullptr);
    report_phases(devices, { small }, floor, floor_recorder);
    CHECK(floor.warnings.empty());
}

TEST_CASE("a benchmark of many phases gets one warning per kind", "[cross-check]")
{
    CheckedDevices devices;
    devices.device = CheckedDevice { "/nonexistent", "sdb" };
    std::vector<PhaseFigures> phases;
    for (int i = 0; i < 10; ++i)
        phases.push_back({ "the " + std::to_string(4 << i) + " KiB reads", 1024 * 1024, 0, 0, 1024 * 1024 });
    Result result;
    Recorder recorder(result, nullptr);
    report_phases(devices, phases, result, recorder);
    REQUIRE(result.warnings.size() == 2);
    CHECK(matching(result.warnings, "a cache answered reads: sdb served 0 B of 10 MiB read (0.0 %) in 10 of 10 "
                                    "phases (the 4 KiB reads, the 8 KiB reads, the 16 KiB reads and 7 more)")
              .size()
          == 1);
    CHECK(matching(result.warnings, "; and 7 more phases").size() == 1);
}

TEST_CASE("a dm-crypt device and an md array are checked by their own counters", "[cross-check]")
{
    SysfsTree tree;
    tree.block("virtual/block/dm-0", makedev(253, 0), 0, 0);
    tree.write("sys/devices/virtual/block/dm-0/dm/uuid", "CRYPT-LUKS2-0123456789abcdef-luks");
    tree.block("virtual/block/md0", makedev(9, 0), 0, 0);
    tree.write("sys/devices/virtual/block/md0/md/level", "raid1");
    for (auto [number, path] : { std::pair { makedev(253, 0), std::string("virtual/block/dm-0") },
                                 std::pair { makedev(9, 0), std::string("virtual/block/md0") } }) {
        BlockCrossCheck check(Sysfs(tree.root()), checked_devices_of_block(Sysfs(tree.root()), number));
        std::uint64_t r = 0, w = 0;
        phase(check, tree, path, IoDirection::Read, "the run", 1024 * 1024, r, w, 2048, 0);
        Result result;
        Recorder recorder(result, nullptr);
        check.report(result, recorder);
        CHECK(key(result, "device_read_bytes") == 1024 * 1024);
        CHECK(result.warnings.empty());
        CHECK(std::get<std::string>(result.summary.at("checked_device")) == std::filesystem::path(path).filename());
    }
}

// ---- real loop devices ----

namespace {

Result run_on(const std::string& path, const std::string& kind, const ValueMap& params)
{
    const Target target = open_target_for_read(path);
    CancelToken never;
    return run_benchmark(*find_benchmark(kind), target, validate_request(*find_benchmark(kind), params), nullptr, never);
}

// Reads the whole file through the page cache, so the next read of it is
// answered from memory: the planted cache hit.
void read_into_page_cache(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::vector<char> block(1 << 20);
    while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0) {
    }
}

} // namespace

TEST_CASE("a clean run on a loop device with direct I/O: the device served what was read, no warning",
          "[cross-check][loop]")
{
    ScratchDir dir;
    LoopDevice loop(make_data_file(dir, "backing", 32 * 1024 * 1024));
    REQUIRE(loop.direct_io());
    loop.wait_until_idle();
    const Result result = run_on(loop.path(), "seek", { { "count", Value(std::uint64_t { 2000 }) } });
    INFO(all_of(result.warnings));
    const std::uint64_t issued = key(result, "issued_read_bytes");
    const std::uint64_t served = key(result, "device_read_bytes");
    CHECK(issued == 2000u * 512);
    CHECK(static_cast<double>(served) >= 0.99 * static_cast<double>(issued));
    CHECK(static_cast<double>(served) <= 1.01 * static_cast<double>(issued));
    CHECK_FALSE(result.summary.contains("foreign_read_bytes"));
    CHECK(result.warnings.empty());
    CHECK(std::get<std::string>(result.summary.at("checked_device")) == loop.path().substr(5));
}

TEST_CASE("a loop device without direct I/O over a cached backing file is flagged every time", "[cross-check][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * 1024 * 1024);
    LoopDevice loop(backing, 512, true, LoopDevice::Backing::Buffered);
    REQUIRE_FALSE(loop.direct_io());
    loop.wait_until_idle();
    for (int round = 0; round < 3; ++round) {
        read_into_page_cache(backing);
        const Result result = run_on(loop.path(), "sequential", { { "size", Value(std::uint64_t { 64 * 1024 * 1024 }) },
                                                                  { "block_size", Value(std::uint64_t { 1024 * 1024 }) } });
        INFO("round " << round << "\n" << all_of(result.warnings));
        CHECK(matching(result.warnings, loop.path().substr(5) + " is page-cache-backed").size() == 1);
        // The loop device itself counted every read; the disk under its
        // backing file served (almost) none of them.
        CHECK(key(result, "device_read_bytes") == key(result, "issued_read_bytes"));
        // The page cache's own answer: all of the planted file. (The disk
        // under it, /var/tmp's, is the machine's, which others read
        // meanwhile: its counters are reported, not relied on.)
        REQUIRE(result.summary.contains("backing_read_bytes"));
        CHECK(std::get<double>(result.summary.at("backing_cached_percent")) > 90);
        CHECK(matching(result.warnings, "a cache answered reads under " + loop.path().substr(5)
                                            + ": the page cache held ").size() == 1);
    }
}

TEST_CASE("a FIFO where the backing file was is not opened: the run ends, without the page cache's share",
          "[cross-check][loop]")
{
    // sysfs names a deleted backing file "PATH (deleted)", and whoever may
    // write in its folder can put anything at that name; the check must not
    // block in open() on a FIFO (or open a device node as root there): it
    // takes regular files only.
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 16 * 1024 * 1024);
    LoopDevice loop(backing, 512, true, LoopDevice::Backing::Buffered);
    REQUIRE_FALSE(loop.direct_io());
    loop.wait_until_idle();
    REQUIRE(::unlink(backing.c_str()) == 0);
    const std::string planted = backing.string() + " (deleted)";
    REQUIRE(::mkfifo(planted.c_str(), 0600) == 0);
    const Result result = run_on(loop.path(), "seek", { { "count", Value(std::uint64_t { 50 }) } });
    INFO(all_of(result.warnings));
    CHECK(key(result, "device_read_bytes") == key(result, "issued_read_bytes"));
    CHECK_FALSE(result.summary.contains("backing_cached_percent"));
    CHECK(matching(result.warnings, loop.path().substr(5) + " is page-cache-backed").size() == 1);
}

TEST_CASE("a file put where the backing file was is not measured: root reports only on the file the loop reads",
          "[cross-check][loop]")
{
    // The kernel's backing_file is text: a user who attached a file of
    // their own mount namespace makes it name a root-owned path (their
    // /etc/shadow reads "/etc/shadow"), and whoever may write in the
    // folder can put another file at the name it shows. Here: the backing
    // file deleted (sysfs then says "PATH (deleted)") and a fully cached
    // regular file, the "secret", planted at that name.
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 16 * 1024 * 1024);
    struct stat real {};
    REQUIRE(::stat(backing.c_str(), &real) == 0);
    LoopDevice loop(backing, 512, true, LoopDevice::Backing::Buffered);
    REQUIRE_FALSE(loop.direct_io());
    loop.wait_until_idle();
    REQUIRE(::unlink(backing.c_str()) == 0);
    const auto planted = make_data_file(dir, "backing (deleted)", 8 * 1024 * 1024);
    read_into_page_cache(planted);

    // What the daemon publishes of the device names no file and takes the
    // filesystem from the file the driver holds.
    const Sysfs sysfs;
    struct stat node {};
    REQUIRE(::stat(loop.path().c_str(), &node) == 0);
    const auto devices = checked_devices_of_block(sysfs, node.st_rdev);
    REQUIRE(devices.loop);
    CHECK(devices.loop->backing_file == planted.string());
    REQUIRE(devices.loop->backing);
    CHECK(devices.loop->backing->device == real.st_dev);
    CHECK(devices.loop->backing->inode == real.st_ino);
    const auto layers = device_stack(sysfs, *sysfs.block_directory(node.st_rdev)).layers;
    REQUIRE_FALSE(layers.empty());
    CHECK(layers.front().starts_with(loop.path().substr(5) + " (page-cache-backed, file on "));
    CHECK(layers.front().find(dir.path().string()) == std::string::npos);

    const Result result = run_on(loop.path(), "seek", { { "count", Value(std::uint64_t { 50 }) } });
    INFO(all_of(result.warnings) << all_of(result.notes));
    CHECK_FALSE(result.summary.contains("backing_cached_percent"));
    CHECK(matching(result.notes, "how much of " + loop.path().substr(5) + "'s backing file the page cache held was "
                                 "not measured").size() == 1);
    CHECK(matching(result.warnings, "the page cache held").empty());
}

TEST_CASE("a second reader on the same loop device is foreign I/O, named with its phase", "[cross-check][loop]")
{
    ScratchDir dir;
    LoopDevice loop(make_data_file(dir, "backing", 64 * 1024 * 1024));
    loop.wait_until_idle();
    const Target target = open_target_for_read(loop.path());

    // The other program starts reading once the second test (RND4K Q1T1)
    // has begun: half the progress, the warm-ups being off.
    std::atomic<bool> stop { false };
    std::jthread reader;
    diskbench::testing::HookSink sink;
    sink.on_progress = [&](double progress) {
        if (progress > 0.55 && !reader.joinable())
            reader = std::jthread([&] {
                diskbench::engine::UniqueFd fd(::open(loop.path().c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC));
                void* memory = nullptr;
                if (!fd.valid() || ::posix_memalign(&memory, 4096, 1 << 20) != 0)
                    return;
                for (off_t offset = 0; !stop; offset = (offset + (1 << 20)) % (64 << 20))
                    if (::pread(fd.get(), memory, 1 << 20, offset) < 0)
                        break;
                std::free(memory);
            });
    };
    CancelToken never;
    const Result result = run_benchmark(*find_benchmark("profile"), target,
                                        validate_request(*find_benchmark("profile"), { { "tests", Value(std::string("SEQ1M Q1T1, RND4K Q1T1")) },
                                          { "duration_s", Value(1.0) },
                                          { "warmup_s", Value(0.0) },
                                          { "region_size", Value(std::uint64_t { 32 * 1024 * 1024 }) } }),
                                        &sink, never);
    stop = true;
    if (reader.joinable())
        reader.join();
    INFO(all_of(result.warnings));
    REQUIRE(result.summary.contains("foreign_read_bytes"));
    CHECK(key(result, "foreign_read_bytes") > 1024 * 1024);
    const auto warnings = matching(result.warnings, "other I/O on " + loop.path().substr(5) + " during the test");
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("during RND4K Q1T1: ") != std::string::npos);
    CHECK(warnings[0].find("SEQ1M Q1T1") == std::string::npos);
}

TEST_CASE("a folder on tmpfs gets a note that the cross-check cannot run", "[cross-check][loop]")
{
    MountedFilesystem tmpfs(MountedFilesystem::Kind::Tmpfs, 64 * 1024 * 1024);
    ::chmod(tmpfs.path().c_str(), 0777);
    const Result result = diskbench::testing::run_in(tmpfs.path(), "file-rw",
                                                     { { "size", Value(std::uint64_t { 4 * 1024 * 1024 }) } }, nullptr);
    INFO(all_of(result.notes));
    CHECK(matching(result.notes, "the block-layer cross-check cannot run: the files are on tmpfs").size() == 1);
    CHECK_FALSE(result.summary.contains("device_read_bytes"));
}

TEST_CASE("ext4 on a page-cache-backed loop device: the buffered fallback's cache hit is flagged every time",
          "[cross-check][loop]")
{
    MountedFilesystem ext4(MountedFilesystem::Kind::Ext4, 128 * 1024 * 1024, 0, LoopDevice::Backing::Buffered);
    ::chmod(ext4.path().c_str(), 0777);
    const std::string loop = ext4.device()->path().substr(5);
    for (int round = 0; round < 3; ++round) {
        const Result result = diskbench::testing::run_in(
            ext4.path(), "file-rw",
            { { "size", Value(std::uint64_t { 48 * 1024 * 1024 }) }, { "direct", Value(false) } }, nullptr);
        INFO("round " << round << "\n" << all_of(result.warnings) << "issued " << key(result, "issued_read_bytes")
                      << " device " << key(result, "device_read_bytes") << " backing "
                      << key(result, "backing_read_bytes"));
        CHECK(std::get<std::string>(result.summary.at("checked_device")) == loop);
        CHECK(key(result, "issued_read_bytes") == 48u * 1024 * 1024);
        CHECK(matching(result.warnings, loop + " is page-cache-backed").size() == 1);
        // The file's pages were dropped, so ext4 asked the loop device for
        // them; the loop device found them in its backing file's page cache.
        CHECK(key(result, "device_read_bytes") >= key(result, "issued_read_bytes") * 95 / 100);
        REQUIRE(result.summary.contains("backing_cached_percent"));
        CHECK(matching(result.warnings, "a cache answered reads under " + loop + ": the page cache held ").size() == 1);
    }
}
