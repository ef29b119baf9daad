// SPDX-License-Identifier: GPL-3.0-or-later
// DaemonClient: the daemon, its devices and benchmark kinds, its objects
// coming and going. Jobs and their samples: daemon_client_jobs.cpp.
#include "bus/daemon_client.hpp"

#include "bus/daemon_client_internal.hpp"
#include "bus/object_properties.hpp"
#include "bus/variant_values.hpp"

#include <glib.h>

#include <algorithm>

namespace diskbench::client {

DaemonClient::DaemonClient()
    : connection_(sdbus::createSystemBusConnection())
{
    source_ = std::make_unique<BusSource>(*connection_, [this] { daemon_gone(); });
    root_ = std::make_unique<RootProxy>(*connection_, *this);
    // One match per kind of signal for all objects, instead of a proxy (and
    // a synchronous AddMatch round trip) per job. The bus delivers unicast
    // signals from anyone and sd-bus does not compare a well-known sender
    // name with the real one, so every handler checks the sender itself.
    const std::string sender = std::string("sender='") + bus::name + "',";
    auto watch = [this](const std::string& rule, void (DaemonClient::*handler)(sdbus::Message&)) {
        matches_.push_back(connection_->addMatch(rule, [this, handler](sdbus::Message& message) {
            guarded("a signal", [&] {
                if (from_daemon(message))
                    (this->*handler)(message);
            });
        }));
    };
    watch("type='signal'," + sender + "interface='org.freedesktop.DBus.ObjectManager',path='" + bus::root_path + "'",
          &DaemonClient::on_object_manager_signal);
    watch("type='signal'," + sender + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='"
              + bus::root_path + "'",
          &DaemonClient::on_properties_changed);
    watch("type='signal'," + sender + "interface='" + bus::job_interface + "'", &DaemonClient::on_job_signal);
    matches_.push_back(connection_->addMatch(
        std::string("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='")
            + bus::name + "'",
        [this](sdbus::Message& message) {
            guarded("NameOwnerChanged", [&] {
                // Only the bus itself may say who owns the name.
                if (message.getSender() == "org.freedesktop.DBus")
                    on_name_owner_changed(message);
            });
        }));
    bus_proxy_ = sdbus::createProxy(*connection_, "org.freedesktop.DBus", "/org/freedesktop/DBus");
    bus_proxy_->callMethodAsync("GetNameOwner")
        .onInterface("org.freedesktop.DBus")
        .withArguments(std::string(bus::name))
        .uponReplyInvoke([this](const sdbus::Error* error, const std::string& owner) {
            // Not running yet: GetManagedObjects below starts it, and
            // NameOwnerChanged says who it is.
            if (!error && daemon_owner_.empty())
                daemon_owner_ = owner;
        });
    refresh();
}

DaemonClient::~DaemonClient()
{
    // Proxies and matches go before the source and the connection.
    job_proxies_.clear();
    matches_.clear();
    bus_proxy_.reset();
    root_.reset();
    source_.reset();
}

void DaemonClient::add_observer(Observer* observer)
{
    observers_.push_back(observer);
}

void DaemonClient::remove_observer(Observer* observer)
{
    std::erase(observers_, observer);
}

bool DaemonClient::from_daemon(const sdbus::Message& message) const
{
    return !daemon_owner_.empty() && message.getSender() == daemon_owner_;
}

void DaemonClient::daemon_gone()
{
    std::vector<std::string> gone;
    for (const auto& [path, job] : jobs_)
        gone.push_back(path);
    for (const std::string& path : gone)
        remove_interfaces(path, { bus::job_interface });
    daemon_running_ = false;
    daemon_owner_.clear();
    notify([](Observer& o) { o.daemon_availability_changed(false); });
}

// (A message of another shape throws while being read; guarded() drops it.)
void DaemonClient::on_object_manager_signal(sdbus::Message& message)
{
    if (message.getMemberName() == "InterfacesAdded") {
        sdbus::ObjectPath path;
        std::map<std::string, PropertyMap> interfaces;
        message >> path >> interfaces;
        add_interfaces(path, interfaces);
    } else if (message.getMemberName() == "InterfacesRemoved") {
        sdbus::ObjectPath path;
        std::vector<std::string> interfaces;
        message >> path >> interfaces;
        remove_interfaces(path, interfaces);
    }
}

const BenchmarkInfo* DaemonClient::benchmark(const std::string& kind) const
{
    for (const BenchmarkInfo& info : benchmarks_)
        if (info.kind == kind)
            return &info;
    return nullptr;
}

const DeviceEntry* DaemonClient::device(const std::string& path) const
{
    const auto found = devices_.find(path);
    return found == devices_.end() ? nullptr : &found->second;
}

const DeviceEntry* DaemonClient::device_by_node(const std::string& node) const
{
    for (const auto& [path, device] : devices_)
        if (device.node == node)
            return &device;
    return nullptr;
}

const JobEntry* DaemonClient::job(const std::string& path) const
{
    const auto found = jobs_.find(path);
    return found == jobs_.end() ? nullptr : &found->second;
}

void DaemonClient::refresh()
{
    // First: the daemon answers in order, so this is known before the
    // devices are, and so before anything can be started on one.
    load_features();
    load_objects();
    load_benchmarks();
}

void DaemonClient::load_features()
{
    root_->proxy()
        .callMethodAsync("Get")
        .onInterface("org.freedesktop.DBus.Properties")
        .withArguments(std::string(bus::manager_interface), std::string("Features"))
        .uponReplyInvoke([this](const sdbus::Error* error, const sdbus::Variant& value) {
            using Features = std::vector<std::string>;
            // An older daemon has no such property: an error, and no features.
            failure_data_ = false;
            if (!error && value.containsValueOfType<Features>()) {
                const Features features = value.get<Features>();
                failure_data_ = std::find(features.begin(), features.end(), bus::failure_data_feature) != features.end();
            }
        });
}

void DaemonClient::load_objects()
{
    root_->proxy()
        .callMethodAsync("GetManagedObjects")
        .onInterface("org.freedesktop.DBus.ObjectManager")
        .uponReplyInvoke([this](const sdbus::Error* error, const ObjectMap& objects) {
            if (error) {
                g_message("cannot list the daemon's objects: %s", error->what());
                daemon_running_ = false;
                notify([](Observer& o) { o.daemon_availability_changed(false); });
                return;
            }
            apply_objects(objects);
            if (!daemon_running_) {
                daemon_running_ = true;
                notify([](Observer& o) { o.daemon_availability_changed(true); });
            }
        });
}

void DaemonClient::load_benchmarks()
{
    root_->ListBenchmarks(); // replies to benchmarks_listed() (RootProxy)
    root_->proxy()
        .callMethodAsync("Get")
        .onInterface("org.freedesktop.DBus.Properties")
        .withArguments(std::string(bus::manager_interface), std::string("Version"))
        .uponReplyInvoke([this](const sdbus::Error* error, const sdbus::Variant& value) {
            if (!error && value.containsValueOfType<std::string>())
                version_ = value.get<std::string>();
        });

}

void DaemonClient::benchmarks_listed(const sdbus_types::BenchmarkList& kinds)
{
    benchmarks_.clear();
    for (const auto& kind : kinds) {
        BenchmarkInfo info { kind.get<0>(), kind.get<1>(), kind.get<2>(), kind.get<3>(), {} };
        for (const auto& parameter : kind.get<4>()) {
            ParameterInfo p { parameter.get<0>(), parameter.get<1>(), parameter.get<2>(), {} };
            if (auto value = saved_value_from_variant(parameter.get<3>()))
                p.default_value = *value;
            info.parameters.push_back(std::move(p));
        }
        benchmarks_.push_back(std::move(info));
    }
    notify([](Observer& o) { o.benchmarks_changed(); });
    load_parameter_choices();
}

void DaemonClient::load_parameter_choices()
{
    root_->ListParameterChoices(); // replies to parameter_choices_listed()
    load_parameter_ranges();
}

void DaemonClient::parameter_choices_listed(const sdbus_types::ChoiceList& choices)
{
    for (const auto& entry : choices)
        for (BenchmarkInfo& info : benchmarks_) {
            if (info.kind != entry.get<0>())
                continue;
            for (ParameterInfo& parameter : info.parameters) {
                if (parameter.key != entry.get<1>())
                    continue;
                parameter.unit = entry.get<2>();
                parameter.exclusive = entry.get<3>();
                parameter.choices.clear();
                for (const sdbus::Variant& value : entry.get<4>())
                    if (auto saved = saved_value_from_variant(value))
                        parameter.choices.push_back(*saved);
            }
        }
    notify([](Observer& o) { o.benchmarks_changed(); });
}

void DaemonClient::load_parameter_ranges()
{
    root_->ListParameterRanges(); // replies to parameter_ranges_listed()
}

void DaemonClient::parameter_ranges_listed(const sdbus_types::RangeList& ranges)
{
    auto number = [](const sdbus::Variant& value) -> std::optional<double> {
        if (value.containsValueOfType<std::uint64_t>())
            return static_cast<double>(value.get<std::uint64_t>());
        if (value.containsValueOfType<double>())
            return value.get<double>();
        return std::nullopt;
    };
    for (const auto& entry : ranges)
        for (BenchmarkInfo& info : benchmarks_) {
            if (info.kind != entry.get<0>())
                continue;
            for (ParameterInfo& parameter : info.parameters) {
                const auto minimum = number(entry.get<2>()), maximum = number(entry.get<3>());
                if (parameter.key != entry.get<1>() || !minimum || !maximum)
                    continue;
                parameter.ranged = true;
                parameter.minimum = *minimum;
                parameter.maximum = *maximum;
            }
        }
    notify([](Observer& o) { o.benchmarks_changed(); });
}

void DaemonClient::apply_objects(const ObjectMap& objects)
{
    std::map<std::string, DeviceEntry> devices;
    std::vector<std::string> seen_jobs;
    for (const auto& [path, interfaces] : objects) {
        if (const auto device = interfaces.find(bus::device_interface); device != interfaces.end()) {
            DeviceEntry entry;
            entry.path = path;
            apply_device_properties(entry, device->second);
            devices.emplace(path, std::move(entry));
        }
        if (interfaces.count(bus::job_interface)) {
            seen_jobs.push_back(path);
            add_interfaces(path, { { bus::job_interface, interfaces.at(bus::job_interface) } });
        }
    }
    devices_ = std::move(devices);
    devices_listed_ = true;
    std::vector<std::string> gone;
    for (const auto& [path, job] : jobs_)
        if (std::find(seen_jobs.begin(), seen_jobs.end(), path) == seen_jobs.end())
            gone.push_back(path);
    for (const std::string& path : gone)
        remove_interfaces(path, { bus::job_interface });
    notify([](Observer& o) { o.devices_changed(); });
}

void DaemonClient::add_interfaces(const std::string& path, const std::map<std::string, PropertyMap>& interfaces)
{
    if (const auto device = interfaces.find(bus::device_interface); device != interfaces.end()) {
        DeviceEntry& entry = devices_[path];
        entry.path = path;
        apply_device_properties(entry, device->second);
        notify([](Observer& o) { o.devices_changed(); });
    }
    if (const auto job = interfaces.find(bus::job_interface); job != interfaces.end()) {
        const bool is_new = !jobs_.count(path);
        JobEntry& entry = jobs_[path];
        entry.path = path;
        apply_job_properties(entry, job->second);
        if (is_new) {
            job_proxies_[path] = sdbus::createProxy(*connection_, bus::name, path);
            streams_[path] = SampleStream();
            request_samples(entry);
            if (entry.in_directory() && entry.target.empty())
                request_target(entry);
        }
        if (entry.ended())
            streams_[path].end(entry.points);
        notify([&entry](Observer& o) { o.job_changed(entry); });
    }
}

void DaemonClient::remove_interfaces(const std::string& path, const std::vector<std::string>& interfaces)
{
    for (const std::string& name : interfaces) {
        if (name == bus::device_interface && devices_.erase(path))
            notify([](Observer& o) { o.devices_changed(); });
        if (name == bus::job_interface && jobs_.count(path)) {
            // Observers get the job as it was (a page keeps showing its
            // result); it is out of the table already.
            auto node = jobs_.extract(path);
            job_proxies_.erase(path);
            streams_.erase(path);
            const JobEntry& job = node.mapped();
            notify([&job](Observer& o) { o.job_removed(job); });
        }
    }
}

void DaemonClient::on_properties_changed(sdbus::Message& message)
{
    std::string interface;
    PropertyMap changed;
    std::vector<std::string> invalidated;
    message >> interface >> changed >> invalidated;
    const std::string path = message.getPath();
    if (interface == bus::device_interface) {
        if (const auto found = devices_.find(path); found != devices_.end()) {
            apply_device_properties(found->second, changed);
            notify([](Observer& o) { o.devices_changed(); });
        }
    } else if (interface == bus::job_interface) {
        if (const auto found = jobs_.find(path); found != jobs_.end()) {
            JobEntry& job = found->second;
            apply_job_properties(job, changed);
            if (job.ended())
                streams_[path].end(job.points);
            notify([&job](Observer& o) { o.job_changed(job); });
        }
    }
}

void DaemonClient::on_name_owner_changed(sdbus::Message& message)
{
    std::string name, old_owner, new_owner;
    message >> name >> old_owner >> new_owner;
    if (name != bus::name)
        return;
    daemon_owner_ = new_owner;
    if (new_owner.empty()) {
        // The daemon exited (idle) or crashed: its jobs are gone; its
        // devices are still there and come back when it is started again.
        daemon_gone();
    } else {
        load_objects();
    }
}

} // namespace diskbench::client
