// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

#include <vector>

namespace diskbench::engine {

// Who a filesystem benchmark acts for: the caller's uid, primary gid and
// supplementary groups (the daemon reads them from the bus).
struct Credentials {
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<gid_t> groups;

    // The calling process's effective ids and groups (the CLI acts for
    // whoever runs it).
    static Credentials of_this_process();
};

// Makes the calling thread, and only it, act on filesystems as `who`:
// supplementary groups, then fsgid, then fsuid, so the kernel checks every
// later open/create/unlink of this thread (and of threads it starts, which
// inherit its credentials) with the caller's permissions and new files
// belong to the caller. For anyone but root it then drops every capability
// of the thread, because an fsuid change alone keeps CAP_SYS_RESOURCE (root's
// reserved blocks, quotas), CAP_SYS_ADMIN and the like, and forbids the
// thread any further credential change (forbid_credential_changes_on_this_
// thread: its real uid stays 0, to which an fsuid may always return); root
// keeps its own.
//
// Raw syscalls on purpose: glibc's setgroups() changes every thread of the
// process. Irreversible (the capabilities are gone): call it on a thread
// made for the purpose. Throws Error when the kernel refuses or the result
// is not what was asked.
void act_as_on_this_thread(const Credentials& who);

} // namespace diskbench::engine
