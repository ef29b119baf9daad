// SPDX-License-Identifier: GPL-3.0-or-later
#include "fs_scope.hpp"

#include "../base/errors.hpp"
#include "fs_beneath.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine {

FilesystemScope::FilesystemScope(UniqueFd directory, std::string name, Credentials caller)
    : directory_(std::move(directory)), name_(std::move(name)), caller_uid_(caller.uid)
{
    // fstat() and fstatfs() of the fd only look at what it already is.
    struct stat st {};
    if (!directory_.valid() || ::fstat(directory_.get(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw TargetError(Failure { "error-not-a-directory", { { "target", name_ } } });
    const FilesystemFacts fs = filesystem_facts(directory_.get());
    if (fs.pseudo)
        throw TargetError(Failure { "error-kernel-interface", { { "target", name_ }, { "filesystem", fs.type } } });

    thread_ = std::thread([this, caller = std::move(caller)] { thread_main(caller); });
    try {
        run([this] { open_scratch(); });
    } catch (...) {
        stop();
        throw;
    }
}

FilesystemScope::~FilesystemScope()
{
    try {
        run([this] { scratch_.reset(); });
    } catch (...) {
        // The marker stays with whatever is left; the next run removes it.
    }
    stop();
}

void FilesystemScope::stop() noexcept
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

void FilesystemScope::thread_main(const Credentials& caller)
{
    std::unique_lock lock(mutex_);
    try {
        act_as_on_this_thread(caller);
    } catch (...) {
        // Do no work at all as anyone else.
        thread_error_ = std::current_exception();
        wake_.notify_all();
        return;
    }
    while (true) {
        wake_.wait(lock, [this] { return stopping_ || (work_ && !work_done_); });
        if (stopping_)
            return;
        const std::function<void()>* work = work_;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*work)();
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        work_error_ = error;
        work_done_ = true;
        wake_.notify_all();
    }
}

void FilesystemScope::run(const std::function<void()>& work)
{
    if (on_scope_thread())
        throw Error("internal: FilesystemScope::run() called from its own thread");
    std::unique_lock lock(mutex_);
    if (thread_error_)
        std::rethrow_exception(thread_error_);
    work_ = &work;
    work_done_ = false;
    wake_.notify_all();
    wake_.wait(lock, [this] { return work_done_ || thread_error_; });
    work_ = nullptr;
    if (thread_error_)
        std::rethrow_exception(thread_error_);
    if (std::exception_ptr error = std::exchange(work_error_, nullptr))
        std::rethrow_exception(error);
}

bool FilesystemScope::on_scope_thread() const noexcept
{
    return std::this_thread::get_id() == thread_.get_id();
}

void FilesystemScope::open_scratch()
{
    try {
        leftovers_removed_ = remove_leftover_scratch(directory_.get(), caller_uid_);
        scratch_ = std::make_unique<ScratchDirectory>(directory_.get());
    } catch (const IoError& error) {
        const int e = error.error_number();
        // The failure explained is the text's {detail}: a client translates it too.
        const char* id = e == EACCES || e == EPERM ? "error-folder-not-writable"
            : e == EROFS                           ? "error-filesystem-read-only"
            : e == ENOSPC || e == EDQUOT           ? "error-filesystem-full"
                                                   : "error-in-folder";
        throw IoError(Failure { id, { { "target", name_ }, failure_argument("detail", error) } }, e);
    }
    try {
        scratch_name_ = scratch_->name();
    } catch (...) {
        // Removed here, as the caller: a throwing constructor would
        // otherwise destroy it on the daemon's root thread.
        scratch_.reset();
        throw;
    }
}

int FilesystemScope::scratch_directory() const
{
    if (!on_scope_thread())
        throw Error("internal: the scratch directory is used outside the scope's thread");
    return scratch_->fd();
}

UniqueFd FilesystemScope::create_scratch_file() const
{
    const int directory = scratch_directory();
    if (uses_tmpfile_) {
        UniqueFd file = open_beneath(directory, ".", O_TMPFILE | O_RDWR, 0600);
        if (file.valid())
            return file;
        // EOPNOTSUPP: the filesystem has no O_TMPFILE; EISDIR: the kernel
        // predates it. Anything else is a real error.
        if (errno != EOPNOTSUPP && errno != EISDIR)
            throw IoError(Failure { "error-scratch-file-uncreatable",
                                    { { "target", name_ }, { "reason", std::strerror(errno) } } },
                          errno);
        uses_tmpfile_ = false;
    }
    const std::string file_name = fmt::format("file-{}", named_files_++);
    UniqueFd file = open_beneath(directory, file_name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (!file.valid())
        throw IoError(Failure { "error-scratch-file-uncreatable",
                                    { { "target", name_ }, { "reason", std::strerror(errno) } } },
                          errno);
    if (::unlinkat(directory, file_name.c_str(), 0) != 0)
        throw IoError(Failure { "error-scratch-file-unlinkable",
                                { { "target", name_ }, { "reason", std::strerror(errno) } } },
                      errno);
    return file;
}

FilesystemFacts FilesystemScope::facts() const
{
    return filesystem_facts(directory_.get());
}

dev_t FilesystemScope::device() const
{
    struct stat st {};
    return ::fstat(directory_.get(), &st) == 0 ? st.st_dev : 0;
}

} // namespace diskbench::engine
