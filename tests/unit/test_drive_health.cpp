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
