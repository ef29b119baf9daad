// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the filesystem scope and benchmark tests: the caller they act
// for (nobody, so the kernel's checks really are a user's), and small
// helpers around directories.

#include "base/unique_fd.hpp"
#include "sandbox/fs_credentials.hpp"
#include "sandbox/scratch_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace diskbench::testing {

inline constexpr uid_t caller_uid = 65534; // nobody
inline constexpr gid_t caller_gid = 65534; // nogroup

inline engine::Credentials test_caller()
{
    return { caller_uid, caller_gid, {} };
}

inline engine::UniqueFd open_directory(const std::filesystem::path& path)
{
    engine::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid())
        throw std::runtime_error("cannot open " + path.string());
    return fd;
}

// The entries of `dir` that look like scratch directories.
inline std::vector<std::string> scratch_entries(const std::filesystem::path& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(engine::scratch_prefix))
            names.push_back(name);
    }
    return names;
}

inline std::uint64_t free_bytes(const std::filesystem::path& path)
{
    struct statvfs st {};
    if (::statvfs(path.c_str(), &st) != 0)
        throw std::runtime_error("statvfs " + path.string());
    return static_cast<std::uint64_t>(st.f_bfree) * st.f_frsize;
}

} // namespace diskbench::testing
