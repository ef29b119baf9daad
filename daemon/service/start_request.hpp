// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/base/unique_fd.hpp"
#include "../engine/benchmark.hpp"
#include "../system/device_facts.hpp"
#include "manager.hpp"
#include "refusal_reply.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <map>
#include <string>

namespace diskbench::service {

// One start call on its way through polkit to a running job.
struct Manager::StartRequest {
    sdbus::Result<sdbus::ObjectPath> reply;
    HeldCall call; // to refuse with the failure as data (refusal_reply.hpp)
    std::string device_path;
    system::DeviceFacts device; // device benchmarks: the device as it was when asked for
    const engine::BenchmarkInfo* benchmark = nullptr;
    // The caller's parameters, validated once, here (read_start_request);
    // the checks and the run take these, not the a{sv} again.
    engine::ParameterSet parameters;
    engine::UniqueFd directory; // filesystem benchmarks: the caller's folder
    std::string directory_name;
    bool allow_interaction = true;
    std::string sender;
    uid_t uid = 0;
    bool detach = false;
    // Device writes: how often the open found the device's lock held (by
    // udevd probing after the last writer's close) and was tried again.
    int lock_retries = 0;
};

// Removes a daemon option (not a benchmark parameter, such as "detach")
// from `options` and returns it; false when absent. InvalidArgument when it
// is not a boolean.
bool take_flag(std::map<std::string, sdbus::Variant>& options, const char* key);

} // namespace diskbench::service
