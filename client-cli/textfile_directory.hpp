// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/folder.hpp"

#include <string>

// The directory root publishes the scheduled runs' metrics into
// (metrics_publish.hpp; Debian: /var/lib/prometheus/node-exporter). Root
// writes there a file with content another user chose, so the directory
// must be one nobody but root can have put at that path or change.
//
// Debian's prometheus-node-exporter makes /var/lib/prometheus belong to the
// `prometheus` user while node-exporter/ in it stays root:root 0755. The
// rule, from "/" down, every component opened relative to the one before
// (openat2 with RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, O_NOFOLLOW), so
// what is checked is what is written into:
//  - no component is a symbolic link (refused, never followed), and none is
//    "." or "..";
//  - the textfile directory itself belongs to the publishing user (root in
//    diskbench-scheduled.service) and is not writable by its group or
//    others (mode bits; with POSIX ACLs the group bits are the mask, so no
//    ACL entry can grant writing either): nobody else can create, replace
//    or link a file in it;
//  - its parent may belong to anyone (Debian's prometheus). Whoever can
//    write the parent can rename the directories in it and make their own,
//    but their own are theirs (refused above), and moving someone else's
//    directory into the parent from elsewhere needs write permission on
//    that directory itself (its ".." changes): the only directories of
//    root's they can put at the path are those root made in that parent;
//  - every directory above the parent belongs to root (or the publishing
//    user) and is not writable by its group or others, or has the sticky
//    bit (/tmp, /var/tmp: only an entry's owner may rename it), so nobody
//    else can swap the parent or anything above it for a tree of theirs
//    holding a directory of root's that root made for something else.
// A mount over a component needs root (FUSE lets a user mount only on a
// directory of their own, and what it serves is their process's, not a
// directory of the system's).
namespace diskbench::cli {

// Opens DIRECTORY (absolute) for writing into by that rule; on refusal an
// invalid descriptor and a translated `error` naming the component.
client::DirectoryFd open_textfile_directory(const std::string& directory, std::string& error);

} // namespace diskbench::cli
