// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <string>

// What a capacity check (the daemon's "verify-capacity" kind, API 0.10)
// found, read from its summary and said in words the same way by the app
// (its page's verdict) and diskbenchctl (run, show, and its exit status).
namespace diskbench::client {

struct CapacityVerdict {
    bool checked = false;   // a finished verify-capacity result
    std::uint64_t claimed = 0, real = 0, uncertainty = 0; // bytes
    std::string failure;    // "none", "wraps", "drops", "unreadable", "scattered"
    [[nodiscard]] bool lost() const noexcept { return checked && real < claimed; }
    // Blocks lost here and there, not at an end: a device that loses data.
    [[nodiscard]] bool damaged() const noexcept { return checked && failure == "scattered"; }
};

// The verdict of RESULT; unchecked for another kind or a cancelled check.
CapacityVerdict capacity_verdict(const SavedResult& result);

// One line: "data beyond 15.8 GiB of the claimed 256 GiB is lost (writes
// there land at the start again)", or that the whole claimed size holds
// data. Translated.
std::string capacity_line(const CapacityVerdict& verdict);

} // namespace diskbench::client
