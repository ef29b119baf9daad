// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"
#include "../system/drive_temperature.hpp"
#include "blocking_probes.hpp"
#include "diskbench-adaptor.h"

#include "contract/bus_names.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace diskbench::service {

// /org/diskbench/DiskBench1/devices/NAME: publishes one block device's facts.
// Announces itself on the ObjectManager when made and withdraws when
// destroyed.
class DeviceObject final
    : public sdbus::AdaptorInterfaces<org::diskbench::DiskBench1::Device_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    static constexpr const char* interface_name = contract::bus::device_interface;

    DeviceObject(sdbus::IConnection& connection, std::string object_path, system::DeviceFacts facts,
                 BlockingProbes& probes);
    ~DeviceObject();

    [[nodiscard]] const system::DeviceFacts& facts() const noexcept { return facts_; }
    // Takes new facts and signals the properties that changed.
    void update(const system::DeviceFacts& facts);
    void set_job(const std::string& job_path);
    [[nodiscard]] const std::string& job() const noexcept { return job_; }

    // The drive's temperature for a job (which samples it about once a
    // second while it runs): the hwmon sensor's last answer when there is
    // one, else udisks' SMART value, and a new read of the sensor asked
    // for. Updates Temperature, signalled at most every
    // `temperature_interval`. Bus thread; never waits for the sensor.
    system::TemperatureReading read_temperature();
    static constexpr std::chrono::seconds temperature_interval { 5 };
    // A sensor read that has not answered by then counts as no reading
    // (udisks' SMART value, if any, stands in).
    static constexpr std::chrono::seconds sensor_deadline { 2 };

    // Object path element for a kernel device name: [A-Za-z0-9] kept, the
    // rest escaped as _XX (hex), as udisks does.
    static std::string path_element(const std::string& name);

private:
    std::string Node() override { return facts_.node; }
    std::string Name() override { return facts_.name; }
    std::string DeviceKind() override { return facts_.kind; }
    std::string Model() override { return facts_.model; }
    std::string Vendor() override { return facts_.vendor; }
    std::string Serial() override { return facts_.serial; }
    std::string ById() override { return facts_.by_id; }
    std::string WWN() override { return facts_.wwn; }
    std::string Revision() override { return facts_.revision; }
    uint64_t Size() override { return facts_.size; }
    uint32_t LogicalBlockSize() override { return facts_.queue.logical_block_size; }
    uint32_t PhysicalBlockSize() override { return facts_.queue.physical_block_size; }
    bool Rotational() override { return facts_.queue.rotational; }
    int32_t RotationRate() override { return facts_.rotation_rate; }
    bool Removable() override { return facts_.removable; }
    std::string ConnectionBus() override { return facts_.connection_bus; }
    bool Mounted() override { return facts_.mounted; }
    bool InUse() override { return facts_.in_use(); }
    bool SystemDisk() override { return facts_.system_disk; }
    std::string EraseConfirmation() override;
    std::string Scheduler() override { return facts_.queue.scheduler; }
    uint32_t MaxSectorsKiB() override { return facts_.queue.max_sectors_kib; }
    std::string WriteCache() override { return facts_.queue.write_cache; }
    sdbus::ObjectPath UDisksBlock() override { return sdbus::ObjectPath(facts_.udisks_block); }
    sdbus::ObjectPath UDisksDrive() override { return sdbus::ObjectPath(facts_.udisks_drive); }
    sdbus::ObjectPath Job() override { return sdbus::ObjectPath(job_); }
    std::string Link() override { return facts_.layers.link; }
    double LinkLimit() override { return facts_.layers.link_limit_mb_s; }
    std::vector<std::string> Stack() override { return facts_.layers.stack; }
    std::map<std::string, sdbus::Variant> Health() override;
    double Temperature() override { return temperature().celsius; }
    std::string TemperatureSource() override { return temperature().source; }

    // The last reading; a new one is asked for when it is older than
    // temperature_interval: sensors are read only when someone reads the
    // property (or a job runs), never by a timer of their own.
    system::TemperatureReading temperature();
    [[nodiscard]] system::TemperatureReading combined(const system::TemperatureReading& hwmon) const;
    // Asks a probe thread to read the sensor, unless one is out; a read
    // out for longer than sensor_deadline leaves no reading meanwhile.
    void ask_sensor();
    // A probe's answer: keeps it and signals Temperature when it changed
    // and the last signal is temperature_interval old.
    void take_sensor_reading(const system::TemperatureReading& reading);

    system::DeviceFacts facts_;
    system::TemperatureSensor sensor_;
    BlockingProbes& probes_;
    system::TemperatureReading hwmon_reading_;
    std::optional<std::chrono::steady_clock::time_point> hwmon_read_at_;  // the last answer
    std::optional<std::chrono::steady_clock::time_point> hwmon_asked_at_; // the last question
    // Probe answers come through the loop; they reach this object only
    // while it lives.
    std::shared_ptr<int> alive_ = std::make_shared<int>(0);
    system::TemperatureReading signalled_; // what the last PropertiesChanged told
    std::chrono::steady_clock::time_point signalled_at_ {};
    std::string job_ = "/";
};

} // namespace diskbench::service
