// SPDX-License-Identifier: GPL-3.0-or-later
#include "manager.hpp"

#include "../engine/errors.hpp"
#include "../system/device_identity.hpp"
#include "../system/system_disks.hpp"
#include "authorization_error.hpp"
#include "caller_credentials.hpp"
#include "device_info.hpp"
#include "errors.hpp"
#include "log.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <set>

namespace diskbench::service {

namespace {

constexpr const char* read_device_action = "org.diskbench.read-device";
constexpr const char* write_device_action = "org.diskbench.write-device";
constexpr const char* filesystem_action = "org.diskbench.benchmark-filesystem";
constexpr const char* manage_jobs_action = "org.diskbench.manage-jobs";
constexpr const char* no_interaction_option = "auth.no_user_interaction";
constexpr const char* detach_option = "detach";
constexpr auto flush_interval = std::chrono::milliseconds(50); // <= 20 Samples signals a second

std::string parameter_type(engine::ParamType type)
{
    switch (type) {
    case engine::ParamType::Boolean:
        return "boolean";
    case engine::ParamType::Unsigned:
        return "unsigned";
    case engine::ParamType::Real:
        return "number";
    case engine::ParamType::Text:
        return "string";
    }
    return "string";
}

// The target's facts without opening it: enough for the engine to check
// parameters against the device before anyone is authorized to touch it.
engine::Target unopened_target(const system::DeviceFacts& facts)
{
    engine::Target target;
    target.name = facts.node;
    target.size = facts.size - facts.size % facts.queue.logical_block_size;
    target.logical_block = facts.queue.logical_block_size;
    target.physical_block = facts.queue.physical_block_size;
    target.is_block_device = true;
    return target;
}

// How ListBenchmarks() tells the kinds apart (see the interface XML).
std::string target_name(engine::TargetKind target)
{
    switch (target) {
    case engine::TargetKind::Device:
        return "device";
    case engine::TargetKind::DeviceWrite:
        return "device-write";
    case engine::TargetKind::Directory:
        return "directory";
    }
    return "device";
}

// The folder behind a caller's fd, as this process sees it: for logs,
// polkit's dialog and the Job's Target, never to open anything by.
std::string folder_name(int fd)
{
    std::string link = "/proc/self/fd/" + std::to_string(fd);
    std::string name(4096, '\0');
    const ssize_t length = ::readlink(link.c_str(), name.data(), name.size());
    if (length <= 0 || static_cast<std::size_t>(length) >= name.size())
        return "(a folder)";
    name.resize(static_cast<std::size_t>(length));
    return name;
}

std::string_view without_blanks_around(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

// The word that confirms destroying a device's data: its serial, which
// tells two drives of a model apart, or its node when it has none (loop
// devices, some USB bridges). Blanks around a serial (some drives pad it,
// and udisks passes that on) are neither required nor refused: the app
// sends what it shows, trimmed.
std::string confirming_name(const system::DeviceFacts& facts)
{
    const std::string_view serial = without_blanks_around(facts.serial);
    return std::string(serial.empty() ? std::string_view(facts.node) : serial);
}

// What a raw write needs besides authorization: nothing of the device in
// use (udisks' view: mounted filesystems, holders such as RAID, LVM or
// dm-crypt, swap), not on a disk the running system is on (not even an
// unmounted partition of it), and for mode=destroy the device named in
// `confirm`. The exclusive open after authorization is the kernel's final
// word.
void check_writable(const system::DeviceFacts& facts, const engine::ValueMap& parameters,
                    const system::SystemPlaces& system_places)
{
    if (facts.mounted)
        throw make_error(ErrorCode::DeviceBusy,
                         facts.node + " (or one of its partitions) is mounted; a raw write test needs it unused");
    if (facts.in_use())
        throw make_error(ErrorCode::DeviceBusy,
                         facts.node + " is in use (held by RAID, LVM or dm-crypt, or swap); a raw write test needs it "
                                      "unused");
    // Fails closed: a device whose disk sysfs cannot name is not written.
    if (system::disks_under(facts.device_number).empty())
        throw make_error(ErrorCode::Failed,
                         facts.node + ": sysfs does not say which disk it is on, so it cannot be told apart from the "
                                      "system's; a raw write test needs that");
    const std::set<dev_t> system_disks = system::system_disks(system_places);
    if (system_disks.empty())
        log_warning("no disk found under / and the other system mount points (overlay, zfs?): only the exclusive "
                    "open protects them from raw writes");
    if (system::on_any_of(facts.device_number, system_disks))
        throw make_error(ErrorCode::DeviceBusy,
                         facts.node + " is on a disk the running system uses (/, /usr, /var, /boot, the ESP or swap); "
                                      "raw write tests never run there, not even on an unmounted partition");
    const auto mode = parameters.find("mode");
    const auto confirm = parameters.find("confirm");
    if (mode != parameters.end() && std::get<std::string>(mode->second) == "destroy"
        && (confirm == parameters.end()
            || without_blanks_around(std::get<std::string>(confirm->second)) != confirming_name(facts)))
        throw make_error(ErrorCode::InvalidArgument,
                         std::string("confirm: mode=destroy erases the data on ") + facts.node + "; confirm must be "
                             + (without_blanks_around(facts.serial).empty() ? "its node"
                                                                             : "its serial number (the Device's Serial)"));
}

// How polkit's dialog names a device ("$(device)" in the policy's
// messages): the model tells the user which disk, the node which one of two
// alike.
std::string device_label(const system::DeviceFacts& facts)
{
    std::string model = facts.vendor.empty() ? facts.model : facts.vendor + " " + facts.model;
    while (!model.empty() && model.back() == ' ')
        model.pop_back();
    return model.empty() ? facts.node : model + " (" + facts.node + ")";
}

// Removes a daemon option (not a benchmark parameter) from `options`.
bool take_flag(std::map<std::string, sdbus::Variant>& options, const char* key)
{
    auto flag = options.find(key);
    if (flag == options.end())
        return false;
    if (!flag->second.containsValueOfType<bool>())
        throw make_error(ErrorCode::InvalidArgument, std::string(key) + ": expected a boolean (b)");
    const bool value = flag->second.get<bool>();
    options.erase(flag);
    return value;
}

} // namespace

struct Manager::StartRequest {
    sdbus::Result<sdbus::ObjectPath> reply;
    std::string device_path;
    system::DeviceFacts device; // device benchmarks: the device as it was when asked for
    const engine::BenchmarkInfo* benchmark = nullptr;
    engine::ValueMap options;
    engine::ValueMap parameters;
    engine::UniqueFd directory; // filesystem benchmarks: the caller's folder
    std::string directory_name;
    bool allow_interaction = true;
    std::string sender;
    uid_t uid = 0;
    bool detach = false;
};

Manager::Manager(sdbus::IConnection& connection, MainLoop& loop, PolkitAuthority& polkit, ManagerOptions options)
    : AdaptorInterfaces(connection, object_path)
    , connection_(connection)
    , loop_(loop)
    , polkit_(polkit)
    , options_(options)
    , bus_driver_(sdbus::createProxy(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus"))
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
    owner_watches_.clear();
    jobs_.clear(); // joins the engine threads
}

void Manager::set_devices(std::vector<system::DeviceFacts> devices)
{
    // Mounts change with udisks' objects, which is when this runs.
    const std::set<dev_t> system_disks = system::system_disks(options_.system_places);
    for (auto& facts : devices)
        facts.system_disk = system::on_any_of(facts.device_number, system_disks);
    std::set<std::string> present;
    for (const auto& facts : devices) {
        const std::string path = std::string(object_path) + "/devices/" + DeviceObject::path_element(facts.name);
        present.insert(path);
        auto found = devices_.find(path);
        if (found == devices_.end()) {
            log_debug("device {} appeared as {}", facts.node, path);
            auto device = std::make_unique<DeviceObject>(connection_, path, facts);
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
            params.emplace_back(std::string(spec.key), parameter_type(spec.type), std::string(spec.description),
                                variant_from_value(spec.default_value));
        list.emplace_back(std::string(info.kind), target_name(info.target()), std::string(info.title),
                          std::string(info.description), std::move(params));
    }
    return list;
}

sdbus::ObjectPath Manager::FindDevice(const std::string& node)
{
    touch();
    for (const auto& [path, device] : devices_)
        if (device->facts().node == node)
            return sdbus::ObjectPath(path);
    throw make_error(ErrorCode::NotFound, "\"" + node + "\" is not a block device diskbench offers");
}

void Manager::refuse_when_exiting() const
{
    // Past this point a new request would start work the exit cancels.
    if (!accepting_)
        throw make_error(ErrorCode::Failed, "diskbenchd is exiting; call again (a new one will start)");
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

bool Manager::read_start_request(StartRequest& request, const std::string& kind,
                                 std::map<std::string, sdbus::Variant>& options)
{
    const sdbus::Message* message = getObject().getCurrentlyProcessedMessage();
    request.sender = message->getSender();
    request.uid = message->getCredsUid();
    request.benchmark = engine::find_benchmark(kind);
    if (!request.benchmark)
        return false;
    request.allow_interaction = !take_flag(options, no_interaction_option);
    request.detach = take_flag(options, detach_option);
    request.options = values_from_variants(options);
    request.parameters = engine::validate_parameters(request.benchmark->params, request.options).values();
    return true;
}

void Manager::StartBenchmark(sdbus::Result<sdbus::ObjectPath>&& result, sdbus::ObjectPath device, std::string kind,
                             std::map<std::string, sdbus::Variant> options)
{
    touch();
    auto request = std::make_shared<StartRequest>();
    request->reply = std::move(result);
    try {
        refuse_when_exiting();
        const DeviceObject* target_device = device_at(device);
        if (!target_device)
            throw make_error(ErrorCode::NotFound, "no device " + device);
        request->device_path = device;
        // The caller asked for this device, not for whatever has its name
        // once polkit has answered (see start_authorized).
        request->device = target_device->facts();
        if (!read_start_request(*request, kind, options)
            || request->benchmark->target() == engine::TargetKind::Directory)
            throw make_error(ErrorCode::NotFound, "no device benchmark kind \"" + kind + "\" (see ListBenchmarks)");
        const system::DeviceFacts& facts = request->device;
        engine::check_benchmark(*request->benchmark, unopened_target(facts), request->options);
        const bool writes = request->benchmark->target() == engine::TargetKind::DeviceWrite;
        if (writes)
            check_writable(facts, request->parameters, options_.system_places);
        if (const std::string busy = claims_.conflicting_job(facts); !busy.empty())
            throw make_error(ErrorCode::DeviceBusy, facts.node + " is in use by " + busy);

        log_debug("uid {} ({}) asks for {} on {}", request->uid, request->sender, kind, facts.node);
        authorize(request, writes ? write_device_action : read_device_action, { { "device", device_label(facts) } },
                  &Manager::start_authorized);
    } catch (const std::exception& error) {
        request->reply.returnError(reply_error(error));
    }
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
                              request->reply.returnError(*refusal);
                              return;
                          }
                          (this->*next)(request);
                      });
    } catch (...) {
        pending_.end(request->uid);
        throw;
    }
}

void Manager::start_authorized(const std::shared_ptr<StartRequest>& request)
{
    const system::DeviceFacts& asked = request->device;
    const auto replaced = [&asked](const std::string& why) {
        return make_error(ErrorCode::NotFound, asked.node + " went away or was replaced while authorization was asked ("
                                                   + why + "); nothing was done");
    };
    try {
        // The world may have moved on while polkit was asked: a disk swapped
        // for another at the same node or object path, a loop device
        // re-attached to another file. Authorization was for the device the
        // caller named, so it must still be that one.
        DeviceObject* device = device_at(request->device_path);
        if (!device)
            throw replaced("it is gone");
        if (const std::string change = system::identity_change(asked, device->facts()); !change.empty())
            throw replaced(change);
        if (const std::string busy = claims_.conflicting_job(asked); !busy.empty())
            throw make_error(ErrorCode::DeviceBusy, asked.node + " is in use by " + busy);
        const bool writes = request->benchmark->target() == engine::TargetKind::DeviceWrite;
        if (writes)
            check_writable(device->facts(), request->parameters, options_.system_places); // mounted meanwhile?

        JobSetup setup;
        setup.device_path = request->device_path;
        setup.target_name = asked.node;
        setup.device_info = device_info(asked);
        // Opened by us from the node udisks reported, never from a caller's
        // path. For writes the open is exclusive (O_EXCL and the device's
        // lock): the kernel refuses a device someone mounted or claimed
        // since (DeviceBusy), and nobody can while the job holds it.
        setup.target = writes ? engine::open_target_for_write(asked.node) : engine::open_target_for_read(asked.node);
        // Our facts come from udisks, which may lag behind the kernel: what
        // was opened is checked against the kernel itself.
        struct stat st {};
        if (::fstat(setup.target.fd.get(), &st) != 0 || st.st_rdev != asked.device_number)
            throw replaced("its node now names another device");
        if (asked.queue.disk_sequence != 0
            && system::disk_sequence_of(setup.target.fd.get()) != std::optional(asked.queue.disk_sequence))
            throw replaced("it is a new medium or attachment (disk sequence number)");
        launch_job(request, std::move(setup), device);
    } catch (const std::exception& error) {
        request->reply.returnError(reply_error(error));
    }
}

void Manager::StartFilesystemBenchmark(sdbus::Result<sdbus::ObjectPath>&& result, sdbus::UnixFd directory,
                                       std::string kind, std::map<std::string, sdbus::Variant> options)
{
    touch();
    auto request = std::make_shared<StartRequest>();
    request->reply = std::move(result);
    try {
        refuse_when_exiting();
        // sdbus-c++ gave us our own duplicate of the caller's fd.
        request->directory = engine::UniqueFd(directory.release());
        if (!read_start_request(*request, kind, options)
            || request->benchmark->target() != engine::TargetKind::Directory)
            throw make_error(ErrorCode::NotFound,
                             "no filesystem benchmark kind \"" + kind + "\" (see ListBenchmarks)");
        request->directory_name = folder_name(request->directory.get());

        log_debug("uid {} ({}) asks for {} in {}", request->uid, request->sender, kind, request->directory_name);
        authorize(request, filesystem_action, { { "directory", request->directory_name } },
                  &Manager::prepare_directory);
    } catch (const std::exception& error) {
        request->reply.returnError(reply_error(error));
    }
}

void Manager::prepare_directory(const std::shared_ptr<StartRequest>& request)
{
    try {
        BusCredentials caller = bus_credentials(*bus_driver_, request->sender, request->uid);
        const std::uint64_t id = next_preparation_++;
        auto preparation = std::make_shared<DirectoryPreparation>(
            loop_, std::move(request->directory), request->directory_name, std::move(caller), *request->benchmark,
            request->options, [this, id, request](DirectoryPreparation::Outcome outcome) {
                preparations_.erase(id);
                touch();
                if (outcome.error) {
                    request->reply.returnError(*outcome.error);
                    return;
                }
                start_in_directory(request, std::move(*outcome.directory));
            });
        preparations_.emplace(id, preparation);
        try {
            preparation->start();
        } catch (...) {
            preparations_.erase(id); // or the daemon would never be idle again
            throw;
        }
    } catch (const std::exception& error) {
        request->reply.returnError(reply_error(error));
    }
}

void Manager::start_in_directory(const std::shared_ptr<StartRequest>& request, PreparedDirectory prepared)
{
    try {
        JobSetup setup;
        const std::string device_path = device_path_with_number(prepared.device_number);
        DeviceObject* device = device_at(device_path);
        if (device) {
            // Writing files while another job reads the same disk would
            // measure neither.
            if (const std::string busy = claims_.conflicting_job(device->facts()); !busy.empty())
                throw make_error(ErrorCode::DeviceBusy, device->facts().node + " is in use by " + busy);
            setup.device_path = device_path;
            setup.device_info = device_info(device->facts());
        } else {
            setup.device_path = "/";
            setup.device_info = system_info();
        }
        setup.device_info["filesystem_type"] = sdbus::Variant(prepared.facts.type);
        setup.device_info["filesystem_free"] = sdbus::Variant(prepared.facts.available_bytes);
        setup.target_name = request->directory_name;
        setup.scope = std::move(prepared.scope);
        launch_job(request, std::move(setup), device);
    } catch (const std::exception& error) {
        request->reply.returnError(reply_error(error));
    }
}

void Manager::launch_job(const std::shared_ptr<StartRequest>& request, JobSetup setup, DeviceObject* device)
{
    setup.benchmark = request->benchmark;
    setup.owner_uid = request->uid;
    setup.owner_bus_name = request->sender;
    setup.options = request->options;
    setup.parameters = request->parameters;

    const std::string path = std::string(object_path) + "/jobs/" + std::to_string(next_job_number_++);
    auto job = std::make_shared<JobObject>(
        connection_, loop_, path, std::move(setup),
        [this](const std::string& bus_name, bool allow_interaction,
               std::function<void(std::optional<sdbus::Error>)> done) {
            cancel_permission(bus_name, allow_interaction, std::move(done));
        },
        [this](JobObject& ended) { job_ended(ended); });
    // Everything that may fail comes before the job starts: an error reply
    // must never leave behind a running job its caller was not told of.
    std::optional<sdbus::Slot> owner_watch;
    if (!request->detach)
        owner_watch = watch_owner(path, request->sender);
    job->start(); // may throw (no threads left); then nothing runs and the object goes

    jobs_.emplace(path, job);
    if (device)
        claims_.claim(path, device->facts());
    if (owner_watch)
        owner_watches_.emplace(path, std::move(*owner_watch));
    try {
        if (device)
            device->set_job(path);
        emitPropertiesChangedSignal(interface_name, { "Jobs" });
        if (!request->detach)
            cancel_if_owner_gone(path, request->sender);
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

sdbus::Slot Manager::watch_owner(const std::string& job_path, const std::string& bus_name)
{
    // Cancel the job when the connection that started it goes away, so a
    // crashed or closed client does not leave the disk busy.
    return connection_.addMatch(
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        "member='NameOwnerChanged',arg0='"
            + bus_name + "'",
        [this, job_path](sdbus::Message& message) {
            try {
                std::string name, old_owner, new_owner;
                message >> name >> old_owner >> new_owner;
                if (!new_owner.empty())
                    return;
                if (auto job = jobs_.find(job_path); job != jobs_.end() && !job->second->ended()) {
                    log_info("{}: its owner {} left the bus; cancelling", job_path, name);
                    job->second->cancel();
                }
            } catch (const std::exception& error) { // only sdbus::Error may cross sd-bus
                log_warning("watching the owner of {} failed: {}", job_path, error.what());
            }
        });
}

void Manager::cancel_if_owner_gone(const std::string& job_path, const std::string& bus_name) noexcept
{
    // The owner may have gone before the match was in place (e.g. while
    // polkit was asked).
    bool has_owner = true;
    try {
        bus_driver_->callMethod("NameHasOwner").onInterface("org.freedesktop.DBus").withArguments(bus_name).storeResultsTo(has_owner);
    } catch (const sdbus::Error& error) {
        log_warning("cannot ask the bus about {}: {}", bus_name, error.getMessage());
    }
    if (auto job = jobs_.find(job_path); !has_owner && job != jobs_.end()) {
        log_info("{}: its owner {} has already left the bus; cancelling", job_path, bus_name);
        job->second->cancel();
    }
}

void Manager::cancel_permission(const std::string& bus_name, bool allow_interaction,
                                std::function<void(std::optional<sdbus::Error>)> done)
{
    touch();
    ++pending_cancel_checks_;
    polkit_.check(bus_name, manage_jobs_action, {}, allow_interaction,
                  [this, done = std::move(done)](Authorization answer, const std::string& detail) {
                      --pending_cancel_checks_;
                      touch();
                      done(authorization_error(answer, manage_jobs_action, detail));
                  });
}

void Manager::job_ended(JobObject& job)
{
    const std::string path = job.getObjectPath();
    owner_watches_.erase(path);
    claims_.release(path);
    if (DeviceObject* device = device_at(job.device_path()); device && device->job() == path)
        device->set_job("/");
    touch();
    drop_old_jobs(job.owner_uid());
    loop_.add_timer(std::chrono::duration_cast<std::chrono::milliseconds>(options_.job_retention),
                    [this, path] { remove_job(path); });
}

void Manager::drop_old_jobs(uid_t owner)
{
    // Job paths end in a rising number: the map's order is not the age
    // order ("jobs/10" < "jobs/9"), so collect and sort by number.
    std::vector<std::pair<std::uint64_t, std::string>> ended;
    for (const auto& [path, job] : jobs_)
        if (job->ended() && job->owner_uid() == owner)
            ended.emplace_back(std::stoull(path.substr(path.rfind('/') + 1)), path);
    if (ended.size() <= options_.retained_jobs_per_user)
        return;
    std::sort(ended.begin(), ended.end());
    for (std::size_t i = 0; i + options_.retained_jobs_per_user < ended.size(); ++i)
        loop_.post([this, path = ended[i].second] { remove_job(path); });
}

void Manager::remove_job(const std::string& job_path)
{
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
