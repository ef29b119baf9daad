// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_safety.hpp"

#include "bus_errors.hpp"
#include "log.hpp"

#include "contract/confirmation.hpp"
#include "contract/display_text.hpp"

namespace diskbench::service {

using contract::without_blanks_around;

std::string erase_confirmation(const system::DeviceFacts& facts)
{
    const std::string_view serial = without_blanks_around(facts.serial);
    return std::string(serial.empty() ? std::string_view(facts.node) : serial);
}

bool erases(const engine::ValueMap& parameters)
{
    const auto mode = parameters.find("mode");
    return mode != parameters.end() && std::holds_alternative<std::string>(mode->second)
        && std::get<std::string>(mode->second) == "destroy";
}

void check_writable(const system::DeviceFacts& facts, const engine::ValueMap& parameters,
                    const system::SystemPlaces& system_places)
{
    if (facts.mounted)
        throw make_error(ErrorCode::DeviceBusy, { "error-write-mounted", { { "device", facts.node } } });
    if (facts.in_use())
        throw make_error(ErrorCode::DeviceBusy, { "error-write-in-use", { { "device", facts.node } } });
    // Fails closed: a device whose disk sysfs cannot name is not written.
    if (system::disks_under(facts.device_number).empty())
        throw make_error(ErrorCode::Failed, { "error-write-disk-unknown", { { "device", facts.node } } });
    const system::SystemDisks system_disks = system::system_disks(system_places);
    if (!system_disks.unknown.empty())
        throw make_error(ErrorCode::DeviceBusy,
                         { "error-write-system-disks-unknown", { { "reason", system_disks.unknown } } });
    if (system_disks.disks.empty())
        log_warning("no disk found under / and the other system mount points (overlay?): only the exclusive "
                    "open protects them from raw writes");
    if (system_disks.may_hold(facts.device_number))
        throw make_error(ErrorCode::DeviceBusy, { "error-write-system-disk", { { "device", facts.node } } });
    const auto confirm = parameters.find("confirm");
    if (erases(parameters)
        && (confirm == parameters.end() || !std::holds_alternative<std::string>(confirm->second)
            || !contract::confirmation_matches(std::get<std::string>(confirm->second), erase_confirmation(facts))))
        throw make_error(ErrorCode::InvalidArgument, "confirm",
                         { without_blanks_around(facts.serial).empty() ? "error-confirm-node" : "error-confirm-serial",
                           { { "device", facts.node } } });
}

// What polkit's prompt says of the device: udisks' model and serial are
// the drive's own bytes (a USB stick may carry terminal escapes in them,
// and a text agent prints the prompt), so they are shown escaped.
std::string device_label(const system::DeviceFacts& facts)
{
    std::string model = facts.vendor.empty() ? facts.model : facts.vendor + " " + facts.model;
    while (!model.empty() && model.back() == ' ')
        model.pop_back();
    const std::string serial(without_blanks_around(facts.serial));
    if (model.empty())
        return facts.node;
    return contract::display_text(model + (serial.empty() ? "" : ", serial " + serial), contract::Controls::C0AndC1)
        + " (" + facts.node + ")";
}

} // namespace diskbench::service
