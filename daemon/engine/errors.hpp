// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace diskbench::engine {

// Base of every error the engine reports. The daemon maps each subclass to one
// D-Bus error name, so the classes follow what a caller can do about it.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A parameter the caller gave is unknown, of the wrong type or out of range.
// key() names it so the D-Bus InvalidArgument error can say which one.
class ParameterError : public Error {
public:
    ParameterError(std::string key, const std::string& message)
        : Error(key + ": " + message), key_(std::move(key)) {}
    [[nodiscard]] const std::string& key() const noexcept { return key_; }

private:
    std::string key_;
};

// The target cannot be benchmarked (cannot be opened with O_DIRECT, is not a
// block device or regular file, is empty, ...).
class TargetError : public Error {
public:
    using Error::Error;
};

// A device write benchmark could not open its device exclusively
// (open_target_for_write: EBUSY): something holds it, a mounted filesystem,
// a RAID or LVM member, swap, another benchmark. The daemon maps it to
// DeviceBusy; nothing was written.
class DeviceBusyError : public TargetError {
public:
    using TargetError::TargetError;
};

// Busy because another program holds the device's BSD lock: udevd does for
// a moment after every writer's close (it probes the device), so a caller
// may try again shortly (the daemon does, off its bus thread's back:
// Manager::start_authorized).
class DeviceLockedError : public DeviceBusyError {
public:
    using DeviceBusyError::DeviceBusyError;
};

// A run would take more threads or buffer memory than its user may have at
// once (resource_budget.hpp). The daemon maps it to LimitsExceeded.
class LimitsError : public Error {
public:
    using Error::Error;
};

// An I/O failed while the benchmark was running.
class IoError : public Error {
public:
    IoError(const std::string& message, int error_number)
        : Error(message), errno_(error_number) {}
    [[nodiscard]] int error_number() const noexcept { return errno_; }

private:
    int errno_;
};

} // namespace diskbench::engine
