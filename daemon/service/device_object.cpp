// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_object.hpp"

#include "withdraw_object.hpp"
#include "write_safety.hpp"

#include <fmt/format.h>

namespace diskbench::service {

DeviceObject::DeviceObject(sdbus::IConnection& connection, std::string object_path, system::DeviceFacts facts)
    : AdaptorInterfaces(connection, std::move(object_path))
    , facts_(std::move(facts))
{
    registerAdaptor();
    emitInterfacesAddedSignal({ interface_name });
}

DeviceObject::~DeviceObject()
{
    withdraw_object(getObject(), interface_name);
}

void DeviceObject::update(const system::DeviceFacts& facts)
{
    const system::DeviceFacts old = std::exchange(facts_, facts);
    std::vector<std::string> changed;
    auto compare = [&](bool differs, const char* name) {
        if (differs)
            changed.emplace_back(name);
    };
    compare(old.node != facts_.node, "Node");
    compare(old.kind != facts_.kind, "DeviceKind");
    compare(old.model != facts_.model, "Model");
    compare(old.vendor != facts_.vendor, "Vendor");
    compare(old.serial != facts_.serial, "Serial");
    compare(erase_confirmation(old) != erase_confirmation(facts_), "EraseConfirmation");
    compare(old.wwn != facts_.wwn, "WWN");
    compare(old.revision != facts_.revision, "Revision");
    compare(old.size != facts_.size, "Size");
    compare(old.queue.logical_block_size != facts_.queue.logical_block_size, "LogicalBlockSize");
    compare(old.queue.physical_block_size != facts_.queue.physical_block_size, "PhysicalBlockSize");
    compare(old.queue.rotational != facts_.queue.rotational, "Rotational");
    compare(old.rotation_rate != facts_.rotation_rate, "RotationRate");
    compare(old.removable != facts_.removable, "Removable");
    compare(old.connection_bus != facts_.connection_bus, "ConnectionBus");
    compare(old.mounted != facts_.mounted, "Mounted");
    compare(old.in_use() != facts_.in_use(), "InUse");
    compare(old.system_disk != facts_.system_disk, "SystemDisk");
    compare(old.queue.scheduler != facts_.queue.scheduler, "Scheduler");
    compare(old.queue.max_sectors_kib != facts_.queue.max_sectors_kib, "MaxSectorsKiB");
    compare(old.queue.write_cache != facts_.queue.write_cache, "WriteCache");
    compare(old.udisks_block != facts_.udisks_block, "UDisksBlock");
    compare(old.udisks_drive != facts_.udisks_drive, "UDisksDrive");
    if (!changed.empty())
        emitPropertiesChangedSignal(interface_name, changed);
}

std::string DeviceObject::EraseConfirmation()
{
    return erase_confirmation(facts_);
}

void DeviceObject::set_job(const std::string& job_path)
{
    if (job_ == job_path)
        return;
    job_ = job_path;
    emitPropertiesChangedSignal(interface_name, { "Job" });
}

std::string DeviceObject::path_element(const std::string& name)
{
    std::string element;
    for (unsigned char c : name) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            element += static_cast<char>(c);
        else
            element += fmt::format("_{:02x}", c);
    }
    return element.empty() ? "_" : element;
}

} // namespace diskbench::service
