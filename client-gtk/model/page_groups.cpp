// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_groups.hpp"

#include "pages/page_registry.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

PageGroup page_group(std::string_view kind, PageTarget target) noexcept
{
    if (const PageModel* model = page_model(kind); model && model->group)
        return *model->group;
    if (kind == history_page_name || kind == info_page_name)
        return PageGroup::Drive;
    switch (target) {
    case PageTarget::DeviceWrite:
        return PageGroup::Write;
    case PageTarget::Directory:
        return PageGroup::Filesystem;
    case PageTarget::Device:
        break;
    }
    return PageGroup::Read;
}

const char* page_group_title(PageGroup group) noexcept
{
    // TRANSLATORS: headings of the window's list of benchmarks
    switch (group) {
    case PageGroup::Overview:
        return N_("Overview");
    case PageGroup::Read:
        return N_("Read");
    case PageGroup::Write:
        return N_("Write");
    case PageGroup::Filesystem:
        return N_("Filesystem");
    case PageGroup::Drive:
        return N_("Drive");
    }
    return "";
}

} // namespace diskbench::client
