// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"
#include "variant_conversion.hpp"

namespace diskbench::service {

// The Job.DeviceInfo map: device identity, queue facts and the kernel, taken
// when a job starts so its result can be compared with later ones.
VariantMap device_info(const system::DeviceFacts& facts);
// "dm-crypt → nvme0n1p3 → nvme0n1, PCIe 3.0 x4": the stack and the link in one line.
std::string stack_line(const system::LayerFacts& layers);
// Device.Health: the SMART verdict (empty when unknown).
VariantMap health_info(const system::DeviceFacts::SmartHealth& smart);
// The SMART attribute counts under their Health names
// ("reallocated_sectors" for 5, "pending_sectors" for 197, ...).
std::map<std::string, std::int64_t> smart_count_keys(const system::SmartCounts& counts);
// An NVMe health log as Device.Health keys (without the "nvme_" of DeviceInfo).
std::map<std::string, sdbus::Variant> nvme_health_keys(const system::NvmeHealth& nvme);
// Only the system keys of device_info() (kernel, machine), for a job on no
// device of ours (a filesystem benchmark on tmpfs, NFS, ...).
VariantMap system_info();

} // namespace diskbench::service
