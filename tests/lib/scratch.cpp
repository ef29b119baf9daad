// SPDX-License-Identifier: GPL-3.0-or-later
#include "scratch.hpp"

#include "base/prng.hpp"
#include "base/unique_fd.hpp"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace diskbench::testing {

namespace {

[[noreturn]] void fail(const std::string& what)
{
    throw std::system_error(errno, std::generic_category(), what);
}

std::filesystem::path scratch_parent()
{
    if (const char* dir = std::getenv("DISKBENCH_TEST_DIR"); dir && *dir)
        return dir;
    return "/var/tmp";
}

} // namespace

ScratchDir::ScratchDir(const std::filesystem::path& parent)
{
    std::string pattern = ((parent.empty() ? scratch_parent() : parent) / "diskbench-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        fail("mkdtemp " + pattern);
    path_ = pattern;
}

ScratchDir::~ScratchDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path make_data_file(const ScratchDir& dir, const std::string& name, std::uint64_t size,
                                     std::uint64_t seed)
{
    const auto path = dir.path() / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    engine::Xoshiro256StarStar rng(seed);
    std::vector<std::uint64_t> chunk(8192);
    std::uint64_t left = size;
    while (left > 0) {
        for (auto& word : chunk)
            word = rng.next();
        const std::uint64_t n = std::min<std::uint64_t>(left, chunk.size() * sizeof(std::uint64_t));
        out.write(reinterpret_cast<const char*>(chunk.data()), static_cast<std::streamsize>(n));
        left -= n;
    }
    out.close();
    if (!out)
        throw std::runtime_error("could not write " + path.string());
    return path;
}

std::uint64_t checksum(const std::filesystem::path& path)
{
    engine::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid())
        fail("open " + path.string());
    std::vector<unsigned char> buffer(1 << 20);
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    ssize_t n;
    while ((n = ::read(fd.get(), buffer.data(), buffer.size())) > 0)
        for (ssize_t i = 0; i < n; ++i)
            hash = (hash ^ buffer[static_cast<std::size_t>(i)]) * 0x100000001b3ULL;
    if (n < 0)
        fail("read " + path.string());
    return hash;
}

LoopDevice::LoopDevice(const std::filesystem::path& backing, std::uint32_t sector_size, bool read_only, Backing mode)
{
    engine::UniqueFd file(::open(backing.c_str(), (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC));
    if (!file.valid())
        fail("open " + backing.string());
    engine::UniqueFd control(::open("/dev/loop-control", O_RDWR | O_CLOEXEC));
    if (!control.valid())
        fail("open /dev/loop-control (the loop tests need root)");

    // Another process may take the free device between GET_FREE and
    // CONFIGURE (EBUSY), or be detaching the one GET_FREE offers (an
    // autoclear device while its last user closes it opens with ENXIO, as
    // CI saw once with the tests running in parallel); then ask again.
    for (int attempt = 0; attempt < 20; ++attempt) {
        const int number = ::ioctl(control.get(), LOOP_CTL_GET_FREE);
        if (number < 0)
            fail("LOOP_CTL_GET_FREE");
        std::string path = "/dev/loop" + std::to_string(number);
        engine::UniqueFd device(::open(path.c_str(), (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC));
        if (!device.valid() && errno == ENXIO) {
            ::usleep(10'000);
            continue;
        }
        if (!device.valid())
            fail("open " + path);
        loop_config config {};
        config.fd = static_cast<__u32>(file.get());
        config.block_size = sector_size;
        // AUTOCLEAR: the kernel detaches the device when its last user
        // closes it, so a crashed test leaves nothing attached.
        config.info.lo_flags = (mode == Backing::Direct ? LO_FLAGS_DIRECT_IO : 0) | LO_FLAGS_AUTOCLEAR
            | (read_only ? LO_FLAGS_READ_ONLY : 0);
        if (::ioctl(device.get(), LOOP_CONFIGURE, &config) == 0) {
            path_ = std::move(path);
            fd_ = device.release();
            return;
        }
        if (errno != EBUSY)
            fail("LOOP_CONFIGURE " + path);
    }
    throw std::runtime_error("no free loop device");
}

LoopDevice::~LoopDevice()
{
    if (fd_ >= 0) {
        ::ioctl(fd_, LOOP_CLR_FD, 0);
        ::close(fd_);
    }
}

std::uint64_t LoopDevice::completed_reads() const
{
    std::ifstream stat("/sys/block/" + path_.substr(5) + "/stat");
    std::uint64_t reads = 0;
    stat >> reads;
    return reads;
}

namespace {
// Fields of /sys/block/NAME/stat: reads, merged, sectors read, ticks,
// writes, merged, sectors written, ... Sectors are 512 bytes whatever the
// device's block size.
std::uint64_t stat_field(const std::string& device, unsigned index)
{
    std::ifstream stat("/sys/block/" + device + "/stat");
    std::uint64_t value = 0;
    for (unsigned i = 0; i <= index; ++i)
        stat >> value;
    return value;
}
} // namespace

std::uint64_t LoopDevice::bytes_read() const
{
    return stat_field(path_.substr(5), 2) * 512;
}

std::uint64_t LoopDevice::bytes_written() const
{
    return stat_field(path_.substr(5), 6) * 512;
}

std::uint64_t LoopDevice::flushes() const
{
    return stat_field(path_.substr(5), 15);
}

void LoopDevice::wait_until_idle() const
{
    using namespace std::chrono;
    const auto give_up = steady_clock::now() + seconds(10);
    std::uint64_t last = completed_reads();
    auto quiet_since = steady_clock::now();
    while (steady_clock::now() < give_up) {
        std::this_thread::sleep_for(milliseconds(50));
        const std::uint64_t now = completed_reads();
        if (now != last) {
            last = now;
            quiet_since = steady_clock::now();
        } else if (steady_clock::now() - quiet_since >= milliseconds(500)) {
            return;
        }
    }
}

bool LoopDevice::direct_io() const
{
    std::ifstream dio("/sys/block/" + path_.substr(5) + "/loop/dio");
    int value = 0;
    dio >> value;
    return value == 1;
}

} // namespace diskbench::testing
