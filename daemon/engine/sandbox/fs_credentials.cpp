// SPDX-License-Identifier: GPL-3.0-or-later
#include "fs_credentials.hpp"

#include "../base/errors.hpp"
#include "credential_lock.hpp"

#include <grp.h>
#include <linux/capability.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

std::vector<gid_t> thread_groups()
{
    const int count = ::getgroups(0, nullptr);
    if (count < 0)
        throw Error(fmt::format("getgroups failed: {}", std::strerror(errno)));
    std::vector<gid_t> groups(static_cast<std::size_t>(count));
    if (::getgroups(count, groups.data()) != count)
        throw Error(fmt::format("getgroups failed: {}", std::strerror(errno)));
    std::sort(groups.begin(), groups.end());
    return groups;
}

void set_groups(std::vector<gid_t> wanted)
{
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    // Unprivileged callers (the CLI run by a user) may not call setgroups
    // at all, even to set what they have.
    if (thread_groups() == wanted)
        return;
    if (::syscall(SYS_setgroups, wanted.size(), wanted.data()) != 0)
        throw Error(fmt::format("cannot take on the caller's groups: {}", std::strerror(errno)));
    if (thread_groups() != wanted)
        throw Error("the caller's groups did not take effect");
}

void drop_all_capabilities()
{
    __user_cap_header_struct header {};
    header.version = _LINUX_CAPABILITY_VERSION_3;
    header.pid = 0; // this thread
    __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] {};
    if (::syscall(SYS_capset, &header, data) != 0)
        throw Error(fmt::format("cannot drop capabilities: {}", std::strerror(errno)));
}

} // namespace

Credentials Credentials::of_this_process()
{
    Credentials who;
    who.uid = ::geteuid();
    who.gid = ::getegid();
    who.groups = thread_groups();
    return who;
}

void act_as_on_this_thread(const Credentials& who)
{
    set_groups(who.groups);
    // setfs[ug]id() return the previous value whether or not they succeeded;
    // an invalid id (-1) changes nothing and reads the current one.
    ::setfsgid(who.gid);
    if (static_cast<gid_t>(::setfsgid(static_cast<gid_t>(-1))) != who.gid)
        throw Error(fmt::format("cannot act as group {} (not permitted)", who.gid));
    ::setfsuid(who.uid);
    if (static_cast<uid_t>(::setfsuid(static_cast<uid_t>(-1))) != who.uid)
        throw Error(fmt::format("cannot act as user {} (not permitted)", who.uid));
    if (who.uid != 0) {
        drop_all_capabilities();
        forbid_credential_changes_on_this_thread();
    }
}

} // namespace diskbench::engine
