// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_holders.hpp"

#include "../base/errors.hpp"
#include "../base/unique_fd.hpp"
#include "../sandbox/fs_beneath.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>

namespace diskbench::engine::storage {

namespace {

std::optional<pid_t> pid_of(std::string_view name)
{
    pid_t pid = 0;
    const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (error != std::errc {} || end != name.data() + name.size() || pid <= 0)
        return std::nullopt;
    return pid;
}

std::string command_of(const std::filesystem::path& proc, pid_t pid)
{
    std::ifstream file(proc / std::to_string(pid) / "comm");
    std::string command;
    std::getline(file, command);
    // A process names itself (prctl PR_SET_NAME, 15 bytes): it reaches the
    // caller's terminal inside an error text, so only printable ASCII of it.
    for (char& c : command)
        if (c < 0x20 || c > 0x7e)
            c = '?';
    return command;
}

// Whether one of `pid`'s open files is the block device `device`.
bool holds(int proc_fd, pid_t pid, dev_t device)
{
    const std::string fd_dir = std::to_string(pid) + "/fd";
    const UniqueFd directory(::openat(proc_fd, fd_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!directory.valid())
        return false; // gone, or not ours to see
    std::vector<std::string> descriptors;
    try {
        descriptors = list_directory(directory.get());
    } catch (const Error&) {
        return false; // it ended meanwhile
    }
    for (const std::string& name : descriptors) {
        struct statx facts {};
        // Follows the magic link to the open file itself (no path is
        // resolved); DONT_SYNC: the attributes the kernel has, without
        // asking a network or FUSE filesystem for fresh ones.
        if (::statx(directory.get(), name.c_str(), AT_STATX_DONT_SYNC, STATX_TYPE, &facts) != 0)
            continue;
        if (S_ISBLK(facts.stx_mode) && ::makedev(facts.stx_rdev_major, facts.stx_rdev_minor) == device)
            return true;
    }
    return false;
}

} // namespace

std::vector<DeviceHolder> lock_holders(std::string_view locks, dev_t lock_device, ino_t inode, pid_t self)
{
    // "1: POSIX  ADVISORY  WRITE 4242 00:05:613 0 EOF"; a waiter's line has
    // "->" after the number; an OFD lock's pid is -1. The device is hex.
    std::vector<DeviceHolder> holders;
    std::istringstream lines { std::string(locks) };
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::vector<std::string> fields;
        for (std::string word; words >> word;)
            if (word != "->")
                fields.push_back(word);
        if (fields.size() < 6)
            continue;
        const std::string& place = fields[5];
        unsigned major_number = 0, minor_number = 0;
        unsigned long long inode_number = 0;
        char colon1 = 0, colon2 = 0;
        std::istringstream parts(place);
        parts >> std::hex >> major_number >> colon1 >> minor_number >> colon2 >> std::dec >> inode_number;
        if (!parts || colon1 != ':' || colon2 != ':')
            continue;
        if (::makedev(major_number, minor_number) != lock_device || inode_number != inode)
            continue;
        pid_t pid = -1;
        std::from_chars(fields[4].data(), fields[4].data() + fields[4].size(), pid);
        if (pid == self)
            continue;
        if (std::none_of(holders.begin(), holders.end(), [pid](const DeviceHolder& h) { return h.pid == pid; }))
            holders.push_back({ pid > 0 ? pid : -1, {} });
    }
    return holders;
}

std::vector<DeviceHolder> other_holders(int device_fd, const std::filesystem::path& proc)
{
    struct stat device {};
    if (::fstat(device_fd, &device) != 0 || !S_ISBLK(device.st_mode))
        return {};
    const pid_t self = ::getpid();
    std::vector<DeviceHolder> holders;
    const UniqueFd proc_fd(::open(proc.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    std::vector<std::string> processes;
    if (proc_fd.valid()) {
        try {
            processes = list_directory(proc_fd.get());
        } catch (const Error&) {
        }
    }
    for (const std::string& name : processes) {
        const std::optional<pid_t> pid = pid_of(name);
        if (pid && *pid != self && holds(proc_fd.get(), *pid, device.st_rdev))
            holders.push_back({ *pid, {} });
    }
    std::ifstream locks_file(proc / "locks");
    std::stringstream locks;
    locks << locks_file.rdbuf();
    for (DeviceHolder& locker : lock_holders(locks.str(), device.st_dev, device.st_ino, self))
        if (std::none_of(holders.begin(), holders.end(),
                         [&](const DeviceHolder& h) { return h.pid == locker.pid && h.pid != -1; }))
            holders.push_back(locker);
    for (DeviceHolder& holder : holders)
        if (holder.pid > 0)
            holder.command = command_of(proc, holder.pid);
    return holders;
}

std::string holders_text(const std::vector<DeviceHolder>& holders)
{
    std::string text;
    for (const DeviceHolder& holder : holders) {
        if (!text.empty())
            text += ", ";
        if (holder.pid < 0)
            text += "a lock without a process id (an open file description lock)";
        else if (holder.command.empty())
            text += "pid " + std::to_string(holder.pid);
        else
            text += holder.command + " (pid " + std::to_string(holder.pid) + ")";
    }
    return text;
}

} // namespace diskbench::engine::storage
