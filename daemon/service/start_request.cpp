// SPDX-License-Identifier: GPL-3.0-or-later
#include "start_request.hpp"

#include "bus_errors.hpp"
#include "variant_conversion.hpp"

namespace diskbench::service {

namespace {
constexpr const char* no_interaction_option = "auth.no_user_interaction";
constexpr const char* detach_option = "detach";
} // namespace

bool take_flag(std::map<std::string, sdbus::Variant>& options, const char* key)
{
    auto flag = options.find(key);
    if (flag == options.end())
        return false;
    if (!flag->second.containsValueOfType<bool>())
        throw make_error(ErrorCode::InvalidArgument, key, { "error-expected-boolean" });
    const bool value = flag->second.get<bool>();
    options.erase(flag);
    return value;
}

bool Manager::read_start_request(StartRequest& request, const std::string& kind,
                                 std::map<std::string, sdbus::Variant>& options)
{
    const sdbus::Message* message = getObject().getCurrentlyProcessedMessage();
    request.sender = message->getSender();
    request.uid = caller_uids_.uid_of(*message);
    // First: a user whose starts polkit keeps refusing costs us no more.
    refused_starts_.check(request.uid);
    request.benchmark = engine::find_benchmark(kind);
    if (!request.benchmark)
        return false;
    check_limits(request.uid);
    request.allow_interaction = !take_flag(options, no_interaction_option);
    request.detach = take_flag(options, detach_option);
    request.parameters = engine::validate_request(*request.benchmark, values_from_variants(options));
    return true;
}

} // namespace diskbench::service
