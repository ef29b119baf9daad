// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/benchmark.hpp"
#include "../engine/io/target.hpp"
#include "../engine/sandbox/fs_scope.hpp"
#include "../system/drive_temperature.hpp"
#include "bus_errors.hpp"
#include "diskbench-adaptor.h"
#include "engine_run.hpp"
#include "job_sink.hpp"
#include "main_loop.hpp"
#include "speed_drop.hpp"
#include "variant_conversion.hpp"

#include "contract/bus_names.hpp"
#include "contract/job_states.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace diskbench::service {

// What a job is made from; the Manager checks all of it before.
struct JobSetup {
    const engine::BenchmarkInfo* benchmark = nullptr;
    std::string device_path;       // our Device object, "/" for a folder on none of them
    std::string target_name;       // the device node or the folder, for people
    uid_t owner_uid = 0;
    std::string owner_bus_name;    // unique name of the caller
    engine::ParameterSet parameters; // validated once (read_start_request), defaults filled in
    VariantMap device_info;
    engine::Target target;         // device benchmarks: the device, opened with O_DIRECT
    // Filesystem benchmarks: the caller's folder, with the caller's
    // credentials. Released on the job's thread when the run ends, so its
    // scratch folder is gone before the job says it has ended.
    std::unique_ptr<engine::FilesystemScope> scope;
    // What the owner's runs may hold at once (threads, buffers); shared by
    // the owner's jobs.
    std::shared_ptr<engine::ResourceBudget> budget;
    // Reads the temperature of the device the job runs on (for a folder:
    // the device it is on, when it is one of ours); empty for none. Bus
    // thread.
    std::function<system::TemperatureReading()> temperature;
};

// /org/diskbench/DiskBench1/jobs/N: one benchmark run on its own thread
// (EngineRun). The engine's output reaches the bus only through flush() and
// finish() on the bus thread; the engine thread never touches D-Bus.
//
// A cancelled job ends within `answer_grace` even when its device has
// stopped answering: it then ends "cancelled" with a warning and without
// its thread, which keeps the device's fd and its buffers until the I/O
// comes back; `run_returned` tells when (the device is free only then).
class JobObject final
    : public sdbus::AdaptorInterfaces<org::diskbench::DiskBench1::Job_adaptor, sdbus::ManagedObject_adaptor,
                                      sdbus::Properties_adaptor>,
      public std::enable_shared_from_this<JobObject> {
public:
    static constexpr const char* interface_name = contract::bus::job_interface;

    // Decides whether a caller other than the owner may cancel (polkit
    // manage-jobs); `done` gets no error to go ahead.
    using CancelPermission = std::function<void(const std::string& bus_name, uid_t uid, bool allow_interaction,
                                                std::function<void(std::optional<Refusal>)> done)>;

    // How long a cancelled run's requests may take to come back before the
    // job ends without them (Cancel's promise: ended within a second).
    static constexpr std::chrono::milliseconds answer_grace { 750 };

    struct Events {
        std::function<void(JobObject&)> ended; // State left "running"
        // The engine thread has returned: the device or filesystem is no
        // longer in use. With the job's path, as the job may be gone by then.
        std::function<void(const std::string& job_path)> run_returned;
    };

    JobObject(sdbus::IConnection& connection, MainLoop& loop, std::string object_path, JobSetup setup,
              CancelPermission cancel_permission, Events events);
    ~JobObject();

    // Starts the engine thread. Separate from the constructor so the thread
    // can hold a weak reference to this object.
    void start();
    // Asks the engine to stop; the job ends (State "cancelled") shortly
    // after, at the latest `answer_grace` later.
    void cancel();
    // Publishes new samples and progress (bus thread, at most 20 Hz).
    void flush();

    [[nodiscard]] bool ended() const noexcept { return state_ != contract::job_states::running; }
    // Whether the engine thread has returned (false for a job that ended
    // without its thread, until the device answers).
    [[nodiscard]] bool run_returned() const noexcept { return run_->returned(); }
    [[nodiscard]] const std::string& owner_bus_name() const noexcept { return setup_.owner_bus_name; }
    [[nodiscard]] const std::string& device_path() const noexcept { return setup_.device_path; }
    [[nodiscard]] uid_t owner_uid() const noexcept { return setup_.owner_uid; }
    [[nodiscard]] const std::string& target_name() const noexcept { return setup_.target_name; }
    // The folder scope of a job that never started, to be disposed of off
    // the bus thread (removing its scratch folder may block).
    std::unique_ptr<engine::FilesystemScope> take_scope() { return run_->take_scope(); }
    // A connection left the bus: it gets no more Samples signals.
    void forget_subscriber(const std::string& bus_name) { subscribers_.erase(bus_name); }

private:
    void finish(EngineOutcome outcome);
    // The cancelled run's requests have not come back in time.
    void end_without_run();
    void emit_samples(const JobSink::Batch& batch);
    // Reads the drive's temperature into the "temperature" series, at most
    // once every `temperature_period`. On the bus thread, never the I/O
    // thread: an NVMe or SMART read may take milliseconds.
    void sample_temperature();
    // temperature_* in the summary, or the note that there was no sensor.
    void summarize_temperature();
    // Whether the caller of the current method may read what is the
    // owner's business: a folder job's folder and samples.
    [[nodiscard]] bool caller_may_read_private();
    void check_may_read_samples();

    void Cancel(sdbus::Result<>&& result, std::map<std::string, sdbus::Variant> options) override;
    std::tuple<uint64_t, std::vector<Sample>> GetSamples(const uint64_t& from_index) override;
    std::tuple<uint64_t, std::vector<Sample>> GetSampleRange(const uint64_t& from_index,
                                                             const uint32_t& max_count) override;
    std::string Kind() override { return std::string(setup_.benchmark->kind); }
    sdbus::ObjectPath Device() override { return sdbus::ObjectPath(setup_.device_path); }
    // A folder job's folder is its owner's business: GetTarget().
    std::string Target() override { return private_samples_ ? std::string() : setup_.target_name; }
    std::string GetTarget() override;
    uint32_t Owner() override { return setup_.owner_uid; }
    std::map<std::string, sdbus::Variant> Parameters() override { return variants_from_values(setup_.parameters.values()); }
    std::map<std::string, sdbus::Variant> DeviceInfo() override { return setup_.device_info; }
    std::string State() override { return state_; }
    double Progress() override { return sink_.progress(); }
    std::string Backend() override { return result_.backend; }
    std::vector<SeriesDescription> Series() override { return sink_.series(); }
    uint64_t SampleCount() override { return sink_.published(); }
    std::map<std::string, sdbus::Variant> Summary() override { return variants_from_values(result_.summary); }
    std::vector<std::string> Warnings() override { return result_.warnings; }
    std::vector<std::string> Notes() override { return result_.notes; }
    std::vector<MessageStruct> WarningMessages() override
    {
        return message_structs(result_.warning_messages, result_.warnings);
    }
    std::vector<MessageStruct> NoteMessages() override
    {
        return message_structs(result_.note_messages, result_.notes);
    }
    std::string Error() override { return error_text(public_error_message()); }
    std::string ErrorName() override { return error_name_; }
    std::string ErrorMessage() override { return public_error_message(); }
    std::map<std::string, sdbus::Variant> Failure() override;
    // The full text, for the owner and root (a folder job's names its folder).
    std::string GetErrorMessage() override;
    // The error as the public properties give it: a folder job's names "the
    // folder", not the folder (Target is empty for it too).
    [[nodiscard]] std::string public_error_message() const;
    // Whether a failure's public form must say "the folder" for the folder:
    // a folder job's, whose folder is its owner's business.
    [[nodiscard]] bool names_private_folder() const noexcept;
    [[nodiscard]] std::string error_text(const std::string& message) const
    {
        return error_name_.empty() ? "" : error_name_ + ": " + message;
    }
    // Completed, to everyone for a device job; for a folder job only to its
    // owner's connections, with the full text (as its Samples).
    void emit_completed();
    uint64_t StartedAt() override { return started_at_; }
    uint64_t FinishedAt() override { return finished_at_; }

    MainLoop& loop_;
    JobSetup setup_;
    CancelPermission cancel_permission_;
    Events events_;
    std::shared_ptr<EngineRun> run_;
    JobSink& sink_; // run_'s
    bool cancel_timer_set_ = false;

    static constexpr std::chrono::milliseconds temperature_period { 1000 };
    std::chrono::steady_clock::time_point run_started_ {};
    std::optional<std::chrono::steady_clock::time_point> temperature_read_at_;
    std::optional<std::size_t> temperature_series_;
    bool temperature_declared_ = false;
    // Readings taken before the engine declared its first series: the
    // temperature is never a job's first series, which clients draw as
    // the benchmark's own.
    std::vector<engine::SeriesPoint> temperature_pending_;
    std::string temperature_source_; // of the first reading that had one
    double temperature_start_ = 0;
    double temperature_max_ = 0;
    double temperature_warning_ = 0; // the sensor's warning threshold (temp1_max), 0 when it has none
    std::vector<HeatSample> heat_;   // every reading, for judge_speed_drop()

    // Set by finish() on the bus thread; empty while running.
    engine::Result result_;
    std::string error_name_;
    std::string error_message_;
    std::optional<contract::FailureReport> failure_; // error_message_ as data

    // A folder job's samples are its owner's: its Samples signals go only to
    // these connections (the one that started it, and the owner's or
    // root's that fetched samples), never to the whole bus.
    const bool private_samples_;
    std::set<std::string> subscribers_;

    std::string state_ { contract::job_states::running };
    std::uint64_t started_at_ = 0;
    std::uint64_t finished_at_ = 0;
};

} // namespace diskbench::service
