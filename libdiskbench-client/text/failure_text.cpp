// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/failure_text.hpp"

#include "contract/failure_matching.hpp"
#include "text/message_text.hpp"

#include <glib.h>

namespace diskbench::client {

std::string localized_failure_text(const std::string& english)
{
    return contract::localized_failure(
        english, [](const char* format) { return g_dgettext(GETTEXT_PACKAGE, format); }, locale_number_text);
}

} // namespace diskbench::client
