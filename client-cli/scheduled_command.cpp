// SPDX-License-Identifier: GPL-3.0-or-later
// scheduled: the runs diskbench-scheduled.timer starts, read-only, on the
// devices /etc/diskbench/scheduled.conf chooses, into one metrics file for
// node_exporter's textfile collector (docs/fleet/README.md).
#include "commands.hpp"
#include "disk_activity.hpp"
#include "error_output.hpp"
#include "job_follower.hpp"
#include "job_start.hpp"
#include "metrics_publish.hpp"
#include "parameter_values.hpp"
#include "scheduled_config.hpp"
#include "session_start.hpp"

#include "contract/error_names.hpp"
#include "contract/job_states.hpp"
#include "results/job_result.hpp"
#include "results/openmetrics.hpp"
#include "results/recent_results.hpp"
#include "text/printf_text.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <cstdio>
#include <map>
#include <variant>

namespace diskbench::cli {

namespace {

using client::CallError;
using client::DeviceEntry;
using client::printf_text;
using contract::ErrorCode;

constexpr const char* default_config_path = "/etc/diskbench/scheduled.conf";

// The configuration, or nothing after saying why. The default file may be
// missing (the defaults apply); a file named with --config may not.
std::optional<ScheduledConfig> load_config(const CommandLine& line)
{
    const std::string path = line.config.value_or(default_config_path);
    gchar* contents = nullptr;
    gsize length = 0;
    GError* gerror = nullptr;
    std::string text;
    if (g_file_get_contents(path.c_str(), &contents, &length, &gerror)) {
        text.assign(contents, length);
        g_free(contents);
    } else {
        const bool missing = g_error_matches(gerror, G_FILE_ERROR, G_FILE_ERROR_NOENT);
        std::string message = gerror->message;
        g_error_free(gerror);
        if (!missing || line.config) {
            print_error(message);
            return std::nullopt;
        }
    }
    std::string error;
    auto config = parse_scheduled_config(text, path, error);
    if (!config)
        print_error(error);
    return config;
}

DeviceIdentity identity_of(const DeviceEntry& device)
{
    // "all" means drives: not partitions, and not loop devices (the file
    // systems of snaps and images are not disks of this machine).
    return { device.node, device.model, device.serial, device.by_id, device.removable,
             device.kind == "partition" || device.kind == "loop" };
}

bool chosen(const ScheduledConfig& config, const DeviceEntry& device)
{
    const DeviceIdentity identity = identity_of(device);
    for (const DeviceRule& rule : config.devices)
        if (device_matches(rule, identity))
            return true;
    return false;
}

struct TypedKind {
    std::string kind;
    client::SavedValueMap options;
};

class ScheduledRunner {
public:
    ScheduledRunner(DaemonSession& session, const ScheduledConfig& config, std::string config_name)
        : session_(session)
        , config_(config)
        , config_name_(std::move(config_name))
    {
    }

    // The kinds' parameters checked against the daemon's list, before any
    // run: a wrong value fails the whole service, not the third device.
    bool type_kinds()
    {
        for (const ScheduledKind& scheduled : config_.kinds) {
            const client::BenchmarkInfo* info = session_.client().benchmark(scheduled.kind);
            std::string error;
            std::optional<client::SavedValueMap> options;
            if (!info)
                error = printf_text(_("diskbenchd offers no benchmark “%s”"), scheduled.kind.c_str());
            else
                options = typed_options(*info, scheduled.assignments, std::nullopt, error);
            if (!options) {
                print_error(printf_text(_("%s: [Kind %s]: %s"), config_name_.c_str(), scheduled.kind.c_str(),
                                        error.c_str()));
                return false;
            }
            // Nobody is there to type a password: polkit says yes (the
            // rule the admin installed) or no.
            (*options)["auth.no_user_interaction"] = true;
            kinds_.push_back({ scheduled.kind, std::move(*options) });
        }
        return true;
    }

    ExitCode run()
    {
        std::vector<DeviceEntry> devices;
        for (const auto& [path, device] : session_.client().devices())
            if (chosen(config_, device))
                devices.push_back(device);
        if (devices.empty()) {
            print_error(_("No device matches Devices= of the configuration: nothing was measured."));
            worst_ = exit_not_found;
        }
        for (const DeviceEntry& device : devices) {
            if (interrupted_)
                break;
            measure(device);
        }
        // Stopped (systemctl stop, Ctrl-C): that is what the run's status
        // says, whatever failed before.
        return interrupted_ ? exit_cancelled : worst_;
    }

    // Every chosen device's newest result of each kind: this run's, else
    // the history's (a device skipped today keeps its last figures, with
    // their time in diskbench_run_timestamp_seconds).
    std::vector<client::SavedResult> results_for_metrics() const
    {
        std::vector<client::SavedResult> results = finished_;
        client::RecentResults recent;
        recent.reload();
        for (const client::ScheduledDevice& device : facts_.devices) {
            const auto entry = entries_.find(device.device);
            if (entry == entries_.end())
                continue;
            const client::SavedValueMap info = client::device_info_of(entry->second);
            for (const TypedKind& kind : kinds_) {
                // Same disk first, newest first; a cancelled run counts not.
                for (const client::RecentResult* kept : recent.for_kind(kind.kind, info)) {
                    if (!client::same_device(kept->result.device_info, info))
                        break;
                    if (kept->result.state == contract::job_states::finished) {
                        results.push_back(kept->result);
                        break;
                    }
                }
            }
        }
        return results;
    }

    client::ScheduledRun facts() const
    {
        client::ScheduledRun facts = facts_;
        facts.ended_at = static_cast<double>(g_get_real_time()) / 1e6;
        return facts;
    }

    [[nodiscard]] bool interrupted() const noexcept { return interrupted_; }

private:
    void measure(const DeviceEntry& device)
    {
        client::ScheduledDevice facts { client::metrics_device_label(device), device.model, device.serial, {}, {} };
        entries_.emplace(facts.device, device);
        const std::string before = read_diskstats();
        if (!session_.pause(config_.quiet_window_seconds)) {
            interrupted_ = true;
            note(exit_cancelled);
            return;
        }
        facts.busy_ratio = busy_share(before, read_diskstats(), device.name, config_.quiet_window_seconds * 1000.0);
        if (facts.busy_ratio && *facts.busy_ratio * 100 > config_.quiet_max_busy_percent) {
            std::printf("%s\n", printf_text(_("%s: busy %.0f %% of the last %u s (QuietMaxBusyPercent=%g): skipped"),
                                            device.node.c_str(), *facts.busy_ratio * 100,
                                            config_.quiet_window_seconds, config_.quiet_max_busy_percent)
                                    .c_str());
            facts.skipped = "busy";
            facts_.devices.push_back(facts);
            return;
        }
        for (const TypedKind& kind : kinds_) {
            const std::string skipped = run_kind(device, kind);
            if (interrupted_)
                return;
            if (!skipped.empty())
                facts.skipped = skipped;
        }
        facts_.devices.push_back(facts);
    }

    // One kind on one device: "" when it finished, else why not ("busy",
    // "failed").
    std::string run_kind(const DeviceEntry& device, const TypedKind& kind)
    {
        std::printf("%s\n", printf_text(_("%s: %s…"), device.node.c_str(), kind.kind.c_str()).c_str());
        std::fflush(stdout);
        StartWait wait;
        wait.session = &session_;
        start_job(wait, kind.kind, Target { device.path, {} }, kind.options);
        if (wait.interrupted) {
            interrupted_ = true;
            note(exit_cancelled);
            return "failed";
        }
        if (const auto* failure = std::get_if<CallError>(&*wait.reply)) {
            std::string text = client::error_text(*failure, device.node).message;
            if (is_error(*failure, ErrorCode::NotAuthorized) || is_error(*failure, ErrorCode::NotAuthorizedCanObtain))
                text += " "
                    + std::string(_("The scheduled runs need a polkit rule for their user: see "
                                    "/usr/share/doc/diskbenchctl/examples/50-diskbench-scheduled.rules."));
            print_error(printf_text(_("%s: %s"), device.node.c_str(), text.c_str()));
            if (is_error(*failure, ErrorCode::DeviceBusy))
                return "busy"; // someone's benchmark: not a failure of ours
            note(exit_code_for_error(failure->name));
            return "failed";
        }
        ResultOutput output;
        output.finished = &finished_;
        const ExitCode code = follow_job(session_, std::get<std::string>(*wait.reply), output);
        if (code == exit_cancelled)
            interrupted_ = true;
        note(code); // a scan that found bad blocks fails the service, so it shows
        return code == exit_ok || code == exit_bad_blocks ? "" : "failed";
    }

    void note(ExitCode code)
    {
        if (worst_ == exit_ok)
            worst_ = code;
    }

    DaemonSession& session_;
    const ScheduledConfig& config_;
    std::string config_name_;
    std::vector<TypedKind> kinds_;
    std::vector<client::SavedResult> finished_;
    client::ScheduledRun facts_;
    std::map<std::string, DeviceEntry> entries_; // by metrics label
    ExitCode worst_ = exit_ok;
    bool interrupted_ = false;
};

ExitCode publish(const CommandLine& line)
{
    const auto config = load_config(line);
    if (!config)
        return exit_usage;
    const PublishOutcome outcome = publish_metrics(*line.publish, config->output);
    if (!outcome.error.empty()) {
        print_error(outcome.error);
        return exit_file;
    }
    if (outcome.published)
        std::printf("%s\n", printf_text(_("Metrics published to %s"), config->output.c_str()).c_str());
    return exit_ok;
}

} // namespace

ExitCode scheduled_command(const CommandLine& line)
{
    if (line.publish)
        return publish(line);
    // A run that stops early (a bad configuration, no daemon) must leave
    // nothing for the publishing step to take.
    if (line.stage) {
        if (const std::string error = stage_metrics(*line.stage, {}); !error.empty()) {
            print_error(error);
            return exit_file;
        }
    }
    const auto config = load_config(line);
    if (!config)
        return exit_usage;
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    ScheduledRunner runner(*session, *config, line.config.value_or(default_config_path));
    if (!runner.type_kinds())
        return exit_usage;
    ExitCode code = runner.run();
    if (runner.interrupted())
        return code; // stopped (systemctl stop): the last complete figures stay
    const client::ScheduledRun facts = runner.facts();
    const std::string text = client::openmetrics_text(runner.results_for_metrics(), &facts);
    const std::string error = line.stage ? stage_metrics(*line.stage, text)
                                         : client::write_file_atomically(config->output, text);
    if (!error.empty()) {
        print_error(line.stage ? error : config->output + ": " + error);
        return code == exit_ok ? exit_file : code;
    }
    return code;
}

} // namespace diskbench::cli
