// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The filesystem benchmarks write only inside a scratch directory of their
// own in the caller's directory, named ".diskbench-scratch-<random>" and
// marked by a file inside it holding a fixed text. The marker is what makes
// a directory ours to delete: a leftover of a crashed run is recognised by
// it, never by its name alone. The running owner keeps an flock() on the
// marker, so the cleanup of another run (the same user benchmarking the
// same directory twice at once) leaves a live scratch directory alone; the
// kernel drops the lock when its process dies.
//
// Everything here must run on a thread that acts as the caller
// (act_as_on_this_thread), so the caller's permissions apply.

#include "../base/unique_fd.hpp"

#include <sys/stat.h>
#include <sys/types.h>

#include <string>
#include <string_view>

namespace diskbench::engine {

inline constexpr std::string_view scratch_prefix = ".diskbench-scratch-";
inline constexpr std::string_view scratch_marker_name = "diskbench-scratch-marker";
inline constexpr std::string_view scratch_marker_text
    = "diskbench scratch directory: diskbench removes it (and any it finds left over by a crash).\n";

class ScratchDirectory {
public:
    // Creates a fresh marked directory (mode 0700) in `parent`, on the disk
    // before it returns. Throws IoError (EACCES when the caller may not
    // write there; EEXIST when what it then opens by that name is not the
    // empty directory it just made).
    explicit ScratchDirectory(int parent);
    // Removes it with everything in it; errors are swallowed (a later run
    // removes what is left). Call remove() to hear about them.
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;

    [[nodiscard]] int fd() const noexcept { return directory_.get(); }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }

    // Removes the directory and its contents now: emptied through our own
    // fd, then its name removed only if it still is this directory (see
    // remove_empty_directory_if_same). Throws IoError.
    void remove();

private:
    int parent_;
    std::string name_;
    UniqueFd directory_;
    UniqueFd marker_; // holds the lock
};

// Removes the marked, unlocked scratch directories in `parent` that earlier
// runs of `owner` left (crash, kill -9, power cut) and returns how many.
// Anything that is not a directory, is not owned by `owner` or is writable
// by anyone else, has no marker of `owner` with the right text, or is
// locked is left alone: in a folder others may write to, someone else could
// plant a "leftover" and swap the caller's own files into it while it is
// being emptied. Errors on one leftover do not stop the others.
unsigned remove_leftover_scratch(int parent, uid_t owner);

} // namespace diskbench::engine
