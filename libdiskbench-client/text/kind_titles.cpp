// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/kind_titles.hpp"

#include "kinds/presentation_registry.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

const KindTitle* kind_title(std::string_view kind) noexcept
{
    const KindPresentation* presentation = kind_presentation(kind);
    return presentation ? &presentation->title : nullptr;
}

std::string kind_title_text(std::string_view kind)
{
    const KindTitle* title = kind_title(kind);
    return title ? _(title->title) : std::string(kind);
}

} // namespace diskbench::client
