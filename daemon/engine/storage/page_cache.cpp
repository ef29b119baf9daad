// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_cache.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace diskbench::engine::storage {

namespace {

// One mapping at a time, so a backing file of terabytes needs no more
// than a window's worth of address space and residency bytes.
constexpr std::uint64_t window_bytes = 1ULL << 30;

class Mapping {
public:
    Mapping(int fd, std::uint64_t offset, std::uint64_t length)
        : length_(length),
          address_(::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(offset)))
    {
    }
    ~Mapping()
    {
        if (address_ != MAP_FAILED)
            ::munmap(address_, length_);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    [[nodiscard]] void* get() const noexcept { return address_ == MAP_FAILED ? nullptr : address_; }

private:
    std::uint64_t length_;
    void* address_;
};

} // namespace

std::optional<double> cached_share(int fd)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return std::nullopt;
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const auto size = static_cast<std::uint64_t>(st.st_size);
    std::uint64_t resident = 0, pages = 0;
    std::vector<unsigned char> flags;
    for (std::uint64_t offset = 0; offset < size; offset += window_bytes) {
        const std::uint64_t length = std::min(window_bytes, size - offset);
        const Mapping mapping(fd, offset, length);
        if (!mapping.get())
            return std::nullopt;
        flags.assign((length + page - 1) / page, 0);
        if (::mincore(mapping.get(), length, flags.data()) != 0)
            return std::nullopt;
        pages += flags.size();
        resident += static_cast<std::uint64_t>(std::count_if(flags.begin(), flags.end(), [](unsigned char f) { return f & 1; }));
    }
    return pages ? static_cast<double>(resident) / static_cast<double>(pages) : 0.0;
}

} // namespace diskbench::engine::storage
