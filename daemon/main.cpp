// SPDX-License-Identifier: GPL-3.0-or-later
// diskbenchd: serves org.diskbench.DiskBench1 on the system bus. Started by
// D-Bus activation (via systemd), it enumerates block devices through
// udisks2, runs benchmarks for callers polkit allows, and exits when idle.
#include "service/blocking_probes.hpp"
#include "service/daemon_config.hpp"
#include "service/engine_run.hpp"
#include "service/log.hpp"
#include "service/main_loop.hpp"
#include "service/manager.hpp"
#include "service/polkit_authority.hpp"
#include "system/queue_facts.hpp"
#include "system/udisks_client.hpp"
#include "system/udisks_inventory.hpp"

#include "contract/bus_names.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace diskbench;

constexpr const char* bus_name = contract::bus::name;

struct Options {
    std::chrono::seconds idle_timeout { 60 }; // 0: never exit when idle
    std::chrono::seconds job_retention { 300 };
    std::vector<std::string> protected_mount_points;
    std::optional<std::size_t> max_jobs_per_user; // the file's, else LimitCaps' default
    std::string config_path = service::default_config_path;
    bool verbose = false;
};

void usage(std::ostream& out)
{
    out << "Usage: diskbenchd [OPTION...]\n"
           "Serves org.diskbench.DiskBench1 on the system bus (normally started by D-Bus activation).\n\n"
           "  --idle-timeout SECONDS   exit after this long with no jobs and no requests (default 60, 0 = never)\n"
           "  --job-retention SECONDS  keep ended jobs readable this long (default 300)\n"
           "  --protect-mount-point PATH\n"
           "                           never run raw write tests on the disks under the filesystem mounted\n"
           "                           at PATH either (besides /, /usr, /var, /boot, the ESP and swap;\n"
           "                           may be repeated)\n"
           "  --max-jobs-per-user N    benchmarks one user may run at once (default: the configuration\n"
           "                           file's MaxJobsPerUser, else 4)\n"
           "  --config FILE            the configuration file (default /etc/diskbench/diskbenchd.conf)\n"
           "  --verbose                log every request and authorization\n"
           "  --version                print the version and exit\n"
           "  --help                   print this help and exit\n";
}

bool parse_seconds(const char* text, std::chrono::seconds& out)
{
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (!text[0] || *end || value < 0 || value > 86400 * 365)
        return false;
    out = std::chrono::seconds(value);
    return true;
}

bool parse_options(int argc, char** argv, Options& options, int& exit_code)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help") {
            usage(std::cout);
            exit_code = 0;
            return false;
        }
        if (arg == "--version") {
            std::cout << "diskbenchd " << DISKBENCH_VERSION << "\n";
            exit_code = 0;
            return false;
        }
        if (arg == "--verbose") {
            options.verbose = true;
        } else if (arg == "--protect-mount-point" && i + 1 < argc && argv[i + 1][0] == '/') {
            options.protected_mount_points.emplace_back(argv[++i]);
        } else if (arg == "--max-jobs-per-user" && i + 1 < argc) {
            char* end = nullptr;
            const char* text = argv[++i];
            const unsigned long value = std::strtoul(text, &end, 10);
            if (!text[0] || *end || value < 1 || value > 1000) {
                std::cerr << "diskbenchd: --max-jobs-per-user takes a number from 1 to 1000\n";
                exit_code = 2;
                return false;
            }
            options.max_jobs_per_user = value;
        } else if (arg == "--config" && i + 1 < argc) {
            options.config_path = argv[++i];
        } else if ((arg == "--idle-timeout" || arg == "--job-retention") && i + 1 < argc) {
            if (!parse_seconds(argv[++i], arg == "--idle-timeout" ? options.idle_timeout : options.job_retention)) {
                std::cerr << "diskbenchd: " << arg << " takes a number of seconds\n";
                exit_code = 2;
                return false;
            }
        } else {
            usage(std::cerr);
            exit_code = 2;
            return false;
        }
    }
    return true;
}

// Exits (by ending the loop) once nothing has happened for the idle time.
void watch_idle(service::MainLoop& loop, const service::Manager& manager, std::chrono::seconds idle_timeout)
{
    loop.add_timer(std::chrono::seconds(1), [&loop, &manager, idle_timeout] {
        if (manager.idle() && std::chrono::steady_clock::now() - manager.last_activity() >= idle_timeout) {
            service::log_info("idle for {} s; exiting", idle_timeout.count());
            loop.quit();
            return;
        }
        watch_idle(loop, manager, idle_timeout);
    });
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    int exit_code = 0;
    if (!parse_options(argc, argv, options, exit_code))
        return exit_code;
    service::set_verbose(options.verbose);

    try {
        auto connection = sdbus::createSystemBusConnection();
        service::MainLoop loop(*connection); // before any thread, so they inherit the blocked signals
        service::PolkitAuthority polkit(*connection);
        service::ManagerOptions manager_options;
        manager_options.job_retention = options.job_retention;
        const service::DaemonConfig config = service::read_daemon_config(options.config_path);
        for (const std::string& problem : config.problems)
            service::log_warning("configuration: {}; keeping the default", problem);
        manager_options.limits.running_jobs
            = options.max_jobs_per_user.value_or(config.max_jobs_per_user.value_or(manager_options.limits.running_jobs));
        service::log_info("at most {} benchmarks per user at once", manager_options.limits.running_jobs);
        manager_options.system_places.mount_points.insert(manager_options.system_places.mount_points.end(),
                                                          options.protected_mount_points.begin(),
                                                          options.protected_mount_points.end());
        service::Manager manager(*connection, loop, polkit, manager_options);

        system::UDisksClient udisks(*connection, [&] {
            manager.set_devices(system::devices_from_udisks(udisks.objects(), system::read_queue_facts, udisks.smart_counts()));
        });
        // Devices are in place before the name is taken, so the call that
        // activated us already sees them.
        udisks.load();
        manager.set_devices(system::devices_from_udisks(udisks.objects(), system::read_queue_facts, udisks.smart_counts()));
        manager.settle_devices(std::chrono::milliseconds(500));

        connection->requestName(bus_name);
        service::log_info("version {} serving {}", DISKBENCH_VERSION, bus_name);
        if (options.idle_timeout.count() > 0)
            watch_idle(loop, manager, options.idle_timeout);
        loop.run();

        // Refuse new work, then give the name back: a call arriving from
        // now on starts a new daemon instead of reaching one that is going
        // away. What arrived before is still answered by the flush (a start
        // request with an error that says to call again), not dropped.
        manager.stop_accepting();
        connection->releaseName(bus_name);
        loop.flush();
        manager.shutdown();
        // Threads whose device stopped answering still wait for their I/O,
        // and would post to the loop when it returns. Leave without
        // unwinding: the kernel keeps their buffers pinned until the
        // requests complete (or the device goes away), and frees them then.
        // A thread in an uninterruptible read (psync) keeps the process from
        // fully leaving until that happens; one waiting on io_uring does
        // not. The same for scratch folders still being removed (their
        // names are left for the next run to remove) and for probes of a
        // backing file or sensor that never answered.
        const std::size_t stuck = service::EngineRun::outstanding();
        const std::size_t disposing = manager.disposals_pending();
        const std::size_t probes = service::BlockingProbes::outstanding();
        if (stuck > 0 || disposing > 0 || probes > 0) {
            if (stuck > 0 || disposing > 0)
                service::log_warning("{} benchmark thread(s) still wait for a device that does not answer, and {} "
                                     "scratch folder removal(s) for a filesystem; exiting without them",
                                     stuck, disposing);
            if (probes > 0)
                service::log_warning("{} probe thread(s) still wait for a file or sensor that does not answer; "
                                     "exiting without them",
                                     probes);
            std::fflush(nullptr);
            std::_Exit(0);
        }
        return 0;
    } catch (const sdbus::Error& error) {
        service::log_warning("{}: {}", error.getName(), error.getMessage());
    } catch (const std::exception& error) {
        service::log_warning("{}", error.what());
    }
    return 1;
}
