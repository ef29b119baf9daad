// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduled runs' parts that need no daemon (client-cli): the
// configuration file and its errors, the device rules, the quiet rule's
// reading of /proc/diskstats, the atomic write a textfile collector reads,
// and the root step that publishes the staged metrics. The whole service
// runs against the real daemon in tests/integration/test_fleet.py.
#include "disk_activity.hpp"
#include "metrics_publish.hpp"
#include "scheduled_config.hpp"

#include "results/recent_results.hpp"

#include <catch2/catch.hpp>
#include <glib.h>
#include <glib/gstdio.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <thread>

using namespace diskbench::cli;

namespace {

ScheduledConfig parse_ok(const std::string& text)
{
    std::string error;
    const auto config = parse_scheduled_config(text, "scheduled.conf", error);
    INFO(error);
    REQUIRE(config);
    return *config;
}

std::string parse_error(const std::string& text)
{
    std::string error;
    CHECK_FALSE(parse_scheduled_config(text, "scheduled.conf", error));
    return error;
}

// A temporary directory, removed with what it holds.
struct TempDir {
    std::string path;
    TempDir()
    {
        gchar* made = g_dir_make_tmp("diskbench-scheduled-XXXXXX", nullptr);
        REQUIRE(made);
        path = made;
        g_free(made);
    }
    ~TempDir()
    {
        if (GDir* dir = g_dir_open(path.c_str(), 0, nullptr)) {
            while (const gchar* name = g_dir_read_name(dir))
                g_remove((path + "/" + name).c_str());
            g_dir_close(dir);
        }
        g_rmdir(path.c_str());
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

std::string read_all(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_plain(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

const std::string metrics = "# TYPE diskbench_iops gauge\ndiskbench_iops{device=\"sda\"} 120\n# EOF\n";

} // namespace

TEST_CASE("an empty configuration is the documented default", "[scheduled]")
{
    const ScheduledConfig config = parse_ok("");
    REQUIRE(config.devices.size() == 1);
    CHECK(config.devices[0].kind == DeviceRule::Kind::All);
    REQUIRE(config.kinds.size() == 2);
    CHECK(config.kinds[0].kind == "seek");
    CHECK(config.kinds[0].assignments.empty());
    CHECK(config.kinds[1].kind == "profile");
    CHECK(config.kinds[1].assignments == std::vector<std::string> { "duration_s=2" });
    CHECK(config.output == "/var/lib/prometheus/node-exporter/diskbench.prom");
    CHECK(config.quiet_max_busy_percent == 5);
    CHECK(config.quiet_window_seconds == 10);
}

TEST_CASE("the installed scheduled.conf, all commented out, parses to the defaults", "[scheduled]")
{
    const std::string text = read_all(DISKBENCH_SOURCE_ROOT "/systemd/scheduled.conf");
    REQUIRE(text.find("[Scheduled]") != std::string::npos);
    const ScheduledConfig config = parse_ok(text);
    CHECK(config.kinds.size() == 2);
    CHECK(config.output == "/var/lib/prometheus/node-exporter/diskbench.prom");
}

TEST_CASE("every key is read, with its kinds' parameters", "[scheduled]")
{
    const ScheduledConfig config = parse_ok("# a lab\n"
                                            "[Scheduled]\n"
                                            "Devices=model:Samsung SSD 8*;serial:S3Z1;by-id:nvme-*;/dev/sdb;all\n"
                                            "Kinds=seek;random\n"
                                            "Output=/srv/metrics/diskbench.prom\n"
                                            "QuietWindowSeconds=30\n"
                                            "QuietMaxBusyPercent=12.5\n"
                                            "[Kind seek]\n"
                                            "count=500\n"
                                            "backend=psync\n");
    REQUIRE(config.devices.size() == 5);
    CHECK(config.devices[0].kind == DeviceRule::Kind::Model);
    CHECK(config.devices[0].pattern == "Samsung SSD 8*");
    CHECK(config.devices[1].kind == DeviceRule::Kind::Serial);
    CHECK(config.devices[2].kind == DeviceRule::Kind::ById);
    CHECK(config.devices[3].kind == DeviceRule::Kind::Node);
    CHECK(config.devices[3].pattern == "/dev/sdb");
    CHECK(config.devices[4].kind == DeviceRule::Kind::All);
    REQUIRE(config.kinds.size() == 2);
    CHECK(config.kinds[0].assignments == std::vector<std::string> { "count=500", "backend=psync" });
    CHECK(config.kinds[1].kind == "random");
    CHECK(config.kinds[1].assignments.empty());
    CHECK(config.output == "/srv/metrics/diskbench.prom");
    CHECK(config.quiet_window_seconds == 30);
    CHECK(config.quiet_max_busy_percent == 12.5);
}

TEST_CASE("a bad value names the file, the line, the group and the key", "[scheduled]")
{
    const std::string head = "[Scheduled]\n# comment\n\n";
    CHECK(parse_error(head + "QuietMaxBusyPercent=150\n").starts_with("scheduled.conf:4: [Scheduled] QuietMaxBusyPercent:"));
    CHECK(parse_error(head + "QuietMaxBusyPercent=five\n").find("from 0 to 100") != std::string::npos);
    CHECK(parse_error(head + "QuietWindowSeconds=0\n").starts_with("scheduled.conf:4: [Scheduled] QuietWindowSeconds:"));
    CHECK(parse_error(head + "QuietWindowSeconds=601\n").find("1 to 600") != std::string::npos);
    CHECK(parse_error(head + "Output=relative/diskbench.prom\n").starts_with("scheduled.conf:4: [Scheduled] Output:"));
    CHECK(parse_error(head + "Output=/var/lib/prometheus/\n").find("absolute file name") != std::string::npos);
    CHECK(parse_error(head + "Devices=sdb\n").find("“sdb” is none of") != std::string::npos);
    CHECK(parse_error(head + "Devices=model:\n").find("is none of") != std::string::npos);
    CHECK(parse_error(head + "Devices=;\n").find("needs at least one entry") != std::string::npos);
    CHECK(parse_error(head + "Colour=blue\n").starts_with("scheduled.conf:4: [Scheduled] Colour: unknown key"));
}

TEST_CASE("scheduled runs never write: write and folder kinds are refused", "[scheduled]")
{
    for (const char* kind : { "write-seq", "sustained-write", "file-rw", "small-files", "no-such-kind" }) {
        INFO(kind);
        const std::string error = parse_error(std::string("[Scheduled]\nKinds=seek;") + kind + "\n");
        CHECK(error.starts_with("scheduled.conf:2: [Scheduled] Kinds:"));
        CHECK(error.find(kind) != std::string::npos);
    }
    CHECK(parse_error("[Scheduled]\nKinds=seek\n[Kind profile]\nduration_s=1\n").find("profile is not in Kinds=")
          != std::string::npos);
    CHECK(parse_error("[Elsewhere]\nx=1\n").find("unknown group [Elsewhere]") != std::string::npos);
    CHECK_FALSE(parse_error("[Scheduled\n").empty()); // not a key file at all
    // The overview reads, but its opt-in write rate writes: refused, whatever its value.
    for (const char* value : { "true", "false" }) {
        INFO(value);
        CHECK(parse_error(std::string("[Scheduled]\nKinds=overview\n[Kind overview]\nwrite=") + value + "\n")
              == "scheduled.conf: [Kind overview]: write= would write to the device (scheduled runs never write)");
    }
    std::string error;
    CHECK(parse_scheduled_config("[Scheduled]\nKinds=overview\n[Kind overview]\nsamples=10\n", "scheduled.conf", error));
    CHECK(error.empty());
}

TEST_CASE("localized keys (KEY[LOCALE]) and unknown groups are refused, with their line", "[scheduled]")
{
    // GKeyFile reads write[en] as a translation of write, which it drops
    // unless the process runs in that locale: it must be refused, not ignored.
    CHECK(parse_error("[Scheduled]\nKinds=overview\n\n[Kind overview]\nwrite[en]=true\n")
          == "scheduled.conf:5: [Kind overview] write[en]: a localized key (KEY[LOCALE]) is not a setting of this file");
    CHECK(parse_error("[Scheduled]\nKinds=seek\n[Kind seek]\ncount[C]=5\n")
              .starts_with("scheduled.conf:4: [Kind seek] count[C]: a localized key"));
    CHECK(parse_error("[Scheduled]\n# comment\nKinds[cs]=seek\n")
              .starts_with("scheduled.conf:3: [Scheduled] Kinds[cs]: a localized key"));
    CHECK(parse_error("[Scheduled]\nKinds=seek\n\n[Schedule]\nKinds=profile\n")
          == "scheduled.conf:4: unknown group [Schedule] (known: [Scheduled], [Kind NAME])");
}

TEST_CASE("device rules: all is whole, fixed disks; the others match what they name", "[scheduled]")
{
    const DeviceIdentity ssd { "/dev/sda", "Samsung SSD 860 EVO", "S3Z1NB0K", "ata-Samsung_SSD_860_EVO_S3Z1NB0K",
                               false, false };
    DeviceIdentity stick = ssd;
    stick.removable = true;
    DeviceIdentity partition = ssd;
    partition.not_a_drive = true;
    const DeviceRule all { DeviceRule::Kind::All, {} };
    CHECK(device_matches(all, ssd));
    CHECK_FALSE(device_matches(all, stick));
    CHECK_FALSE(device_matches(all, partition));
    CHECK(device_matches({ DeviceRule::Kind::Model, "Samsung SSD 8*" }, ssd));
    CHECK_FALSE(device_matches({ DeviceRule::Kind::Model, "Samsung SSD 9*" }, ssd));
    CHECK(device_matches({ DeviceRule::Kind::Serial, "S3Z1NB0K" }, ssd));
    CHECK_FALSE(device_matches({ DeviceRule::Kind::Serial, "S3Z1" }, ssd)); // whole serials only
    CHECK(device_matches({ DeviceRule::Kind::ById, "ata-*" }, ssd));
    CHECK_FALSE(device_matches({ DeviceRule::Kind::ById, "nvme-*" }, ssd));
    CHECK(device_matches({ DeviceRule::Kind::Node, "/dev/sda" }, ssd));
    CHECK_FALSE(device_matches({ DeviceRule::Kind::Node, "/dev/sdb" }, ssd));
    // A drive without a model, serial or by-id name matches none of those.
    const DeviceIdentity bare { "/dev/loop3", "", "", "", false, true };
    CHECK_FALSE(device_matches({ DeviceRule::Kind::Model, "*" }, bare));
    CHECK_FALSE(device_matches({ DeviceRule::Kind::ById, "*" }, bare));
    CHECK(device_matches({ DeviceRule::Kind::Node, "/dev/loop3" }, bare));
}

TEST_CASE("the quiet rule reads io_ticks of the named device only", "[scheduled]")
{
    // Fields after the name: reads merged sectors ms writes merged sectors
    // ms in_flight io_ticks ...; io_ticks 1000 ms, then 3500 ms.
    const std::string before = "   8       0 sda 100 0 800 50 10 0 80 5 0 1000 55 0 0 0 0\n"
                               "   8       1 sda1 90 0 700 40 10 0 80 5 0 9000 45 0 0 0 0\n"
                               "   7       3 loop3 1 0 8 0 0 0 0 0 0 0 0\n";
    const std::string after = "   8       0 sda 300 0 2400 150 10 0 80 5 0 3500 155 0 0 0 0\n"
                              "   8       1 sda1 90 0 700 40 10 0 80 5 0 9000 45 0 0 0 0\n"
                              "   7       3 loop3 1 0 8 0 0 0 0 0 0 0 0\n";
    CHECK(busy_share(before, after, "sda", 10'000) == Approx(0.25));
    CHECK(busy_share(before, after, "sda1", 10'000) == Approx(0.0));
    CHECK(busy_share(before, after, "loop3", 10'000) == Approx(0.0));
    CHECK(busy_share(before, after, "sdb", 10'000) == std::nullopt);
    // Busier than the window (rounding in the kernel's accounting): 1.
    CHECK(busy_share(before, after, "sda", 1'000) == Approx(1.0));
    // A short line (a kernel we do not know) is no reading, not a guess.
    CHECK(busy_share("8 0 sda 1 2 3\n", after, "sda", 10'000) == std::nullopt);
    // This machine's own file has at least one device.
    CHECK(read_diskstats().find(' ') != std::string::npos);
}

TEST_CASE("a reader never sees half a metrics file", "[scheduled]")
{
    // node_exporter reads the file whenever Prometheus scrapes; the writer
    // replaces it at any time. Two big versions, rewritten over and over
    // while another thread reads: every read is one version or the other.
    TempDir dir;
    const std::string path = dir.path + "/diskbench.prom";
    const std::string a = std::string(512 * 1024, 'a') + "\n# EOF\n";
    const std::string b = std::string(768 * 1024, 'b') + "\n# EOF\n";
    REQUIRE(diskbench::client::write_file_atomically(path, a).empty());
    std::atomic<bool> done { false };
    std::atomic<int> reads { 0 }, torn { 0 };
    std::thread reader([&] {
        while (!done) {
            const std::string seen = read_all(path);
            if (seen != a && seen != b)
                ++torn;
            ++reads;
        }
    });
    for (int i = 0; i < 200; ++i)
        REQUIRE(diskbench::client::write_file_atomically(path, i % 2 ? a : b).empty());
    done = true;
    reader.join();
    INFO(reads.load() << " reads");
    CHECK(reads > 0);
    CHECK(torn == 0);
}

TEST_CASE("publishing moves the staged file whole, readable by others, and removes it", "[scheduled]")
{
    TempDir stage, out;
    const std::string staged = stage.path + "/metrics.prom";
    const std::string output = out.path + "/diskbench.prom";
    // Nothing staged (a run that failed early): nothing published, no error.
    PublishOutcome outcome = publish_metrics(staged, output);
    CHECK_FALSE(outcome.published);
    CHECK(outcome.error.empty());
    CHECK_FALSE(g_file_test(output.c_str(), G_FILE_TEST_EXISTS));

    const mode_t old_umask = ::umask(077);
    REQUIRE(stage_metrics(staged, metrics).empty());
    outcome = publish_metrics(staged, output);
    ::umask(old_umask);
    INFO(outcome.error);
    CHECK(outcome.published);
    CHECK(read_all(output) == metrics);
    struct stat facts {};
    REQUIRE(::stat(output.c_str(), &facts) == 0);
    CHECK((facts.st_mode & 0777) == 0644);
    CHECK_FALSE(g_file_test(staged.c_str(), G_FILE_TEST_EXISTS));

    // stage_metrics with nothing removes a stale staged file.
    REQUIRE(stage_metrics(staged, metrics).empty());
    REQUIRE(stage_metrics(staged, {}).empty());
    CHECK_FALSE(g_file_test(staged.c_str(), G_FILE_TEST_EXISTS));
}

TEST_CASE("publishing refuses a link, a half file and a stranger's file, and keeps the old output", "[scheduled]")
{
    TempDir stage, out;
    const std::string staged = stage.path + "/metrics.prom";
    const std::string output = out.path + "/diskbench.prom";
    write_plain(output, metrics);

    SECTION("a symbolic link to a file the service's user cannot read")
    {
        const std::string secret = out.path + "/secret";
        write_plain(secret, "root's secret\n# EOF\n");
        REQUIRE(::symlink(secret.c_str(), staged.c_str()) == 0);
    }
    SECTION("a file cut short")
    {
        write_plain(staged, "# TYPE diskbench_iops gauge\ndiskbench_iops{device=\"sda\"} 1");
    }
    SECTION("a directory")
    {
        REQUIRE(g_mkdir(staged.c_str(), 0700) == 0);
    }
    SECTION("a file of another owner than the directory's (a hard link to it)")
    {
        write_plain(staged, metrics);
        // As root the test can hand it to someone else; as a user it
        // cannot, and the owner check is then shown by the others.
        if (::geteuid() == 0)
            REQUIRE(::chown(staged.c_str(), 65534, 65534) == 0);
        else
            write_plain(staged, "not ours\n");
    }
    const PublishOutcome outcome = publish_metrics(staged, output);
    CHECK_FALSE(outcome.published);
    CHECK_FALSE(outcome.error.empty());
    CHECK(read_all(output) == metrics);
    g_remove(staged.c_str());
}
