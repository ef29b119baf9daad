// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics_publish.hpp"

#include "results/folder.hpp"
#include "results/recent_results.hpp"
#include "text/printf_text.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace diskbench::cli {

namespace {

using client::printf_text;

// Far more than any fleet machine's metrics (a profile of 4 tests on 8
// disks is about 60 KiB); a bigger staged file is not ours.
constexpr off_t max_staged_bytes = 4 * 1024 * 1024;
constexpr std::string_view end_marker = "# EOF\n";

// The staged file's descriptor, closed on every return.
class StagedFd {
public:
    explicit StagedFd(int fd) noexcept : fd_(fd) {}
    ~StagedFd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    StagedFd(const StagedFd&) = delete;
    StagedFd& operator=(const StagedFd&) = delete;
    [[nodiscard]] int get() const noexcept { return fd_; }

private:
    int fd_;
};

std::string directory_of(const std::string& path)
{
    gchar* dir = g_path_get_dirname(path.c_str());
    std::string text = dir;
    g_free(dir);
    return text;
}

std::string base_name_of(const std::string& path)
{
    gchar* base = g_path_get_basename(path.c_str());
    std::string text = base;
    g_free(base);
    return text;
}

std::string system_error(const std::string& path, int error)
{
    return printf_text(_("%s: %s"), path.c_str(), g_strerror(error));
}

} // namespace

PublishOutcome publish_metrics(const std::string& staged, const std::string& output)
{
    PublishOutcome outcome;
    std::string error;
    // Everything relative to the directory we opened, so the names checked
    // are the names read and removed.
    const client::DirectoryFd directory = client::open_directory(directory_of(staged), error);
    if (!directory) {
        if (!g_file_test(directory_of(staged).c_str(), G_FILE_TEST_EXISTS)) // nothing ever ran
            return outcome;
        outcome.error = directory_of(staged) + ": " + error;
        return outcome;
    }
    const std::string name = base_name_of(staged);
    const StagedFd file(::openat(directory.get(), name.c_str(),
                                 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (file.get() < 0) {
        if (errno != ENOENT)
            outcome.error = system_error(staged, errno);
        return outcome;
    }
    struct stat file_facts {}, directory_facts {};
    if (::fstat(file.get(), &file_facts) != 0 || ::fstat(directory.get(), &directory_facts) != 0) {
        outcome.error = system_error(staged, errno);
        return outcome;
    }
    // A link to a file the service's user could not write (/etc/shadow
    // through a hard link) has another owner than the user's directory.
    if (!S_ISREG(file_facts.st_mode) || file_facts.st_uid != directory_facts.st_uid
        || file_facts.st_size > max_staged_bytes) {
        outcome.error = printf_text(_("%s is not a metrics file of this service (not a regular file of the "
                                      "directory's owner, or larger than 4 MiB): not published"),
                                    staged.c_str());
        return outcome;
    }
    std::string text(static_cast<std::size_t>(file_facts.st_size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t got = ::read(file.get(), text.data() + done, text.size() - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            outcome.error = got < 0 ? system_error(staged, errno)
                                    : printf_text(_("%s changed while it was read: not published"), staged.c_str());
            return outcome;
        }
        done += static_cast<std::size_t>(got);
    }
    if (!text.ends_with(end_marker)) {
        outcome.error = printf_text(_("%s does not end with “# EOF” (not a whole metrics file): not published"),
                                    staged.c_str());
        return outcome;
    }
    // Readable by node_exporter's own user whatever root's umask is.
    const mode_t old_umask = ::umask(022);
    outcome.error = client::write_file_atomically(output, text);
    ::umask(old_umask);
    if (!outcome.error.empty()) {
        outcome.error = output + ": " + outcome.error;
        return outcome;
    }
    ::unlinkat(directory.get(), name.c_str(), 0);
    outcome.published = true;
    return outcome;
}

std::string stage_metrics(const std::string& staged, const std::string& text)
{
    if (text.empty()) {
        if (::unlink(staged.c_str()) != 0 && errno != ENOENT)
            return system_error(staged, errno);
        return {};
    }
    const std::string error = client::write_file_atomically(staged, text);
    return error.empty() ? error : staged + ": " + error;
}

} // namespace diskbench::cli
