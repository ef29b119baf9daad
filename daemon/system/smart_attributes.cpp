// SPDX-License-Identifier: GPL-3.0-or-later
#include "smart_attributes.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace diskbench::system {

namespace {

constexpr const char* ata_interface = "org.freedesktop.UDisks2.Drive.Ata";
constexpr std::array<std::uint8_t, 6> failure_ids { 5, 187, 188, 197, 198, 199 };

template <typename T>
T ata_property(const ObjectInterfaces& object, const char* name)
{
    const auto ata = object.find(ata_interface);
    if (ata == object.end())
        return T {};
    const auto found = ata->second.find(name);
    if (found == ata->second.end() || !found->second.containsValueOfType<T>())
        return T {};
    return found->second.get<T>();
}

} // namespace

SmartCounts failure_counts(const std::vector<SmartAttribute>& attributes)
{
    SmartCounts counts;
    for (const SmartAttribute& attribute : attributes) {
        const std::uint8_t id = std::get<0>(attribute);
        const std::int64_t pretty = std::get<6>(attribute);
        // libatasmart's pretty value of these is the raw count; a negative
        // one would be a drive (or a udisks) we do not understand.
        if (std::find(failure_ids.begin(), failure_ids.end(), id) != failure_ids.end() && pretty >= 0)
            counts[id] = pretty;
    }
    return counts;
}

SmartAttributeCache::SmartAttributeCache(sdbus::IConnection& connection, std::function<void()> changed)
    : connection_(connection), changed_(std::move(changed))
{
}

SmartAttributeCache::~SmartAttributeCache() = default;

void SmartAttributeCache::refresh(const ManagedObjects& objects, const std::string& owner)
{
    // A new udisksd (restarted, or gone): its drives are asked afresh, at
    // its name; the old name's proxies would only ever get errors.
    if (owner != owner_) {
        drives_.clear();
        counts_.clear();
        owner_ = owner;
    }
    std::map<std::string, Drive> kept;
    for (const auto& [path, object] : objects) {
        if (!object.count(ata_interface) || !ata_property<bool>(object, "SmartSupported")
            || !ata_property<bool>(object, "SmartEnabled"))
            continue;
        const std::string drive_path = path;
        auto known = drives_.find(drive_path);
        Drive drive = known != drives_.end() ? std::move(known->second) : Drive {};
        const auto updated = ata_property<std::uint64_t>(object, "SmartUpdated");
        if (!owner.empty() && (!drive.proxy || drive.asked_at != updated)) {
            if (!drive.proxy) {
                drive.proxy = sdbus::createProxy(connection_, owner, drive_path);
                drive.proxy->finishRegistration();
            }
            drive.asked_at = updated;
            drive.proxy->callMethodAsync("SmartGetAttributes")
                .onInterface(ata_interface)
                .withArguments(std::map<std::string, sdbus::Variant> {})
                .uponReplyInvoke([this, drive_path](const sdbus::Error* error,
                                                    const std::vector<SmartAttribute>& attributes) {
                    if (error) {
                        // Not every drive with SMART answers (a USB bridge
                        // that passes some commands only): the properties
                        // still tell its health.
                        std::fprintf(stderr, "diskbenchd: debug: no SMART attributes of %s: %s\n",
                                     drive_path.c_str(), error->getMessage().c_str());
                        return;
                    }
                    if (!drives_.count(drive_path))
                        return; // gone while asked
                    SmartCounts counts = failure_counts(attributes);
                    if (counts_[drive_path] == counts)
                        return;
                    counts_[drive_path] = std::move(counts);
                    try {
                        changed_();
                    } catch (const std::exception& failure) {
                        // Out of an sd-bus callback only sdbus::Error may pass.
                        std::fprintf(stderr, "diskbenchd: warning: handling SMART attributes failed: %s\n",
                                     failure.what());
                    }
                });
        }
        kept.emplace(drive_path, std::move(drive));
    }
    drives_ = std::move(kept);
    std::erase_if(counts_, [&](const auto& entry) { return !drives_.count(entry.first); });
}

} // namespace diskbench::system
