// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "device_facts.hpp"

#include "contract/messages.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace diskbench::system {

// Why `now` is not the device that `asked` described (an error-reason-*
// failure, a refusal's {detail}), or nothing when it is the same one: same udisks object, device number, size, serial, WWN and disk
// sequence number. A node and a Device object path are only names; while
// polkit asks someone for a password, another disk can take them over (a
// USB stick swapped, a loop device re-attached to another file).
std::optional<contract::Message> identity_change(const DeviceFacts& asked, const DeviceFacts& now);

// The disk sequence number of an open block device (BLKGETDISKSEQ; for a
// partition, its disk's), or nothing when the kernel does not have them.
std::optional<std::uint64_t> disk_sequence_of(int fd);

} // namespace diskbench::system
