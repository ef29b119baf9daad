// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Owning handles for libudev's reference-counted objects.

#include <libudev.h>

#include <memory>

namespace diskbench::system {

struct UdevUnref {
    void operator()(udev* u) const noexcept { udev_unref(u); }
};
struct UdevDeviceUnref {
    void operator()(udev_device* d) const noexcept { udev_device_unref(d); }
};
using UdevContext = std::unique_ptr<udev, UdevUnref>;
using UdevDevice = std::unique_ptr<udev_device, UdevDeviceUnref>;

} // namespace diskbench::system
