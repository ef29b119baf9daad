// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <string>

namespace diskbench::client {

// The consent a raw write asks for on its page: which device it writes,
// keep or erase its data, for erasing the confirming word typed in, and
// why the device cannot be written when it cannot (then the page shows
// that instead of Start).
class WriteConsentCard {
public:
    // `changed`: the user picked a mode or typed (the page re-checks Start).
    explicit WriteConsentCard(std::function<void()> changed);
    ~WriteConsentCard();
    WriteConsentCard(const WriteConsentCard&) = delete;
    WriteConsentCard& operator=(const WriteConsentCard&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return card_.get(); }

    // Shows the consent for `device` (null: none selected). `erase_only`:
    // the kind has no keep-data mode. `busy`: a run is starting or
    // running, the choice is locked. Returns whether the device can be
    // written (nothing blocks it).
    bool update(const DeviceEntry* device, bool erase_only, bool busy);

    // Whether the run may start on `device`: nothing blocks it, and
    // erasing is confirmed with the daemon's word.
    [[nodiscard]] bool consented(const DeviceEntry& device) const;
    // The run's options: `settings` plus mode (and confirm for erasing).
    // Consent is for one run: erasing again needs the word typed again.
    [[nodiscard]] SavedValueMap take_options(const SavedValueMap& settings);

private:
    [[nodiscard]] bool erase_chosen() const;
    [[nodiscard]] std::string typed() const;
    static void on_mode_toggled(GtkCheckButton*, gpointer self);
    static void on_confirm_changed(GtkEditable*, gpointer self);

    std::function<void()> changed_;
    Ref<GtkWidget> card_;
    GtkWidget* label_ = nullptr;
    GtkWidget* keep_button_ = nullptr;
    GtkWidget* erase_button_ = nullptr;
    GtkWidget* erase_only_label_ = nullptr;
    GtkWidget* confirm_entry_ = nullptr;
    GtkWidget* blocker_label_ = nullptr;
};

} // namespace diskbench::client
