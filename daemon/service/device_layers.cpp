// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_layers.hpp"

#include "../system/queue_facts.hpp"
#include "log.hpp"

#include <sys/sysmacros.h>

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::service {

DeviceLayers::DeviceLayers(BlockingProbes& probes, std::function<void(const system::DeviceFacts&)> changed)
    : probes_(probes), changed_(std::move(changed))
{
}

system::LayerFacts DeviceLayers::layers_of(const system::DeviceFacts& facts)
{
    const Medium medium { facts.device_number, facts.queue.disk_sequence };
    if (auto found = known_.find(medium); found != known_.end())
        return found->second;
    asked_[medium] = facts;
    const std::string key = fmt::format("layers {}:{} #{}", major(medium.first), minor(medium.first), medium.second);
    probes_.start(
        key,
        [this, medium]() -> BlockingProbes::Answer {
            system::LayerFacts layers = system::read_layer_facts(medium.first);
            return [this, medium, layers = std::move(layers)] { learn(medium, layers); };
        },
        deadline,
        [this, medium, key] {
            if (known_.count(medium))
                return;
            log_warning("{}: its layers were not read within {} ms (a backing file that does not answer?)", key,
                        deadline.count());
            learn(medium, system::LayerFacts { {}, 0, { system::layers_not_answering } });
        });
    return {};
}

void DeviceLayers::learn(const Medium& medium, system::LayerFacts layers)
{
    const auto asked = asked_.find(medium);
    if (asked == asked_.end())
        return; // gone meanwhile
    known_[medium] = std::move(layers);
    changed_(asked->second);
}

void DeviceLayers::keep_only(const std::vector<system::DeviceFacts>& present)
{
    const auto listed = [&](const Medium& medium) {
        return std::any_of(present.begin(), present.end(), [&](const system::DeviceFacts& facts) {
            return facts.device_number == medium.first && facts.queue.disk_sequence == medium.second;
        });
    };
    std::erase_if(known_, [&](const auto& entry) { return !listed(entry.first); });
    std::erase_if(asked_, [&](const auto& entry) { return !listed(entry.first); });
}

} // namespace diskbench::service
