// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics_publish.hpp"

#include "metrics_lines.hpp"
#include "textfile_directory.hpp"

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

// A file's descriptor (the staged file, the new output), closed on every
// return.
class FileFd {
public:
    explicit FileFd(int fd) noexcept : fd_(fd) {}
    ~FileFd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    FileFd(const FileFd&) = delete;
    FileFd& operator=(const FileFd&) = delete;
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

bool write_all(int fd, const std::string& text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0)
            return false;
        done += static_cast<std::size_t>(wrote);
    }
    return true;
}

// Writes TEXT as NAME in DIRECTORY, touching nothing but that directory's
// own entries (no path is resolved again): a new file of a name nobody has
// (O_EXCL, O_NOFOLLOW), mode 0644 whatever the umask (node_exporter reads
// it as its own user), synced, then renamed over NAME, so a scrape sees the
// old file or the new one, never half of one. Its temporary name starts
// with "." and does not end in ".prom": the collector never reads it.
// Returns "" or the system's words.
std::string write_in_directory(const client::DirectoryFd& directory, const std::string& name, const std::string& text)
{
    std::string temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
        temporary = printf_text(".%s.%08x", name.c_str(), g_random_int());
        fd = ::openat(directory.get(), temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST)
            return g_strerror(errno);
    }
    if (fd < 0)
        return g_strerror(EEXIST);
    const FileFd file(fd);
    if (!write_all(file.get(), text) || ::fchmod(file.get(), 0644) != 0 || ::fsync(file.get()) != 0
        || ::renameat(directory.get(), temporary.c_str(), directory.get(), name.c_str()) != 0) {
        const int code = errno;
        ::unlinkat(directory.get(), temporary.c_str(), 0);
        return g_strerror(code);
    }
    // The rename itself on disk: a crash after "published" keeps the file.
    ::fsync(directory.get());
    return {};
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
    const FileFd file(::openat(directory.get(), name.c_str(),
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
    // Root writes what another user chose: only diskbench's own metrics,
    // nothing another parser could read as something else, and no series
    // of another exporter.
    if (const std::size_t line = first_refused_metrics_line(text); line != 0) {
        outcome.error = printf_text(_("%s:%u: not a line of diskbench's metrics (only diskbench_* samples in "
                                      "OpenMetrics text, their # HELP, # TYPE and # UNIT lines, and # EOF): "
                                      "not published"),
                                    staged.c_str(), static_cast<unsigned>(line));
        return outcome;
    }
    const std::string output_name = base_name_of(output);
    if (output_name == "." || output_name == ".." || output_name == "/") {
        outcome.error = system_error(output, EISDIR);
        return outcome;
    }
    const client::DirectoryFd textfile = open_textfile_directory(directory_of(output), error);
    if (!textfile) {
        outcome.error = error;
        return outcome;
    }
    if (const std::string failed = write_in_directory(textfile, output_name, text); !failed.empty()) {
        outcome.error = output + ": " + failed;
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
