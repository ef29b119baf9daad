// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <functional>
#include <memory>
#include <string>

namespace diskbench::service {

// Tells when a connection leaves the bus, from one match for the whole
// daemon: a match per job would let ~500 running jobs exhaust dbus-daemon's
// match rules for our connection. Only the bus driver's NameOwnerChanged
// counts; anyone can send us a forged one (system/bus_driver.hpp).
class OwnerWatch {
public:
    OwnerWatch(sdbus::IConnection& connection, std::function<void(const std::string& unique_name)> vanished);

    // Whether `unique_name` is still on the bus (asked of the bus driver);
    // true when the bus does not answer, so nothing is cancelled for that.
    [[nodiscard]] bool present(const std::string& unique_name);

private:
    std::unique_ptr<sdbus::IProxy> bus_driver_;
    std::function<void(const std::string&)> vanished_;
    sdbus::Slot match_;
};

} // namespace diskbench::service
