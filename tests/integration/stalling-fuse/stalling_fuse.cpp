// SPDX-License-Identifier: GPL-3.0-or-later
// A test disk that stops answering. A FUSE filesystem with one file,
// "disk.img", that reads and writes a backing file, and that stops
// answering every request while a flag file exists: the requests wait,
// exactly as they do at a dying USB stick or a stalled network block device,
// and go on when the flag is removed. A loop device over disk.img is a block
// device whose I/O hangs on command (this kernel has no device-mapper, ublk
// or nbd to do it otherwise).
//
// A sick disk too, on command: FLAG_FILE.control, when it exists, plants
// faults, one per line (offsets and lengths in bytes of disk.img):
//   delay-ms N                every read and write waits N ms first (a drive
//                             that got slow: the fleet test's outlier)
//   eio START LENGTH          reads and writes touching the range fail with
//                             EIO (bad sectors; ranges must not overlap)
//   slow START LENGTH MS      reads touching the range wait MS more, every
//                             time (a weak sector)
//   slow-once START LENGTH MS the same, only the first read that touches it
//                             (a one-off: a recalibration, another program)
//   wrap BYTES                reads and writes at BYTES and beyond land at
//                             offset % BYTES (a fake-capacity stick)
//   drop BYTES                writes at BYTES and beyond vanish (and say
//                             they were done), reads there give zeros (a
//                             fake-capacity stick of the other kind)
//   slow-after BYTES MS       once BYTES have been written (counted from
//                             when this file was read), every write waits
//                             MS first (an SSD whose free blocks ran out:
//                             the steady-state test's drive)
// It is read again whenever it changes (its mtime); write it whole and
// rename it into place.
//
// Usage: stalling-fuse BACKING_FILE FLAG_FILE MOUNTPOINT (absolute paths:
// libfuse changes to / as it starts)
// Runs in the foreground and single-threaded (one stalled request stalls
// them all, as a dead device does) until unmounted or killed. Killing it
// fails every waiting request (ENOTCONN), so nothing can stay stuck after
// the test's cleanup.
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>
#include <thread>

namespace {

constexpr const char* file_name = "/disk.img";
int backing_fd = -1;
std::string flag_path;
std::string control_path;

struct Range {
    std::uint64_t start = 0, length = 0;
    long ms = 0;
    bool once = false, used = false;
    [[nodiscard]] bool touches(std::uint64_t offset, std::uint64_t size) const noexcept
    {
        return offset < start + length && start < offset + size;
    }
};

// The control file's faults, read again when its mtime changes (one stat
// per request: the helper is single-threaded and a test tool).
struct Control {
    timespec read_at {};
    bool present = false;
    long delay_ms = 0;
    std::uint64_t wrap = 0; // 0: none
    std::uint64_t drop = 0; // 0: none
    std::uint64_t slow_after = 0; // 0: none
    long slow_after_ms = 0;
    std::uint64_t written = 0;    // since the file was read, for slow_after
    std::vector<Range> bad, slow;
} control;

void read_control()
{
    struct stat st {};
    if (::stat(control_path.c_str(), &st) != 0) {
        control = {};
        return;
    }
    if (control.present && st.st_mtim.tv_sec == control.read_at.tv_sec && st.st_mtim.tv_nsec == control.read_at.tv_nsec)
        return;
    control = {};
    control.present = true;
    control.read_at = st.st_mtim;
    std::ifstream in(control_path);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string word;
        words >> word;
        Range range;
        if (word == "delay-ms") {
            words >> control.delay_ms;
        } else if (word == "wrap") {
            words >> control.wrap;
        } else if (word == "drop") {
            words >> control.drop;
        } else if (word == "slow-after") {
            words >> control.slow_after >> control.slow_after_ms;
        } else if (word == "eio" && words >> range.start >> range.length) {
            control.bad.push_back(range);
        } else if ((word == "slow" || word == "slow-once") && words >> range.start >> range.length >> range.ms) {
            range.once = word == "slow-once";
            control.slow.push_back(range);
        }
    }
    // Sorted, for the binary search of wait_for_turn (the scan benchmark
    // plants 100,000 of them).
    std::sort(control.bad.begin(), control.bad.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
}

void wait_while_stalled()
{
    while (::access(flag_path.c_str(), F_OK) == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// Before a read or a write: the stall, then the planted slowness; an
// error number when the request touches a bad range, else 0.
int wait_for_turn(std::uint64_t offset, std::uint64_t size, bool read)
{
    wait_while_stalled();
    read_control();
    if (control.delay_ms > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(control.delay_ms));
    // The bad ranges are sorted and do not overlap: of those that start
    // before the request's end, the last one ends last, so it alone can
    // reach into the request.
    const auto after = std::upper_bound(control.bad.begin(), control.bad.end(), offset + size,
                                        [](std::uint64_t end, const Range& range) { return end <= range.start; });
    if (after != control.bad.begin() && std::prev(after)->touches(offset, size))
        return EIO;
    if (!read && control.slow_after != 0) {
        if (control.written >= control.slow_after)
            std::this_thread::sleep_for(std::chrono::milliseconds(control.slow_after_ms));
        control.written += size;
    }
    if (read) {
        for (Range& range : control.slow) {
            if (!range.touches(offset, size) || (range.once && range.used))
                continue;
            range.used = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(range.ms));
        }
    }
    return 0;
}

// Where OFFSET really lands: a fake-capacity stick keeps only its first
// `wrap` bytes and serves the rest from the start again.
off_t landing(off_t offset)
{
    return control.wrap ? static_cast<off_t>(static_cast<std::uint64_t>(offset) % control.wrap) : offset;
}

// pread/pwrite of SIZE bytes at OFFSET, through the wrap: a request that
// crosses the wrap point is split there.
template <typename Io>
ssize_t wrapped_io(Io io, std::size_t size, off_t offset)
{
    std::size_t done = 0;
    while (done < size) {
        const off_t at = landing(offset + static_cast<off_t>(done));
        std::size_t piece = size - done;
        if (control.wrap)
            piece = std::min<std::size_t>(piece, control.wrap - static_cast<std::uint64_t>(at));
        const ssize_t n = io(done, piece, at);
        if (n < 0)
            return done > 0 ? static_cast<ssize_t>(done) : n;
        done += static_cast<std::size_t>(n);
        if (static_cast<std::size_t>(n) < piece)
            break;
    }
    return static_cast<ssize_t>(done);
}

int get_attributes(const char* path, struct stat* st, fuse_file_info*)
{
    if (std::strcmp(path, "/") == 0) {
        *st = {};
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (std::strcmp(path, file_name) != 0)
        return -ENOENT;
    wait_while_stalled();
    struct stat backing {};
    if (::fstat(backing_fd, &backing) != 0)
        return -errno;
    *st = {};
    st->st_mode = S_IFREG | 0600;
    st->st_nlink = 1;
    st->st_size = backing.st_size;
    st->st_blocks = backing.st_blocks;
    return 0;
}

int list_directory(const char* path, void* buffer, fuse_fill_dir_t fill, off_t, fuse_file_info*, fuse_readdir_flags)
{
    if (std::strcmp(path, "/") != 0)
        return -ENOENT;
    fill(buffer, ".", nullptr, 0, fuse_fill_dir_flags {});
    fill(buffer, "..", nullptr, 0, fuse_fill_dir_flags {});
    fill(buffer, file_name + 1, nullptr, 0, fuse_fill_dir_flags {});
    return 0;
}

int open_file(const char* path, fuse_file_info* info)
{
    if (std::strcmp(path, file_name) != 0)
        return -ENOENT;
    // No page cache for the file: every read and write of the loop device
    // reaches us, as every request of a real disk reaches the disk. With
    // the cache, a block just written reads back from memory even where
    // the planted fault dropped it.
    info->direct_io = 1;
    return 0;
}

// Of SIZE bytes at OFFSET, how many lie below the drop point (all when none).
std::size_t kept(std::size_t size, off_t offset)
{
    const auto start = static_cast<std::uint64_t>(offset);
    if (control.drop == 0 || start + size <= control.drop)
        return size;
    return start >= control.drop ? 0 : static_cast<std::size_t>(control.drop - start);
}

int read_file(const char*, char* buffer, size_t size, off_t offset, fuse_file_info*)
{
    if (const int error = wait_for_turn(static_cast<std::uint64_t>(offset), size, true))
        return -error;
    const std::size_t below = kept(size, offset);
    std::memset(buffer + below, 0, size - below);
    if (below == 0)
        return static_cast<int>(size);
    const ssize_t read = wrapped_io([&](std::size_t at, std::size_t n, off_t where) {
        return ::pread(backing_fd, buffer + at, n, where);
    }, below, offset);
    const ssize_t done = read == static_cast<ssize_t>(below) ? static_cast<ssize_t>(size) : read;
    return done < 0 ? -errno : static_cast<int>(done);
}

int write_file(const char*, const char* buffer, size_t size, off_t offset, fuse_file_info*)
{
    if (const int error = wait_for_turn(static_cast<std::uint64_t>(offset), size, false))
        return -error;
    const std::size_t below = kept(size, offset);
    if (below == 0)
        return static_cast<int>(size);
    const ssize_t written = wrapped_io([&](std::size_t at, std::size_t n, off_t where) {
        return ::pwrite(backing_fd, buffer + at, n, where);
    }, below, offset);
    const ssize_t done = written == static_cast<ssize_t>(below) ? static_cast<ssize_t>(size) : written;
    return done < 0 ? -errno : static_cast<int>(done);
}

int sync_file(const char*, int, fuse_file_info*)
{
    wait_while_stalled();
    return ::fdatasync(backing_fd) == 0 ? 0 : -errno;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s BACKING_FILE FLAG_FILE MOUNTPOINT\n", argv[0]);
        return 2;
    }
    backing_fd = ::open(argv[1], O_RDWR | O_CLOEXEC);
    if (backing_fd < 0) {
        std::perror(argv[1]);
        return 1;
    }
    flag_path = argv[2];
    control_path = flag_path + ".control";

    fuse_operations operations {};
    operations.getattr = get_attributes;
    operations.readdir = list_directory;
    operations.open = open_file;
    operations.read = read_file;
    operations.write = write_file;
    operations.fsync = sync_file;
    char program[] = "stalling-fuse";
    char foreground[] = "-f";
    char single_thread[] = "-s";
    char* fuse_argv[] = { program, foreground, single_thread, argv[3], nullptr };
    return fuse_main(4, fuse_argv, &operations, nullptr);
}
