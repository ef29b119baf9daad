// SPDX-License-Identifier: GPL-3.0-or-later
// The I/O runner's writes, with both backends: what lands on disk is
// pseudo-random with every sector stamped with its offset (no two sectors
// equal), and a write that runs out of space reports ENOSPC, not "short
// write".
#include "base/errors.hpp"
#include "io/io_runner.hpp"
#include "io/request_sources.hpp"
#include "io/target.hpp"
#include "mounts.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

Target writable_file(const std::filesystem::path& path, std::uint64_t size, bool direct)
{
    UniqueFd fd(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0), 0600));
    REQUIRE(fd.valid());
    return target_for_scratch_file(std::move(fd), path.string(), size);
}

IoRunStats write_sequentially(const Target& target, BackendPreference backend, std::uint32_t block, unsigned depth)
{
    IoRunSpec spec;
    spec.direction = IoDirection::Write;
    spec.data_seed = 7;
    spec.queue_depth = depth;
    spec.max_request_bytes = block;
    spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(0, target.size, block, false); };
    return IoRunner(backend).run(target, spec);
}

} // namespace

TEST_CASE("writes put pseudo-random data with every sector stamped with its offset", "[writes][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    for (const auto backend : { BackendPreference::IoUring, BackendPreference::Psync }) {
        for (const bool direct : { true, false }) {
            INFO("backend " << static_cast<int>(backend) << " direct " << direct);
            const auto path = mount.path() / "written";
            const Target target = writable_file(path, 4 * MiB, direct);
            const IoRunStats stats = write_sequentially(target, backend, 64 * 1024, 4);
            CHECK(stats.bytes == 4 * MiB);
            CHECK(stats.operations == 64);
            REQUIRE(::fsync(target.fd.get()) == 0);

            // Read back through the page cache (the direct fd needs aligned buffers).
            const UniqueFd reader(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
            std::vector<unsigned char> data(4 * MiB);
            REQUIRE(::pread(reader.get(), data.data(), data.size(), 0) == static_cast<ssize_t>(data.size()));
            std::set<std::string> sectors;
            bool stamped = true;
            for (std::uint64_t at = 0; at < data.size(); at += 512) {
                std::uint64_t stamp = 0;
                std::memcpy(&stamp, data.data() + at, sizeof stamp);
                stamped &= stamp == at;
                sectors.emplace(reinterpret_cast<const char*>(data.data() + at), 512);
            }
            CHECK(stamped);
            CHECK(sectors.size() == data.size() / 512);
            // Not zeros: about half the bits of the unstamped bytes are set.
            std::uint64_t ones = 0;
            for (std::uint64_t at = 8; at < 512; ++at)
                ones += static_cast<unsigned>(__builtin_popcount(data[at]));
            CHECK(ones > 504 * 8 / 3);
            CHECK(ones < 504 * 8 * 2 / 3);
            std::filesystem::remove(path);
        }
    }
}

TEST_CASE("a write that runs out of space reports ENOSPC", "[writes][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Tmpfs, 2 * MiB);
    for (const auto backend : { BackendPreference::IoUring, BackendPreference::Psync }) {
        INFO("backend " << static_cast<int>(backend));
        const auto path = mount.path() / "too-big";
        // 3 MiB in 1 MiB + 4 KiB writes: the third is cut short by the full
        // tmpfs, and finishing it is what names the cause.
        const Target target = writable_file(path, 3 * MiB + 12 * 1024, false);
        try {
            write_sequentially(target, backend, MiB + 4096, 1);
            FAIL("the writes fitted");
        } catch (const IoError& error) {
            CHECK(error.error_number() == ENOSPC);
            CHECK_THAT(error.what(), Catch::Contains("write of") && Catch::Contains(std::strerror(ENOSPC)));
        }
        std::filesystem::remove(path);
    }
}
