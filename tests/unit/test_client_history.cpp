// SPDX-License-Identifier: GPL-3.0-or-later
// History per device: which kept results belong to a disk (by its identity,
// not its node) or a folder, newest first; the headline figures per kind;
// the trend of one figure; deleting a result and undoing it.
#include "model/history_trend.hpp"
#include "model/steady_beside_fresh.hpp"
#include "results/job_result.hpp"

#include <catch2/catch.hpp>
#include <glib.h>

#include <filesystem>
#include <fstream>

using namespace diskbench::client;

namespace {

struct TempDir {
    std::string path;
    TempDir()
    {
        gchar* made = g_dir_make_tmp("diskbench-history-XXXXXX", nullptr);
        REQUIRE(made);
        path = made;
        g_free(made);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

constexpr std::int64_t day_us = 86'400'000'000;
constexpr std::int64_t monday_us = 1'795'000'000'000'000;

SavedValueMap disk(const std::string& serial, const std::string& node)
{
    return { { "serial", serial }, { "model", std::string("Disk ") + serial }, { "node", node },
             { "size", std::int64_t { 500'000'000'000 } } };
}

SavedResult result(const std::string& kind, SavedValueMap device, std::int64_t at_us, SavedValueMap summary)
{
    SavedResult saved;
    saved.kind = kind;
    saved.state = "finished";
    saved.device_info = std::move(device);
    saved.started_at_us = at_us - 1'000'000;
    saved.finished_at_us = at_us;
    saved.summary = std::move(summary);
    return saved;
}

SavedResult folder_result(const std::string& folder, std::int64_t at_us)
{
    SavedResult saved = result("file-rw", {}, at_us, { { "write_mb_s", 300.0 }, { "read_mb_s", 500.0 } });
    saved.target_kind = "directory";
    saved.target = folder;
    return saved;
}

std::vector<RecentResult> kept(std::vector<SavedResult> results)
{
    std::vector<RecentResult> entries;
    int n = 0;
    for (SavedResult& saved : results)
        entries.push_back({ "/results/" + std::to_string(n++) + ".json", std::move(saved) });
    return entries;
}

} // namespace

TEST_CASE("history: a disk's results by its identity, whatever node it had; newest first", "[client-model]")
{
    // The same disk was sdb on Monday and sdc on Wednesday; another disk is
    // sdb today. The history of the disk has both of its results and not
    // the other disk's, though that one has its old node.
    const auto results = kept({
        result("seek", disk("S1", "/dev/sdb"), monday_us, { { "latency_mean_us", 8500.0 } }),
        result("seek", disk("S2", "/dev/sdb"), monday_us + 3 * day_us, { { "latency_mean_us", 90.0 } }),
        result("sequential", disk("S1", "/dev/sdc"), monday_us + 2 * day_us, { { "throughput_mb_s", 180.0 } }),
        folder_result("/home/u/bench", monday_us + day_us),
    });
    const auto listed = history_of(results, { disk("S1", "/dev/sdc"), {} });
    REQUIRE(listed.size() == 2);
    CHECK(listed[0]->result.kind == "sequential"); // Wednesday
    CHECK(listed[1]->result.kind == "seek");       // Monday
    CHECK(listed[1]->path == "/results/0.json");

    // A folder's history is its folder's results only.
    const auto folder = history_of(results, { {}, "/home/u/bench" });
    REQUIRE(folder.size() == 1);
    CHECK(folder[0]->result.target == "/home/u/bench");
    CHECK(history_of(results, { {}, "/home/u/other" }).empty());
    // Nothing selected: nothing listed (not every result).
    CHECK(history_of(results, {}).empty());
}

TEST_CASE("history: a node on the command line finds its disk's whole history", "[client-model]")
{
    const auto results = kept({
        result("seek", disk("S1", "/dev/sdb"), monday_us, { { "latency_mean_us", 8500.0 } }),
        result("seek", disk("S2", "/dev/sdb"), monday_us + 3 * day_us, { { "latency_mean_us", 90.0 } }),
        result("sequential", disk("S1", "/dev/sdc"), monday_us + 2 * day_us, { { "throughput_mb_s", 180.0 } }),
        folder_result("/home/u/bench", monday_us + day_us),
    });
    // /dev/sdb is S2 now (its newest result says so): S2's history.
    const auto sdb = history_of(results, subject_for_path(results, "/dev/sdb"));
    REQUIRE(sdb.size() == 1);
    CHECK(sdb[0]->path == "/results/1.json");
    // /dev/sdc was S1: S1's results, also the one from when it was sdb.
    CHECK(history_of(results, subject_for_path(results, "/dev/sdc")).size() == 2);
    CHECK(history_of(results, subject_for_path(results, "/home/u/bench")).size() == 1);
    CHECK(history_of(results, subject_for_path(results, "/dev/nothing")).empty());
}

TEST_CASE("history: the headline figure of each kind", "[client-model]")
{
    const SavedValueMap seek { { "latency_mean_us", 8500.0 }, { "latency_p50_us", 8000.0 }, { "latency_p99_us", 21000.0 },
                               { "throughput_mb_s", 0.5 }, { "reads", std::int64_t { 1000 } } };
    auto figures = headline_figures("seek", seek);
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].key == "latency_mean_us"); // the access time, as HDDTest and GNOME Disks
    CHECK(figures[0].unit == Unit::Microseconds);
    CHECK(figures[1].key == "latency_p99_us");
    CHECK(headline_text("seek", seek) == "access time " + format_value(8500, Unit::Microseconds) + "  ·  p99 "
              + format_value(21000, Unit::Microseconds));

    const SavedValueMap sequential { { "throughput_mb_s", 512.0 }, { "throughput_min_mb_s", 100.0 },
                                     { "latency_mean_us", 250.0 } };
    figures = headline_figures("sequential", sequential);
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].key == "throughput_mb_s");
    CHECK(figures[1].key == "latency_mean_us");

    // Random's throughput is per block size (the series): the mean latency
    // leads, and the slowest and fastest size are not headlines.
    figures = headline_figures("random", { { "latency_mean_us", 90.0 }, { "throughput_max_mb_s", 36.0 },
                                           { "reads", std::int64_t { 800 } } });
    REQUIRE(figures.size() == 1);
    CHECK(figures[0].key == "latency_mean_us");
    CHECK(headline_figures("qd-sweep", { { "best_iops", 50000.0 }, { "best_queue_depth", std::int64_t { 32 } } })
              .at(0).key == "best_iops");
    // Folder kinds: the write then the read rate.
    figures = headline_figures("file-rw", { { "read_mb_s", 500.0 }, { "write_mb_s", 300.0 } });
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].key == "read_mb_s");
    CHECK(figures[1].key == "write_mb_s");
    // Figures named after a test or phase (profile, small-files).
    figures = headline_figures("profile", { { "seq1m_q8t1_read_throughput_mb_s", 550.0 },
                                            { "seq1m_q8t1_read_throughput_min_mb_s", 90.0 },
                                            { "seq1m_q8t1_read_iops", 550.0 } },
                               3);
    REQUIRE(figures.size() == 1);
    CHECK(figures[0].key == "seq1m_q8t1_read_throughput_mb_s");
    CHECK(figures[0].label == "seq1m q8t1 read");
    // The summaries the engine really writes: a device profile's
    // "<test>.throughput_mb_s" and a folder profile's "<test>.read_mb_s" /
    // ".write_mb_s", in the order the tests ran (not the keys' order), and
    // named as the tests are.
    figures = headline_figures("profile", { { "tests", std::string("SEQ1M Q8T1,RND4K Q1T1") },
                                            { "rnd4k_q1t1.throughput_mb_s", 40.0 },
                                            { "seq1m_q8t1.throughput_mb_s", 1701.0 },
                                            { "seq1m_q8t1.throughput_mb_s_max", 2007.0 },
                                            { "seq1m_q8t1.iops", 1622.0 } },
                               2);
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].key == "seq1m_q8t1.throughput_mb_s");
    CHECK(figures[0].label == "SEQ1M Q8T1");
    CHECK(figures[1].key == "rnd4k_q1t1.throughput_mb_s");
    CHECK(figures[1].label == "RND4K Q1T1");
    figures = headline_figures("file-profile", { { "tests", std::string("SEQ1M Q1T1") },
                                                 { "seq1m_q1t1.write_mb_s", 900.0 },
                                                 { "seq1m_q1t1.read_mb_s", 1000.0 } },
                               2);
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].key == "seq1m_q1t1.read_mb_s");
    CHECK(figures[0].label == "SEQ1M Q1T1 read");
    CHECK(figures[1].label == "SEQ1M Q1T1 write");
    // Without its test list (a file from before it), no dot is left at a label's end.
    figures = headline_figures("profile", { { "seq1m_q8t1.throughput_mb_s", 1701.0 } });
    REQUIRE(figures.size() == 1);
    CHECK(figures[0].label == "seq1m q8t1");
    figures = headline_figures("small-files", { { "write_files_s", 4000.0 }, { "delete_ops_s", 9000.0 } });
    REQUIRE(figures.size() == 2);
    CHECK(figures[0].unit == Unit::OperationsPerSecond);
    // Nothing to show: a dash, not an empty cell.
    CHECK(headline_figures("seek", { { "reads", std::int64_t { 5 } } }).empty());
    CHECK(headline_text("seek", {}) == "–");
    // A figure that is not a number (a damaged file) is not a headline.
    CHECK(headline_figures("seek", { { "latency_mean_us", std::string("fast") } }).empty());
}

TEST_CASE("history: the trend of one figure, oldest first, one point per result that has it", "[client-model]")
{
    const auto results = kept({
        result("seek", disk("S1", "/dev/sdb"), monday_us + 2 * day_us, { { "latency_mean_us", 9000.0 } }),
        result("sequential", disk("S1", "/dev/sdb"), monday_us + 3 * day_us, { { "throughput_mb_s", 180.0 } }),
        result("seek", disk("S1", "/dev/sdb"), monday_us, { { "latency_mean_us", 8500.0 } }),
        result("seek", disk("S1", "/dev/sdb"), monday_us + day_us, { { "reads", std::int64_t { 3 } } }),
    });
    const auto listed = history_of(results, { disk("S1", "/dev/sdb"), {} });
    const auto choices = trend_choices(listed);
    // The newest result's headline first, each (kind, figure) once.
    REQUIRE(choices.size() == 2);
    CHECK(choices[0].kind == "sequential");
    CHECK(choices[0].figure.key == "throughput_mb_s");
    CHECK(choices[1].kind == "seek");
    CHECK(choices[1].figure.key == "latency_mean_us");
    CHECK(trend_choice_label(choices[1]) == "Seek: access time");

    const auto points = trend_points(listed, choices[1]);
    REQUIRE(points.size() == 2); // the run without the figure is left out
    CHECK(points[0].at_us == monday_us);
    CHECK(points[0].value == 8500.0);
    CHECK(points[0].path == "/results/2.json");
    CHECK(points[1].at_us == monday_us + 2 * day_us);
    CHECK(points[1].value == 9000.0);
    CHECK(trend_points(listed, choices[0]).size() == 1);

    // Axis labels: the day; with the time where a neighbour has the same day.
    const auto labels = trend_labels({ { monday_us, 1, "" }, { monday_us + 3'600'000'000, 2, "" },
                                       { monday_us + 2 * day_us, 3, "" } });
    REQUIRE(labels.size() == 3);
    CHECK(labels[0] != labels[1]);
    CHECK(labels[0].starts_with(trend_date_text(monday_us) + " "));
    CHECK(labels[2] == trend_date_text(monday_us + 2 * day_us));
    CHECK(trend_labels({}).empty());
    // Two runs within a minute: the seconds tell them apart.
    const auto close = trend_labels({ { monday_us, 1, "" }, { monday_us + 20'000'000, 2, "" } });
    CHECK(close[0] != close[1]);
}

TEST_CASE("history: a queue-depth sweep that wrote is a trend of its own, not a point on the reads'",
          "[client-model]")
{
    const auto results = kept({
        result("qd-sweep", disk("S1", "/dev/sdb"), monday_us, { { "best_iops", 90000.0 }, { "direction", std::string("read") } }),
        result("qd-sweep", disk("S1", "/dev/sdb"), monday_us + day_us,
               { { "best_iops", 30000.0 }, { "direction", std::string("write") } }),
        result("qd-sweep", disk("S1", "/dev/sdb"), monday_us + 2 * day_us, { { "best_iops", 95000.0 } }), // before 0.13
    });
    const auto listed = history_of(results, { disk("S1", "/dev/sdb"), {} });
    const auto choices = trend_choices(listed);
    REQUIRE(choices.size() == 2);
    CHECK(choices[0].figure.label == "best IOPS");
    CHECK(choices[1].figure.label == "best write IOPS");
    const auto reads = trend_points(listed, choices[0]);
    REQUIRE(reads.size() == 2);
    CHECK(reads[0].value == 90000.0);
    CHECK(reads[1].value == 95000.0);
    const auto writes = trend_points(listed, choices[1]);
    REQUIRE(writes.size() == 1);
    CHECK(writes[0].value == 30000.0);
}

TEST_CASE("history: deleting a kept result removes its file; undo puts it back", "[client-model]")
{
    TempDir dir;
    RecentResults store(dir.path + "/results");
    std::string error;
    const std::string older = store.add(result("seek", disk("S1", "/dev/sdb"), monday_us, { { "latency_mean_us", 8500.0 } }), error);
    const std::string newer = store.add(result("seek", disk("S1", "/dev/sdb"), monday_us + day_us, { { "latency_mean_us", 8700.0 } }), error);
    REQUIRE(error.empty());
    store.reload();
    REQUIRE(store.results().size() == 2);

    std::string contents;
    CHECK(store.remove(newer, contents).empty());
    CHECK_FALSE(std::filesystem::exists(newer));
    CHECK(std::filesystem::exists(older));
    REQUIRE(store.results().size() == 1);
    CHECK(store.results()[0].path == older);
    CHECK(contents.find("8700") != std::string::npos);

    // A path the list does not hold (stale, or any other file) is refused
    // and left alone.
    const std::string stranger = dir.path + "/stranger.json";
    std::ofstream(stranger) << "{}";
    std::string ignored;
    CHECK_FALSE(store.remove(stranger, ignored).empty());
    CHECK(std::filesystem::exists(stranger));
    CHECK_FALSE(store.remove(newer, ignored).empty());

    // Undo: the same file again, listed again.
    CHECK(store.restore(newer, contents).empty());
    CHECK(std::filesystem::exists(newer));
    REQUIRE(store.results().size() == 2);
    CHECK(store.results()[0].path == newer);
    // Not over a file that came back meanwhile.
    CHECK_FALSE(store.restore(newer, contents).empty());
}

TEST_CASE("the device Profiles say the disk's newest steady-state test beside its fresh figure", "[client-model]")
{
    SavedResult older = result("steady-state", disk("S1", "/dev/sdb"), monday_us,
                               { { "fresh_iops", 90'000.0 }, { "steady_iops", 20'000.0 }, { "steady_state", true },
                                 { "steady_first_round", std::int64_t { 9 } }, { "rounds", std::int64_t { 13 } } });
    SavedResult newer = result("steady-state", disk("S1", "/dev/sdc"), monday_us + 2 * day_us,
                               { { "fresh_iops", 709.0 }, { "steady_iops", 231.0 }, { "steady_state", true },
                                 { "steady_first_round", std::int64_t { 2 } }, { "rounds", std::int64_t { 6 } },
                                 { "read_percent", std::int64_t { 0 } } });
    newer.parameters = { { "block_size", std::int64_t { 4096 } }, { "queue_depth", std::int64_t { 16 } } };
    // Cancelled before its first round: no figures to say.
    SavedResult empty = result("steady-state", disk("S1", "/dev/sdc"), monday_us + 3 * day_us, {});
    SavedResult mixed = result("steady-state", disk("S2", "/dev/sdb"), monday_us + 4 * day_us,
                               { { "fresh_iops", 5000.0 }, { "steady_iops", 4000.0 }, { "steady_state", false },
                                 { "rounds", std::int64_t { 25 } }, { "read_percent", std::int64_t { 70 } } });
    const auto results = kept({ older, newer, empty, mixed,
                                result("profile", disk("S1", "/dev/sdc"), monday_us + 5 * day_us, {}) });

    const std::string line = steady_state_beside_fresh(results, disk("S1", "/dev/sdd"));
    INFO(line);
    CHECK(line.starts_with("Steady state, 4 KiB random writes at QD16 ("));
    CHECK(line.find(result_date_text(monday_us + 2 * day_us)) != std::string::npos);
    CHECK(line.ends_with("): steady 231 IOPS from round 2 (fresh 709 IOPS)"));

    const std::string other = steady_state_beside_fresh(results, disk("S2", "/dev/sda"));
    INFO(other);
    CHECK(other.starts_with("Steady state, 4 KiB random 70/30 reads and writes at QD32 ("));
    CHECK(other.ends_with("): not steady in 25 rounds: last 4000 IOPS (fresh 5000 IOPS)"));

    CHECK(steady_state_beside_fresh(results, disk("S3", "/dev/sdb")).empty());
    CHECK(steady_state_beside_fresh(results, {}).empty());
}
