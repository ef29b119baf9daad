// SPDX-License-Identifier: GPL-3.0-or-later
#include "error_names.hpp"

#include <array>

namespace diskbench::contract {

namespace {

struct ErrorEntry {
    ErrorCode code;
    std::string_view name; // full D-Bus name
    std::string_view meaning;
};

// In ErrorCode's order, so a code is its own index.
constexpr std::array<ErrorEntry, 11> errors { {
    { ErrorCode::NotAuthorized, "org.diskbench.DiskBench1.Error.NotAuthorized",
      "polkit refused the call and no password would change that." },
    { ErrorCode::NotAuthorizedCanObtain, "org.diskbench.DiskBench1.Error.NotAuthorizedCanObtain",
      "The call needs authentication; call again allowing interaction to get a password dialog." },
    { ErrorCode::NotAuthorizedDismissed, "org.diskbench.DiskBench1.Error.NotAuthorizedDismissed",
      "The user dismissed the password dialog: a choice, not a failure." },
    { ErrorCode::InvalidArgument, "org.diskbench.DiskBench1.Error.InvalidArgument",
      "A parameter or option is unknown, of the wrong type or out of range; the message names it." },
    { ErrorCode::NotFound, "org.diskbench.DiskBench1.Error.NotFound",
      "The device, job or benchmark kind does not exist (any more)." },
    { ErrorCode::DeviceBusy, "org.diskbench.DiskBench1.Error.DeviceBusy",
      "Another benchmark runs on the device, on a partition of it or on the disk it is part of." },
    { ErrorCode::PermissionDenied, "org.diskbench.DiskBench1.Error.PermissionDenied",
      "The caller may not write in the folder of a filesystem benchmark." },
    { ErrorCode::NoSpace, "org.diskbench.DiskBench1.Error.NoSpace",
      "The folder's filesystem, or the caller's quota on it, is full." },
    { ErrorCode::LimitsExceeded, "org.diskbench.DiskBench1.Error.LimitsExceeded",
      "Too many of the caller's requests are waiting for authorization already." },
    { ErrorCode::Cancelled, "org.diskbench.DiskBench1.Error.Cancelled", "The job was cancelled before it ended." },
    { ErrorCode::Failed, "org.diskbench.DiskBench1.Error.Failed",
      "Anything else went wrong; the message says what." },
} };

constexpr bool table_in_enum_order()
{
    for (std::size_t i = 0; i < errors.size(); ++i)
        if (static_cast<std::size_t>(errors[i].code) != i || !errors[i].name.starts_with(error_prefix))
            return false;
    return true;
}
static_assert(table_in_enum_order());

} // namespace

std::string_view error_name(ErrorCode code) noexcept
{
    const auto index = static_cast<std::size_t>(code);
    return index < errors.size() ? errors[index].name : errors.back().name;
}

std::optional<ErrorCode> error_code_from_name(std::string_view full_name) noexcept
{
    for (const ErrorEntry& entry : errors)
        if (entry.name == full_name)
            return entry.code;
    return std::nullopt;
}

std::string_view error_meaning(ErrorCode code) noexcept
{
    const auto index = static_cast<std::size_t>(code);
    return index < errors.size() ? errors[index].meaning : errors.back().meaning;
}

} // namespace diskbench::contract
