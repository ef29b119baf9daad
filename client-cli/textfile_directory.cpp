// SPDX-License-Identifier: GPL-3.0-or-later
#include "textfile_directory.hpp"

#include "text/printf_text.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace diskbench::cli {

namespace {

using client::DirectoryFd;
using client::printf_text;

// openat2() may be refused with ENOSYS (a kernel before 5.6, a container's
// seccomp filter); then the same single name is opened with openat() and
// O_NOFOLLOW, which cannot follow a link either: a name without "/" is one
// component, and O_NOFOLLOW refuses it when it is a link (ELOOP).
bool openat2_refused = false;

int open_component(int parent, const std::string& name, int flags)
{
    flags |= O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    if (!openat2_refused) {
        open_how how {};
        how.flags = static_cast<__u64>(flags);
        how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        const long fd = ::syscall(SYS_openat2, parent, name.c_str(), &how, sizeof how);
        if (fd >= 0 || errno != ENOSYS)
            return static_cast<int>(fd);
        openat2_refused = true;
    }
    return ::openat(parent, name.c_str(), flags);
}

std::vector<std::string> components_of(const std::string& path)
{
    std::vector<std::string> names;
    gchar** parts = g_strsplit(path.c_str(), "/", -1);
    for (gchar** part = parts; *part; ++part)
        if (**part)
            names.emplace_back(*part);
    g_strfreev(parts);
    return names;
}

std::string link_refused(const std::string& path)
{
    return printf_text(_("%s is a symbolic link: metrics are published only into a directory whose path has no "
                         "links; not published"),
                       path.c_str());
}

bool writable_by_others(const struct stat& facts)
{
    return (facts.st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

} // namespace

DirectoryFd open_textfile_directory(const std::string& directory, std::string& error)
{
    error.clear();
    const std::vector<std::string> names = components_of(directory);
    for (const std::string& name : names) {
        if (name == "." || name == "..") {
            error = printf_text(
                _("%s: “.” and “..” are not allowed in the textfile directory's path: not published"),
                directory.c_str());
            return {};
        }
    }
    const uid_t publisher = ::geteuid();
    // Levels: 0 is "/", N (the number of names) the textfile directory,
    // N - 1 its parent, which alone may be anyone's.
    const std::size_t last = names.size();
    DirectoryFd current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    std::string path = "/";
    if (!current) {
        error = printf_text(_("%s: %s"), path.c_str(), g_strerror(errno));
        return {};
    }
    for (std::size_t level = 0;; ++level) {
        struct stat facts {};
        if (::fstat(current.get(), &facts) != 0) {
            error = printf_text(_("%s: %s"), path.c_str(), g_strerror(errno));
            return {};
        }
        if (S_ISLNK(facts.st_mode)) { // an O_PATH open of a link itself
            error = link_refused(path);
            return {};
        }
        if (level == last) {
            if (facts.st_uid != publisher || writable_by_others(facts)) {
                error = printf_text(_("%s belongs to another user or is writable by its group or others: metrics "
                                      "are published only into a directory of the publishing user (root) that "
                                      "nobody else can write to; not published"),
                                    path.c_str());
                return {};
            }
            return current;
        }
        if (level + 1 < last
            && ((facts.st_uid != 0 && facts.st_uid != publisher)
                || (writable_by_others(facts) && (facts.st_mode & S_ISVTX) == 0))) {
            error = printf_text(_("%s belongs to another user or is writable by its group or others without the "
                                  "sticky bit: every directory above the textfile directory's parent must be "
                                  "root's; not published"),
                                path.c_str());
            return {};
        }
        const std::string& name = names[level];
        path = (path == "/" ? path : path + "/") + name;
        // The textfile directory is written into (O_RDONLY: fsync needs
        // more than O_PATH); the ones above only looked at and through.
        DirectoryFd next(open_component(current.get(), name, level + 1 == last ? O_RDONLY : O_PATH));
        if (!next) {
            const int code = errno;
            struct stat link {};
            if (code == ELOOP
                || (code == ENOTDIR && ::fstatat(current.get(), name.c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0
                    && S_ISLNK(link.st_mode)))
                error = link_refused(path);
            else
                error = printf_text(_("%s: %s"), path.c_str(), g_strerror(code));
            return {};
        }
        current = std::move(next);
    }
}

} // namespace diskbench::cli
