// SPDX-License-Identifier: GPL-3.0-or-later
#include "caller_credentials.hpp"

#include "bus_errors.hpp"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <map>

namespace diskbench::service {

namespace {

gid_t primary_group(uid_t uid)
{
    long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(suggested > 0 ? static_cast<std::size_t>(suggested) : 4096);
    passwd entry {};
    passwd* found = nullptr;
    int error = 0;
    while ((error = ::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found)) == ERANGE
           && buffer.size() < (1U << 20))
        buffer.resize(buffer.size() * 2);
    if (error != 0 || !found)
        throw make_error(ErrorCode::Failed, { "error-uid-unknown", { { "uid", uid } } });
    return entry.pw_gid;
}

} // namespace

BusCredentials bus_credentials(sdbus::IProxy& bus_driver, const std::string& unique_name, uid_t uid)
{
    std::map<std::string, sdbus::Variant> answer;
    try {
        bus_driver.callMethod("GetConnectionCredentials")
            .onInterface("org.freedesktop.DBus")
            .withArguments(unique_name)
            .storeResultsTo(answer);
    } catch (const sdbus::Error& error) {
        throw make_error(ErrorCode::Failed,
                         { "error-bus-who", { { "name", unique_name }, { "reason", error.getMessage() } } });
    }

    auto user = answer.find("UnixUserID");
    if (user == answer.end() || !user->second.containsValueOfType<std::uint32_t>()
        || user->second.get<std::uint32_t>() != uid)
        throw make_error(ErrorCode::Failed, { "error-bus-uid-unconfirmed", { { "name", unique_name } } });

    BusCredentials caller;
    caller.uid = uid;
    // dbus-daemon has sent UnixGroupIDs since 1.11; without it the caller
    // acts with no supplementary group, which can only allow less.
    if (auto groups = answer.find("UnixGroupIDs");
        groups != answer.end() && groups->second.containsValueOfType<std::vector<std::uint32_t>>()) {
        for (std::uint32_t gid : groups->second.get<std::vector<std::uint32_t>>())
            caller.groups.push_back(static_cast<gid_t>(gid));
    }
    return caller;
}

engine::Credentials with_primary_group(const BusCredentials& caller)
{
    engine::Credentials credentials;
    credentials.uid = caller.uid;
    credentials.groups = caller.groups;
    const gid_t primary = primary_group(caller.uid);
    const bool has_it = std::find(caller.groups.begin(), caller.groups.end(), primary) != caller.groups.end();
    credentials.gid = has_it ? primary : overflow_gid;
    return credentials;
}

} // namespace diskbench::service
