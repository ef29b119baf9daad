// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sdbus-c++/IObject.h>

namespace diskbench::service {

// For destructors of published objects: signals InterfacesRemoved and
// unregisters. Sending fails once the bus connection is gone (bus restart,
// shutdown), and a destructor must not throw, so the failure is only logged.
void withdraw_object(sdbus::IObject& object, const char* interface_name) noexcept;

} // namespace diskbench::service
