// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Real competing I/O for tests that need a run to slow down on purpose:
// while it lives, `threads` threads (default 4) read (or write) the device with O_DIRECT in
// 1 MiB requests spread over it. On a loop device that is another
// program's load on the same backing file and disk, which is exactly what
// slows a benchmark on a real machine; no test hook in the engine.

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace diskbench::testing {

class CompetingIo {
public:
    CompetingIo(const std::string& path, std::uint64_t size, bool write = false, unsigned threads = 4)
    {
        constexpr std::uint64_t chunk = 1024 * 1024;
        for (unsigned t = 0; t < threads; ++t)
            threads_.emplace_back([this, path, size, write, threads, t] {
                const int fd = ::open(path.c_str(), (write ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
                if (fd < 0)
                    return;
                void* raw = nullptr;
                if (::posix_memalign(&raw, 4096, chunk) != 0) {
                    ::close(fd);
                    return;
                }
                std::unique_ptr<void, decltype(&std::free)> buffer(raw, &std::free);
                std::fill_n(static_cast<char*>(raw), chunk, static_cast<char>(0x5a));
                std::uint64_t offset = t * (size / threads);
                while (!stop_.load()) {
                    const auto offset_arg = static_cast<off_t>(offset);
                    if ((write ? ::pwrite(fd, raw, chunk, offset_arg) : ::pread(fd, raw, chunk, offset_arg)) <= 0)
                        break;
                    offset = (offset + 7 * chunk) % (size - chunk);
                    offset -= offset % 4096;
                }
                ::close(fd);
            });
    }
    ~CompetingIo()
    {
        stop_ = true;
        for (auto& thread : threads_)
            thread.join();
    }
    CompetingIo(const CompetingIo&) = delete;
    CompetingIo& operator=(const CompetingIo&) = delete;

private:
    std::atomic<bool> stop_ { false };
    std::vector<std::thread> threads_;
};

} // namespace diskbench::testing
