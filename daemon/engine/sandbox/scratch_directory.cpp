// SPDX-License-Identifier: GPL-3.0-or-later
#include "scratch_directory.hpp"

#include "../base/errors.hpp"
#include "fs_beneath.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

std::string random_suffix()
{
    std::random_device device; // getrandom(): names must not be guessable in advance
    return fmt::format("{:08x}{:08x}", device(), device());
}

bool write_all(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

enum class Sync { Data, All };

// fdatasync or fsync; a filesystem that cannot (EINVAL; EOPNOTSUPP from
// some FUSE servers) is not an error, as nothing more can be done there.
bool synced(int fd, Sync what)
{
    if ((what == Sync::Data ? ::fdatasync(fd) : ::fsync(fd)) == 0)
        return true;
    return errno == EINVAL || errno == EOPNOTSUPP;
}

// The marker of a leftover, opened and locked, or invalid when `directory`
// is not a scratch directory of `owner`'s we may take.
UniqueFd claim_marker(int directory, uid_t owner)
{
    UniqueFd marker = open_beneath(directory, std::string(scratch_marker_name), O_RDONLY | O_NONBLOCK);
    if (!marker.valid())
        return {};
    struct stat st {};
    if (::fstat(marker.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != owner)
        return {};
    std::array<char, scratch_marker_text.size() + 1> text {};
    const ssize_t n = ::pread(marker.get(), text.data(), text.size(), 0);
    if (n != static_cast<ssize_t>(scratch_marker_text.size())
        || std::string_view(text.data(), static_cast<std::size_t>(n)) != scratch_marker_text)
        return {};
    if (::flock(marker.get(), LOCK_EX | LOCK_NB) != 0)
        return {}; // a live run's
    return marker;
}

} // namespace

ScratchDirectory::ScratchDirectory(int parent)
    : parent_(parent)
{
    for (int attempt = 0;; ++attempt) {
        name_ = std::string(scratch_prefix) + random_suffix();
        if (::mkdirat(parent_, name_.c_str(), 0700) == 0)
            break;
        if (errno != EEXIST || attempt == 10)
            throw IoError(Failure { "error-scratch-directory-uncreatable", { { "reason", std::strerror(errno) } } }, errno);
    }
    bool replaced = false;
    try {
        directory_ = open_beneath(parent_, name_, O_RDONLY | O_DIRECTORY);
        if (!directory_.valid())
            throw IoError(Failure { "error-scratch-directory-unopenable",
                                    { { "name", name_ }, { "reason", std::strerror(errno) } } },
                          errno);
        // Between mkdirat() and the open, someone who may write in `parent`
        // could have put another directory under our name, to have its
        // contents deleted with ours at the end. Ours is empty; anything
        // else is refused. (Not its owner or mode: on vfat, exfat, NTFS or
        // a FUSE folder the mount decides those, and a setgid folder adds
        // its bit.)
        if (!list_directory(directory_.get()).empty()) {
            directory_.reset();
            replaced = true; // not ours to remove either: leave the name to whoever put it there
            throw IoError(Failure { "error-scratch-directory-replaced", { { "name", name_ } } }, EEXIST);
        }
        marker_ = open_beneath(directory_.get(), std::string(scratch_marker_name), O_CREAT | O_EXCL | O_RDWR, 0600);
        if (!marker_.valid() || !write_all(marker_.get(), scratch_marker_text) || ::flock(marker_.get(), LOCK_EX) != 0)
            throw IoError(Failure { "error-scratch-directory-unmarkable",
                                    { { "name", name_ }, { "reason", std::strerror(errno) } } },
                          errno);
        // On the disk before any benchmark I/O: a crash or a dead disk mid-run
        // must leave a directory the next run recognises (its marker's text
        // read back, its name in the folder), or nobody ever removes it. The
        // folder is synced through an fd of our own: the caller's may be
        // O_PATH, which cannot be; a folder the caller may not read is left
        // to the filesystem's next commit.
        const UniqueFd folder = open_beneath(parent_, ".", O_RDONLY | O_DIRECTORY);
        if (!synced(marker_.get(), Sync::Data) || !synced(directory_.get(), Sync::All)
            || (folder.valid() && !synced(folder.get(), Sync::All)))
            throw IoError(Failure { "error-scratch-directory-unsyncable",
                                    { { "name", name_ }, { "reason", std::strerror(errno) } } },
                          errno);
    } catch (...) {
        try {
            if (replaced) {
                // Ours (empty) is wherever it was moved to, without a marker.
            } else if (directory_.valid()) {
                struct stat ours {};
                remove_tree_below(directory_.get());
                if (::fstat(directory_.get(), &ours) == 0)
                    remove_empty_directory_if_same(parent_, name_, ours);
            } else {
                ::unlinkat(parent_, name_.c_str(), AT_REMOVEDIR); // only ever an empty directory
            }
        } catch (...) {
            // Left for the next run's cleanup only if it got its marker.
        }
        throw;
    }
}

ScratchDirectory::~ScratchDirectory()
{
    try {
        remove();
    } catch (...) {
        // Whatever is left carries the marker; the next run removes it.
        // (Anything at all: this destructor must never end the daemon.)
    }
}

void ScratchDirectory::remove()
{
    if (!directory_.valid())
        return;
    // Emptied through our own fd, then the name removed in the parent. Had
    // someone replaced the name by now, remove_beneath() would only take
    // what the caller may take anyway, and never follow a symlink.
    struct stat ours {};
    if (::fstat(directory_.get(), &ours) != 0)
        throw IoError(Failure { "error-scratch-directory-unexaminable",
                                { { "name", name_ }, { "reason", std::strerror(errno) } } },
                      errno);
    remove_tree_below(directory_.get());
    directory_.reset();
    marker_.reset();
    remove_empty_directory_if_same(parent_, name_, ours);
}

unsigned remove_leftover_scratch(int parent, uid_t owner)
{
    unsigned removed = 0;
    for (const std::string& name : list_directory(parent)) {
        if (!name.starts_with(scratch_prefix))
            continue;
        // A symlink or file of that name fails here (ELOOP, ENOTDIR).
        UniqueFd directory = open_beneath(parent, name, O_RDONLY | O_DIRECTORY);
        if (!directory.valid())
            continue;
        struct stat st {};
        if (::fstat(directory.get(), &st) != 0 || st.st_uid != owner || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
            continue; // someone else's, or open to someone else's additions
        UniqueFd marker = claim_marker(directory.get(), owner);
        if (!marker.valid())
            continue;
        try {
            remove_tree_below(directory.get());
            directory.reset();
            if (remove_empty_directory_if_same(parent, name, st))
                ++removed;
        } catch (const Error&) {
            // Not ours to finish (permissions changed?); try the others.
        }
    }
    return removed;
}

} // namespace diskbench::engine
