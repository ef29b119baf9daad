// SPDX-License-Identifier: GPL-3.0-or-later
#include "udisks_client.hpp"

#include "bus_driver.hpp"

#include <cstdio>

namespace diskbench::system {

namespace {
constexpr const char* udisks_name = "org.freedesktop.UDisks2";
constexpr const char* udisks_root = "/org/freedesktop/UDisks2";
constexpr const char* object_manager = "org.freedesktop.DBus.ObjectManager";

// sdbus-c++ 1.2 lets only sdbus::Error out of a signal handler safely; any
// other exception would unwind through libsystemd's C code.
template <typename Function>
void guarded(Function&& function)
{
    try {
        function();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "diskbenchd: warning: handling a udisks2 change failed: %s\n", error.what());
    }
}

std::string udisks_signal_rule(const char* interface, const char* member)
{
    // sender= narrows what the bus routes to us; it is not a check (see
    // from_udisks()).
    return std::string("type='signal',sender='") + udisks_name + "',interface='" + interface + "',member='" + member
        + "',path_namespace='" + udisks_root + "'";
}
} // namespace

UDisksClient::UDisksClient(sdbus::IConnection& connection, std::function<void()> changed)
    : connection_(connection), changed_(std::move(changed)), smart_(connection, [this] { changed_(); })
{
    manager_ = sdbus::createProxy(connection_, udisks_name, udisks_root);
    manager_->finishRegistration();
    bus_driver_ = sdbus::createProxy(connection_, bus_driver_name, bus_driver_path);
    bus_driver_->finishRegistration();

    added_match_ = connection_.addMatch(udisks_signal_rule(object_manager, "InterfacesAdded"),
                                        [this](sdbus::Message& m) { guarded([&] { on_interfaces_added(m); }); });
    removed_match_ = connection_.addMatch(udisks_signal_rule(object_manager, "InterfacesRemoved"),
                                          [this](sdbus::Message& m) { guarded([&] { on_interfaces_removed(m); }); });
    // One match for the property changes of every udisks object, instead of
    // a proxy per object.
    properties_match_
        = connection_.addMatch(udisks_signal_rule("org.freedesktop.DBus.Properties", "PropertiesChanged"),
                               [this](sdbus::Message& m) { guarded([&] { on_properties_changed(m); }); });
    owner_match_ = connection_.addMatch(name_owner_changed_rule(udisks_name),
                                        [this](sdbus::Message& m) { guarded([&] { on_owner_changed(m); }); });
}

UDisksClient::~UDisksClient() = default;

bool UDisksClient::load()
{
    // The matches are in place before the owner is asked, so no change of
    // owner can fall between the two.
    owner_ = name_owner(*bus_driver_, udisks_name);
    if (owner_.empty()) {
        std::fprintf(stderr, "diskbenchd: warning: udisksd is not on the bus; no devices until it is\n");
        return false;
    }
    try {
        ManagedObjects objects;
        manager_->callMethod("GetManagedObjects").onInterface(object_manager).storeResultsTo(objects);
        objects_ = std::move(objects);
        smart_.refresh(objects_, owner_);
        return true;
    } catch (const sdbus::Error& error) {
        std::fprintf(stderr, "diskbenchd: warning: cannot list udisks2 devices: %s\n", error.getMessage().c_str());
        return false;
    }
}

bool UDisksClient::from_udisks(const sdbus::Message& message)
{
    // The bus fills in the sender of every message: a client cannot claim
    // another's unique name.
    if (!owner_.empty() && message.getSender() == owner_)
        return true;
    // Someone is forging udisks' signals at us: worth the journal, but a
    // flood of them must not flood it.
    if (++ignored_ <= 20 || ignored_ % 1000 == 0)
        std::fprintf(stderr, "diskbenchd: warning: ignored a udisks2 signal (%s) that %s sent, not udisksd (%s)\n",
                     message.getMemberName().c_str(), message.getSender().c_str(),
                     owner_.empty() ? "not on the bus" : owner_.c_str());
    return false;
}

void UDisksClient::on_interfaces_added(sdbus::Message& message)
{
    if (!from_udisks(message))
        return;
    sdbus::ObjectPath path;
    ObjectInterfaces interfaces;
    message >> path >> interfaces;
    for (auto& [name, properties] : interfaces)
        objects_[path][name] = std::move(properties);
    objects_changed();
}

void UDisksClient::on_interfaces_removed(sdbus::Message& message)
{
    if (!from_udisks(message))
        return;
    sdbus::ObjectPath path;
    std::vector<std::string> interfaces;
    message >> path >> interfaces;
    auto object = objects_.find(path);
    if (object == objects_.end())
        return;
    for (const auto& name : interfaces)
        object->second.erase(name);
    if (object->second.empty())
        objects_.erase(object);
    objects_changed();
}

void UDisksClient::on_properties_changed(sdbus::Message& message)
{
    if (!from_udisks(message))
        return;
    std::string interface;
    InterfaceProperties changed;
    std::vector<std::string> invalidated;
    message >> interface >> changed >> invalidated;
    auto object = objects_.find(sdbus::ObjectPath(message.getPath()));
    if (object == objects_.end())
        return;
    auto& properties = object->second[interface];
    for (auto& [name, value] : changed)
        properties[name] = std::move(value);
    for (const auto& name : invalidated)
        properties.erase(name);
    objects_changed();
}

void UDisksClient::on_owner_changed(sdbus::Message& message)
{
    const auto change = read_name_owner_change(message);
    if (!change || change->name != udisks_name)
        return; // forged: not from the bus driver
    owner_ = change->new_owner;
    if (owner_.empty()) {
        std::fprintf(stderr, "diskbenchd: warning: udisksd left the bus; no devices until it is back\n");
        objects_.clear();
        objects_changed();
    } else {
        reload_async();
    }
}

void UDisksClient::objects_changed()
{
    smart_.refresh(objects_, owner_);
    changed_();
}

void UDisksClient::reload_async()
{
    manager_->callMethodAsync("GetManagedObjects")
        .onInterface(object_manager)
        .uponReplyInvoke([this](const sdbus::Error* error, const ManagedObjects& objects) {
            if (error) {
                std::fprintf(stderr, "diskbenchd: warning: cannot list udisks2 devices: %s\n", error->getMessage().c_str());
                return;
            }
            guarded([&] {
                objects_ = objects;
                objects_changed();
            });
        });
}

} // namespace diskbench::system
