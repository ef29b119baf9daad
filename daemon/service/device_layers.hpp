// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"
#include "blocking_probes.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

namespace diskbench::service {

// The link and layers of every device (system::LayerFacts), read on probe
// threads and kept per device and medium (device number and disk
// sequence), so the bus thread publishes what is known and never waits on
// a loop's backing file. A medium's layers are read once; one that did
// not answer within `deadline` reads "unknown (did not answer)" until its
// probe returns.
class DeviceLayers {
public:
    static constexpr std::chrono::milliseconds deadline { 2000 };

    // `changed` runs on the loop thread when a device's layers became known
    // (or late) after layers_of() answered for it.
    DeviceLayers(BlockingProbes& probes, std::function<void(const system::DeviceFacts&)> changed);

    // What is known of `facts`' layers now (empty while its probe is out),
    // and a probe started when nothing is.
    system::LayerFacts layers_of(const system::DeviceFacts& facts);
    // Forgets the media not among `present`.
    void keep_only(const std::vector<system::DeviceFacts>& present);

private:
    using Medium = std::pair<dev_t, std::uint64_t>;
    void learn(const Medium& medium, system::LayerFacts layers);

    BlockingProbes& probes_;
    std::function<void(const system::DeviceFacts&)> changed_;
    std::map<Medium, system::LayerFacts> known_;
    // The devices asked about, to hand `changed` when their answer comes.
    std::map<Medium, system::DeviceFacts> asked_;
};

} // namespace diskbench::service
