// SPDX-License-Identifier: GPL-3.0-or-later
// The root step of the scheduled runs (client-cli/metrics_publish.hpp)
// against what a compromised _diskbench or prometheus account can do: a
// textfile directory swapped for a symbolic link or for a directory of
// theirs, one others may write to, and staged content that is not
// diskbench's metrics (another exporter's series, a logrotate stanza).
// Nothing is written when it refuses. And every text diskbench's own
// generator writes (results/openmetrics.hpp) is accepted.
//
// [scheduled]: as any user. [scheduled-root]: the owners' rule, which
// needs directories of another user (chown), as root.
#include "metrics_lines.hpp"
#include "metrics_publish.hpp"
#include "textfile_directory.hpp"

#include "contract/benchmark_kinds.hpp"
#include "results/openmetrics.hpp"

#include <catch2/catch.hpp>
#include <glib.h>
#include <glib/gstdio.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <vector>

using namespace diskbench::cli;
using diskbench::client::SavedResult;

namespace {

constexpr uid_t stranger = 65534; // nobody

void remove_tree(const std::string& path)
{
    if (!g_file_test(path.c_str(), G_FILE_TEST_IS_SYMLINK) && g_file_test(path.c_str(), G_FILE_TEST_IS_DIR)) {
        if (GDir* dir = g_dir_open(path.c_str(), 0, nullptr)) {
            while (const gchar* name = g_dir_read_name(dir))
                remove_tree(path + "/" + name);
            g_dir_close(dir);
        }
        g_rmdir(path.c_str());
        return;
    }
    g_remove(path.c_str());
}

// A temporary tree: the staging directory (the service's own) and a
// directory to publish into, removed with all they hold.
struct Tree {
    std::string root, stage, staged;
    Tree()
    {
        gchar* made = g_dir_make_tmp("diskbench-publish-XXXXXX", nullptr);
        REQUIRE(made);
        root = made;
        g_free(made);
        stage = root + "/state";
        staged = stage + "/metrics.prom";
        REQUIRE(g_mkdir(stage.c_str(), 0700) == 0);
    }
    ~Tree() { remove_tree(root); }
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;

    // A directory under the tree, mode MODE whatever the umask.
    std::string directory(const std::string& name, mode_t mode = 0755) const
    {
        const std::string path = root + "/" + name;
        REQUIRE(g_mkdir(path.c_str(), 0700) == 0);
        REQUIRE(::chmod(path.c_str(), mode) == 0);
        return path;
    }
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

std::vector<std::string> entries_of(const std::string& directory)
{
    std::vector<std::string> names;
    if (GDir* dir = g_dir_open(directory.c_str(), 0, nullptr)) {
        while (const gchar* name = g_dir_read_name(dir))
            names.emplace_back(name);
        g_dir_close(dir);
    }
    return names;
}

const std::string metrics = "# HELP diskbench_iops I/O operations per second.\n"
                            "# TYPE diskbench_iops gauge\n"
                            "diskbench_iops{device=\"sda\",model=\"A \\\"B\\\" \\\\ C\\nD\"} 120\n"
                            "# EOF\n";

// Publishes STAGED_TEXT from the tree into OUTPUT and expects a refusal
// whose message has NEEDLE; the staged file stays for the next run to remove.
void expect_refused(const Tree& tree, const std::string& staged_text, const std::string& output,
                    const std::string& needle)
{
    write_plain(tree.staged, staged_text);
    const PublishOutcome outcome = publish_metrics(tree.staged, output);
    INFO(outcome.error);
    CHECK_FALSE(outcome.published);
    CHECK(outcome.error.find(needle) != std::string::npos);
    CHECK(g_file_test(tree.staged.c_str(), G_FILE_TEST_EXISTS));
}

// Results of every kind the generator knows, with hostile labels (quotes,
// backslashes, a line feed, Cyrillic, a tab, bytes that are not UTF-8).
std::vector<SavedResult> results_of_every_kind()
{
    std::vector<SavedResult> results;
    std::int64_t finished_s = 1'800'000'000;
    for (const std::string_view kind : diskbench::contract::kinds::all) {
        SavedResult result;
        result.kind = std::string(kind);
        result.state = "finished";
        result.started_at_us = (finished_s - 30) * 1'000'000;
        result.finished_at_us = finished_s++ * 1'000'000;
        result.device_info = { { "node", std::string("/dev/sd\"a\\") },
                               { "model", std::string("Vendor \"X\" \\ SSD\nЖ\tbad\xff") },
                               { "serial", std::string("S3Z1\\n") },
                               { "link", std::string("SATA 6.0 Gb/s") },
                               { "stack_line", std::string("sda, {x=\"1\"} # EOF") } };
        result.summary = { { "seq1m_q8t1.throughput_mb_s", 523.5 },
                           { "seq1m_q8t1.iops", 499.25 },
                           { "rnd4k_q32t16.read_latency_p50_us", std::int64_t { 2000 } },
                           { "rnd4k_q32t16.write_latency_p99_us", 4500.0 },
                           { "latency_p99_9_us", 1e-300 },
                           { "latency_mean_us", 2100.0 },
                           { "read_mb_s", 1e300 },
                           { "write_iops_cv_percent", 0.0 },
                           { "throughput_mb_s_cv_percent", 2.5 },
                           { "temperature_max_c", 41.5 },
                           { "temperature_limit_c", 70.0 } };
        result.warning_messages = { { "foreign-io", {} }, { "passes-varied", {} }, { "link-slow", {} } };
        results.push_back(result);
    }
    return results;
}

} // namespace

TEST_CASE("every text diskbench's generator writes passes the publishing step's line check", "[scheduled]")
{
    using diskbench::client::openmetrics_text;
    using diskbench::client::ScheduledRun;
    const std::vector<SavedResult> results = results_of_every_kind();
    ScheduledRun run;
    run.ended_at = 1'800'000'100.25;
    run.devices = { { "ata-X\"1\"", "Model \\ \"1\"\n", "S1", 0.25, "busy" },
                    { "loop7", "", "", std::nullopt, "failed" },
                    { "nvme-Fast", "Fast", "N1", 0.0, "" } };
    std::vector<std::string> texts { openmetrics_text(results, &run), openmetrics_text(results),
                                     openmetrics_text({}, &run), openmetrics_text({}) };
    for (const SavedResult& result : results)
        texts.push_back(openmetrics_text({ result }));
    for (const std::string& text : texts) {
        INFO(text);
        CHECK(first_refused_metrics_line(text) == 0);
    }
    // And through the whole step, into a directory as root keeps it.
    Tree tree;
    const std::string output = tree.directory("textfile") + "/diskbench.prom";
    write_plain(tree.staged, texts.front());
    const PublishOutcome outcome = publish_metrics(tree.staged, output);
    INFO(outcome.error);
    CHECK(outcome.published);
    CHECK(read_all(output) == texts.front());
    // Only the file itself: no temporary file left beside it.
    CHECK(entries_of(tree.root + "/textfile") == std::vector<std::string> { "diskbench.prom" });
}

TEST_CASE("the line check takes OpenMetrics samples and metadata of diskbench_* only", "[scheduled]")
{
    for (const char* text : {
             "# EOF\n",
             "diskbench_x 1\n# EOF\n",
             "diskbench_x{} NaN\n# EOF\n",
             "diskbench_x{a=\"\"} +Inf\ndiskbench_x{a=\"1\"} -inf\ndiskbench_x{a=\"2\"} 1.5e-07\n# EOF\n",
             "diskbench_x{a_1=\"\\\\\\\"\\n\",b=\"é\"} .5 1700000000.5\n# EOF\n",
             "# HELP diskbench_x \n# TYPE diskbench_x summary\n# UNIT diskbench_x seconds\n# EOF\n",
         }) {
        INFO(text);
        CHECK(first_refused_metrics_line(text) == 0);
    }
    // The first line that is not, counted from 1.
    const std::pair<const char*, std::size_t> refused[] {
        { "", 1 },
        { "diskbench_x 1\n", 2 },                                                // no # EOF
        { "diskbench_x 1\n# EOF", 2 },                                           // cut short
        { "diskbench_x 1\n# EOF\ndiskbench_y 2\n# EOF\n", 2 },                   // # EOF inside
        { "diskbench_x 1\nnode_filesystem_avail_bytes{mountpoint=\"/\"} 1e15\n# EOF\n", 2 },
        { "/var/log/*.log {\n    rotate 0\n}\n# EOF\n", 1 },                      // logrotate
        { "* * * * * root sh\n# EOF\n", 1 },                                     // cron
        { "# HELP node_load1 forged\n# EOF\n", 1 },
        { "# TYPE diskbench_x info\n# EOF\n", 1 },
        { "# UNIT diskbench_x \n# EOF\n", 1 },
        { "# a comment\n# EOF\n", 1 },
        { "#EOF\n# EOF\n", 1 },
        { "# HELP diskbench_x a \"quote\"\n# EOF\n", 1 },
        { "\n# EOF\n", 1 },
        { "diskbench_ 1\n# EOF\n", 1 },
        { "diskbench_x-y 1\n# EOF\n", 1 },
        { "diskbench_x{__name__=\"node_load1\"} 1\n# EOF\n", 1 },
        { "diskbench_x{a=\"1\",a=\"2\"} 1\n# EOF\n", 1 },
        { "diskbench_x{a=\"1\",} 1\n# EOF\n", 1 },
        { "diskbench_x{a=\"b\"c\"} 1\n# EOF\n", 1 },
        { "diskbench_x{a=\"b\\t\"} 1\n# EOF\n", 1 },
        { "diskbench_x{a=\"b} 1\n# EOF\n", 1 },
        { "diskbench_x{1a=\"b\"} 1\n# EOF\n", 1 },
        { "diskbench_x{a=b} 1\n# EOF\n", 1 },
        { "diskbench_x\n# EOF\n", 1 },
        { "diskbench_x \n# EOF\n", 1 },
        { "diskbench_x 1 \n# EOF\n", 1 },
        { "diskbench_x  1\n# EOF\n", 1 },
        { "diskbench_x 1.2.3\n# EOF\n", 1 },
        { "diskbench_x 0x10\n# EOF\n", 1 },
        { "diskbench_x 1e\n# EOF\n", 1 },
        { "diskbench_x -nan\n# EOF\n", 1 },
        { "diskbench_x 1 NaN\n# EOF\n", 1 },
        { "diskbench_x 1 2 3\n# EOF\n", 1 },
        { "diskbench_x 1 # {a=\"b\"} 1\n# EOF\n", 1 }, // an exemplar
        { "diskbench_x 1\r\n# EOF\n", 1 },
        { "diskbench_x{a=\"\xff\"} 1\n# EOF\n", 1 },
    };
    for (const auto& [text, line] : refused) {
        INFO(text);
        CHECK(first_refused_metrics_line(text) == line);
    }
    const char with_nul[] = "diskbench_x{a=\"\0\"} 1\n# EOF\n";
    CHECK(first_refused_metrics_line(std::string_view(with_nul, sizeof with_nul - 1)) == 1);
}

TEST_CASE("publishing refuses staged text that is not diskbench's metrics, and writes nothing", "[scheduled]")
{
    Tree tree;
    const std::string textfile = tree.directory("textfile");
    const std::string output = textfile + "/diskbench.prom";
    write_plain(output, metrics);
    expect_refused(tree, "# TYPE diskbench_iops gauge\nnode_filesystem_avail_bytes{mountpoint=\"/\"} 1e15\n# EOF\n",
                   output, tree.staged + ":2: not a line of diskbench's metrics");
    expect_refused(tree,
                   "/var/log/diskbench.prom {\n    postrotate\n        id > /tmp/owned\n    endscript\n}\n# EOF\n",
                   output, tree.staged + ":1: not a line of diskbench's metrics");
    CHECK(read_all(output) == metrics);
    CHECK(entries_of(textfile) == std::vector<std::string> { "diskbench.prom" });
}

TEST_CASE("publishing refuses a textfile directory reached through a symbolic link, writing nothing there",
          "[scheduled]")
{
    Tree tree;
    // A stand-in for /etc/logrotate.d, where root must never write.
    const std::string target = tree.directory("logrotate.d");
    const std::string real = tree.directory("real");
    SECTION("the textfile directory itself")
    {
        REQUIRE(::symlink(target.c_str(), (tree.root + "/textfile").c_str()) == 0);
        expect_refused(tree, metrics, tree.root + "/textfile/diskbench.prom",
                       tree.root + "/textfile is a symbolic link");
    }
    SECTION("a directory above it")
    {
        REQUIRE(::symlink(tree.root.c_str(), (tree.root + "/up").c_str()) == 0);
        expect_refused(tree, metrics, tree.root + "/up/logrotate.d/diskbench.prom",
                       tree.root + "/up is a symbolic link");
    }
    SECTION("a relative link")
    {
        REQUIRE(::symlink("logrotate.d", (tree.root + "/textfile").c_str()) == 0);
        expect_refused(tree, metrics, tree.root + "/textfile/diskbench.prom", "is a symbolic link");
    }
    SECTION("a magic link of /proc")
    {
        // /proc/self/root is "/": the path names the target directory.
        expect_refused(tree, metrics, "/proc/self/root" + target + "/diskbench.prom",
                       "/proc/self is a symbolic link");
    }
    SECTION("“..” in the path")
    {
        expect_refused(tree, metrics, real + "/../logrotate.d/diskbench.prom", "“.” and “..” are not allowed");
    }
    CHECK(entries_of(target).empty());
    CHECK(entries_of(real).empty());
}

TEST_CASE("publishing refuses a textfile directory its group or others may write to", "[scheduled]")
{
    for (const mode_t mode : { 0775, 0757, 01777, 0770 }) {
        INFO(std::oct << mode);
        Tree tree;
        const std::string textfile = tree.directory("textfile", mode);
        expect_refused(tree, metrics, textfile + "/diskbench.prom",
                       textfile + " belongs to another user or is writable by its group or others");
        CHECK(entries_of(textfile).empty());
    }
}

TEST_CASE("publishing replaces the file in the directory, not what a link of that name points to", "[scheduled]")
{
    Tree tree;
    const std::string target = tree.directory("logrotate.d");
    const std::string textfile = tree.directory("textfile");
    REQUIRE(::symlink((target + "/diskbench").c_str(), (textfile + "/diskbench.prom").c_str()) == 0);
    write_plain(tree.staged, metrics);
    const PublishOutcome outcome = publish_metrics(tree.staged, textfile + "/diskbench.prom");
    INFO(outcome.error);
    CHECK(outcome.published);
    CHECK_FALSE(g_file_test((textfile + "/diskbench.prom").c_str(), G_FILE_TEST_IS_SYMLINK));
    CHECK(read_all(textfile + "/diskbench.prom") == metrics);
    CHECK(entries_of(target).empty());
}

TEST_CASE("publishing refuses a group-writable directory above the parent, not a sticky one", "[scheduled]")
{
    Tree tree;
    const std::string shared = tree.directory("shared", 0775);
    REQUIRE(g_mkdir((shared + "/p").c_str(), 0755) == 0);
    REQUIRE(g_mkdir((shared + "/p/textfile").c_str(), 0755) == 0);
    expect_refused(tree, metrics, shared + "/p/textfile/diskbench.prom", shared + " belongs to another user");
    REQUIRE(::chmod(shared.c_str(), 01777) == 0);
    write_plain(tree.staged, metrics);
    const PublishOutcome outcome = publish_metrics(tree.staged, shared + "/p/textfile/diskbench.prom");
    INFO(outcome.error);
    CHECK(outcome.published);
}

TEST_CASE("the textfile directory's owners: root's own directory, in a parent of anyone's", "[scheduled-root]")
{
    REQUIRE(::geteuid() == 0); // chown: run as root (meson test scheduled-root)
    Tree tree;
    SECTION("a textfile directory of another user is refused")
    {
        const std::string textfile = tree.directory("textfile");
        REQUIRE(::chown(textfile.c_str(), stranger, stranger) == 0);
        expect_refused(tree, metrics, textfile + "/diskbench.prom",
                       textfile + " belongs to another user or is writable by its group or others");
        CHECK(entries_of(textfile).empty());
    }
    SECTION("Debian's layout: /var/lib/prometheus the prometheus user's, node-exporter/ in it root's")
    {
        const std::string prometheus = tree.directory("prometheus");
        const std::string textfile = prometheus + "/node-exporter";
        REQUIRE(g_mkdir(textfile.c_str(), 0755) == 0);
        REQUIRE(::chown(prometheus.c_str(), stranger, stranger) == 0);
        write_plain(tree.staged, metrics);
        const PublishOutcome outcome = publish_metrics(tree.staged, textfile + "/diskbench.prom");
        INFO(outcome.error);
        CHECK(outcome.published);
        CHECK(read_all(textfile + "/diskbench.prom") == metrics);

        // What prometheus can do there: put a directory of its own in
        // node-exporter's place (not a link: a real directory).
        REQUIRE(::rename(textfile.c_str(), (prometheus + "/old").c_str()) == 0);
        REQUIRE(g_mkdir(textfile.c_str(), 0755) == 0);
        REQUIRE(::chown(textfile.c_str(), stranger, stranger) == 0);
        expect_refused(tree, metrics, textfile + "/diskbench.prom",
                       textfile + " belongs to another user or is writable by its group or others");
        CHECK(entries_of(textfile).empty());
    }
    SECTION("a directory of another user above the parent is refused")
    {
        const std::string lib = tree.directory("lib");
        REQUIRE(g_mkdir((lib + "/prometheus").c_str(), 0755) == 0);
        REQUIRE(g_mkdir((lib + "/prometheus/node-exporter").c_str(), 0755) == 0);
        REQUIRE(::chown(lib.c_str(), stranger, stranger) == 0);
        expect_refused(tree, metrics, lib + "/prometheus/node-exporter/diskbench.prom",
                       lib + " belongs to another user or is writable by its group or others without the sticky bit");
        CHECK(entries_of(lib + "/prometheus/node-exporter").empty());
    }
}
