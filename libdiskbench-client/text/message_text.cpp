// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/message_text.hpp"

#include <glib.h>

#include <algorithm>

namespace diskbench::client {

std::string locale_number_text(double value, int decimals)
{
    // contract's formatter is printf's "%f", which follows LC_NUMERIC: the
    // daemon's C locale gives a decimal point, the user's locale (main() set
    // it from the environment) a decimal comma where that is the custom.
    return contract::c_number_text(value, decimals);
}

std::string localized_message(const contract::Message& message, const std::string& english)
{
    return contract::localized_text(
        message, english, [](const char* format) { return g_dgettext(GETTEXT_PACKAGE, format); }, locale_number_text);
}

std::vector<std::string> localized_lines(const std::vector<std::string>& lines, const std::vector<std::string>& texts,
                                         const std::vector<contract::Message>& messages)
{
    std::vector<std::string> shown;
    shown.reserve(lines.size());
    for (const std::string& line : lines) {
        const auto found = std::find(texts.begin(), texts.end(), line);
        const auto index = static_cast<std::size_t>(found - texts.begin());
        shown.push_back(found != texts.end() && index < messages.size() ? localized_message(messages[index], line)
                                                                         : line);
    }
    return shown;
}

} // namespace diskbench::client
