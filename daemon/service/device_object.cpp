// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_object.hpp"

#include "device_info.hpp"

#include "withdraw_object.hpp"
#include "write_safety.hpp"

#include <fmt/format.h>

namespace diskbench::service {

DeviceObject::DeviceObject(sdbus::IConnection& connection, std::string object_path, system::DeviceFacts facts,
                           BlockingProbes& probes)
    : AdaptorInterfaces(connection, std::move(object_path))
    , facts_(std::move(facts))
    , sensor_(system::find_hwmon_sensor(facts_.name))
    , probes_(probes)
{
    registerAdaptor();
    emitInterfacesAddedSignal({ interface_name });
    signalled_ = temperature(); // what InterfacesAdded carried
    signalled_at_ = std::chrono::steady_clock::now();
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
    compare(old.by_id != facts_.by_id, "ById");
    compare(old.wwn != facts_.wwn, "WWN");
    compare(old.revision != facts_.revision, "Revision");
    compare(old.size != facts_.size, "Size");
    compare(old.queue.logical_block_size != facts_.queue.logical_block_size, "LogicalBlockSize");
    compare(old.queue.physical_block_size != facts_.queue.physical_block_size, "PhysicalBlockSize");
    compare(old.queue.rotational != facts_.queue.rotational, "Rotational");
    compare(old.rotation_rate != facts_.rotation_rate, "RotationRate");
    compare(old.removable != facts_.removable, "Removable");
    compare(old.smart != facts_.smart, "Health");
    compare(old.connection_bus != facts_.connection_bus, "ConnectionBus");
    compare(old.mounted != facts_.mounted, "Mounted");
    compare(old.in_use() != facts_.in_use(), "InUse");
    compare(old.system_disk != facts_.system_disk, "SystemDisk");
    compare(old.queue.scheduler != facts_.queue.scheduler, "Scheduler");
    compare(old.queue.max_sectors_kib != facts_.queue.max_sectors_kib, "MaxSectorsKiB");
    compare(old.queue.write_cache != facts_.queue.write_cache, "WriteCache");
    compare(old.udisks_block != facts_.udisks_block, "UDisksBlock");
    compare(old.udisks_drive != facts_.udisks_drive, "UDisksDrive");
    compare(old.layers.link != facts_.layers.link, "Link");
    compare(old.layers.link_limit_mb_s != facts_.layers.link_limit_mb_s, "LinkLimit");
    compare(old.layers.stack != facts_.layers.stack, "Stack");
    // A few stat calls in sysfs (kernel memory; the sensor itself is read
    // on a probe thread): drivetemp may have been loaded since, or the
    // name may be another disk's now.
    sensor_ = system::find_hwmon_sensor(facts_.name);
    if (old.smart_temperature_kelvin != facts_.smart_temperature_kelvin
        || old.smart.temperature_celsius != facts_.smart.temperature_celsius || old.name != facts_.name) {
        if (old.name != facts_.name) {
            hwmon_reading_ = {};
            hwmon_read_at_.reset();
        }
        const system::TemperatureReading now = temperature();
        if (now != signalled_) {
            compare(now.celsius != signalled_.celsius, "Temperature");
            compare(now.source != signalled_.source, "TemperatureSource");
            signalled_ = now;
            signalled_at_ = std::chrono::steady_clock::now();
        }
    }
    if (!changed.empty())
        emitPropertiesChangedSignal(interface_name, changed);
}

std::map<std::string, sdbus::Variant> DeviceObject::Health()
{
    return health_info(facts_.smart);
}

std::string DeviceObject::EraseConfirmation()
{
    return erase_confirmation(facts_);
}

system::TemperatureReading DeviceObject::combined(const system::TemperatureReading& hwmon) const
{
    if (hwmon.known())
        return hwmon;
    if (facts_.smart_temperature_kelvin > 0)
        return system::reading_from_smart(facts_.smart_temperature_kelvin);
    return system::reading_from_own_smart(facts_.smart.temperature_celsius);
}

system::TemperatureReading DeviceObject::temperature()
{
    const auto now = std::chrono::steady_clock::now();
    if (!hwmon_read_at_ || now - *hwmon_read_at_ >= temperature_interval)
        ask_sensor();
    return combined(hwmon_reading_);
}

system::TemperatureReading DeviceObject::read_temperature()
{
    ask_sensor();
    return combined(hwmon_reading_);
}

void DeviceObject::ask_sensor()
{
    if (sensor_.source.empty()) {
        hwmon_reading_ = {};
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    const std::string key = "sensor " + facts_.name;
    if (probes_.out(key)) {
        if (hwmon_asked_at_ && now - *hwmon_asked_at_ >= sensor_deadline)
            hwmon_reading_ = {};
        return;
    }
    hwmon_asked_at_ = now;
    probes_.start(key, [sensor = sensor_, alive = std::weak_ptr<int>(alive_), this]() -> BlockingProbes::Answer {
        const system::TemperatureReading reading = system::read_hwmon_sensor(sensor);
        return [alive, this, sensor, reading] {
            if (alive.lock() && sensor_.directory == sensor.directory)
                take_sensor_reading(reading);
        };
    });
}

void DeviceObject::take_sensor_reading(const system::TemperatureReading& reading)
{
    const auto now = std::chrono::steady_clock::now();
    // The sensor's first answer is signalled at once: what InterfacesAdded
    // carried was only the SMART value (or nothing), not a reading.
    const bool first = !hwmon_read_at_;
    hwmon_reading_ = reading;
    hwmon_read_at_ = now;
    const system::TemperatureReading combined_reading = combined(hwmon_reading_);
    if ((first || now - signalled_at_ >= temperature_interval) && combined_reading != signalled_) {
        std::vector<std::string> changed;
        if (combined_reading.celsius != signalled_.celsius)
            changed.emplace_back("Temperature");
        if (combined_reading.source != signalled_.source)
            changed.emplace_back("TemperatureSource");
        signalled_ = combined_reading;
        signalled_at_ = now;
        if (!changed.empty())
            emitPropertiesChangedSignal(interface_name, changed);
    }
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
