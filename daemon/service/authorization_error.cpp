// SPDX-License-Identifier: GPL-3.0-or-later
#include "authorization_error.hpp"

namespace diskbench::service {

std::optional<sdbus::Error> authorization_error(Authorization answer, const std::string& action_id,
                                                const std::string& detail)
{
    switch (answer) {
    case Authorization::Authorized:
        return std::nullopt;
    case Authorization::Challenge:
        return make_error(ErrorCode::NotAuthorizedCanObtain,
                          "authentication is required for " + action_id
                              + " (auth.no_user_interaction was set, or no authentication agent could ask)");
    case Authorization::Dismissed:
        return make_error(ErrorCode::NotAuthorizedDismissed, "the authentication dialog was dismissed");
    case Authorization::Unavailable:
        return make_error(ErrorCode::NotAuthorized, "cannot ask polkit about " + action_id + ": " + detail);
    case Authorization::NotAuthorized:
        break;
    }
    return make_error(ErrorCode::NotAuthorized, "not authorized for " + action_id);
}

} // namespace diskbench::service
