// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_file.hpp"

#include <glib/gstdio.h>

#include <cerrno>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace diskbench::client {

namespace {

// Closes the temporary file and removes it unless it was renamed into place.
class TemporaryFile {
public:
    explicit TemporaryFile(const std::string& path) : name_(path.begin(), path.end())
    {
        static constexpr char suffix[] = ".XXXXXX";
        name_.insert(name_.end(), suffix, suffix + sizeof suffix); // with the NUL
        // 0666 less the umask, as for any file the user creates.
        fd_ = g_mkstemp_full(name_.data(), O_WRONLY | O_CLOEXEC, 0666);
        if (fd_ < 0)
            error_ = errno;
        created_ = fd_ >= 0;
    }
    ~TemporaryFile()
    {
        if (fd_ >= 0)
            close(fd_);
        if (created_ && !kept_)
            g_unlink(name_.data());
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    [[nodiscard]] int error() const noexcept { return error_; }

    int write_all(std::string_view bytes)
    {
        while (!bytes.empty()) {
            const ssize_t written = write(fd_, bytes.data(), bytes.size());
            if (written < 0 && errno == EINTR)
                continue;
            if (written < 0)
                return errno;
            bytes.remove_prefix(static_cast<std::size_t>(written));
        }
        return 0;
    }

    int keep_as(const std::string& path)
    {
        const int fd = fd_;
        fd_ = -1;
        if (close(fd) != 0) // NFS and full disks may report errors only here
            return errno;
        if (g_rename(name_.data(), path.c_str()) != 0)
            return errno;
        kept_ = true;
        return 0;
    }

private:
    std::vector<char> name_;
    int fd_ = -1;
    int error_ = 0;
    bool created_ = false;
    bool kept_ = false;
};

} // namespace

int write_file_atomically(const std::string& path, std::string_view bytes)
{
    TemporaryFile file(path);
    if (file.error() != 0)
        return file.error();
    if (const int error = file.write_all(bytes); error != 0)
        return error;
    return file.keep_as(path);
}

} // namespace diskbench::client
