// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"

#include <sdbus-c++/Types.h>

#include <map>
#include <string>

namespace diskbench::client {

// An interface's properties as GetManagedObjects, InterfacesAdded and
// PropertiesChanged carry them.
using PropertyMap = std::map<std::string, sdbus::Variant>;

// Copies into the entry the properties the map has (PropertiesChanged
// carries only the changed ones); a property of an unexpected type is left
// as it was, never guessed.
void apply_device_properties(DeviceEntry& device, const PropertyMap& properties);
void apply_job_properties(JobEntry& job, const PropertyMap& properties);

} // namespace diskbench::client
