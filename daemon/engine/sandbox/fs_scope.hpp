// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../base/unique_fd.hpp"
#include "filesystem_facts.hpp"
#include "fs_credentials.hpp"
#include "scratch_directory.hpp"

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace diskbench::engine {

// Where a filesystem benchmark may write, and as whom: below a directory fd
// the caller opened (the daemon gets it over D-Bus as `h`, never a path),
// with the caller's filesystem credentials.
//
// All work happens on one thread of the scope's own, which first takes on
// the caller's groups, fsgid and fsuid and drops its capabilities
// (act_as_on_this_thread). So the kernel itself checks the caller's
// permissions, new files belong to the caller, and the daemon's other
// threads stay root. Threads started from it (the I/O runner's workers)
// inherit those credentials. The scope refuses to hand out its scratch
// directory to any other thread, so nothing can act on it as root by
// mistake.
//
// On construction it removes scratch directories earlier runs left behind
// and makes a fresh marked one (scratch_directory.hpp); on destruction it
// removes that again with everything in it.
class FilesystemScope {
public:
    // Throws TargetError when `directory` is not a directory or lies on a
    // pseudo filesystem, IoError when the caller may not create the scratch
    // directory there (EACCES, EROFS, ENOSPC, ...), Error when the thread
    // cannot take on the caller's credentials.
    FilesystemScope(UniqueFd directory, std::string name, Credentials caller);
    ~FilesystemScope();
    FilesystemScope(const FilesystemScope&) = delete;
    FilesystemScope& operator=(const FilesystemScope&) = delete;

    // Runs `work` on the scope's thread and waits for it; an exception it
    // throws is rethrown here. Not reentrant: `work` must not call run().
    void run(const std::function<void()>& work);
    [[nodiscard]] bool on_scope_thread() const noexcept;

    // The scratch directory's fd, for the scope's thread only (Error elsewhere).
    [[nodiscard]] int scratch_directory() const;
    // A new read-write file (mode 0600) in the scratch directory that has
    // no name, so it vanishes with its last fd even if the process dies:
    // O_TMPFILE where the filesystem has it, else a named file unlinked
    // right after creation. Scope's thread only. Throws IoError.
    [[nodiscard]] UniqueFd create_scratch_file() const;
    // Whether create_scratch_file() gets O_TMPFILE files (known after the first).
    [[nodiscard]] bool uses_tmpfile() const noexcept { return uses_tmpfile_; }
    // Makes create_scratch_file() use its fallback, as on a filesystem
    // without O_TMPFILE. For tests: every filesystem this project's test
    // machines can mount has O_TMPFILE.
    void avoid_tmpfile() noexcept { uses_tmpfile_ = false; }

    [[nodiscard]] FilesystemFacts facts() const;
    // The directory's st_dev (fstat of the caller's fd; any thread): which
    // filesystem the block-layer cross-check follows down to its device.
    [[nodiscard]] dev_t device() const;
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] const std::string& scratch_name() const noexcept { return scratch_name_; }
    [[nodiscard]] unsigned leftovers_removed() const noexcept { return leftovers_removed_; }

private:
    void thread_main(const Credentials& caller);
    void open_scratch();
    void stop() noexcept;

    UniqueFd directory_;
    std::string name_;
    uid_t caller_uid_;
    std::string scratch_name_;
    unsigned leftovers_removed_ = 0;
    std::unique_ptr<ScratchDirectory> scratch_; // made and removed on the scope's thread
    mutable bool uses_tmpfile_ = true;
    mutable unsigned named_files_ = 0;

    std::mutex mutex_;
    std::condition_variable wake_;
    const std::function<void()>* work_ = nullptr;
    std::exception_ptr work_error_;
    std::exception_ptr thread_error_; // the credentials could not be taken on
    bool work_done_ = false;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace diskbench::engine
