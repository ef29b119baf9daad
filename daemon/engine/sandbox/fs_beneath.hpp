// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Naming things below a directory fd: the only way the filesystem
// benchmarks touch a filesystem. Every name is one component the engine
// made itself, or a path of such components (open_path_beneath());
// resolution never follows a symlink (not even an intermediate one), never
// leaves the directory and never crosses into another mount. So
// a symlink or mount the caller (or anyone) plants in the directory, or a
// directory swapped for a symlink mid-run, only makes an operation fail.

#include "../base/unique_fd.hpp"

#include <sys/stat.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace diskbench::engine {

// openat2(directory, name, flags | O_NOFOLLOW | O_CLOEXEC) resolved with
// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
// RESOLVE_NO_XDEV. `name` must be one component or "."; anything else is a
// bug and throws Error. On failure the fd is invalid and errno says why
// (ELOOP for a symlink, EXDEV for a mount point). Where openat2() is
// refused with ENOSYS (systemd's RestrictSUIDSGID= in diskbenchd.service,
// kernels before 5.6), each component is opened with openat() and checked
// instead, with the same results for the engine's names and flags.
UniqueFd open_beneath(int directory, const std::string& name, int flags, mode_t mode = 0);

// The same for a relative path of several components below `directory`
// ("d3/d17/f42"), each one a single component as above; the kernel walks
// it with the same RESOLVE_* flags, so no component may be a symlink or a
// mount point. Throws Error for a path with an empty, "." or ".."
// component.
UniqueFd open_path_beneath(int directory, const std::string& path, int flags, mode_t mode = 0);

// mkdirat() of one component in `directory`. mkdir never follows a symlink
// in the last component (it fails with EEXIST), and `directory` was itself
// opened beneath. False with errno on failure.
bool make_directory_beneath(int directory, const std::string& name, mode_t mode);

// unlinkat() of one component, with AT_REMOVEDIR for a directory: removes
// a symlink itself, never what it points to. False with errno on failure.
bool unlink_beneath(int directory, const std::string& name, bool is_directory);

// The names in `directory`, without "." and "..". Throws IoError.
std::vector<std::string> list_directory(int directory);

// Empties `directory` (not the directory itself): files and symlinks are
// unlinked (a symlink, never what it points to), subdirectories are emptied
// through fds of their own and removed. At most `depth_limit` levels: the
// engine's own trees are shallower, and a deeper one is not ours to chase.
// Throws IoError on the first entry it cannot remove.
void remove_tree_below(int directory, unsigned depth_limit = 64);

// Removes `name` from `parent`, with everything in it if it is a directory.
// Throws IoError; a name that is already gone is not an error.
void remove_beneath(int parent, const std::string& name, unsigned depth_limit = 64);

// Removes the empty directory `name` from `parent`, but only while that name
// is still the directory `expected` (an fstat() of an fd of ours): never
// recursively, and never what someone renamed into its place. For the
// scratch directory's own name in the caller's folder, where others may be
// allowed to rename entries: emptying happens through our fd, so at worst
// this could remove an empty directory swapped in between the check and
// the rmdir. Returns whether it removed it; throws IoError.
bool remove_empty_directory_if_same(int parent, const std::string& name, const struct stat& expected);

} // namespace diskbench::engine
