// SPDX-License-Identifier: GPL-3.0-or-later
// The result's checks card: built from the summary keys and warnings the
// engine's checks give (docs/checks.md), the same after the result went
// through a result file and was read back.
#include "contract/result_file.hpp"
#include "kinds/capacity_check.hpp"
#include "text/headline_text.hpp"
#include "text/progress_text.hpp"
#include "results/job_result.hpp"
#include "results/result_checks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace diskbench::client;
using namespace diskbench::contract;

namespace {

JobEntry finished_job(SavedValueMap summary, std::vector<std::string> warnings)
{
    JobEntry job;
    job.path = "/org/diskbench/DiskBench1/jobs/1";
    job.kind = "seek";
    job.state = "finished";
    job.backend = "io_uring";
    job.started_at_us = 1'700'000'000'000'000;
    job.finished_at_us = job.started_at_us + 1'000'000;
    job.summary = std::move(summary);
    job.warnings = std::move(warnings);
    return job;
}

ResultChecks after_file(const JobEntry& job)
{
    const auto loaded = result_from_json(result_to_json(saved_result_from_job(job)));
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    const auto& saved = std::get<SavedResult>(loaded);
    return result_checks(saved.summary, saved.warnings);
}

} // namespace

TEST_CASE("a clean run's card: every check passed, with its figures, also when reopened", "[client-model]")
{
    const JobEntry job = finished_job({ { "checked_device", std::string("loop1") },
                                        { "issued_read_bytes", std::int64_t { 1'024'000 } },
                                        { "issued_write_bytes", std::int64_t { 0 } },
                                        { "device_read_bytes", std::int64_t { 1'024'000 } },
                                        { "device_write_bytes", std::int64_t { 0 } },
                                        { "link", std::string("PCIe 3.0 x4") },
                                        { "link_limit_mb_s", 3938.4 },
                                        { "stack", std::string("ext4 (noatime) → dm-crypt → nvme0n1p3 → nvme0n1, PCIe 3.0 x4") } },
                                      { "the target is a regular file: something else" });
    for (const ResultChecks& checks : { result_checks(job.summary, job.warnings), after_file(job) }) {
        REQUIRE(checks.lines.size() == 3);
        CHECK(std::all_of(checks.lines.begin(), checks.lines.end(), [](const CheckLine& l) { return l.passed; }));
        // GLib puts a no-break space between number and unit.
        CHECK(checks.lines[0].text
              == "Block layer: loop1 counted 1000.0\u00a0KiB of 1000.0\u00a0KiB read, no other I/O");
        CHECK(checks.lines[1].text == "Link: PCIe 3.0 x4, at most 3938 MB/s; the figures fit");
        CHECK(checks.lines[2].text == "Stack: ext4 (noatime) → dm-crypt → nvme0n1p3 → nvme0n1, PCIe 3.0 x4");
        CHECK(checks_text(checks).starts_with("✓ Block layer"));
        // Warnings of no check stay in the message area.
        CHECK(warnings_outside(checks, job.warnings) == job.warnings);
    }
}

TEST_CASE("a card with failed checks shows their warnings with the numbers, and only there", "[client-model]")
{
    const std::vector<std::string> warnings {
        "loop0 is page-cache-backed: it reads and writes its backing file /var/tmp/b through the page cache",
        "a cache answered reads under loop0: vda (under its backing file) served 0 B of 500 KiB read (0.0 %) during "
        "the run",
        "other I/O on loop0 during the test (more than 1 % beyond the benchmark's own): during RND4K Q1T1: 12 MiB read",
        "io_uring is not available (test); used the psync thread pool",
    };
    const JobEntry job = finished_job({ { "checked_device", std::string("loop0") },
                                        { "issued_read_bytes", std::int64_t { 512'000 } },
                                        { "device_read_bytes", std::int64_t { 13'000'000 } },
                                        { "foreign_read_bytes", std::int64_t { 12'582'912 } },
                                        { "link", std::string("virtual (loop)") },
                                        { "stack", std::string("loop0 (page-cache-backed, file /var/tmp/b) → vda") } },
                                      warnings);
    const ResultChecks checks = after_file(job);
    REQUIRE(checks.lines.size() == 4);
    CHECK_FALSE(checks.lines[0].passed);
    CHECK(checks.lines[0].text == warnings[1]);
    CHECK_FALSE(checks.lines[1].passed);
    CHECK(checks.lines[1].text == warnings[2]);
    CHECK(checks.lines[2].passed);
    CHECK(checks.lines[2].text == "Link: virtual (loop)");
    CHECK_FALSE(checks.lines[3].passed);
    CHECK(checks.lines[3].text == warnings[0]);
    CHECK(warnings_outside(checks, warnings) == std::vector<std::string> { warnings[3] });
}

TEST_CASE("a write run's card says when its writes were flushed, also when reopened", "[client-model]")
{
    const auto flush_line = [](const ResultChecks& checks) {
        for (const CheckLine& line : checks.lines)
            if (line.text.starts_with("Flushes:"))
                return line.text;
        return std::string();
    };
    const JobEntry at_end = finished_job({ { "mode", std::string("destroy") }, { "sync_rule", std::string("end") } }, {});
    const JobEntry every = finished_job({ { "mode", std::string("destroy") },
                                          { "sync_rule", std::string("every") },
                                          { "sync_every_bytes", std::int64_t { 64 * 1024 * 1024 } } },
                                        {});
    const JobEntry batch = finished_job({ { "mode", std::string("preserve") }, { "sync_rule", std::string("batch") } }, {});
    for (const bool reopened : { false, true }) {
        const auto card = [&](const JobEntry& job) { return reopened ? after_file(job) : result_checks(job.summary, job.warnings); };
        CHECK(flush_line(card(at_end))
              == "Flushes: the queue stayed full, one flush ended each test inside its time (as fio's end_fsync=1)");
        CHECK(flush_line(card(every))
              == "Flushes: one after every 64.0\u00a0MiB written, each waiting for the writes before it (as fio's fsync=)");
        CHECK_THAT(flush_line(card(batch)), Catch::StartsWith("Flushes: one after each batch: preserve mode"));
    }
    // A read run says nothing of flushes.
    CHECK(flush_line(result_checks(finished_job({ { "mode", std::string("preserve") } }, {}).summary, {})).empty());
}

TEST_CASE("a result without checks (an older file) has no card", "[client-model]")
{
    CHECK(result_checks({ { "reads", std::int64_t { 200 } } }, { "something" }).lines.empty());
}

TEST_CASE("a capacity check's card: a fake never under a plain tick, a healthy device says so", "[client-model]")
{
    const std::string fake_warning = "data beyond 15.8 GiB of the claimed 256 GiB is lost: this device is not what "
                                     "it claims; keep nothing on it past 15.8 GiB";
    JobEntry job = finished_job({ { "claimed_bytes", std::int64_t { 256LL << 30 } },
                                  { "real_size_bytes", std::int64_t { 16'965'120'000 } },
                                  { "failure", std::string("wraps") } },
                                { fake_warning });
    job.kind = "verify-capacity";
    for (const ResultChecks& checks : { result_checks(job.summary, job.warnings), after_file(job) }) {
        REQUIRE(checks.lines.size() == 1);
        CHECK_FALSE(checks.lines[0].passed);
        CHECK(checks.lines[0].text == fake_warning);
    }
    // Without the engine's warning (a client in another language, an old
    // file), the card still says it in figures.
    const ResultChecks bare = result_checks(job.summary, {});
    REQUIRE(bare.lines.size() == 1);
    CHECK_FALSE(bare.lines[0].passed);
    CHECK(bare.lines[0].text == "Capacity: only 15.8\u00a0GiB of the claimed 256.0\u00a0GiB holds data");

    job.summary["real_size_bytes"] = std::int64_t { 256LL << 30 };
    job.summary["failure"] = std::string("none");
    const ResultChecks healthy = result_checks(job.summary, {});
    REQUIRE(healthy.lines.size() == 1);
    CHECK(healthy.lines[0].passed);
    CHECK(checks_text(healthy) == "✓ Capacity: all of the claimed 256.0\u00a0GiB holds data");
    const CapacityVerdict verdict = capacity_verdict(saved_result_from_job(job));
    CHECK(verdict.checked);
    CHECK_FALSE(verdict.lost());
    job.summary["real_size_bytes"] = std::int64_t { 16'965'120'000 };
    job.summary["failure"] = std::string("wraps");
    const CapacityVerdict fake = capacity_verdict(saved_result_from_job(job));
    CHECK(fake.lost());
    CHECK(capacity_line(fake) == "Data beyond 15.8\u00a0GiB of the claimed 256.0\u00a0GiB is lost: writes there land "
                                 "at the start again");
    job.kind = "surface";
    CHECK_FALSE(capacity_verdict(saved_result_from_job(job)).checked);
}

TEST_CASE("the overview's numbers: average read rate with its range, access time, in the summary and headline",
          "[client-model]")
{
    const SavedValueMap summary { { "read_mb_s", 151.25 }, { "read_min_mb_s", 92.0 }, { "read_max_mb_s", 201.0 },
                                  { "access_latency_mean_us", 12'345.0 }, { "samples", std::int64_t { 100 } } };
    CHECK(device_summary_text("overview", summary)
          == "average read rate 151 MB/s (92 MB/s – 201 MB/s)  ·  average access time 12.35 ms");
    CHECK(headline_text("overview", summary, 3) == "read 151 MB/s  ·  access time 12.3 ms");
    // With the opt-in write rate: the three numbers of GNOME Disks.
    SavedValueMap written = summary;
    written["write_mb_s"] = 98.5;
    written["write_min_mb_s"] = 40.0;
    written["write_max_mb_s"] = 120.0;
    CHECK(device_summary_text("overview", written)
          == "average read rate 151 MB/s (92 MB/s – 201 MB/s)  ·  average write rate 98 MB/s (40 MB/s – 120 MB/s)"
             "  ·  average access time 12.35 ms");
    CHECK(headline_text("overview", written, 3) == "read 151 MB/s  ·  write 98 MB/s  ·  access time 12.3 ms");
}
