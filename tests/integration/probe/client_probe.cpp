// SPDX-License-Identifier: GPL-3.0-or-later
// Drives the app's D-Bus layer (libdiskbench-client/bus: DaemonClient on a GLib main
// loop) against the real daemon, without a window, and prints what it saw as
// JSON for test_client_dbus.py to compare with the daemon's own answers.
//   client-probe devices
//   client-probe follow JOB_PATH      catch up with a running job, follow it to its end
//   client-probe start NODE KIND [KEY=UNSIGNED ...]   start a job, follow it
//   client-probe start-folder DIR KIND [KEY=UNSIGNED ...]   open DIR ourselves, start a
//                                     filesystem job with its descriptor, follow it
//   client-probe spoof-check SECONDS  print our unique name, wait (the test sends
//                                     us forged signals), then list devices anew
#include "bus/daemon_client.hpp"
#include "results/folder.hpp"

#include <glib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace diskbench::client;

namespace {

void print_json_string(const std::string& text)
{
    gchar* escaped = g_strescape(text.c_str(), nullptr);
    std::printf("\"%s\"", escaped);
    g_free(escaped);
}

void print_job(const JobEntry& job)
{
    std::printf("{\"job\": ");
    print_json_string(job.path);
    std::printf(", \"state\": ");
    print_json_string(job.state);
    std::printf(", \"target\": ");
    print_json_string(job.target);
    std::printf(", \"failure_id\": "); // Job.Failure's id (API 0.16), "" when none
    print_json_string(job.failure ? job.failure->failure.id : std::string());
    std::printf(", \"series\": [");
    for (std::size_t i = 0; i < job.points.size(); ++i) {
        std::printf("%s[", i ? ", " : "");
        for (std::size_t p = 0; p < job.points[i].size(); ++p)
            std::printf("%s[%.17g, %.17g]", p ? ", " : "", job.points[i][p].x, job.points[i][p].y);
        std::printf("]");
    }
    std::printf("]}\n");
}

class Probe final : public DaemonClient::Observer {
public:
    Probe(DaemonClient& client, GMainLoop* loop) : client_(client), loop_(loop) { client_.add_observer(this); }
    ~Probe() override { client_.remove_observer(this); }

    std::string mode, job_path, node, kind;
    bool refreshed = false;
    SavedValueMap options;
    int exit_code = 0;

    void devices_changed() override
    {
        if (mode == "start-folder" && !started_) {
            started_ = true;
            std::string error;
            const DirectoryFd folder = open_directory(node, error);
            if (!folder) {
                std::fprintf(stderr, "client-probe: %s: %s\n", node.c_str(), error.c_str());
                std::exit(2);
            }
            // Our descriptor closes when this returns: the call carries a duplicate.
            client_.start_filesystem_benchmark(folder.get(), kind, options,
                                               [this](std::variant<std::string, CallError> reply) { on_reply(reply); });
        }
        if ((mode == "devices" || (mode == "spoof-check" && refreshed)) && !client_.devices().empty()) {
            print_devices();
            g_main_loop_quit(loop_);
        }
        if (mode == "start" && !started_) {
            const DeviceEntry* device = client_.device_by_node(node);
            if (!device)
                return;
            started_ = true;
            client_.start_benchmark(device->path, kind, options,
                                    [this](std::variant<std::string, CallError> reply) { on_reply(reply); });
        }
    }
    void on_reply(const std::variant<std::string, CallError>& reply)
    {
        if (const auto* error = std::get_if<CallError>(&reply)) {
            std::printf("{\"error\": ");
            print_json_string(error->name);
            // The failure as data (API 0.16), as the library read it from the error's body.
            if (error->failure) {
                std::printf(", \"failure_id\": ");
                print_json_string(error->failure->failure.id);
                std::printf(", \"failure_parameter\": ");
                print_json_string(error->failure->parameter);
            }
            std::printf("}\n");
            exit_code = 3;
            g_main_loop_quit(loop_);
            return;
        }
        job_path = std::get<std::string>(reply);
        check_done();
    }
    // The device table as it stands: one JSON line.
    void print_devices()
    {
        std::printf("{\"devices\": [");
        bool first = true;
        for (const auto& [path, device] : client_.devices()) {
            std::printf("%s{\"path\": ", first ? "" : ", ");
            print_json_string(path);
            std::printf(", \"node\": ");
            print_json_string(device.node);
            std::printf(", \"size\": %llu, \"logical_block_size\": %u}",
                        static_cast<unsigned long long>(device.size), device.logical_block_size);
            first = false;
        }
        std::printf("]}\n");
        std::fflush(stdout);
    }

    void job_changed(const JobEntry& job) override
    {
        if (job.path == job_path)
            check_done();
    }
    void job_points_added(const JobEntry& job) override
    {
        if (job.path == job_path)
            check_done();
    }

private:
    void check_done()
    {
        const JobEntry* job = client_.job(job_path);
        // Done when the job ended and every sample it announced is here.
        if (!job || job->running())
            return;
        std::size_t points = 0;
        for (const auto& series : job->points)
            points += series.size();
        if (points < job->sample_count)
            return;
        print_job(*job);
        g_main_loop_quit(loop_);
    }

    DaemonClient& client_;
    GMainLoop* loop_;
    bool started_ = false;
};

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: client-probe devices | follow JOB | start NODE KIND [KEY=N ...]\n");
        return 2;
    }
    GMainLoop* loop = g_main_loop_new(nullptr, FALSE);
    int code = 0;
    {
        DaemonClient client;
        Probe probe(client, loop);
        probe.mode = argv[1];
        if (probe.mode == "follow" && argc >= 3) {
            probe.job_path = argv[2];
        } else if (probe.mode == "spoof-check" && argc >= 3) {
            std::printf("{\"unique_name\": \"%s\"}\n", client.unique_name().c_str());
            std::fflush(stdout);
            struct Later {
                DaemonClient* client;
                Probe* probe;
            };
            static Later later { &client, &probe };
            // After the forged signals: a fresh round trip, which only
            // completes if the connection still works.
            g_timeout_add_seconds(static_cast<guint>(std::atoi(argv[2])), [](gpointer data) -> gboolean {
                auto* l = static_cast<Later*>(data);
                l->probe->print_devices(); // what the forged signals left
                l->probe->refreshed = true;
                l->client->refresh();
                return G_SOURCE_REMOVE;
            }, &later);
        } else if ((probe.mode == "start" || probe.mode == "start-folder") && argc >= 4) {
            probe.node = argv[2];
            probe.kind = argv[3];
            for (int i = 4; i < argc; ++i) {
                const std::string option = argv[i];
                const auto equals = option.find('=');
                probe.options[option.substr(0, equals)] = static_cast<std::int64_t>(std::strtoll(option.c_str() + equals + 1, nullptr, 10));
            }
        }
        // A hung test fails instead of blocking the suite.
        g_timeout_add_seconds(120, [](gpointer) -> gboolean {
            std::fprintf(stderr, "client-probe: timed out\n");
            std::exit(4);
            return G_SOURCE_REMOVE;
        }, nullptr);
        g_main_loop_run(loop);
        code = probe.exit_code;
    }
    g_main_loop_unref(loop);
    return code;
}
