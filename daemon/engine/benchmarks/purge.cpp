// SPDX-License-Identifier: GPL-3.0-or-later
#include "purge.hpp"

#include "../base/clock.hpp"
#include "../base/errors.hpp"
#include "../storage/sysfs.hpp"

#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace diskbench::engine::benchmarks {

namespace {

std::uint64_t number_in(const std::filesystem::path& file)
{
    const std::string line = storage::Sysfs::read_line(file);
    std::uint64_t value = 0;
    std::from_chars(line.data(), line.data() + line.size(), value);
    return value;
}

// What a device says when it has no discard, or a filesystem no holes.
bool unsupported(int error_number) noexcept
{
    return error_number == EOPNOTSUPP || error_number == ENOTTY || error_number == EINVAL;
}

} // namespace

DiscardFacts discard_facts(const Target& target)
{
    DiscardFacts facts;
    struct stat st {};
    if (fstat(target.fd.get(), &st) != 0)
        return facts;
    if (S_ISREG(st.st_mode)) {
        // Whether this filesystem punches holes is only known by trying.
        facts.known = true;
        facts.max_bytes = target.size;
        facts.granularity = static_cast<std::uint64_t>(st.st_blksize);
        return facts;
    }
    if (!S_ISBLK(st.st_mode))
        return facts;
    const storage::Sysfs sysfs;
    const auto directory = sysfs.block_directory(st.st_rdev);
    if (!directory)
        return facts;
    // A partition's queue is its disk's.
    const std::filesystem::path queue = (storage::is_partition(*directory) ? directory->parent_path() : *directory) / "queue";
    if (storage::Sysfs::read_line(queue / "discard_max_bytes").empty())
        return facts;
    facts.known = true;
    facts.max_bytes = number_in(queue / "discard_max_bytes");
    facts.granularity = number_in(queue / "discard_granularity");
    return facts;
}

PurgeOutcome purge(const Target& target, const DiscardFacts& facts, std::uint64_t length)
{
    PurgeOutcome outcome;
    if (!facts.supported() || length == 0)
        return outcome;
    const std::uint64_t started = monotonic_ns();
    int result = 0;
    if (target.is_block_device) {
        // The kernel splits the range into discard_max_bytes pieces itself.
        std::uint64_t range[2] = { 0, length };
        result = ioctl(target.fd.get(), BLKDISCARD, range);
        outcome.method = "discard";
    } else {
        result = fallocate(target.fd.get(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(length));
        outcome.method = "punch-hole";
    }
    if (result != 0) {
        const int error_number = errno;
        if (!unsupported(error_number))
            throw IoError(Failure { "error-purge-failed", { { "reason", std::string(std::strerror(error_number)) } } },
                          error_number);
        outcome.method = "none";
        outcome.refused_errno = error_number;
        return outcome;
    }
    outcome.purged = true;
    outcome.seconds = static_cast<double>(monotonic_ns() - started) / 1e9;
    return outcome;
}

} // namespace diskbench::engine::benchmarks
