// SPDX-License-Identifier: GPL-3.0-or-later
#include "udisks_client.hpp"

#include <cstdio>

namespace diskbench::system {

namespace {
constexpr const char* udisks_name = "org.freedesktop.UDisks2";
constexpr const char* udisks_root = "/org/freedesktop/UDisks2";
constexpr const char* object_manager = "org.freedesktop.DBus.ObjectManager";
} // namespace

namespace {
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
} // namespace

UDisksClient::UDisksClient(sdbus::IConnection& connection, std::function<void()> changed)
    : connection_(connection), changed_(std::move(changed))
{
    manager_ = sdbus::createProxy(connection_, udisks_name, udisks_root);
    manager_->uponSignal("InterfacesAdded")
        .onInterface(object_manager)
        .call([this](const sdbus::ObjectPath& path, const ObjectInterfaces& interfaces) {
            guarded([&] {
                for (const auto& [name, properties] : interfaces)
                    objects_[path][name] = properties;
                changed_();
            });
        });
    manager_->uponSignal("InterfacesRemoved")
        .onInterface(object_manager)
        .call([this](const sdbus::ObjectPath& path, const std::vector<std::string>& interfaces) {
            guarded([&] {
                auto object = objects_.find(path);
                if (object == objects_.end())
                    return;
                for (const auto& name : interfaces)
                    object->second.erase(name);
                if (object->second.empty())
                    objects_.erase(object);
                changed_();
            });
        });
    manager_->finishRegistration();

    // One match for the property changes of every udisks object, instead of
    // a proxy per object.
    properties_match_ = connection_.addMatch(
        std::string("type='signal',sender='") + udisks_name
            + "',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='"
            + udisks_root + "'",
        [this](sdbus::Message& message) { guarded([&] { on_properties_changed(message); }); });
    owner_match_ = connection_.addMatch(
        std::string("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    "member='NameOwnerChanged',arg0='")
            + udisks_name + "'",
        [this](sdbus::Message& message) {
            guarded([&] {
                std::string name, old_owner, new_owner;
                message >> name >> old_owner >> new_owner;
                if (new_owner.empty()) {
                    std::fprintf(stderr, "diskbenchd: warning: udisksd left the bus; no devices until it is back\n");
                    objects_.clear();
                    changed_();
                } else {
                    reload_async();
                }
            });
        });
}

UDisksClient::~UDisksClient() = default;

bool UDisksClient::load()
{
    try {
        ManagedObjects objects;
        manager_->callMethod("GetManagedObjects").onInterface(object_manager).storeResultsTo(objects);
        objects_ = std::move(objects);
        return true;
    } catch (const sdbus::Error& error) {
        std::fprintf(stderr, "diskbenchd: warning: cannot list udisks2 devices: %s\n", error.getMessage().c_str());
        return false;
    }
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
                changed_();
            });
        });
}

void UDisksClient::on_properties_changed(sdbus::Message& message)
{
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
    changed_();
}

} // namespace diskbench::system
