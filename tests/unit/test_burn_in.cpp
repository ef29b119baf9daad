// SPDX-License-Identifier: GPL-3.0-or-later
// The burn-in (every block written and read back): its pattern tells a lost
// write from a misplaced one, to the sector and at 64-bit offsets; a run on
// a loop device leaves every sector of the device stamped with its own
// place and the run's key, flushes each cycle, draws both speeds along the
// device and passes; a 16 TiB sparse loop device is planned and started;
// bad parameters are refused before anything is written. The faulty drives
// (unreadable, wrapping, dropping) are tests/integration/test_burn_in.py's,
// on the stalling FUSE disk, and the lab's.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "benchmarks/burn_in_pattern.hpp"
#include "io/target.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/burn_in.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <thread>

using namespace diskbench::engine;
using namespace diskbench::engine::benchmarks;
using namespace diskbench::testing;

namespace burn_in_keys = diskbench::contract::kinds::keys::burn_in;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, TiB = MiB * MiB;

std::uint64_t u64_at(const std::byte* p)
{
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i)
        value |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return value;
}

std::vector<std::byte> written_block(const BurnInPattern& pattern, std::uint32_t block, const IoRequest& request)
{
    std::vector<std::byte> buffer(block);
    pattern.fill(buffer.data(), block);
    pattern.stamp(buffer.data(), request);
    return buffer;
}

const BenchmarkInfo& burn_in_info()
{
    const BenchmarkInfo* info = find_benchmark(diskbench::contract::kinds::burn_in);
    REQUIRE(info != nullptr);
    return *info;
}

ValueMap destroying(ValueMap params)
{
    params.insert({ { "mode", std::string("destroy") }, { "confirm", std::string("test device") } });
    return params;
}

// The key a ParameterError names, or "" when the request is taken (checked
// as the daemon checks, before anything is written).
std::string refused_key(const std::string& path, const ValueMap& params)
{
    try {
        const Target target = open_target_for_write(path);
        check_benchmark(burn_in_info(), target, validate_request(burn_in_info(), params));
    } catch (const ParameterError& e) {
        return std::string(e.key());
    }
    return {};
}

std::vector<std::byte> read_bytes(const std::string& path, std::uint64_t offset, std::size_t length)
{
    std::vector<std::byte> data(length);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    const ssize_t got = ::pread(fd, data.data(), length, static_cast<off_t>(offset));
    ::close(fd);
    REQUIRE(got == static_cast<ssize_t>(length));
    return data;
}

} // namespace

TEST_CASE("burn-in's pattern: each sector its place and the cycle's key, a lost and a misplaced write told apart",
          "[burn-in]")
{
    constexpr std::uint32_t block = 64 * KiB;
    const BurnInPattern pattern(block, 5, 77, false);
    const IoRequest at { 3 * block, block };
    std::vector<std::byte> data = written_block(pattern, block, at);
    for (std::uint32_t sector = 0; sector < block; sector += stamp_unit) {
        CHECK(u64_at(data.data() + sector) == at.offset + sector);
        CHECK(u64_at(data.data() + sector + 8) == 77);
    }
    ProbeCheck check = pattern.check(data.data(), at);
    CHECK(check.intact());
    CHECK(check.sectors == block / stamp_unit);

    // Sector 5 holds what was written to block 0's sector 5: the write of
    // that place landed here (misplaced), named by the place it carries.
    const std::vector<std::byte> other = written_block(pattern, block, { 0, block });
    std::memcpy(data.data() + 5 * stamp_unit, other.data() + 5 * stamp_unit, stamp_unit);
    check = pattern.check(data.data(), at);
    CHECK(check.intact_sectors == block / stamp_unit - 1);
    REQUIRE(check.first_lost);
    CHECK(*check.first_lost == at.offset + 5 * stamp_unit);
    REQUIRE(check.first_lost_holds);
    CHECK(*check.first_lost_holds == 5 * stamp_unit);

    // Zeros there instead (a write that was lost): not ours, no place named.
    std::memset(data.data() + 5 * stamp_unit, 0, stamp_unit);
    check = pattern.check(data.data(), at);
    REQUIRE(check.first_lost);
    CHECK_FALSE(check.first_lost_holds);

    // What an earlier cycle wrote (another key) or the second pattern
    // (inverted filler) does not pass for this cycle's.
    const BurnInPattern earlier(block, 5, 76, false);
    const BurnInPattern inverted(block, 5, 77, true);
    CHECK_FALSE(pattern.check(written_block(earlier, block, at).data(), at).intact());
    CHECK_FALSE(pattern.check(written_block(earlier, block, at).data(), at).first_lost_holds);
    const std::vector<std::byte> flipped = written_block(inverted, block, at);
    CHECK(pattern.check(flipped.data(), at).intact_sectors == 0);
    CHECK(inverted.check(flipped.data(), at).intact());
    // Beyond the stamps, every byte of the second pattern is the first's
    // inverse: each bit is written both ways.
    const std::vector<std::byte> plain = written_block(pattern, block, at);
    for (std::uint32_t i = 16; i < stamp_unit; ++i)
        CHECK((plain[i] ^ flipped[i]) == std::byte { 0xff });

    // A request off the block grid (the device's last, shorter one is on
    // it; a caller's need not be) is written whole, and checks.
    const IoRequest odd { 7 * stamp_unit, 8 * KiB };
    CHECK(pattern.check(written_block(pattern, block, odd).data(), odd).intact());

    // 64-bit places: the last block of a 16 TiB drive.
    const IoRequest last { 16 * TiB - block, block };
    const std::vector<std::byte> high = written_block(pattern, block, last);
    CHECK(u64_at(high.data()) == 16 * TiB - block);
    CHECK(u64_at(high.data() + block - stamp_unit) == 16 * TiB - stamp_unit);
    CHECK(pattern.check(high.data(), last).intact());
    CHECK_FALSE(pattern.check(high.data(), { last.offset - 4 * TiB, block }).intact());
}

TEST_CASE("burn-in on a loop device: every sector stamped, each cycle flushed, both speeds drawn, passed",
          "[burn-in][loop]")
{
    ScratchDir dir;
    constexpr std::uint64_t size = 24 * MiB + 512 * 3; // an odd end: the last block is short
    const auto backing = make_data_file(dir, "backing", size, 9);
    LoopDevice loop(backing, 512);
    REQUIRE(loop.direct_io());
    const std::uint64_t before = checksum(backing);
    const std::uint64_t written_before = loop.bytes_written();
    const std::uint64_t read_before = loop.bytes_read();
    const std::uint64_t flushes_before = loop.flushes();
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    INFO(backend);

    RecordingSink sink;
    CancelToken cancel;
    const Target target = open_target_for_write(loop.path());
    const Result result = run_benchmark(
        burn_in_info(), target,
        validate_request(burn_in_info(), destroying({ { "cycles", std::uint64_t { 2 } },
                                                      { "second_pattern", true },
                                                      { "queue_depth", std::uint64_t { 8 } },
                                                      { "backend", backend } })),
        &sink, cancel);
    CHECK_FALSE(result.cancelled);
    CHECK(sink.last_progress == 1.0);
    CHECK(sink.progress_monotonic);

    CHECK(text(result, std::string(burn_in_keys::verdict)) == "pass");
    CHECK(text(result, std::string(burn_in_keys::verdict_reasons)).empty());
    CHECK(number(result, std::string(burn_in_keys::cycles_done)) == 2);
    CHECK(number(result, std::string(burn_in_keys::written_bytes)) == 2 * size);
    CHECK(number(result, std::string(burn_in_keys::verified_bytes)) == 2 * size);
    CHECK(number(result, std::string(burn_in_keys::mismatched_blocks)) == 0);
    CHECK(number(result, std::string(burn_in_keys::unreadable_ranges)) == 0);
    CHECK(number(result, std::string(burn_in_keys::write_errors)) == 0);
    CHECK(number(result, std::string(burn_in_keys::write_mb_s)) > 0);
    CHECK(number(result, std::string(burn_in_keys::read_mb_s)) > 0);
    CHECK(number(result, std::string(burn_in_keys::write_min_mb_s))
          <= number(result, std::string(burn_in_keys::write_max_mb_s)));
    CHECK(std::any_of(result.notes.begin(), result.notes.end(),
                      [](const std::string& n) { return n.starts_with("every block written and read back"); }));

    // Each cycle's speeds along the device, the band around each mean.
    for (const std::string prefix : { "write1", "read1", "write2", "read2" }) {
        INFO(prefix);
        const Series& mean = series_named(result, prefix + "_mean");
        const Series& low = series_named(result, prefix + "_min");
        const Series& high = series_named(result, prefix + "_max");
        REQUIRE_FALSE(mean.points.empty());
        REQUIRE(low.points.size() == mean.points.size());
        REQUIRE(high.points.size() == mean.points.size());
        double last_x = -1;
        for (std::size_t i = 0; i < mean.points.size(); ++i) {
            CHECK(mean.points[i].x > last_x);
            CHECK(mean.points[i].x < static_cast<double>(size));
            CHECK(mean.points[i].y > 0);
            CHECK(low.points[i].y <= mean.points[i].y);
            CHECK(high.points[i].y >= mean.points[i].y);
            last_x = mean.points[i].x;
        }
    }

    // The device saw every byte written and read twice, and a flush after
    // each cycle's writes.
    CHECK(loop.bytes_written() - written_before >= 2 * size);
    CHECK(loop.bytes_read() - read_before >= 2 * size);
    CHECK(loop.flushes() - flushes_before >= 2);
    // What is left on it is the last cycle's: every sector its own place,
    // all under one key, nothing of the old data.
    CHECK(checksum(backing) != before);
    std::ifstream in(backing, std::ios::binary);
    const std::vector<char> bytes { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
    REQUIRE(bytes.size() == size);
    const auto* data = reinterpret_cast<const std::byte*>(bytes.data());
    const std::uint64_t key = u64_at(data + 8);
    std::uint64_t wrong = 0;
    for (std::uint64_t at = 0; at < size; at += stamp_unit)
        wrong += u64_at(data + at) != at || u64_at(data + at + 8) != key;
    CHECK(wrong == 0);
}

TEST_CASE("burn-in of a 16 TiB sparse loop device: planned whole, started at its first block", "[burn-in][loop]")
{
    // tmpfs keeps a sparse file of any size and takes direct I/O; only
    // what is written costs memory, and the run is stopped at once.
    ScratchDir dir("/dev/shm");
    const auto backing = dir.path() / "sixteen-tib.img";
    { std::ofstream create(backing); }
    std::filesystem::resize_file(backing, 16 * TiB);
    LoopDevice loop(backing, 4096);
    const Target target = open_target_for_write(loop.path());
    REQUIRE(target.size == 16 * TiB);
    const ParameterSet params = validate_request(burn_in_info(), destroying({}));
    CHECK_NOTHROW(check_benchmark(burn_in_info(), target, params));

    RecordingSink sink;
    CancelToken cancel;
    auto running = std::async(std::launch::async,
                              [&] { return run_benchmark(burn_in_info(), target, params, &sink, cancel); });
    while (!sink.progressed.load() && running.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    }
    cancel.cancel();
    const Result result = running.get();
    CHECK(result.cancelled);
    CHECK(number(result, std::string(burn_in_keys::bytes)) == static_cast<double>(16 * TiB));
    // The first block is this run's, stamped with its places; the device's
    // last is untouched (sparse zeros).
    const std::vector<std::byte> first = read_bytes(backing.string(), 0, MiB);
    const std::uint64_t key = u64_at(first.data() + 8);
    CHECK(key != 0);
    for (std::uint64_t at = 0; at < MiB; at += stamp_unit) {
        CHECK(u64_at(first.data() + at) == at);
        CHECK(u64_at(first.data() + at + 8) == key);
    }
    const std::vector<std::byte> last = read_bytes(backing.string(), 16 * TiB - MiB, MiB);
    CHECK(std::all_of(last.begin(), last.end(), [](std::byte b) { return b == std::byte { 0 }; }));
}

TEST_CASE("burn-in refuses a run that would keep data, is unconfirmed or has impossible sizes", "[burn-in]")
{
    ScratchDir dir;
    const std::string file = make_data_file(dir, "device", 8 * MiB, 3).string();
    const std::uint64_t before = checksum(file);
    CHECK(refused_key(file, destroying({})).empty());
    // Burn-in has no mode that keeps the data.
    CHECK(refused_key(file, { { "mode", std::string("preserve") } }) == "mode");
    CHECK(refused_key(file, { { "mode", std::string("destroy") } }) == "confirm");
    CHECK(refused_key(file, destroying({ { "block_size", std::uint64_t { 1000 } } })) == "block_size");
    CHECK(refused_key(file, destroying({ { "block_size", 16 * MiB } })) == "block_size"); // larger than the device
    CHECK(refused_key(file, destroying({ { "cycles", std::uint64_t { 0 } } })) == "cycles");
    CHECK(refused_key(file, destroying({ { "queue_depth", std::uint64_t { 0 } } })) == "queue_depth");
    CHECK(refused_key(file, destroying({ { "queue_depth", std::uint64_t { 257 } } })) == "queue_depth");
    CHECK(checksum(file) == before);
}
