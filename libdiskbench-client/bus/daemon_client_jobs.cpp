// SPDX-License-Identifier: GPL-3.0-or-later
// DaemonClient's jobs: their signals, the paged catch-up of their samples,
// starting and cancelling them.
#include "bus/daemon_client.hpp"

#include "bus/daemon_client_internal.hpp"
#include "bus/object_properties.hpp"
#include "bus/variant_values.hpp"
#include "contract/error_names.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <memory>

namespace diskbench::client {

namespace {

std::vector<IndexedSample> indexed(const std::vector<sdbus::Struct<std::uint32_t, double, double>>& samples)
{
    std::vector<IndexedSample> result;
    result.reserve(samples.size());
    for (const auto& sample : samples)
        result.push_back({ sample.get<0>(), sample.get<1>(), sample.get<2>() });
    return result;
}

} // namespace

void DaemonClient::on_job_signal(sdbus::Message& message)
{
    const auto found = jobs_.find(message.getPath());
    if (found == jobs_.end())
        return; // a job we have not seen yet: its InterfacesAdded brings a catch-up
    JobEntry& job = found->second;
    if (message.getMemberName() == "Samples") {
        std::uint64_t first = 0;
        std::vector<sdbus::Struct<std::uint32_t, double, double>> samples;
        message >> first >> samples;
        const std::vector<IndexedSample> batch = indexed(samples);
        SampleStream& stream = streams_[job.path];
        stream.declare_series(job.series);
        switch (stream.on_signal(first, batch, job.points)) {
        case SampleStream::Signal::Appended:
            job.samples_received = stream.next();
            notify([&job](Observer& o) { o.job_points_added(job); });
            break;
        case SampleStream::Signal::NeedCatchUp:
            request_samples(job); // missed a batch
            break;
        case SampleStream::Signal::Dropped:
            break;
        }
    } else if (message.getMemberName() == "Completed") {
        // The error's name and message come as properties (ErrorName,
        // ErrorMessage): the signal's "NAME: message" is for 0.1 clients.
        std::string state;
        PropertyMap summary;
        message >> state >> summary;
        job.state = state;
        job.summary = saved_map_from_variants(summary);
        if (job.ended())
            streams_[job.path].end(job.points);
        notify([&job](Observer& o) { o.job_changed(job); });
    }
}

void DaemonClient::request_samples(JobEntry& job)
{
    const std::string path = job.path;
    const std::uint64_t from = streams_[path].begin_catch_up();
    // Paged: a reply holds at most sample_page samples, so a long run
    // takes several calls; each next one is sent from this reply's
    // callback, before any signal is dispatched, so the stream sees one
    // catch-up from its first page to its last.
    job_proxies_.at(path)
        ->callMethodAsync("GetSampleRange")
        .onInterface(bus::job_interface)
        .withArguments(from, sample_page)
        .uponReplyInvoke([this, path, from](const sdbus::Error* error, std::uint64_t next,
                                            const std::vector<sdbus::Struct<std::uint32_t, double, double>>& samples) {
            const auto found = jobs_.find(path);
            if (found == jobs_.end())
                return;
            JobEntry& job = found->second;
            SampleStream& stream = streams_[path];
            if (error) {
                stream.catch_up_failed();
                g_message("cannot fetch samples of %s: %s", path.c_str(), error->what());
                return;
            }
            stream.declare_series(job.series);
            // A job found already ended (or ended since): its result has no
            // partial points, so neither has its copy here.
            if (job.ended())
                stream.end(job.points);
            const bool added = stream.on_reply(from, indexed(samples), job.points);
            job.samples_received = stream.next();
            // More pages: a full one, or fewer samples than the job has.
            if (!samples.empty() && next > from && (samples.size() >= sample_page || next < job.sample_count))
                request_samples(job);
            if (added)
                notify([&job](Observer& o) { o.job_points_added(job); });
        });
}

void DaemonClient::request_target(JobEntry& job)
{
    // A folder job's folder is not in its public properties; its owner
    // (us, for our own jobs) reads it with GetTarget. Others get
    // NotAuthorized and show the job without it.
    const std::string path = job.path;
    job_proxies_.at(path)
        ->callMethodAsync("GetTarget")
        .onInterface(bus::job_interface)
        .uponReplyInvoke([this, path](const sdbus::Error* error, const std::string& target) {
            const auto found = jobs_.find(path);
            if (error || found == jobs_.end())
                return;
            found->second.target = target;
            notify([&job = found->second](Observer& o) { o.job_changed(job); });
        });
}

namespace {

// Runs `task` from the main loop: a reply that could not even be sent must
// still arrive as a reply, after the caller's code returned.
void post(std::function<void()> task)
{
    auto owned = std::make_unique<std::function<void()>>(std::move(task));
    g_idle_add_full(
        G_PRIORITY_DEFAULT,
        [](gpointer data) -> gboolean {
            (*static_cast<std::function<void()>*>(data))();
            return G_SOURCE_REMOVE;
        },
        owned.release(), [](gpointer data) { std::unique_ptr<std::function<void()>>(static_cast<std::function<void()>*>(data)); });
}

} // namespace

std::map<std::string, sdbus::Variant> DaemonClient::call_options(const SavedValueMap& options) const
{
    std::map<std::string, sdbus::Variant> variants = variants_from_saved_map(options);
    if (failure_data_)
        variants[bus::failure_data_option] = sdbus::Variant(true);
    return variants;
}

template <typename... Args> void DaemonClient::call_start(const char* method, StartReply reply, const Args&... args)
{
    auto shared = std::make_shared<StartReply>(std::move(reply));
    try {
        // The low-level call: its reply callback has the error's message
        // itself, whose second argument is the failure as data (call_error).
        sdbus::IProxy& proxy = root_->proxy();
        auto call = proxy.createMethodCall(bus::manager_interface, method);
        (call << ... << args);
        proxy.callMethod(
            call,
            [shared](sdbus::MethodReply& answer, const sdbus::Error* error) {
                if (error) {
                    (*shared)(call_error(answer, *error));
                    return;
                }
                sdbus::ObjectPath job;
                answer >> job;
                (*shared)(std::string(job));
            },
            interactive_timeout);
    } catch (const sdbus::Error& error) {
        post([shared, failure = call_error(error)] { (*shared)(failure); });
    }
}

void DaemonClient::start_benchmark(const std::string& device_path, const std::string& kind, const SavedValueMap& options,
                                   StartReply reply)
{
    call_start("StartBenchmark", std::move(reply), sdbus::ObjectPath(device_path), kind, call_options(options));
}

void DaemonClient::start_filesystem_benchmark(int directory_fd, const std::string& kind, const SavedValueMap& options,
                                              StartReply reply)
{
    // UnixFd(int) duplicates the descriptor; the message owns that copy.
    call_start("StartFilesystemBenchmark", std::move(reply), sdbus::UnixFd(directory_fd), kind,
               call_options(options));
}

void DaemonClient::cancel_job(const std::string& job_path, DoneReply reply)
{
    auto shared = std::make_shared<DoneReply>(std::move(reply));
    const auto proxy = job_proxies_.find(job_path);
    if (proxy == job_proxies_.end()) {
        post([shared] { (*shared)(CallError { std::string(contract::error_name(contract::ErrorCode::Failed)), _("The job has already ended."), std::nullopt }); });
        return;
    }
    try {
        auto call = proxy->second->createMethodCall(bus::job_interface, "Cancel");
        call << call_options({});
        proxy->second->callMethod(
            call,
            [shared](sdbus::MethodReply& answer, const sdbus::Error* error) {
                if (error)
                    (*shared)(call_error(answer, *error));
                else
                    (*shared)(std::nullopt);
            },
            interactive_timeout);
    } catch (const sdbus::Error& error) {
        post([shared, failure = call_error(error)] { (*shared)(failure); });
    }
}

} // namespace diskbench::client
