// SPDX-License-Identifier: GPL-3.0-or-later
#include "info_page.hpp"

#include "types/saved_values.hpp"
#include "text/value_format.hpp"
#include "text/printf_text.hpp"

#include <adwaita.h>
#include "ui_file.hpp"

#include <glib/gi18n-lib.h>
#include <sys/utsname.h>

namespace diskbench::client {

namespace {

std::string yes_no(bool value)
{
    return value ? _("yes") : _("no");
}

} // namespace

InfoPage::InfoPage()
{
    // Declared in client-gtk/ui/info-page.ui (the GResource); the rows are
    // the shown device's facts, added by set().
    const UiFile ui("info-page.ui");
    page_ = Ref<GtkWidget>::add(ui.widget("page"));
    health_group_ = ui.widget("health_group");
    health_label_ = ui.widget("health_label");
    device_group_ = ui.widget("device_group");
    system_group_ = ui.widget("system_group");
    set(nullptr, nullptr, {}, {});
}

void InfoPage::add_row(GtkWidget* group, std::vector<GtkWidget*>& rows, const char* title, const std::string& value)
{
    GtkWidget* row = adw_action_row_new();
    adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), title);
    // Values such as serial numbers are text, not markup.
    adw_preferences_row_set_use_markup(ADW_PREFERENCES_ROW(row), FALSE);
    GtkWidget* label = gtk_label_new(value.empty() ? "–" : value.c_str());
    gtk_label_set_selectable(GTK_LABEL(label), TRUE);
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(label, "dim-label");
    adw_action_row_add_suffix(ADW_ACTION_ROW(row), label);
    adw_preferences_group_add(ADW_PREFERENCES_GROUP(group), row);
    rows.push_back(row);
}

void InfoPage::set(const DeviceEntry* device, const SavedValueMap* last_run, const std::string& backend,
                   const std::string& daemon_version, const HealthVerdict& health)
{
    health_warning_ = device && health.warn ? "⚠ " + health.warning : std::string();
    health_summary_ = device && health.known ? health.summary : std::string();
    gtk_label_set_text(GTK_LABEL(health_label_), health_warning_.c_str());
    gtk_widget_set_visible(health_group_, !health_warning_.empty());
    for (GtkWidget* row : device_rows_)
        adw_preferences_group_remove(ADW_PREFERENCES_GROUP(device_group_), row);
    for (GtkWidget* row : system_rows_)
        adw_preferences_group_remove(ADW_PREFERENCES_GROUP(system_group_), row);
    device_rows_.clear();
    system_rows_.clear();

    if (device) {
        add_row(device_group_, device_rows_, _("Node"), device->node);
        add_row(device_group_, device_rows_, _("Model"), device->model);
        add_row(device_group_, device_rows_, _("Vendor"), device->vendor);
        add_row(device_group_, device_rows_, _("Serial number"), device->serial);
        add_row(device_group_, device_rows_, _("WWN"), device->wwn);
        add_row(device_group_, device_rows_, _("Firmware"), device->revision);
        add_row(device_group_, device_rows_, _("Size"), format_value(static_cast<double>(device->size), Unit::Bytes));
        add_row(device_group_, device_rows_, _("Logical block size"),
                format_value(device->logical_block_size, Unit::Bytes));
        add_row(device_group_, device_rows_, _("Physical block size"),
                format_value(device->physical_block_size, Unit::Bytes));
        std::string rotation = yes_no(device->rotational);
        if (device->rotation_rate > 0)
            rotation += " (" + printf_text(_("%d rpm"), device->rotation_rate) + ")";
        add_row(device_group_, device_rows_, _("Rotational"), rotation);
        add_row(device_group_, device_rows_, _("Removable"), yes_no(device->removable));
        add_row(device_group_, device_rows_, _("Connection"), device->connection_bus);
        add_row(device_group_, device_rows_, _("I/O scheduler"), device->scheduler);
        add_row(device_group_, device_rows_, _("Largest request"),
                format_value(static_cast<double>(device->max_sectors_kib) * 1024, Unit::Bytes));
        add_row(device_group_, device_rows_, _("Write cache"), device->write_cache);
        // Only a drive with a sensor gets the row: "–" would read as "cold".
        if (health.known)
            /* TRANSLATORS: Info page row: the drive's SMART verdict */
            add_row(device_group_, device_rows_, _("Health (SMART)"), health.summary);
        if (!device->temperature_source.empty())
            add_row(device_group_, device_rows_, _("Temperature"),
                    /* TRANSLATORS: a drive's temperature in degrees Celsius, e.g. "41 °C" */
                    printf_text(_("%.0f °C"), device->temperature));
        if (!device->link.empty())
            add_row(device_group_, device_rows_, _("Link"),
                    device->link_limit_mb_s > 0
                        /* TRANSLATORS: the link a disk hangs on and what it carries, e.g. "PCIe 3.0 x4, at most 3938 MB/s" */
                        ? printf_text(_("%s, at most %.0f MB/s"), device->link.c_str(), device->link_limit_mb_s)
                        : device->link);
        if (!device->stack.empty()) {
            std::string layers;
            for (const auto& layer : device->stack)
                layers += (layers.empty() ? "" : " → ") + layer;
            add_row(device_group_, device_rows_, _("Layers"), layers);
        }
        add_row(device_group_, device_rows_, _("Mounted or in use"), yes_no(device->mounted || device->in_use));
    } else {
        add_row(device_group_, device_rows_, _("Node"), {});
    }

    std::string kernel = last_run ? text_of(*last_run, "kernel") : std::string();
    std::string machine = last_run ? text_of(*last_run, "machine") : std::string();
    if (kernel.empty()) {
        // No run yet: this machine's, which is where the daemon runs too.
        utsname names {};
        if (::uname(&names) == 0) {
            kernel = names.release;
            machine = names.machine;
        }
    }
    add_row(system_group_, system_rows_, _("Kernel"), kernel);
    add_row(system_group_, system_rows_, _("Machine"), machine);
    add_row(system_group_, system_rows_, _("Benchmark service"), daemon_version);
    add_row(system_group_, system_rows_, _("I/O backend of the last run"), backend);
}

} // namespace diskbench::client
