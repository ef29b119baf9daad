// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/failure_messages.hpp"

#include <memory>
#include <stdexcept>
#include <string>

namespace diskbench::engine {

// What a caller is told: a message of the contract's failure catalogue
// (dbus-interfaces/contract/failure_messages.cpp), whose English is what()
// and which a client translates (docs/decisions.md, "The daemon's words in
// the user's language").
using Failure = contract::Message;

// Base of every error the engine reports. The daemon maps each subclass to one
// D-Bus error name, so the classes follow what a caller can do about it.
class Error : public std::runtime_error {
public:
    explicit Error(const Failure& failure) : Error(contract::failure_english(failure), failure) {}
    // An internal failure (a bug, or a system set-up no caller can change):
    // English, outside the catalogue.
    explicit Error(const std::string& internal) : std::runtime_error(internal) {}
    // The catalogue message, or nullptr for an internal or English failure.
    [[nodiscard]] const Failure* failure() const noexcept { return failure_.get(); }

protected:
    // Shared: an exception's copy must not throw.
    Error(const std::string& text, const Failure& failure)
        : std::runtime_error(text), failure_(std::make_shared<const Failure>(failure)) {}

private:
    std::shared_ptr<const Failure> failure_;
};

// An argument that is the failure `error` reports (an explanation's
// {detail}): as data when it is a catalogue failure, so a client translates
// it from its id; as its English when it is an internal one.
inline contract::MessageArg failure_argument(std::string name, const Error& error)
{
    if (const Failure* failure = error.failure())
        return { std::move(name), *failure };
    return { std::move(name), std::string(error.what()) };
}

// A parameter the caller gave is unknown, of the wrong type or out of range.
// key() names it so the D-Bus InvalidArgument error can say which one: the
// text is "key: " and the failure's English.
class ParameterError : public Error {
public:
    ParameterError(std::string key, const Failure& failure)
        : Error(key + ": " + contract::failure_english(failure), failure), key_(std::move(key)) {}
    [[nodiscard]] const std::string& key() const noexcept { return key_; }

private:
    std::string key_;
};

// The target cannot be benchmarked (cannot be opened with O_DIRECT, is not a
// block device or regular file, is empty, ...).
class TargetError : public Error {
public:
    explicit TargetError(const Failure& failure) : Error(failure) {}
};

// A device write benchmark could not open its device exclusively
// (open_target_for_write: EBUSY): something holds it, a mounted filesystem,
// a RAID or LVM member, swap, another benchmark. The daemon maps it to
// DeviceBusy; nothing was written.
class DeviceBusyError : public TargetError {
public:
    explicit DeviceBusyError(const Failure& failure) : TargetError(failure) {}
};

// Busy because another program holds the device's BSD lock: udevd does for
// a moment after every writer's close (it probes the device), so a caller
// may try again shortly (the daemon does, off its bus thread's back:
// Manager::start_authorized).
class DeviceLockedError : public DeviceBusyError {
public:
    explicit DeviceLockedError(const Failure& failure) : DeviceBusyError(failure) {}
};

// A run would take more threads or buffer memory than its user may have at
// once (resource_budget.hpp). The daemon maps it to LimitsExceeded.
class LimitsError : public Error {
public:
    explicit LimitsError(const Failure& failure) : Error(failure) {}
};

// An I/O failed while the benchmark was running.
class IoError : public Error {
public:
    IoError(const Failure& failure, int error_number) : Error(failure), errno_(error_number) {}
    [[nodiscard]] int error_number() const noexcept { return errno_; }

private:
    int errno_;
};

} // namespace diskbench::engine
