// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/failure_text.hpp"

#include "contract/failure_matching.hpp"
#include "text/message_text.hpp"

#include <glib.h>

namespace diskbench::client {

std::string localized_failure_text(const std::string& english, const std::optional<contract::FailureReport>& failure)
{
    const auto translate = [](const char* format) { return g_dgettext(GETTEXT_PACKAGE, format); };
    if (failure)
        return contract::localized_failure_report(*failure, english, translate, locale_number_text);
    // A daemon older than 0.16 sends the English alone.
    return contract::localized_failure(english, translate, locale_number_text);
}

} // namespace diskbench::client
