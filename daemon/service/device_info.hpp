// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"
#include "variant_conversion.hpp"

namespace diskbench::service {

// The Job.DeviceInfo map: device identity, queue facts and the kernel, taken
// when a job starts so its result can be compared with later ones.
VariantMap device_info(const system::DeviceFacts& facts);

} // namespace diskbench::service
