// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "gobject_ptr.hpp"
#include "results/drive_health.hpp"

#include <gtk/gtk.h>

#include <string>
#include <vector>

namespace diskbench::client {

// The Info page: the facts stored with every result, so a reader can tell
// whether two results are comparable: the device (identity, size, block
// sizes, rotation, scheduler, request size, write cache) and the system
// (kernel, machine, daemon version, I/O backend of the last run).
class InfoPage {
public:
    InfoPage();
    [[nodiscard]] GtkWidget* widget() const noexcept { return page_.get(); }
    // `last_run` (may be null): the DeviceInfo of the latest job shown, for
    // the kernel and machine it ran on.
    // `health`: the device's SMART verdict (drive_health()); a warning card
    // above the facts when it says to worry.
    void set(const DeviceEntry* device, const SavedValueMap* last_run, const std::string& backend,
             const std::string& daemon_version, const HealthVerdict& health = {});
    // The warning card's text, "" when hidden (for scripts and tests).
    [[nodiscard]] std::string health_warning() const { return health_warning_; }
    // The "Health (SMART)" row's text, "" when the drive reports none.
    [[nodiscard]] std::string health_summary() const { return health_summary_; }

private:
    void add_row(GtkWidget* group, std::vector<GtkWidget*>& rows, const char* title, const std::string& value);

    Ref<GtkWidget> page_;
    GtkWidget* health_group_ = nullptr; // the warning card
    GtkWidget* health_label_ = nullptr;
    std::string health_warning_;
    std::string health_summary_;
    GtkWidget* device_group_ = nullptr;
    GtkWidget* system_group_ = nullptr;
    std::vector<GtkWidget*> device_rows_, system_rows_;
};

} // namespace diskbench::client
