// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace diskbench::client {

// A folder opened by the client itself (O_RDONLY | O_DIRECTORY | O_CLOEXEC):
// filesystem benchmarks get this descriptor, never a path. Closed on
// destruction; move-only.
class DirectoryFd {
public:
    DirectoryFd() = default;
    explicit DirectoryFd(int fd) noexcept : fd_(fd) {}
    ~DirectoryFd();
    DirectoryFd(DirectoryFd&& other) noexcept : fd_(other.release()) {}
    DirectoryFd& operator=(DirectoryFd&& other) noexcept;
    DirectoryFd(const DirectoryFd&) = delete;
    DirectoryFd& operator=(const DirectoryFd&) = delete;

    [[nodiscard]] int get() const noexcept { return fd_; }
    [[nodiscard]] explicit operator bool() const noexcept { return fd_ >= 0; }
    int release() noexcept;

private:
    int fd_ = -1;
};

// Opens `path` as a folder; on failure an invalid DirectoryFd and a
// translated `error` ("Not a folder", the system's words).
DirectoryFd open_directory(const std::string& path, std::string& error);

// What the sidebar and messages call the folder: its name for display
// ("Music"), "/" for the root.
std::string folder_display_name(const std::string& path);

} // namespace diskbench::client
