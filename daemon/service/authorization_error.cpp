// SPDX-License-Identifier: GPL-3.0-or-later
#include "authorization_error.hpp"

namespace diskbench::service {

std::optional<Refusal> authorization_error(Authorization answer, const std::string& action_id,
                                                const std::string& detail)
{
    switch (answer) {
    case Authorization::Authorized:
        return std::nullopt;
    case Authorization::Challenge:
        return make_error(ErrorCode::NotAuthorizedCanObtain,
                          { "error-authentication-required", { { "action", action_id } } });
    case Authorization::Dismissed:
        return make_error(ErrorCode::NotAuthorizedDismissed, { "error-dialog-dismissed" });
    case Authorization::Unavailable:
        return make_error(ErrorCode::NotAuthorized,
                          { "error-polkit-unavailable", { { "action", action_id }, { "reason", detail } } });
    case Authorization::NotAuthorized:
        break;
    }
    return make_error(ErrorCode::NotAuthorized, { "error-not-authorized", { { "action", action_id } } });
}

} // namespace diskbench::service
