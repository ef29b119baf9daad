// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rules a raw write must pass besides polkit: what makes a device safe
// to write, and how its owner confirms erasing it.

#include "../engine/parameters/value.hpp"
#include "../system/device_facts.hpp"
#include "../system/system_disks.hpp"

#include <string>

namespace diskbench::service {

// The word that confirms destroying a device's data (published as
// Device.EraseConfirmation): its serial, which tells two drives of a model
// apart, or its node when it has none (loop devices, some USB bridges).
// Blanks around a serial (some drives pad it, and udisks passes that on)
// are neither required nor refused.
std::string erase_confirmation(const system::DeviceFacts& facts);

// Throws DeviceBusy, Failed or InvalidArgument unless a raw write may run:
// nothing of the device in use (udisks' view: mounted filesystems, holders
// such as RAID, LVM or dm-crypt, swap), not on a disk the running system is
// on (not even an unmounted partition of it; and nowhere while the system's
// disks cannot all be told), and for mode=destroy the device named in
// `confirm`. The exclusive open after authorization is the kernel's final
// word.
void check_writable(const system::DeviceFacts& facts, const engine::ValueMap& parameters,
                    const system::SystemPlaces& system_places);

// Whether the parameters ask to erase the data (mode=destroy).
bool erases(const engine::ValueMap& parameters);

// How polkit's dialog names a device ("$(device)" in the policy's
// messages): the model tells the user which disk, the serial and node which
// one of two alike.
std::string device_label(const system::DeviceFacts& facts);

} // namespace diskbench::service
