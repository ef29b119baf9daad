// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"
#include "../system/system_disks.hpp"
#include "background_disposal.hpp"
#include "blocking_probes.hpp"
#include "device_claims.hpp"
#include "device_health.hpp"
#include "device_layers.hpp"
#include "device_object.hpp"
#include "directory_preparation.hpp"
#include "diskbench-adaptor.h"
#include "job_object.hpp"
#include "main_loop.hpp"
#include "owner_watch.hpp"
#include "pending_authorizations.hpp"
#include "refused_starts.hpp"
#include "caller_uids.hpp"
#include "polkit_authority.hpp"
#include "user_limits.hpp"

#include "contract/bus_names.hpp"
#include "sdbus_types/manager_lists.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::service {

// The contract's names are the XML's (the adaptors are generated from it).
static_assert(std::string_view(org::diskbench::DiskBench1::Manager_adaptor::INTERFACE_NAME)
              == contract::bus::manager_interface);
static_assert(std::string_view(org::diskbench::DiskBench1::Device_adaptor::INTERFACE_NAME)
              == contract::bus::device_interface);
static_assert(std::string_view(org::diskbench::DiskBench1::Job_adaptor::INTERFACE_NAME)
              == contract::bus::job_interface);

struct ManagerOptions {
    std::chrono::seconds job_retention { 300 };
    // Ended jobs kept per user; older ones go early, so one user starting
    // job after job cannot fill the daemon's memory or the ObjectManager.
    std::size_t retained_jobs_per_user = 16;
    // Where the disks of the running system are found; raw writes never go
    // there.
    system::SystemPlaces system_places;
    LimitCaps limits;
};

// /org/diskbench/DiskBench1: the ObjectManager for devices and jobs, and the
// Manager interface that starts jobs. Owns every Device and Job object and
// composes the rest: the two start flows (device_start.cpp,
// folder_start.cpp), the write-safety rules (write_safety.hpp), polkit,
// the per-user limits and the owner watch.
class Manager final
    : public sdbus::AdaptorInterfaces<org::diskbench::DiskBench1::Manager_adaptor, sdbus::ObjectManager_adaptor,
                                      sdbus::Properties_adaptor> {
public:
    static constexpr const char* object_path = contract::bus::root_path;
    static constexpr const char* interface_name = contract::bus::manager_interface;

    Manager(sdbus::IConnection& connection, MainLoop& loop, PolkitAuthority& polkit, ManagerOptions options);
    ~Manager();

    // Adds, updates and removes Device objects to match `devices`, each
    // with its SystemDisk worked out here.
    void set_devices(std::vector<system::DeviceFacts> devices);
    // At start: waits up to `limit` for the devices' layers and publishes
    // them, so the call that activated the daemon sees them.
    void settle_devices(std::chrono::milliseconds limit) { probes_.settle(limit); }

    // No job objects and no authorization under way: nothing would be lost
    // if the daemon exited now.
    [[nodiscard]] bool idle() const
    {
        // A job whose run still waits for a device that stopped answering
        // stays in jobs_ until the run returns (remove_job), and so keeps the
        // daemon and the device's claim: a process with I/O stuck in the
        // kernel could not fully exit anyway.
        // So does a scratch folder still being removed: exiting would wait
        // for it (~BackgroundDisposal).
        return jobs_.empty() && pending_.empty() && pending_cancels_.empty() && preparations_.empty()
            && disposal_.empty();
    }
    [[nodiscard]] std::chrono::steady_clock::time_point last_activity() const noexcept { return last_activity_; }

    // Scratch folders whose removal has not finished: at exit, waiting for
    // them could take for ever on a filesystem that stopped answering.
    [[nodiscard]] std::size_t disposals_pending() const { return disposal_.pending(); }

    // From now on start requests are refused (the daemon is exiting).
    void stop_accepting() noexcept { accepting_ = false; }
    // Cancels and removes every job (waiting for their threads).
    void shutdown();

private:
    struct StartRequest;
    struct Preparation {
        uid_t uid = 0;
        std::shared_ptr<DirectoryPreparation> work;
    };

    // The reply types the client reads too (sdbus_types/manager_lists.hpp).
    using ParameterEntry = sdbus_types::ParameterEntry;
    using BenchmarkEntry = sdbus_types::BenchmarkEntry;
    sdbus_types::BenchmarkList ListBenchmarks() override;
    using ChoiceEntry = sdbus_types::ChoiceEntry;
    sdbus_types::ChoiceList ListParameterChoices() override;
    using RangeEntry = sdbus_types::RangeEntry;
    sdbus_types::RangeList ListParameterRanges() override;
    sdbus::ObjectPath FindDevice(const std::string& node) override;
    void StartBenchmark(sdbus::Result<sdbus::ObjectPath>&& result, sdbus::ObjectPath device, std::string kind,
                        std::map<std::string, sdbus::Variant> options) override;
    void StartFilesystemBenchmark(sdbus::Result<sdbus::ObjectPath>&& result, sdbus::UnixFd directory,
                                  std::string kind, std::map<std::string, sdbus::Variant> options) override;
    std::vector<std::string> Features() override { return { contract::bus::failure_data_feature }; }
    std::string Version() override;
    std::vector<sdbus::ObjectPath> Jobs() override;

    // Reads the caller, kind and daemon options of a start call into
    // `request`, and checks the caller's limits.
    bool read_start_request(StartRequest& request, const std::string& kind,
                            std::map<std::string, sdbus::Variant>& options);
    // Throws LimitsExceeded when `uid` may not start a job now (see
    // UserLimits::check_start for what counts).
    void check_limits(uid_t uid) const;
    void refuse_when_exiting() const;
    // Asks polkit for `action`, then calls `next` with the request (on the
    // bus thread), or replies with the refusal.
    void authorize(const std::shared_ptr<StartRequest>& request, const char* action,
                   const std::map<std::string, std::string>& details,
                   void (Manager::*next)(const std::shared_ptr<StartRequest>&));
    // device_start.cpp
    void start_authorized(const std::shared_ptr<StartRequest>& request);
    // folder_start.cpp
    void prepare_directory(const std::shared_ptr<StartRequest>& request);
    void start_in_directory(const std::shared_ptr<StartRequest>& request, PreparedDirectory prepared);
    // Publishes a job made from `setup` (checked and authorized), on `device`
    // when it has one, and replies to the request with its path.
    void launch_job(const std::shared_ptr<StartRequest>& request, JobSetup setup, DeviceObject* device,
                    dev_t folder_filesystem = 0);
    // Our Device object with that device number (st_dev of a folder), or "".
    std::string device_path_with_number(dev_t number) const;
    void owner_vanished(const std::string& bus_name);
    void job_ended(JobObject& job);
    void run_returned(const std::string& job_path);
    // "jobs/N", or why an ended job still holds its device: for DeviceBusy.
    // DeviceBusy with the failure `id` (error-device-in-use-by or
    // error-filesystem-in-use-by): `what` (the device or the folder) is in
    // use by the job at `job_path`.
    [[nodiscard]] Refusal busy_error(const std::string& id, contract::MessageArg what,
                                          const std::string& job_path) const;
    void release_device(const std::string& job_path, const std::string& device_path);
    void remove_job(const std::string& job_path);
    void schedule_flush();
    void cancel_permission(const std::string& bus_name, uid_t uid, bool allow_interaction,
                           std::function<void(std::optional<Refusal>)> done);
    DeviceObject* device_at(const std::string& path);
    void layers_changed(const system::DeviceFacts& asked);
    void health_changed(const std::string& disk);
    void drop_old_jobs(uid_t owner);
    void touch() noexcept { last_activity_ = std::chrono::steady_clock::now(); }

    // First, so it goes last: it waits for what it disposes of.
    BackgroundDisposal disposal_;
    sdbus::IConnection& connection_;
    MainLoop& loop_;
    PolkitAuthority& polkit_;
    ManagerOptions options_;
    std::unique_ptr<sdbus::IProxy> bus_driver_;
    std::map<std::string, std::unique_ptr<DeviceObject>> devices_;
    std::map<std::string, std::shared_ptr<JobObject>> jobs_;
    // Jobs to cancel when their owner's connection closes (not detached):
    // job path -> the owner's unique name.
    std::map<std::string, std::string> watched_owners_;
    OwnerWatch owners_;
    std::map<std::uint64_t, Preparation> preparations_;
    std::uint64_t next_preparation_ = 1;
    std::uint64_t next_job_number_ = 1;
    DeviceClaims claims_;
    // Jobs that ended before their engine thread returned: claimed, kept on
    // the bus and counted against their owner's limits until run_returned().
    struct StuckRun {
        std::string device_path; // our Device object, "/" for none
        uid_t owner = 0;
    };
    std::map<std::string, StuckRun> stuck_runs_;
    UserLimits limits_;
    // At most 8 start requests of one user wait for polkit at once.
    PendingAuthorizations pending_ { 8 };
    // And at most 16 of its starts refused by polkit in 2 s: past that,
    // its starts are refused before anything of them is read or asked.
    RefusedStarts refused_starts_ { 16, std::chrono::seconds(2) };
    CallerUids caller_uids_;
    PendingAuthorizations pending_cancels_;
    bool accepting_ = true;
    bool flush_scheduled_ = false;
    std::chrono::steady_clock::time_point last_activity_ = std::chrono::steady_clock::now();
    // Reads that may never return (a loop's backing file, a drive's
    // sensor), kept off the bus thread.
    BlockingProbes probes_ { loop_ };
    DeviceLayers layers_ { probes_, [this](const system::DeviceFacts& asked) { layers_changed(asked); } };
    DeviceHealth health_ { loop_, probes_, [this](const std::string& disk) { health_changed(disk); } };
};

} // namespace diskbench::service
