// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/folder.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace diskbench::client {

DirectoryFd::~DirectoryFd()
{
    if (fd_ >= 0)
        ::close(fd_);
}

DirectoryFd& DirectoryFd::operator=(DirectoryFd&& other) noexcept
{
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = other.release();
    }
    return *this;
}

int DirectoryFd::release() noexcept
{
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

DirectoryFd open_directory(const std::string& path, std::string& error)
{
    error.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        const int code = errno;
        error = code == ENOTDIR ? std::string(_("This is not a folder.")) : std::string(g_strerror(code));
        return {};
    }
    return DirectoryFd(fd);
}

std::string folder_display_name(const std::string& path)
{
    const std::unique_ptr<gchar, decltype(&g_free)> name(g_filename_display_basename(path.c_str()), g_free);
    return name ? name.get() : path;
}

} // namespace diskbench::client
