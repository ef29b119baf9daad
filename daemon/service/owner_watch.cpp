// SPDX-License-Identifier: GPL-3.0-or-later
#include "owner_watch.hpp"

#include "../system/bus_driver.hpp"
#include "log.hpp"

namespace diskbench::service {

OwnerWatch::OwnerWatch(sdbus::IConnection& connection, std::function<void(const std::string&)> vanished)
    : bus_driver_(sdbus::createProxy(connection, system::bus_driver_name, system::bus_driver_path))
    , vanished_(std::move(vanished))
{
    bus_driver_->finishRegistration();
    // arg2='': only names that lost their owner, which for a unique name is
    // its connection closing.
    match_ = connection.addMatch(system::name_owner_changed_rule() + ",arg2=''", [this](sdbus::Message& message) {
        try {
            const auto change = system::read_name_owner_change(message);
            if (!change) {
                log_warning("ignored a NameOwnerChanged signal that {} sent, not the bus",
                            escaped(message.getSender()));
                return;
            }
            if (change->new_owner.empty() && change->name.starts_with(':'))
                vanished_(change->name);
        } catch (const std::exception& error) { // only sdbus::Error may cross sd-bus
            log_warning("following bus names failed: {}", error.what());
        }
    });
}

bool OwnerWatch::present(const std::string& unique_name)
{
    bool has_owner = true;
    try {
        bus_driver_->callMethod("NameHasOwner")
            .onInterface("org.freedesktop.DBus")
            .withArguments(unique_name)
            .storeResultsTo(has_owner);
    } catch (const sdbus::Error& error) {
        log_warning("cannot ask the bus about {}: {}", unique_name, error.getMessage());
    }
    return has_owner;
}

} // namespace diskbench::service
