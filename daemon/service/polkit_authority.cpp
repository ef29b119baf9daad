// SPDX-License-Identifier: GPL-3.0-or-later
#include "polkit_authority.hpp"

#include <chrono>

namespace diskbench::service {

namespace {
using Subject = sdbus::Struct<std::string, std::map<std::string, sdbus::Variant>>;
using AuthorizationResult = sdbus::Struct<bool, bool, std::map<std::string, std::string>>;

constexpr std::uint32_t allow_user_interaction_flag = 1;
// A person may take a while to type a password; polkit itself times the
// dialog out, so only guard against a hung polkitd.
constexpr auto check_timeout = std::chrono::minutes(5);
} // namespace

PolkitAuthority::PolkitAuthority(sdbus::IConnection& connection)
    : authority_(sdbus::createProxy(connection, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority"))
{
}

void PolkitAuthority::check(const std::string& bus_name, const std::string& action_id,
                            const std::map<std::string, std::string>& details, bool allow_user_interaction,
                            Callback callback)
{
    const Subject subject { "system-bus-name", { { "name", sdbus::Variant(bus_name) } } };
    const std::uint32_t flags = allow_user_interaction ? allow_user_interaction_flag : 0;
    authority_->callMethodAsync("CheckAuthorization")
        .onInterface("org.freedesktop.PolicyKit1.Authority")
        .withTimeout(check_timeout)
        .withArguments(subject, action_id, details, flags, std::string())
        .uponReplyInvoke([callback = std::move(callback)](const sdbus::Error* error, const AuthorizationResult& result) {
            if (error) {
                callback(Authorization::Unavailable, error->getMessage());
                return;
            }
            const bool authorized = std::get<0>(result);
            const bool challenge = std::get<1>(result);
            const auto& result_details = std::get<2>(result);
            if (authorized)
                callback(Authorization::Authorized, {});
            else if (challenge)
                callback(Authorization::Challenge, {});
            else if (auto dismissed = result_details.find("polkit.dismissed");
                     dismissed != result_details.end() && dismissed->second == "true")
                callback(Authorization::Dismissed, {});
            else
                callback(Authorization::NotAuthorized, {});
        });
}

} // namespace diskbench::service
