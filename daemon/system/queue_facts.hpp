// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "device_facts.hpp"

#include <sys/types.h>

namespace diskbench::system {

// Reads the queue facts of block device `device_number` through libudev
// (sysfs attributes the kernel keeps in memory: nothing here waits on a
// device or a filesystem). A partition reports its disk's queue. Missing attributes keep the
// defaults of QueueFacts; a device libudev does not know gives all defaults.
QueueFacts read_queue_facts(dev_t device_number);

// The link and layers of block device `device_number` (LayerFacts). May
// wait without bound: a loop device's driver stats its backing file, which
// waits as long as that file's filesystem does. Probe threads only.
LayerFacts read_layer_facts(dev_t device_number);

// "mq-deadline kyber [none]" -> "none"; a single word stays as it is.
std::string active_scheduler(const std::string& sysfs_value);

} // namespace diskbench::system
