// SPDX-License-Identifier: GPL-3.0-or-later
#include "target.hpp"

#include "../base/errors.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <sys/ioctl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

std::string errno_text(int error_number)
{
    return std::strerror(error_number);
}

// Direct-I/O alignment of a regular file as the filesystem reports it
// (statx STATX_DIOALIGN, Linux 6.1). Raw syscall: glibc 2.36's struct statx
// predates the field. Returns false when the kernel does not say.
bool file_dio_alignment(int fd, std::uint32_t& offset_align, std::uint32_t& memory_align)
{
    struct statx info {};
    if (::syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &info) != 0)
        return false;
    if (!(info.stx_mask & STATX_DIOALIGN) || info.stx_dio_offset_align == 0)
        return false;
    offset_align = info.stx_dio_offset_align;
    memory_align = info.stx_dio_mem_align;
    return true;
}

void probe_block_device(Target& target)
{
    std::uint64_t bytes = 0;
    if (::ioctl(target.fd.get(), BLKGETSIZE64, &bytes) != 0)
        throw TargetError(
            Failure { "error-device-size-unreadable", { { "target", target.name }, { "reason", errno_text(errno) } } });
    int logical = 0;
    unsigned int physical = 0;
    if (::ioctl(target.fd.get(), BLKSSZGET, &logical) != 0 || logical <= 0)
        throw TargetError(
            Failure { "error-logical-block-unreadable", { { "target", target.name }, { "reason", errno_text(errno) } } });
    if (::ioctl(target.fd.get(), BLKPBSZGET, &physical) != 0 || physical == 0)
        physical = static_cast<unsigned int>(logical);
    target.size = bytes;
    target.logical_block = static_cast<std::uint32_t>(logical);
    target.physical_block = std::max(physical, static_cast<unsigned int>(logical));
}

void probe_file_alignment(Target& target, const struct stat& st)
{
    std::uint32_t offset_align = 0;
    std::uint32_t memory_align = 0;
    if (file_dio_alignment(target.fd.get(), offset_align, memory_align)) {
        target.logical_block = offset_align;
        target.memory_alignment = std::max<std::uint32_t>(memory_align, 4096);
    } else {
        // The kernel did not tell us: 4 KiB satisfies every common
        // filesystem and device, at the price of no sub-4K block sizes.
        target.logical_block = 4096;
    }
    target.physical_block = std::max<std::uint32_t>(target.logical_block,
                                                    static_cast<std::uint32_t>(st.st_blksize));
}

void probe_regular_file(Target& target, const struct stat& st)
{
    target.size = static_cast<std::uint64_t>(st.st_size);
    probe_file_alignment(target, st);
}

} // namespace

Target target_from_fd(UniqueFd fd, std::string name)
{
    Target target;
    target.fd = std::move(fd);
    target.name = std::move(name);

    const int flags = ::fcntl(target.fd.get(), F_GETFL);
    if (flags < 0)
        throw TargetError(
            Failure { "error-invalid-descriptor", { { "target", target.name }, { "reason", errno_text(errno) } } });
    if (!(flags & O_DIRECT))
        throw TargetError(Failure { "error-not-opened-direct", { { "target", target.name } } });

    struct stat st {};
    if (::fstat(target.fd.get(), &st) != 0)
        throw TargetError(Failure { "error-cannot-stat", { { "target", target.name }, { "reason", errno_text(errno) } } });
    if (S_ISBLK(st.st_mode)) {
        target.is_block_device = true;
        probe_block_device(target);
    } else if (S_ISREG(st.st_mode)) {
        probe_regular_file(target, st);
    } else {
        throw TargetError(Failure { "error-not-block-or-file", { { "target", target.name } } });
    }

    target.memory_alignment = std::max(target.memory_alignment, target.logical_block);
    target.size -= target.size % target.logical_block;
    if (target.size == 0)
        throw TargetError(
            Failure { "error-target-empty", { { "target", target.name }, { "block", target.logical_block } } });
    return target;
}

Target target_for_scratch_file(UniqueFd fd, std::string name, std::uint64_t size)
{
    Target target;
    target.fd = std::move(fd);
    target.name = std::move(name);
    target.size = size;
    struct stat st {};
    if (::fstat(target.fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw TargetError(Failure { "error-scratch-not-regular", { { "target", target.name } } });
    const int flags = ::fcntl(target.fd.get(), F_GETFL);
    if (flags >= 0 && (flags & O_DIRECT)) {
        probe_file_alignment(target, st);
        target.memory_alignment = std::max(target.memory_alignment, target.logical_block);
    } else {
        // Through the page cache any offset and length work.
        target.logical_block = 1;
        target.physical_block = static_cast<std::uint32_t>(st.st_blksize);
    }
    return target;
}

namespace {

// How often a write looks again at a device that is busy or locked for a
// moment (see open_target).
constexpr std::chrono::milliseconds kBusyRetry { 10 };

Target open_target(const std::string& path, bool write, std::chrono::milliseconds patience)
{
    // Look before opening: opening some character devices has side effects
    // (a tape rewinds, a FIFO blocks). The fstat() after open() is what
    // counts; this only spares them the open.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw TargetError(Failure { "error-cannot-open", { { "target", path }, { "reason", errno_text(errno) } } });
    if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
        throw TargetError(Failure { "error-not-block-or-file", { { "target", path } } });

    // O_NONBLOCK keeps open() from hanging should the path have been swapped
    // for a FIFO meanwhile; it has no effect on block devices and files.
    // O_EXCL on a block device (without O_CREAT) claims it exclusively:
    // EBUSY when mounted or held, and no mount can take it while we write.
    int flags = O_DIRECT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    if (write)
        flags |= O_RDWR | (S_ISBLK(st.st_mode) ? O_EXCL : 0);
    else
        flags |= O_RDONLY;
    // A device someone else wrote a moment ago is briefly claimed or locked
    // by udev: on the writer's close it re-reads the partition table (an
    // exclusive claim, EBUSY) and then probes under a shared BSD lock.
    // Measured after a write run through the daemon: EBUSY for 19 ms, then
    // the lock taken and dropped every few ms for a while. So both are tried
    // again for up to `patience` before they count; a mounted or held
    // device stays busy and is refused as before.
    const auto give_up = std::chrono::steady_clock::now() + patience;
    const auto still_patient = [&] {
        if (std::chrono::steady_clock::now() >= give_up)
            return false;
        std::this_thread::sleep_for(kBusyRetry);
        return true;
    };
    UniqueFd fd;
    while (true) {
        fd.reset(); // our own claim from the try before must not be what refuses this one
        fd = UniqueFd(::open(path.c_str(), flags));
        if (!fd.valid()) {
            const int error_number = errno;
            if (write && error_number == EBUSY && still_patient())
                continue;
            if (error_number == EINVAL)
                throw TargetError(Failure { "error-no-direct-io", { { "target", path } } });
            if (write && error_number == EBUSY)
                throw DeviceBusyError(Failure { "error-device-in-use", { { "target", path } } });
            throw TargetError(Failure { write ? "error-cannot-open-for-writing" : "error-cannot-open",
                                       { { "target", path }, { "reason", errno_text(error_number) } } });
        }
        // The BSD lock is how tools that write block devices tell each other,
        // udev included (systemd's "Locking Block Device Access"): udev does
        // not probe a locked device, so it does not read half-written data, and
        // partitioning tools that take the lock wait or refuse. O_EXCL alone
        // does not stop a program that opens the device without it.
        if (!write || !S_ISBLK(st.st_mode) || ::flock(fd.get(), LOCK_EX | LOCK_NB) == 0)
            break;
        const int error_number = errno;
        if (error_number == EWOULDBLOCK && still_patient())
            continue;
        if (error_number == EWOULDBLOCK)
            throw DeviceLockedError(Failure { "error-device-locked", { { "target", path } } });
        throw TargetError(Failure { "error-cannot-lock", { { "target", path }, { "reason", errno_text(error_number) } } });
    }
    const int fd_flags = ::fcntl(fd.get(), F_GETFL);
    if (fd_flags >= 0)
        ::fcntl(fd.get(), F_SETFL, fd_flags & ~O_NONBLOCK);
    return target_from_fd(std::move(fd), path);
}

} // namespace

Target open_target_for_read(const std::string& path)
{
    return open_target(path, false, std::chrono::milliseconds { 0 });
}

Target open_target_for_write(const std::string& path, std::chrono::milliseconds patience)
{
    return open_target(path, true, patience);
}

} // namespace diskbench::engine
