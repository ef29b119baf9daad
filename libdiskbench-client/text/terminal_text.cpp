// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/terminal_text.hpp"

#include "contract/display_text.hpp"

namespace diskbench::client {

std::string terminal_text(std::string_view text)
{
    return contract::display_text(text, contract::Controls::C0AndC1);
}

} // namespace diskbench::client
