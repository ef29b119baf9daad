// SPDX-License-Identifier: GPL-3.0-or-later
#include "manager.hpp"

#include "../system/system_disks.hpp"
#include "authorization_error.hpp"
#include "benchmark_list.hpp"
#include "bus_errors.hpp"
#include "log.hpp"
#include "start_request.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

namespace diskbench::service {

namespace {
constexpr const char* manage_jobs_action = "org.diskbench.manage-jobs";
constexpr auto flush_interval = std::chrono::milliseconds(50); // <= 20 Samples signals a second

std::string device_object_path(const std::string& kernel_name)
{
    return std::string(Manager::object_path) + std::string(contract::bus::devices_element)
        + DeviceObject::path_element(kernel_name);
}
} // namespace

Manager::Manager(sdbus::IConnection& connection, MainLoop& loop, PolkitAuthority& polkit, ManagerOptions options)
    : AdaptorInterfaces(connection, object_path)
    , connection_(connection)
    , loop_(loop)
    , polkit_(polkit)
    , options_(options)
    , bus_driver_(sdbus::createProxy(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus"))
    , owners_(connection, [this](const std::string& name) { owner_vanished(name); })
    , limits_(options.limits)
    , pending_cancels_(options.limits.cancel_checks)
{
    registerAdaptor();
}

Manager::~Manager()
{
    shutdown();
    devices_.clear();
    unregisterAdaptor();
}

void Manager::shutdown()
{
    // Waits for folders still being prepared; their replies go nowhere.
    preparations_.clear();
    for (auto& [path, job] : jobs_)
        job->cancel();
    watched_owners_.clear();
    jobs_.clear(); // joins the engine threads
}

void Manager::set_devices(std::vector<system::DeviceFacts> devices)
{
    // Mounts change with udisks' objects, which is when this runs.
    const system::SystemDisks system_disks = system::system_disks(options_.system_places);
    for (auto& facts : devices) {
        facts.system_disk = system_disks.may_hold(facts.device_number);
        facts.layers = layers_.layers_of(facts);
        // The drives udisks keeps no health for, the daemon reads itself.
        if (!facts.smart.known)
            if (auto health = health_.health_of(facts))
                facts.smart = std::move(*health);
    }
    layers_.keep_only(devices);
    health_.keep_only(devices);
    std::set<std::string> present;
    for (const auto& facts : devices) {
        const std::string path = device_object_path(facts.name);
        present.insert(path);
        auto found = devices_.find(path);
        if (found == devices_.end()) {
            log_debug("device {} appeared", facts.node);
            auto device = std::make_unique<DeviceObject>(connection_, path, facts, probes_);
            // udisks may withdraw and re-announce a device a job runs on.
            if (const std::string job = claims_.job_on(facts.udisks_block); !job.empty())
                device->set_job(job);
            devices_.emplace(path, std::move(device));
        } else if (!(found->second->facts() == facts)) {
            found->second->update(facts);
        }
    }
    for (auto it = devices_.begin(); it != devices_.end();) {
        if (present.count(it->first) == 0) {
            log_debug("device {} went away", it->second->facts().node);
            it = devices_.erase(it);
        } else {
            ++it;
        }
    }
}

void Manager::layers_changed(const system::DeviceFacts& asked)
{
    DeviceObject* device = device_at(device_object_path(asked.name));
    if (!device || device->facts().device_number != asked.device_number
        || device->facts().queue.disk_sequence != asked.queue.disk_sequence)
        return;
    system::DeviceFacts facts = device->facts();
    facts.layers = layers_.layers_of(facts);
    device->update(facts);
}

void Manager::health_changed(const std::string& disk)
{
    for (auto& [path, device] : devices_) {
        system::DeviceFacts facts = device->facts();
        if (facts.smart.source == "udisks-ata" || DeviceHealth::disk_of(facts.name) != disk)
            continue;
        if (auto health = health_.health_of(facts)) {
            facts.smart = std::move(*health);
            device->update(facts);
        }
    }
}

DeviceObject* Manager::device_at(const std::string& path)
{
    auto found = devices_.find(path);
    return found == devices_.end() ? nullptr : found->second.get();
}

std::vector<Manager::BenchmarkEntry> Manager::ListBenchmarks()
{
    touch();
    std::vector<BenchmarkEntry> list;
    for (const auto& info : engine::all_benchmarks()) {
        std::vector<ParameterEntry> params;
        for (const auto& spec : info.params)
            params.emplace_back(std::string(spec.key), parameter_type_name(spec.type), std::string(spec.description),
                                variant_from_value(spec.default_value));
        list.emplace_back(std::string(info.kind), target_name(info.target()), std::string(info.title),
                          std::string(info.description), std::move(params));
    }
    return list;
}

std::vector<Manager::ChoiceEntry> Manager::ListParameterChoices()
{
    touch();
    std::vector<ChoiceEntry> list;
    for (const auto& info : engine::all_benchmarks())
        for (const auto& spec : info.params) {
            std::vector<sdbus::Variant> values;
            for (const auto word : spec.choices)
                values.emplace_back(std::string(word));
            for (const std::uint64_t size : spec.choices_bytes)
                values.emplace_back(size);
            if (values.empty())
                continue;
            const bool bytes = !spec.choices_bytes.empty();
            list.emplace_back(std::string(info.kind), std::string(spec.key), std::string(bytes ? "bytes" : ""),
                              !bytes, std::move(values));
        }
    return list;
}

std::vector<Manager::RangeEntry> Manager::ListParameterRanges()
{
    touch();
    // ParamSpec keeps an unsigned range as doubles; the largest (2^64 - 1
    // for seeds) rounds up to 2^64 there, which must not wrap to 0.
    auto as_unsigned = [](double bound) {
        return bound >= 0x1p64 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(bound);
    };
    std::vector<RangeEntry> list;
    for (const auto& info : engine::all_benchmarks())
        for (const auto& spec : info.params) {
            if (spec.type == engine::ParamType::Unsigned)
                list.emplace_back(std::string(info.kind), std::string(spec.key),
                                  sdbus::Variant(as_unsigned(spec.minimum)), sdbus::Variant(as_unsigned(spec.maximum)));
            else if (spec.type == engine::ParamType::Real)
                list.emplace_back(std::string(info.kind), std::string(spec.key), sdbus::Variant(spec.minimum),
                                  sdbus::Variant(spec.maximum));
        }
    return list;
}

sdbus::ObjectPath Manager::FindDevice(const std::string& node)
{
    touch();
    for (const auto& [path, device] : devices_)
        if (device->facts().node == node)
            return sdbus::ObjectPath(path);
    throw make_error(ErrorCode::NotFound, { "error-not-offered", { { "device", node } } });
}

void Manager::refuse_when_exiting() const
{
    // Past this point a new request would start work the exit cancels.
    if (!accepting_)
        throw make_error(ErrorCode::Failed, { "error-daemon-exiting" });
}

std::string Manager::Version()
{
    return DISKBENCH_VERSION;
}

std::vector<sdbus::ObjectPath> Manager::Jobs()
{
    std::vector<sdbus::ObjectPath> paths;
    for (const auto& [path, job] : jobs_)
        paths.emplace_back(path);
    return paths;
}

void Manager::check_limits(uid_t uid) const
{
    UserLoad load;
    load.running = static_cast<std::size_t>(std::count_if(jobs_.begin(), jobs_.end(), [uid](const auto& job) {
        return job.second->owner_uid() == uid && !job.second->ended();
    }));
    // A cancelled job whose threads still wait at a device or filesystem
    // that stopped answering has ended on the bus, but its threads, fds and
    // buffers are still held: it counts until they have returned.
    for (const auto& [path, stuck] : stuck_runs_)
        if (stuck.owner == uid)
            load.stuck.push_back(path);
    load.stuck_total = stuck_runs_.size();
    load.preparing = static_cast<std::size_t>(std::count_if(
        preparations_.begin(), preparations_.end(), [uid](const auto& entry) { return entry.second.uid == uid; }));
    load.disposing = disposal_.pending(uid);
    load.disposing_total = disposal_.pending();
    limits_.check_start(uid, load);
}

void Manager::authorize(const std::shared_ptr<StartRequest>& request, const char* action,
                        const std::map<std::string, std::string>& details,
                        void (Manager::*next)(const std::shared_ptr<StartRequest>&))
{
    pending_.begin(request->uid); // throws when the caller has too many waiting
    try {
        polkit_.check(request->sender, action, details, request->allow_interaction,
                      [this, request, action, next](Authorization answer, const std::string& detail) {
                          pending_.end(request->uid);
                          touch();
                          log_debug("polkit answered {} for {}", static_cast<int>(answer), request->sender);
                          if (auto refusal = authorization_error(answer, action, detail)) {
                              // A "no" (with or without a password that could
                              // be asked): a polkit round trip that bought nothing.
                              if (answer == Authorization::NotAuthorized || answer == Authorization::Challenge)
                                  refused_starts_.count(request->uid);
                              refuse(request->reply, request->call, *refusal);
                              return;
                          }
                          (this->*next)(request);
                      });
    } catch (...) {
        pending_.end(request->uid);
        throw;
    }
}

void Manager::launch_job(const std::shared_ptr<StartRequest>& request, JobSetup setup, DeviceObject* device,
                         dev_t folder_filesystem)
{
    setup.benchmark = request->benchmark;
    setup.owner_uid = request->uid;
    setup.owner_bus_name = request->sender;
    setup.parameters = request->parameters;
    setup.budget = limits_.budget(request->uid);
    // A folder job on one of our devices uses that device's sensor. Looked
    // up by path at each reading: udisks may replace the Device object
    // while the job runs. The Manager owns its jobs, so `this` outlives them.
    if (setup.device_path != "/" && !setup.device_path.empty())
        setup.temperature = [this, path = setup.device_path] {
            DeviceObject* on = device_at(path);
            return on ? on->read_temperature() : system::TemperatureReading {};
        };

    const std::string path = std::string(object_path) + std::string(contract::bus::jobs_element) + std::to_string(next_job_number_++);
    std::shared_ptr<JobObject> job;
    try {
        job = std::make_shared<JobObject>(
            connection_, loop_, path, std::move(setup),
            [this](const std::string& bus_name, uid_t uid, bool allow_interaction,
                   std::function<void(std::optional<Refusal>)> done) {
                cancel_permission(bus_name, uid, allow_interaction, std::move(done));
            },
            JobObject::Events { [this](JobObject& ended) { job_ended(ended); },
                                [this](const std::string& job_path) { run_returned(job_path); } });
        // Everything that may fail comes before the job starts: an error
        // reply must never leave behind a running job its caller was not
        // told of.
        job->start(); // may throw (no threads left); then nothing runs and the object goes
    } catch (...) {
        // A folder's scope removes its scratch folder as it goes: not on
        // the bus thread.
        disposal_.dispose(request->uid, job ? job->take_scope() : std::move(setup.scope));
        throw;
    }

    jobs_.emplace(path, job);
    if (device)
        claims_.claim(path, device->facts());
    else if (folder_filesystem != 0)
        claims_.claim_filesystem(path, folder_filesystem);
    if (!request->detach)
        watched_owners_.emplace(path, request->sender);
    try {
        if (device)
            device->set_job(path);
        emitPropertiesChangedSignal(interface_name, { "Jobs" });
        // The owner may have gone before its job existed (e.g. while polkit
        // was asked): no signal will tell of that any more.
        if (!request->detach && !owners_.present(request->sender)) {
            log_info("{}: its owner {} has already left the bus; cancelling", path, request->sender);
            job->cancel();
        }
        schedule_flush();
        log_info("{}: {} on {} for uid {}", path, request->benchmark->kind, job->target_name(), request->uid);
        request->reply.returnResults(sdbus::ObjectPath(path));
    } catch (const std::exception& error) {
        // The job runs and is on the bus; the caller finds it in Jobs.
        log_warning("{}: started, but telling the bus failed: {}", path, error.what());
    }
}

std::string Manager::device_path_with_number(dev_t number) const
{
    for (const auto& [path, device] : devices_)
        if (device->facts().device_number == number)
            return path;
    return {};
}

void Manager::owner_vanished(const std::string& bus_name)
{
    caller_uids_.forget(bus_name);
    // Cancel the jobs of a connection that went away, so a crashed or closed
    // client does not leave a disk busy.
    for (auto& [path, job] : jobs_) {
        job->forget_subscriber(bus_name);
        const auto watched = watched_owners_.find(path);
        if (watched != watched_owners_.end() && watched->second == bus_name && !job->ended()) {
            log_info("{}: its owner {} left the bus; cancelling", path, bus_name);
            job->cancel();
        }
    }
}

void Manager::cancel_permission(const std::string& bus_name, uid_t uid, bool allow_interaction,
                                std::function<void(std::optional<Refusal>)> done)
{
    touch();
    // Counted only once the question is out: a check that could not be
    // asked must not keep the daemon from ever being idle.
    pending_cancels_.begin(uid); // LimitsExceeded when the user has too many waiting
    try {
        polkit_.check(bus_name, manage_jobs_action, {}, allow_interaction,
                      [this, uid, done = std::move(done)](Authorization answer, const std::string& detail) {
                          pending_cancels_.end(uid);
                          touch();
                          done(authorization_error(answer, manage_jobs_action, detail));
                      });
    } catch (...) {
        pending_cancels_.end(uid);
        throw;
    }
}

void Manager::job_ended(JobObject& job)
{
    const std::string path = job.getObjectPath();
    watched_owners_.erase(path);
    // A job that ended without its thread (its device stopped answering)
    // keeps the device until the thread returns: a second job there would
    // hang too, and a write job's exclusive open is still held.
    if (job.run_returned())
        release_device(path, job.device_path());
    else
        stuck_runs_.emplace(path, StuckRun { job.device_path(), job.owner_uid() });
    touch();
    drop_old_jobs(job.owner_uid());
    loop_.add_timer(std::chrono::duration_cast<std::chrono::milliseconds>(options_.job_retention),
                    [this, path] { remove_job(path); });
}

void Manager::run_returned(const std::string& job_path)
{
    const auto stuck = stuck_runs_.find(job_path);
    if (stuck == stuck_runs_.end())
        return; // released when the job ended
    log_info("{}: the device answered; its I/O has come back and the device is free", job_path);
    release_device(job_path, stuck->second.device_path);
    stuck_runs_.erase(stuck);
    touch();
    // Kept on the bus while it held the device; the usual retention from now.
    loop_.add_timer(std::chrono::duration_cast<std::chrono::milliseconds>(options_.job_retention),
                    [this, job_path] { remove_job(job_path); });
}

Refusal Manager::busy_error(const std::string& id, contract::MessageArg what, const std::string& job_path) const
{
    // A job cancelled while its device did not answer has a failure of its own ("-stuck"), which says so.
    const std::string chosen = stuck_runs_.count(job_path) == 0 ? id : id + "-stuck";
    return make_error(ErrorCode::DeviceBusy, { chosen, { std::move(what), { "job", job_path } } });
}

void Manager::release_device(const std::string& job_path, const std::string& device_path)
{
    claims_.release(job_path);
    if (DeviceObject* device = device_at(device_path); device && device->job() == job_path)
        device->set_job("/");
}

void Manager::drop_old_jobs(uid_t owner)
{
    // Job paths end in a rising number: the map's order is not the age
    // order ("jobs/10" < "jobs/9"), so collect and sort by number.
    std::vector<std::pair<std::uint64_t, std::string>> ended;
    for (const auto& [path, job] : jobs_)
        if (job->ended() && job->owner_uid() == owner && stuck_runs_.count(path) == 0)
            ended.emplace_back(std::stoull(path.substr(path.rfind('/') + 1)), path);
    if (ended.size() <= options_.retained_jobs_per_user)
        return;
    std::sort(ended.begin(), ended.end());
    for (std::size_t i = 0; i + options_.retained_jobs_per_user < ended.size(); ++i)
        loop_.post([this, path = ended[i].second] { remove_job(path); });
}

void Manager::remove_job(const std::string& job_path)
{
    // A job whose run still waits for its device stays, so the Device's Job
    // names an object that says why the device is busy (its Warnings).
    if (stuck_runs_.count(job_path) > 0)
        return;
    if (jobs_.erase(job_path) > 0) {
        emitPropertiesChangedSignal(interface_name, { "Jobs" });
        touch();
    }
}

void Manager::schedule_flush()
{
    if (flush_scheduled_)
        return;
    flush_scheduled_ = true;
    loop_.add_timer(flush_interval, [this] {
        flush_scheduled_ = false;
        bool any_running = false;
        for (auto& [path, job] : jobs_) {
            if (!job->ended()) {
                job->flush();
                any_running = true;
            }
        }
        if (any_running)
            schedule_flush();
    });
}

} // namespace diskbench::service
