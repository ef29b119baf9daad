// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bus/bus_source.hpp"
#include "bus/sample_stream.hpp"
#include "types/daemon_types.hpp"

#include "sdbus_types/manager_lists.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace diskbench::client {

// The app's view of diskbenchd on the system bus, kept current by its
// ObjectManager and signals. Everything runs on the GLib main loop (see
// BusSource): no call blocks, replies and signals arrive as callbacks on the
// GTK thread.
//
// It also keeps every job's samples: on discovery it catches up with
// GetSampleRange(0, ...), page by page, and then appends the Samples signals, skipping what it
// already has and re-asking after a gap, so a window opened mid-run shows
// the whole graph and no point is drawn twice.
class DaemonClient {
public:
    struct Observer {
        virtual ~Observer() = default;
        virtual void devices_changed() {}
        virtual void benchmarks_changed() {}
        // Properties changed, or the job appeared.
        virtual void job_changed(const JobEntry&) {}
        // Points were appended to job.points (after catch-up or a Samples signal).
        virtual void job_points_added(const JobEntry&) {}
        // The job is gone from the daemon (and from jobs()); `job` is its last state.
        virtual void job_removed(const JobEntry& /*job*/) {}
        // The daemon started or went away (it exits when idle and is started
        // again by the next call), or the bus is unreachable.
        virtual void daemon_availability_changed(bool /*running*/) {}
    };

    // Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) and
    // starts loading devices and benchmark kinds. Throws sdbus::Error when
    // there is no bus.
    DaemonClient();
    ~DaemonClient();
    DaemonClient(const DaemonClient&) = delete;
    DaemonClient& operator=(const DaemonClient&) = delete;

    void add_observer(Observer* observer);
    void remove_observer(Observer* observer);

    [[nodiscard]] const std::map<std::string, DeviceEntry>& devices() const noexcept { return devices_; }
    // Whether the daemon's objects have been listed once (before that,
    // devices() is empty because nothing is known yet, not because there
    // are none).
    [[nodiscard]] bool devices_listed() const noexcept { return devices_listed_; }
    [[nodiscard]] const std::map<std::string, JobEntry>& jobs() const noexcept { return jobs_; }
    [[nodiscard]] const std::vector<BenchmarkInfo>& benchmarks() const noexcept { return benchmarks_; }
    [[nodiscard]] const BenchmarkInfo* benchmark(const std::string& kind) const;
    [[nodiscard]] const DeviceEntry* device(const std::string& path) const;
    [[nodiscard]] const DeviceEntry* device_by_node(const std::string& node) const;
    [[nodiscard]] const JobEntry* job(const std::string& path) const;
    [[nodiscard]] const std::string& daemon_version() const noexcept { return version_; }
    [[nodiscard]] bool daemon_running() const noexcept { return daemon_running_; }
    // Our own name on the bus (for tests that send us messages).
    [[nodiscard]] std::string unique_name() const { return connection_->getUniqueName(); }
    [[nodiscard]] bool bus_broken() const noexcept { return source_ && source_->broken(); }

    using StartReply = std::function<void(std::variant<std::string, CallError>)>;
    using DoneReply = std::function<void(std::optional<CallError>)>;

    // StartBenchmark with interactive authorization allowed: polkit may show
    // a password dialog, so the reply may take minutes.
    void start_benchmark(const std::string& device_path, const std::string& kind, const SavedValueMap& options,
                         StartReply reply);
    // StartFilesystemBenchmark in the folder open as `directory_fd` (the
    // caller keeps it and may close it right after this returns: the call
    // carries a duplicate).
    void start_filesystem_benchmark(int directory_fd, const std::string& kind, const SavedValueMap& options,
                                    StartReply reply);
    void cancel_job(const std::string& job_path, DoneReply reply);
    // Fetches devices, jobs and kinds again (also starts the daemon).
    void refresh();

private:
    using ObjectMap = std::map<sdbus::ObjectPath, std::map<std::string, std::map<std::string, sdbus::Variant>>>;

    class RootProxy;

    void load_features();

    void load_objects();
    void load_benchmarks();
    void load_parameter_choices(); // after load_benchmarks(): the drop-down values
    void load_parameter_ranges(); // after load_parameter_choices(): the accepted ranges
    // The replies of those three calls (through RootProxy's generated callbacks).
    void benchmarks_listed(const sdbus_types::BenchmarkList& kinds);
    void parameter_choices_listed(const sdbus_types::ChoiceList& choices);
    void parameter_ranges_listed(const sdbus_types::RangeList& ranges);
    void apply_objects(const ObjectMap& objects);
    void add_interfaces(const std::string& path, const std::map<std::string, std::map<std::string, sdbus::Variant>>& interfaces);
    void remove_interfaces(const std::string& path, const std::vector<std::string>& interfaces);
    void on_object_manager_signal(sdbus::Message& message);
    void on_properties_changed(sdbus::Message& message);
    void on_job_signal(sdbus::Message& message);
    void on_name_owner_changed(sdbus::Message& message);
    void request_samples(JobEntry& job);
    void request_target(JobEntry& job);
    // StartBenchmark / StartFilesystemBenchmark: interactive, replies with the job.
    template <typename... Args> void call_start(const char* method, StartReply reply, const Args&... args);
    // A call's options a{sv}: `options`, and "failure_data" where the daemon has it.
    [[nodiscard]] std::map<std::string, sdbus::Variant> call_options(const SavedValueMap& options) const;
    template <typename F> void notify(F&& call);
    template <typename F> void guarded(const char* what, F&& body);
    [[nodiscard]] bool from_daemon(const sdbus::Message& message) const;
    void daemon_gone();

    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<BusSource> source_;
    std::unique_ptr<RootProxy> root_;
    std::unique_ptr<sdbus::IProxy> bus_proxy_; // org.freedesktop.DBus
    std::string daemon_owner_;                 // the daemon's unique name: signals must come from it
    std::vector<sdbus::Slot> matches_;
    std::vector<Observer*> observers_;
    std::map<std::string, DeviceEntry> devices_;
    bool devices_listed_ = false;
    std::map<std::string, JobEntry> jobs_;
    std::map<std::string, SampleStream> streams_; // per job: which samples we have
    std::map<std::string, std::unique_ptr<sdbus::IProxy>> job_proxies_; // for GetSampleRange and Cancel
    std::vector<BenchmarkInfo> benchmarks_;
    std::string version_;
    // Manager.Features has "failure-data" (API 0.16): starts and cancels ask
    // for their refusals' failures as data. False until the reply is in,
    // and from older daemons, whose refusals are then read from the English.
    bool failure_data_ = false;
    bool daemon_running_ = false;
};

} // namespace diskbench::client
