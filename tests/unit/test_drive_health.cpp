// SPDX-License-Identifier: GPL-3.0-or-later
// A drive's SMART health in the clients (results/drive_health): the Info
// page's line and the warning when SMART says failing or the bad sectors
// grew since a kept result of the same drive. The daemon's Device.Health
// and Job.DeviceInfo smart_* keys from udisks are checked in
// tests/integration/test_drive_health.py.
#include "results/drive_health.hpp"

#include <catch2/catch.hpp>

using namespace diskbench::client;

namespace {

SavedValueMap health(bool failing, std::int64_t bad)
{
    return { { "failing", failing },
             { "bad_sectors", bad },
             { "power_on_seconds", std::int64_t { 3600 * 12345 } },
             { "attributes_failing", std::int64_t { 0 } },
             { "source", std::string("udisks-ata") } };
}

} // namespace

TEST_CASE("no SMART, no verdict", "[client-model]")
{
    const HealthVerdict none = drive_health({}, nullptr);
    CHECK_FALSE(none.known);
    CHECK_FALSE(none.warn);
}

TEST_CASE("a healthy drive, one with bad sectors, a failing one", "[client-model]")
{
    const HealthVerdict good = drive_health(health(false, 0), nullptr);
    CHECK(good.known);
    CHECK_FALSE(good.warn);
    CHECK(good.summary == "Good: no bad sectors, 12345 hours powered on");

    const HealthVerdict some = drive_health(health(false, 3), nullptr);
    CHECK(some.summary.starts_with("3 bad sectors (reallocated or pending)"));
    CHECK_FALSE(some.warn); // no earlier result to compare with

    const HealthVerdict failing = drive_health(health(true, 3), nullptr);
    CHECK(failing.warn);
    CHECK(failing.summary.starts_with("FAILING"));
    CHECK(failing.warning.find("failing") != std::string::npos);
}

TEST_CASE("bad sectors that grew since the last kept result warn; the same count does not", "[client-model]")
{
    const SavedValueMap before { { "smart_bad_sectors", std::int64_t { 3 } } };
    const HealthVerdict grew = drive_health(health(false, 23), &before, 1'800'000'000'000'000);
    CHECK(grew.warn);
    CHECK(grew.warning.find("from 3 to 23") != std::string::npos);
    CHECK_FALSE(drive_health(health(false, 3), &before).warn);
    // A result from before API 0.9 has no SMART values: nothing to compare.
    const SavedValueMap old { { "model", std::string("Disk") } };
    CHECK_FALSE(drive_health(health(false, 23), &old).warn);
}

TEST_CASE("the attribute counts: named on the Info page, growth of reallocated or pending warns", "[client-model]")
{
    SavedValueMap now = health(false, 3);
    now["reallocated_sectors"] = std::int64_t { 1 };
    now["pending_sectors"] = std::int64_t { 2 };
    now["crc_errors"] = std::int64_t { 40 };
    now["command_timeouts"] = std::int64_t { 0 }; // zero: not worth a word
    const HealthVerdict shown = drive_health(now, nullptr);
    CHECK(shown.summary
          == "3 bad sectors (reallocated or pending), 12345 hours powered on; reallocated 1, pending 2, cable (CRC) "
             "errors 40");

    // Same bad-sector total, but a sector moved from pending to
    // reallocated... and then one more became pending: that is growth.
    const SavedValueMap before { { "smart_bad_sectors", std::int64_t { 3 } },
                                 { "smart_reallocated_sectors", std::int64_t { 1 } },
                                 { "smart_pending_sectors", std::int64_t { 1 } } };
    const HealthVerdict grew = drive_health(now, &before, 1'800'000'000'000'000);
    CHECK(grew.warn);
    CHECK(grew.warning.find("pending 1 → 2") != std::string::npos);
    // Nothing grew: no warning; nor when the kept result had no counts.
    const SavedValueMap same { { "smart_bad_sectors", std::int64_t { 3 } },
                               { "smart_reallocated_sectors", std::int64_t { 1 } },
                               { "smart_pending_sectors", std::int64_t { 2 } } };
    CHECK_FALSE(drive_health(now, &same).warn);
    const SavedValueMap without { { "smart_bad_sectors", std::int64_t { 3 } } };
    CHECK_FALSE(drive_health(now, &without).warn);
}

namespace {

// Device.Health of an NVMe drive (API 0.15): the daemon's own reading of
// its SMART / Health log.
SavedValueMap nvme(std::int64_t critical_warning, std::int64_t media_errors)
{
    return { { "source", std::string("nvme") },
             { "failing", critical_warning != 0 },
             { "critical_warning", critical_warning },
             { "percentage_used", std::int64_t { 3 } },
             { "available_spare_percent", std::int64_t { 100 } },
             { "available_spare_threshold_percent", std::int64_t { 10 } },
             { "media_errors", media_errors },
             { "unsafe_shutdowns", std::int64_t { 0 } },
             { "power_on_hours", std::int64_t { 812 } } };
}

} // namespace

TEST_CASE("an NVMe drive: its log in a line, a critical warning named", "[client-model]")
{
    const HealthVerdict good = drive_health(nvme(0, 0), nullptr);
    CHECK(good.known);
    CHECK_FALSE(good.warn);
    CHECK(good.summary == "Good: no critical warning, 3 % used, spare 100 % (threshold 10 %), 812 hours powered on");

    const HealthVerdict warned = drive_health(nvme(0x04 | 0x01, 2), nullptr);
    CHECK(warned.warn);
    CHECK(warned.summary.starts_with("CRITICAL WARNING: spare below its threshold, reliability degraded, 3 % used"));
    CHECK(warned.summary.find(", 2 media errors") != std::string::npos);
    CHECK(warned.warning == "The NVMe drive reports a critical warning (spare below its threshold, reliability "
                            "degraded): copy what matters off it now.");
}

TEST_CASE("an NVMe drive's media errors against the last kept result", "[client-model]")
{
    const SavedValueMap kept { { "nvme_media_errors", std::int64_t { 1 } }, { "serial", std::string("S1") } };
    const HealthVerdict same = drive_health(nvme(0, 1), &kept, 1'700'000'000'000'000);
    CHECK_FALSE(same.warn);
    const HealthVerdict grew = drive_health(nvme(0, 4), &kept, 1'700'000'000'000'000);
    CHECK(grew.warn);
    CHECK(grew.warning.starts_with("Its media errors grew from 1 to 4 since the result of "));
    // A kept result of an ATA drive says nothing of NVMe media errors.
    const SavedValueMap ata { { "smart_bad_sectors", std::int64_t { 0 } } };
    CHECK_FALSE(drive_health(nvme(0, 4), &ata, 1'700'000'000'000'000).warn);
}

TEST_CASE("a result's device_info gives back the health at its start", "[client-model]")
{
    const SavedValueMap info { { "node", std::string("/dev/nvme0n1") },
                               { "smart_failing", true },
                               { "smart_source", std::string("nvme") },
                               { "nvme_critical_warning", std::int64_t { 8 } },
                               { "nvme_percentage_used", std::int64_t { 1 } },
                               { "nvme_power_on_hours", std::int64_t { 5 } } };
    const SavedValueMap health = health_at_start(info);
    CHECK(health.count("node") == 0);
    const HealthVerdict verdict = drive_health(health, nullptr);
    CHECK(verdict.warn);
    CHECK(verdict.summary.starts_with("CRITICAL WARNING: media read-only, 1 % used"));
    // An ATA result of API 0.9 (no smart_source) reads as udisks'.
    const SavedValueMap ata = health_at_start({ { "smart_failing", false }, { "smart_bad_sectors", std::int64_t { 2 } } });
    CHECK(drive_health(ata, nullptr).summary.starts_with("2 bad sectors"));
    CHECK(health_at_start({ { "node", std::string("/dev/loop0") } }).empty());
}
