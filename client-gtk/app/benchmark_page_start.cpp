// SPDX-License-Identifier: GPL-3.0-or-later
// How a page's run starts and stops: whether it may (a device or folder
// selected, a write's consent given), the options it sends, the daemon's
// reply, and Cancel.
#include "benchmark_page_view.hpp"

#include "../model/pages/page_model.hpp"
#include "../model/write_consent.hpp"
#include "contract/benchmark_kinds.hpp"
#include "results/folder.hpp"
#include "results/job_result.hpp"
#include "text/message_text.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

bool BenchmarkPageView::destroy_only() const
{
    if (DaemonClient* client = host_.client())
        if (const BenchmarkInfo* info = client->benchmark(page_.kind))
            return erases_only(*info);
    return false;
}

bool BenchmarkPageView::can_start()
{
    if (!host_.client())
        return false;
    if (page_.target == PageTarget::Directory)
        return !host_.selected_folder().empty();
    const DeviceEntry* device = host_.selected_device();
    if (!device)
        return false;
    if (!writes())
        return true;
    return write_card_ && write_card_->consented(*device);
}

bool BenchmarkPageView::writes() const
{
    if (page_.target == PageTarget::DeviceWrite)
        return true;
    if (!page_.model || !page_.model->consent_when_writing)
        return false;
    // The setting that makes this read kind write, as the user left it.
    const std::string_view key = contract::kinds::writes_when(page_.kind);
    return !key.empty() && boolean_of(settings_.changed(), key, false);
}

bool BenchmarkPageView::start(const SavedValueMap& forced)
{
    DaemonClient* client = host_.client();
    if (!client || starting_ || !can_start())
        return false;
    if (const JobEntry* job = live_job(); job && job->running())
        return false;
    focus_button_ = true;
    if (page_.target == PageTarget::Directory)
        start_in_folder(host_.selected_folder());
    else if (const DeviceEntry* device = host_.selected_device())
        start_on_device(*device, forced);
    return starting_;
}

std::weak_ptr<bool> BenchmarkPageView::begin_start()
{
    // "Waiting for authorization…" and an empty graph until the reply.
    starting_ = true;
    detach();
    opened_.reset();
    rebuild_chart();
    update_controls();
    return alive_;
}

void BenchmarkPageView::start_on_device(const DeviceEntry& device, const SavedValueMap& forced)
{
    SavedValueMap options = settings_.changed();
    if (write_card_ && writes())
        options = write_card_->take_options(options);
    for (const auto& [key, value] : forced)
        options[key] = value;
    std::weak_ptr<bool> alive = begin_start();
    const std::string device_path = device.path;
    // Only what the user changed: defaults stay the daemon's, which scales
    // them down to small devices.
    host_.client()->start_benchmark(device_path, page_.kind, options,
                                    [this, alive, device_path](std::variant<std::string, CallError> reply) {
                                        if (!alive.expired())
                                            on_started(std::move(reply), device_path, {});
                                    });
}

void BenchmarkPageView::start_in_folder(const std::string& folder)
{
    // Opened here, by us, with our own permissions; the daemon gets the
    // descriptor, never the path. Ours is closed when this returns.
    std::string error;
    const DirectoryFd directory = open_directory(folder, error);
    if (!directory) {
        host_.toast(printf_text(_("Cannot open “%s”: %s"), folder_display_name(folder).c_str(), error.c_str()));
        return;
    }
    std::weak_ptr<bool> alive = begin_start();
    host_.client()->start_filesystem_benchmark(directory.get(), page_.kind, settings_.changed(),
                                               [this, alive, folder](std::variant<std::string, CallError> reply) {
                                                   if (!alive.expired())
                                                       on_started(std::move(reply), folder, folder);
                                               });
}

void BenchmarkPageView::on_started(std::variant<std::string, CallError> reply, const std::string& selection,
                                   const std::string& folder)
{
    starting_ = false;
    const std::string now = page_.target == PageTarget::Directory ? host_.selected_folder()
        : host_.selected_device()                                 ? host_.selected_device()->path
                                                                  : std::string();
    if (const auto* error = std::get_if<CallError>(&reply)) {
        host_.toast(error_text(*error, folder.empty() ? std::string() : folder_display_name(folder)).message);
    } else if (DaemonClient* client = host_.client(); client && now == selection) {
        // Still the device or folder it was started on (the password
        // dialog may have taken a while): show the job. Else it shows up
        // when that one is selected again.
        const std::string& path = std::get<std::string>(reply);
        // InterfacesAdded came before the reply, so the job is known.
        if (const JobEntry* job = client->job(path)) {
            attach_job(*job);
            rebuild_chart();
        } else {
            job_path_ = path;
        }
    }
    update_controls();
    host_.page_changed();
    // Last: a set waiting for this start may start the next page's run
    // from here (run_set_runner.hpp).
    host_.run_started(page_.kind, std::holds_alternative<std::string>(reply) ? std::get<std::string>(reply) : "");
}

void BenchmarkPageView::stop()
{
    DaemonClient* client = host_.client();
    const JobEntry* job = live_job();
    if (!client || !job || !job->running() || stopping_)
        return;
    stopping_ = true;
    focus_button_ = true;
    update_controls();
    std::weak_ptr<bool> alive = alive_;
    client->cancel_job(job->path, [this, alive](std::optional<CallError> error) {
        if (alive.expired() || !error)
            return;
        stopping_ = false;
        update_controls();
        host_.toast(error_text(*error).message);
    });
}

void BenchmarkPageView::on_start_clicked(GtkButton*, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    const JobEntry* job = page->live_job();
    if (job && job->running())
        page->stop();
    else
        page->start();
}

} // namespace diskbench::client
