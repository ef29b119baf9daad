// SPDX-License-Identifier: GPL-3.0-or-later
// A test disk that stops answering. A FUSE filesystem with one file,
// "disk.img", that reads and writes a backing file, and that stops
// answering every request while a flag file exists: the requests wait,
// exactly as they do at a dying USB stick or a stalled network block device,
// and go on when the flag is removed. A loop device over disk.img is a block
// device whose I/O hangs on command (this kernel has no device-mapper, ublk
// or nbd to do it otherwise).
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
#include <cstring>
#include <string>
#include <thread>

namespace {

constexpr const char* file_name = "/disk.img";
int backing_fd = -1;
std::string flag_path;

void wait_while_stalled()
{
    while (::access(flag_path.c_str(), F_OK) == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
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

int open_file(const char* path, fuse_file_info*)
{
    return std::strcmp(path, file_name) == 0 ? 0 : -ENOENT;
}

int read_file(const char*, char* buffer, size_t size, off_t offset, fuse_file_info*)
{
    wait_while_stalled();
    const ssize_t done = ::pread(backing_fd, buffer, size, offset);
    return done < 0 ? -errno : static_cast<int>(done);
}

int write_file(const char*, const char* buffer, size_t size, off_t offset, fuse_file_info*)
{
    wait_while_stalled();
    const ssize_t done = ::pwrite(backing_fd, buffer, size, offset);
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
