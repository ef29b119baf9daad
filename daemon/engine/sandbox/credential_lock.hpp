// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace diskbench::engine {

// Makes the calling thread (and threads it starts later) unable to change
// its credentials again: a seccomp filter makes setuid/setgid and their
// fs/re/res variants, setgroups and capset fail with EPERM, and no new
// privileges can come from exec.
//
// Why: a thread acting for a caller (act_as_on_this_thread) keeps real and
// effective uid 0, and the kernel lets any thread set its fsuid back to its
// real uid without a capability. Nothing we run there would do that; the
// filter makes sure a bug cannot, either. Per thread on purpose (no TSYNC):
// the rest of the daemon keeps its rights. The filter is ten comparisons of
// classic BPF, written out rather than adding libseccomp as a dependency
// for them. Throws Error when the kernel refuses the filter.
void forbid_credential_changes_on_this_thread();

} // namespace diskbench::engine
