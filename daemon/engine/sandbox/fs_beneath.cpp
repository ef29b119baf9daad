// SPDX-License-Identifier: GPL-3.0-or-later
#include "fs_beneath.hpp"

#include "../base/errors.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

constexpr __u64 confined = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;

// A name is a single component we chose: no separator, not "..". "." is
// allowed only for opening the directory itself (listing, O_TMPFILE).
void check_component(const std::string& name, bool dot_allowed)
{
    if (name.empty() || name == ".." || name.find('/') != std::string::npos || (name == "." && !dot_allowed))
        throw Error(fmt::format("internal: \"{}\" is not a single path component", name));
}

struct DirCloser {
    void operator()(DIR* dir) const noexcept { ::closedir(dir); }
};

// `id`: one of the catalogue's error-entry-* failures.
IoError io_error(const char* id, const std::string& name, int error_number)
{
    return IoError(Failure { id, { { "name", name }, { "reason", std::strerror(error_number) } } }, error_number);
}

// openat2() can be refused with ENOSYS: systemd's RestrictSUIDSGID=, which
// diskbenchd.service sets, blocks it that way (its seccomp filter cannot see
// the mode inside struct open_how, so it cannot tell a set-uid file being
// created) and expects programs to fall back to openat(); kernels before 5.6
// and some container runtimes refuse it the same way. Once refused, the
// fallback is used without asking again.
std::atomic<bool> openat2_refused { false };

// Which mount an fd is on: the mount id (statx, Linux 5.8) tells apart two
// mounts of one filesystem as RESOLVE_NO_XDEV does; where statx() does not
// give it, the device at least tells filesystems apart.
struct MountOf {
    std::uint64_t mount_id = 0; // 0: unknown
    dev_t device = 0;
    bool operator==(const MountOf&) const = default;
};

bool mount_of(int fd, MountOf& mount)
{
    struct statx stx {};
    if (::statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) != 0)
        return false;
    mount.mount_id = (stx.stx_mask & STATX_MNT_ID) != 0 ? stx.stx_mnt_id : 0;
    mount.device = makedev(stx.stx_dev_major, stx.stx_dev_minor);
    return true;
}

// The same resolution without openat2(): one component at a time with
// openat(). For the names check_component() lets through (no "/", no
// "..") that keeps every promise of the RESOLVE_* flags:
//  - beneath: a walk of such names can only go down from `directory`;
//  - no symlinks, no magic links: each component is opened with
//    O_NOFOLLOW, so a symlink is either refused (ELOOP) or, for the
//    O_PATH opens of the directories on the way, opened itself and then
//    refused here with ELOOP; no other directory is ever resolved through it;
//  - no other mount: each fd's mount must be the directory's, else EXDEV.
// One difference: openat2() refuses a mount before opening anything on
// it, this opens, looks and closes. The engine only creates with
// O_CREAT | O_EXCL (a mount point exists, so EEXIST) and otherwise opens
// read-only, so nothing on the other mount is changed.
UniqueFd open_confined_by_openat(int directory, const std::string& path, int flags, mode_t mode)
{
    MountOf start;
    if (!mount_of(directory, start))
        return UniqueFd();
    UniqueFd parent; // invalid while at `directory` itself
    UniqueFd next;
    const auto refuse = [&](int error) {
        next.reset();
        parent.reset();
        errno = error;
        return UniqueFd();
    };
    std::string::size_type begin = 0;
    while (true) {
        const auto slash = path.find('/', begin);
        const bool last = slash == std::string::npos;
        const std::string name = path.substr(begin, last ? std::string::npos : slash - begin);
        // The directories on the way with O_PATH: like a path walk, that
        // needs search permission only, not read permission.
        const int how = last ? flags | O_NOFOLLOW | O_CLOEXEC : O_PATH | O_NOFOLLOW | O_CLOEXEC;
        do
            next.reset(::openat(parent.valid() ? parent.get() : directory, name.c_str(), how, mode));
        while (!next.valid() && errno == EINTR);
        if (!next.valid())
            return refuse(errno);
        if (!last || (flags & O_PATH) != 0) {
            // O_PATH | O_NOFOLLOW opens a symlink itself instead of failing.
            struct stat st {};
            if (::fstat(next.get(), &st) != 0)
                return refuse(errno);
            if (S_ISLNK(st.st_mode))
                return refuse(ELOOP);
            if (!last && !S_ISDIR(st.st_mode))
                return refuse(ENOTDIR);
        }
        MountOf here;
        if (!mount_of(next.get(), here))
            return refuse(errno);
        if (!(here == start))
            return refuse(EXDEV);
        if (last)
            return next;
        parent = std::move(next);
        begin = slash + 1;
    }
}

UniqueFd open_confined(int directory, const std::string& name, int flags, mode_t mode)
{
    if (!openat2_refused.load(std::memory_order_relaxed)) {
        open_how how {};
        how.flags = static_cast<__u64>(flags | O_NOFOLLOW | O_CLOEXEC);
        // The kernel refuses a mode without O_CREAT or O_TMPFILE.
        how.mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;
        how.resolve = confined;
        long fd;
        do
            fd = ::syscall(SYS_openat2, directory, name.c_str(), &how, sizeof how);
        while (fd < 0 && errno == EINTR);
        if (fd >= 0 || errno != ENOSYS)
            return UniqueFd(static_cast<int>(fd));
        openat2_refused.store(true, std::memory_order_relaxed);
    }
    return open_confined_by_openat(directory, name, flags, mode);
}

} // namespace

UniqueFd open_beneath(int directory, const std::string& name, int flags, mode_t mode)
{
    check_component(name, true);
    return open_confined(directory, name, flags, mode);
}

UniqueFd open_path_beneath(int directory, const std::string& path, int flags, mode_t mode)
{
    // Checked here too, although RESOLVE_BENEATH would refuse ".." that
    // leaves: a path the engine did not build this way is a bug.
    std::string::size_type start = 0;
    while (true) {
        const auto slash = path.find('/', start);
        check_component(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start), false);
        if (slash == std::string::npos)
            break;
        start = slash + 1;
    }
    return open_confined(directory, path, flags, mode);
}

bool make_directory_beneath(int directory, const std::string& name, mode_t mode)
{
    check_component(name, false);
    return ::mkdirat(directory, name.c_str(), mode) == 0;
}

bool unlink_beneath(int directory, const std::string& name, bool is_directory)
{
    check_component(name, false);
    return ::unlinkat(directory, name.c_str(), is_directory ? AT_REMOVEDIR : 0) == 0;
}

std::vector<std::string> list_directory(int directory)
{
    // fdopendir() takes the fd it is given, so give it a fresh one.
    UniqueFd own = open_beneath(directory, ".", O_RDONLY | O_DIRECTORY);
    if (!own.valid())
        throw io_error("error-entry-unopenable", ".", errno);
    std::unique_ptr<DIR, DirCloser> stream(::fdopendir(own.get()));
    if (!stream)
        throw io_error("error-entry-unlistable", ".", errno);
    static_cast<void>(own.release()); // closedir() closes it now

    std::vector<std::string> names;
    errno = 0;
    while (const dirent* entry = ::readdir(stream.get())) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..")
            names.push_back(name);
        errno = 0;
    }
    if (errno != 0)
        throw io_error("error-entry-unlistable", ".", errno);
    return names;
}

void remove_beneath(int parent, const std::string& name, unsigned depth_limit)
{
    check_component(name, false);
    // Unlink first and look at the answer instead of asking what the entry
    // is: a question and a later act can be raced, unlinkat() cannot, and
    // it removes a symlink itself, never its target.
    if (::unlinkat(parent, name.c_str(), 0) == 0 || errno == ENOENT)
        return;
    if (errno != EISDIR && errno != EPERM) // EPERM: what POSIX says for a directory
        throw io_error("error-entry-unremovable", name, errno);
    if (depth_limit == 0)
        throw IoError(Failure { "error-entry-nested-too-deeply", { { "name", name } } }, ELOOP);

    // Three tries: something may add entries while we empty it (the
    // caller, as the same user, could).
    for (int attempt = 0; attempt < 3; ++attempt) {
        UniqueFd child = open_beneath(parent, name, O_RDONLY | O_DIRECTORY);
        if (!child.valid()) {
            if (errno == ENOENT)
                return;
            // Swapped for a symlink or file since the unlink: unlink that.
            if ((errno == ELOOP || errno == ENOTDIR) && ::unlinkat(parent, name.c_str(), 0) == 0)
                return;
            throw io_error("error-entry-unopenable", name, errno);
        }
        remove_tree_below(child.get(), depth_limit - 1);
        if (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT)
            return;
        if (errno != ENOTEMPTY && errno != EEXIST)
            throw io_error("error-entry-unremovable", name, errno);
    }
    throw io_error("error-entry-unremovable", name, ENOTEMPTY);
}

void remove_tree_below(int directory, unsigned depth_limit)
{
    for (const std::string& name : list_directory(directory))
        remove_beneath(directory, name, depth_limit);
}

bool remove_empty_directory_if_same(int parent, const std::string& name, const struct stat& expected)
{
    check_component(name, false);
    struct stat now {};
    if (::fstatat(parent, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT)
            return false;
        throw io_error("error-entry-unexaminable", name, errno);
    }
    if (now.st_dev != expected.st_dev || now.st_ino != expected.st_ino)
        return false; // renamed away; what has its name now is not ours
    if (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT)
        return true;
    throw io_error("error-entry-unremovable", name, errno);
}

} // namespace diskbench::engine
