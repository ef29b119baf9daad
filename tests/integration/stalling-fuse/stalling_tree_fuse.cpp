// SPDX-License-Identifier: GPL-3.0-or-later
// A folder whose removals stop being answered. A FUSE filesystem that
// passes everything through to a backing directory, except that unlink and
// rmdir wait while a flag file exists: creating, reading and writing go on,
// but whatever removes a file hangs, as on an NFS server or a user's FUSE
// mount that stalls on purpose. For the test of the daemon's background
// disposal of scratch folders (test_security.py).
//
// Usage: stalling-tree-fuse BACKING_DIR FLAG_FILE MOUNTPOINT (absolute
// paths). Mounted with allow_other and default_permissions, so the kernel
// checks every user's access against the modes and owners shown here; new
// files and folders belong to the caller (its fsuid, fsgid). Runs in the
// foreground until unmounted or killed; killing it fails every waiting
// request (ENOTCONN). Multi-threaded, unlike stalling-fuse: a removal that
// waits holds only its own request (and the kernel's lock on its folder),
// and everything else is answered.
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

namespace {

std::string backing;
std::string flag_path;

std::string real(const char* path)
{
    return backing + path;
}

int result(int rc)
{
    return rc < 0 ? -errno : 0;
}

void wait_while_stalled()
{
    while (::access(flag_path.c_str(), F_OK) == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// New entries belong to whoever made them, as on a local filesystem.
int give_to_caller(const std::string& path)
{
    const fuse_context* context = fuse_get_context();
    return result(::lchown(path.c_str(), context->uid, context->gid));
}

int get_attributes(const char* path, struct stat* st, fuse_file_info* fi)
{
    if (fi)
        return result(::fstat(static_cast<int>(fi->fh), st));
    return path ? result(::lstat(real(path).c_str(), st)) : -ENOENT;
}

int list_directory(const char* path, void* buffer, fuse_fill_dir_t fill, off_t, fuse_file_info*,
                   fuse_readdir_flags)
{
    DIR* directory = ::opendir(real(path).c_str());
    if (!directory)
        return -errno;
    while (const dirent* entry = ::readdir(directory))
        fill(buffer, entry->d_name, nullptr, 0, fuse_fill_dir_flags {});
    ::closedir(directory);
    return 0;
}

int make_directory(const char* path, mode_t mode)
{
    if (::mkdir(real(path).c_str(), mode) != 0)
        return -errno;
    return give_to_caller(real(path));
}

int remove_directory(const char* path)
{
    wait_while_stalled();
    return result(::rmdir(real(path).c_str()));
}

int remove_file(const char* path)
{
    wait_while_stalled();
    return result(::unlink(real(path).c_str()));
}

// libfuse renames a file that is unlinked while open (the engine's named
// scratch files) to .fuse_hidden* and removes it when it is closed.
int rename_entry(const char* from, const char* to, unsigned int flags)
{
    if (flags != 0)
        return -EINVAL;
    return result(::rename(real(from).c_str(), real(to).c_str()));
}

int create_file(const char* path, mode_t mode, fuse_file_info* fi)
{
    const int fd = ::open(real(path).c_str(), (fi->flags & ~O_DIRECT) | O_CREAT | O_CLOEXEC, mode);
    if (fd < 0)
        return -errno;
    fi->fh = static_cast<std::uint64_t>(fd);
    return give_to_caller(real(path));
}

int open_file(const char* path, fuse_file_info* fi)
{
    const int fd = ::open(real(path).c_str(), (fi->flags & ~O_DIRECT) | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    fi->fh = static_cast<std::uint64_t>(fd);
    return 0;
}

int read_file(const char*, char* buffer, size_t size, off_t offset, fuse_file_info* fi)
{
    const ssize_t done = ::pread(static_cast<int>(fi->fh), buffer, size, offset);
    return done < 0 ? -errno : static_cast<int>(done);
}

int write_file(const char*, const char* buffer, size_t size, off_t offset, fuse_file_info* fi)
{
    const ssize_t done = ::pwrite(static_cast<int>(fi->fh), buffer, size, offset);
    return done < 0 ? -errno : static_cast<int>(done);
}

int release_file(const char*, fuse_file_info* fi)
{
    ::close(static_cast<int>(fi->fh));
    return 0;
}

int sync_file(const char*, int data_only, fuse_file_info* fi)
{
    const int fd = static_cast<int>(fi->fh);
    return result(data_only ? ::fdatasync(fd) : ::fsync(fd));
}

int sync_directory(const char*, int, fuse_file_info*)
{
    return 0;
}

int filesystem_facts(const char*, struct statvfs* st)
{
    return result(::statvfs(backing.c_str(), st));
}

int change_mode(const char* path, mode_t mode, fuse_file_info*)
{
    return result(::chmod(real(path).c_str(), mode));
}

int change_owner(const char* path, uid_t uid, gid_t gid, fuse_file_info*)
{
    return result(::lchown(real(path).c_str(), uid, gid));
}

int truncate_file(const char* path, off_t size, fuse_file_info* fi)
{
    return result(fi ? ::ftruncate(static_cast<int>(fi->fh), size) : ::truncate(real(path).c_str(), size));
}

int set_times(const char* path, const timespec times[2], fuse_file_info*)
{
    return result(::utimensat(AT_FDCWD, real(path).c_str(), times, AT_SYMLINK_NOFOLLOW));
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s BACKING_DIR FLAG_FILE MOUNTPOINT\n", argv[0]);
        return 2;
    }
    backing = argv[1];
    flag_path = argv[2];
    ::umask(0); // modes are the callers'

    fuse_operations operations {};
    operations.getattr = get_attributes;
    operations.readdir = list_directory;
    operations.mkdir = make_directory;
    operations.rmdir = remove_directory;
    operations.unlink = remove_file;
    operations.rename = rename_entry;
    operations.create = create_file;
    operations.open = open_file;
    operations.read = read_file;
    operations.write = write_file;
    operations.release = release_file;
    operations.fsync = sync_file;
    operations.fsyncdir = sync_directory;
    operations.statfs = filesystem_facts;
    operations.chmod = change_mode;
    operations.chown = change_owner;
    operations.truncate = truncate_file;
    operations.utimens = set_times;
    char program[] = "stalling-tree-fuse";
    char foreground[] = "-f";
    char options_flag[] = "-o";
    char options[] = "allow_other,default_permissions";
    char* fuse_argv[] = { program, foreground, options_flag, options, argv[3], nullptr };
    return fuse_main(5, fuse_argv, &operations, nullptr);
}
