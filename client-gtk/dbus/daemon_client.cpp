// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon_client.hpp"

#include "diskbench-proxy.h"
#include "object_properties.hpp"
#include "variant_values.hpp"

#include "contract/error_names.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <chrono>

namespace diskbench::client {

namespace {

constexpr const char* bus_name = "org.diskbench.DiskBench1";
constexpr const char* root_path = "/org/diskbench/DiskBench1";
using ManagerInterface = org::diskbench::DiskBench1::Manager_proxy;
using DeviceInterface = org::diskbench::DiskBench1::Device_proxy;
using JobInterface = org::diskbench::DiskBench1::Job_proxy;

// Long enough for someone to type a password into polkit's dialog, and
// longer than diskbenchd waits for polkit (5 minutes): its answer, which
// says what happened, should end the call, not our own timeout.
constexpr auto interactive_timeout = std::chrono::minutes(6);
// The most samples one GetSampleRange reply carries (the daemon's cap).
constexpr std::uint32_t sample_page = 262144;

CallError call_error(const sdbus::Error& error)
{
    return { error.getName(), error.getMessage() };
}

} // namespace

// The root object's Manager interface (generated from the same XML as the
// daemon's adaptors), for calls. Its ObjectManager signals are taken by
// DaemonClient's own matches, which check the sender first.
class DaemonClient::RootProxy final : public sdbus::ProxyInterfaces<ManagerInterface> {
public:
    explicit RootProxy(sdbus::IConnection& connection)
        : ProxyInterfaces(connection, bus_name, root_path)
    {
        registerProxy();
    }
    ~RootProxy() { unregisterProxy(); }
    sdbus::IProxy& proxy() { return getProxy(); }
};

DaemonClient::DaemonClient()
    : connection_(sdbus::createSystemBusConnection())
{
    source_ = std::make_unique<BusSource>(*connection_, [this] { daemon_gone(); });
    root_ = std::make_unique<RootProxy>(*connection_);
    // One match per kind of signal for all objects, instead of a proxy (and
    // a synchronous AddMatch round trip) per job. The bus delivers unicast
    // signals from anyone and sd-bus does not compare a well-known sender
    // name with the real one, so every handler checks the sender itself.
    const std::string sender = std::string("sender='") + bus_name + "',";
    auto watch = [this](const std::string& rule, void (DaemonClient::*handler)(sdbus::Message&)) {
        matches_.push_back(connection_->addMatch(rule, [this, handler](sdbus::Message& message) {
            guarded("a signal", [&] {
                if (from_daemon(message))
                    (this->*handler)(message);
            });
        }));
    };
    watch("type='signal'," + sender + "interface='org.freedesktop.DBus.ObjectManager',path='" + root_path + "'",
          &DaemonClient::on_object_manager_signal);
    watch("type='signal'," + sender + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='"
              + root_path + "'",
          &DaemonClient::on_properties_changed);
    watch("type='signal'," + sender + "interface='" + JobInterface::INTERFACE_NAME + "'", &DaemonClient::on_job_signal);
    matches_.push_back(connection_->addMatch(
        std::string("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='")
            + bus_name + "'",
        [this](sdbus::Message& message) {
            guarded("NameOwnerChanged", [&] {
                // Only the bus itself may say who owns the name.
                if (message.getSender() == "org.freedesktop.DBus")
                    on_name_owner_changed(message);
            });
        }));
    bus_proxy_ = sdbus::createProxy(*connection_, "org.freedesktop.DBus", "/org/freedesktop/DBus");
    bus_proxy_->callMethodAsync("GetNameOwner")
        .onInterface("org.freedesktop.DBus")
        .withArguments(std::string(bus_name))
        .uponReplyInvoke([this](const sdbus::Error* error, const std::string& owner) {
            // Not running yet: GetManagedObjects below starts it, and
            // NameOwnerChanged says who it is.
            if (!error && daemon_owner_.empty())
                daemon_owner_ = owner;
        });
    refresh();
}

DaemonClient::~DaemonClient()
{
    // Proxies and matches go before the source and the connection.
    job_proxies_.clear();
    matches_.clear();
    bus_proxy_.reset();
    root_.reset();
    source_.reset();
}

void DaemonClient::add_observer(Observer* observer)
{
    observers_.push_back(observer);
}

void DaemonClient::remove_observer(Observer* observer)
{
    std::erase(observers_, observer);
}

template <typename F> void DaemonClient::notify(F&& call)
{
    // Copy: an observer may remove itself from inside the callback.
    const std::vector<Observer*> observers = observers_;
    for (Observer* observer : observers)
        if (std::find(observers_.begin(), observers_.end(), observer) != observers_.end())
            call(*observer);
}

template <typename F> void DaemonClient::guarded(const char* what, F&& body)
{
    // Nothing may unwind into sd-bus: it would leave its connection stuck
    // on the message (every later call fails with EBUSY).
    try {
        body();
    } catch (const std::exception& error) {
        g_warning("ignored a malformed message (%s): %s", what, error.what());
    }
}

bool DaemonClient::from_daemon(const sdbus::Message& message) const
{
    return !daemon_owner_.empty() && message.getSender() == daemon_owner_;
}

void DaemonClient::daemon_gone()
{
    std::vector<std::string> gone;
    for (const auto& [path, job] : jobs_)
        gone.push_back(path);
    for (const std::string& path : gone)
        remove_interfaces(path, { JobInterface::INTERFACE_NAME });
    daemon_running_ = false;
    daemon_owner_.clear();
    notify([](Observer& o) { o.daemon_availability_changed(false); });
}

// (A message of another shape throws while being read; guarded() drops it.)
void DaemonClient::on_object_manager_signal(sdbus::Message& message)
{
    if (message.getMemberName() == "InterfacesAdded") {
        sdbus::ObjectPath path;
        std::map<std::string, PropertyMap> interfaces;
        message >> path >> interfaces;
        add_interfaces(path, interfaces);
    } else if (message.getMemberName() == "InterfacesRemoved") {
        sdbus::ObjectPath path;
        std::vector<std::string> interfaces;
        message >> path >> interfaces;
        remove_interfaces(path, interfaces);
    }
}

const BenchmarkInfo* DaemonClient::benchmark(const std::string& kind) const
{
    for (const BenchmarkInfo& info : benchmarks_)
        if (info.kind == kind)
            return &info;
    return nullptr;
}

const DeviceEntry* DaemonClient::device(const std::string& path) const
{
    const auto found = devices_.find(path);
    return found == devices_.end() ? nullptr : &found->second;
}

const DeviceEntry* DaemonClient::device_by_node(const std::string& node) const
{
    for (const auto& [path, device] : devices_)
        if (device.node == node)
            return &device;
    return nullptr;
}

const JobEntry* DaemonClient::job(const std::string& path) const
{
    const auto found = jobs_.find(path);
    return found == jobs_.end() ? nullptr : &found->second;
}

void DaemonClient::refresh()
{
    load_objects();
    load_benchmarks();
}

void DaemonClient::load_objects()
{
    root_->proxy()
        .callMethodAsync("GetManagedObjects")
        .onInterface("org.freedesktop.DBus.ObjectManager")
        .uponReplyInvoke([this](const sdbus::Error* error, const ObjectMap& objects) {
            if (error) {
                g_message("cannot list the daemon's objects: %s", error->what());
                daemon_running_ = false;
                notify([](Observer& o) { o.daemon_availability_changed(false); });
                return;
            }
            apply_objects(objects);
            if (!daemon_running_) {
                daemon_running_ = true;
                notify([](Observer& o) { o.daemon_availability_changed(true); });
            }
        });
}

void DaemonClient::load_benchmarks()
{
    using ParameterList = std::vector<sdbus::Struct<std::string, std::string, std::string, sdbus::Variant>>;
    using KindList = std::vector<sdbus::Struct<std::string, std::string, std::string, std::string, ParameterList>>;
    root_->proxy()
        .callMethodAsync("ListBenchmarks")
        .onInterface(ManagerInterface::INTERFACE_NAME)
        .uponReplyInvoke([this](const sdbus::Error* error, const KindList& kinds) {
            if (error) {
                g_message("cannot list benchmarks: %s", error->what());
                return;
            }
            benchmarks_.clear();
            for (const auto& kind : kinds) {
                BenchmarkInfo info { kind.get<0>(), kind.get<1>(), kind.get<2>(), kind.get<3>(), {} };
                for (const auto& parameter : kind.get<4>()) {
                    ParameterInfo p { parameter.get<0>(), parameter.get<1>(), parameter.get<2>(), {} };
                    if (auto value = saved_value_from_variant(parameter.get<3>()))
                        p.default_value = *value;
                    info.parameters.push_back(std::move(p));
                }
                benchmarks_.push_back(std::move(info));
            }
            notify([](Observer& o) { o.benchmarks_changed(); });
            load_parameter_choices();
        });
    root_->proxy()
        .callMethodAsync("Get")
        .onInterface("org.freedesktop.DBus.Properties")
        .withArguments(std::string(ManagerInterface::INTERFACE_NAME), std::string("Version"))
        .uponReplyInvoke([this](const sdbus::Error* error, const sdbus::Variant& value) {
            if (!error && value.containsValueOfType<std::string>())
                version_ = value.get<std::string>();
        });
}

void DaemonClient::load_parameter_choices()
{
    using ChoiceList = std::vector<sdbus::Struct<std::string, std::string, std::string, bool, std::vector<sdbus::Variant>>>;
    root_->proxy()
        .callMethodAsync("ListParameterChoices")
        .onInterface(ManagerInterface::INTERFACE_NAME)
        .uponReplyInvoke([this](const sdbus::Error* error, const ChoiceList& choices) {
            if (error) {
                // A daemon before 0.4: every parameter keeps its plain editor.
                g_message("no parameter choices: %s", error->what());
                return;
            }
            for (const auto& entry : choices)
                for (BenchmarkInfo& info : benchmarks_) {
                    if (info.kind != entry.get<0>())
                        continue;
                    for (ParameterInfo& parameter : info.parameters) {
                        if (parameter.key != entry.get<1>())
                            continue;
                        parameter.unit = entry.get<2>();
                        parameter.exclusive = entry.get<3>();
                        parameter.choices.clear();
                        for (const sdbus::Variant& value : entry.get<4>())
                            if (auto saved = saved_value_from_variant(value))
                                parameter.choices.push_back(*saved);
                    }
                }
            notify([](Observer& o) { o.benchmarks_changed(); });
        });
    load_parameter_ranges();
}

void DaemonClient::load_parameter_ranges()
{
    using RangeList = std::vector<sdbus::Struct<std::string, std::string, sdbus::Variant, sdbus::Variant>>;
    root_->proxy()
        .callMethodAsync("ListParameterRanges")
        .onInterface(ManagerInterface::INTERFACE_NAME)
        .uponReplyInvoke([this](const sdbus::Error* error, const RangeList& ranges) {
            if (error) {
                // A daemon before 0.5: values are checked when a run starts.
                g_message("no parameter ranges: %s", error->what());
                return;
            }
            auto number = [](const sdbus::Variant& value) -> std::optional<double> {
                if (value.containsValueOfType<std::uint64_t>())
                    return static_cast<double>(value.get<std::uint64_t>());
                if (value.containsValueOfType<double>())
                    return value.get<double>();
                return std::nullopt;
            };
            for (const auto& entry : ranges)
                for (BenchmarkInfo& info : benchmarks_) {
                    if (info.kind != entry.get<0>())
                        continue;
                    for (ParameterInfo& parameter : info.parameters) {
                        const auto minimum = number(entry.get<2>()), maximum = number(entry.get<3>());
                        if (parameter.key != entry.get<1>() || !minimum || !maximum)
                            continue;
                        parameter.ranged = true;
                        parameter.minimum = *minimum;
                        parameter.maximum = *maximum;
                    }
                }
            notify([](Observer& o) { o.benchmarks_changed(); });
        });
}

void DaemonClient::apply_objects(const ObjectMap& objects)
{
    std::map<std::string, DeviceEntry> devices;
    std::vector<std::string> seen_jobs;
    for (const auto& [path, interfaces] : objects) {
        if (const auto device = interfaces.find(DeviceInterface::INTERFACE_NAME); device != interfaces.end()) {
            DeviceEntry entry;
            entry.path = path;
            apply_device_properties(entry, device->second);
            devices.emplace(path, std::move(entry));
        }
        if (interfaces.count(JobInterface::INTERFACE_NAME)) {
            seen_jobs.push_back(path);
            add_interfaces(path, { { JobInterface::INTERFACE_NAME, interfaces.at(JobInterface::INTERFACE_NAME) } });
        }
    }
    devices_ = std::move(devices);
    std::vector<std::string> gone;
    for (const auto& [path, job] : jobs_)
        if (std::find(seen_jobs.begin(), seen_jobs.end(), path) == seen_jobs.end())
            gone.push_back(path);
    for (const std::string& path : gone)
        remove_interfaces(path, { JobInterface::INTERFACE_NAME });
    notify([](Observer& o) { o.devices_changed(); });
}

void DaemonClient::add_interfaces(const std::string& path, const std::map<std::string, PropertyMap>& interfaces)
{
    if (const auto device = interfaces.find(DeviceInterface::INTERFACE_NAME); device != interfaces.end()) {
        DeviceEntry& entry = devices_[path];
        entry.path = path;
        apply_device_properties(entry, device->second);
        notify([](Observer& o) { o.devices_changed(); });
    }
    if (const auto job = interfaces.find(JobInterface::INTERFACE_NAME); job != interfaces.end()) {
        const bool is_new = !jobs_.count(path);
        JobEntry& entry = jobs_[path];
        entry.path = path;
        apply_job_properties(entry, job->second);
        if (is_new) {
            job_proxies_[path] = sdbus::createProxy(*connection_, bus_name, path);
            streams_[path] = SampleStream();
            request_samples(entry);
            if (entry.in_directory() && entry.target.empty())
                request_target(entry);
        }
        if (entry.ended())
            streams_[path].end(entry.points);
        notify([&entry](Observer& o) { o.job_changed(entry); });
    }
}

void DaemonClient::remove_interfaces(const std::string& path, const std::vector<std::string>& interfaces)
{
    for (const std::string& name : interfaces) {
        if (name == DeviceInterface::INTERFACE_NAME && devices_.erase(path))
            notify([](Observer& o) { o.devices_changed(); });
        if (name == JobInterface::INTERFACE_NAME && jobs_.count(path)) {
            // Observers get the job as it was (a page keeps showing its
            // result); it is out of the table already.
            auto node = jobs_.extract(path);
            job_proxies_.erase(path);
            streams_.erase(path);
            const JobEntry& job = node.mapped();
            notify([&job](Observer& o) { o.job_removed(job); });
        }
    }
}

void DaemonClient::on_properties_changed(sdbus::Message& message)
{
    std::string interface;
    PropertyMap changed;
    std::vector<std::string> invalidated;
    message >> interface >> changed >> invalidated;
    const std::string path = message.getPath();
    if (interface == DeviceInterface::INTERFACE_NAME) {
        if (const auto found = devices_.find(path); found != devices_.end()) {
            apply_device_properties(found->second, changed);
            notify([](Observer& o) { o.devices_changed(); });
        }
    } else if (interface == JobInterface::INTERFACE_NAME) {
        if (const auto found = jobs_.find(path); found != jobs_.end()) {
            JobEntry& job = found->second;
            apply_job_properties(job, changed);
            if (job.ended())
                streams_[path].end(job.points);
            notify([&job](Observer& o) { o.job_changed(job); });
        }
    }
}

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
        .onInterface(JobInterface::INTERFACE_NAME)
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
        .onInterface(JobInterface::INTERFACE_NAME)
        .uponReplyInvoke([this, path](const sdbus::Error* error, const std::string& target) {
            const auto found = jobs_.find(path);
            if (error || found == jobs_.end())
                return;
            found->second.target = target;
            notify([&job = found->second](Observer& o) { o.job_changed(job); });
        });
}

void DaemonClient::on_name_owner_changed(sdbus::Message& message)
{
    std::string name, old_owner, new_owner;
    message >> name >> old_owner >> new_owner;
    if (name != bus_name)
        return;
    daemon_owner_ = new_owner;
    if (new_owner.empty()) {
        // The daemon exited (idle) or crashed: its jobs are gone; its
        // devices are still there and come back when it is started again.
        daemon_gone();
    } else {
        load_objects();
    }
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

template <typename... Args> void DaemonClient::call_start(const char* method, StartReply reply, const Args&... args)
{
    auto shared = std::make_shared<StartReply>(std::move(reply));
    try {
        root_->proxy()
            .callMethodAsync(method)
            .onInterface(ManagerInterface::INTERFACE_NAME)
            .withTimeout(interactive_timeout)
            .withArguments(args...)
            .uponReplyInvoke([shared](const sdbus::Error* error, const sdbus::ObjectPath& job) {
                if (error)
                    (*shared)(call_error(*error));
                else
                    (*shared)(std::string(job));
            });
    } catch (const sdbus::Error& error) {
        post([shared, failure = call_error(error)] { (*shared)(failure); });
    }
}

void DaemonClient::start_benchmark(const std::string& device_path, const std::string& kind, const SavedValueMap& options,
                                   StartReply reply)
{
    call_start("StartBenchmark", std::move(reply), sdbus::ObjectPath(device_path), kind, variants_from_saved_map(options));
}

void DaemonClient::start_filesystem_benchmark(int directory_fd, const std::string& kind, const SavedValueMap& options,
                                              StartReply reply)
{
    // UnixFd(int) duplicates the descriptor; the message owns that copy.
    call_start("StartFilesystemBenchmark", std::move(reply), sdbus::UnixFd(directory_fd), kind,
               variants_from_saved_map(options));
}

void DaemonClient::cancel_job(const std::string& job_path, DoneReply reply)
{
    auto shared = std::make_shared<DoneReply>(std::move(reply));
    const auto proxy = job_proxies_.find(job_path);
    if (proxy == job_proxies_.end()) {
        post([shared] { (*shared)(CallError { std::string(contract::error_name(contract::ErrorCode::Failed)), _("The job has already ended.") }); });
        return;
    }
    try {
        proxy->second->callMethodAsync("Cancel")
            .onInterface(JobInterface::INTERFACE_NAME)
            .withTimeout(interactive_timeout)
            .withArguments(std::map<std::string, sdbus::Variant> {})
            .uponReplyInvoke([shared](const sdbus::Error* error) {
                if (error)
                    (*shared)(call_error(*error));
                else
                    (*shared)(std::nullopt);
            });
    } catch (const sdbus::Error& error) {
        post([shared, failure = call_error(error)] { (*shared)(failure); });
    }
}

} // namespace diskbench::client
