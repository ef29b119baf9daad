// SPDX-License-Identifier: GPL-3.0-or-later
#include "withdraw_object.hpp"

#include "log.hpp"

namespace diskbench::service {

void withdraw_object(sdbus::IObject& object, const char* interface_name) noexcept
{
    try {
        object.emitInterfacesRemovedSignal({ interface_name });
    } catch (const std::exception& error) {
        log_debug("cannot announce that {} went away: {}", object.getObjectPath(), error.what());
    }
    try {
        object.unregister();
    } catch (const std::exception& error) {
        log_debug("cannot unregister {}: {}", object.getObjectPath(), error.what());
    }
}

} // namespace diskbench::service
