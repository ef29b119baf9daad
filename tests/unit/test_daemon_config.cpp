// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's configuration file (/etc/diskbench/diskbenchd.conf): the
// job cap an administrator sets, and every way a file can be wrong said as
// a problem while the default stays, so a typo does not stop anyone's
// benchmarks and does not pass unnoticed either.
#include "scratch.hpp"
#include "service/daemon_config.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

using namespace diskbench::service;
using namespace diskbench::testing;

namespace {

std::string write_config(const ScratchDir& dir, const std::string& text)
{
    const std::string path = (dir.path() / "diskbenchd.conf").string();
    std::ofstream(path) << text;
    return path;
}

bool mentions(const DaemonConfig& config, const std::string& words)
{
    for (const std::string& problem : config.problems)
        if (problem.find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST_CASE("the configuration file sets the job cap; none is no change", "[daemon-parts]")
{
    ScratchDir dir;
    const DaemonConfig missing = read_daemon_config((dir.path() / "absent.conf").string());
    CHECK_FALSE(missing.max_jobs_per_user);
    CHECK(missing.problems.empty());

    const DaemonConfig lab = read_daemon_config(write_config(dir, "# a lab of burn-in machines\n[Limits]\nMaxJobsPerUser=16\n"));
    REQUIRE(lab.max_jobs_per_user);
    CHECK(*lab.max_jobs_per_user == 16);
    CHECK(lab.problems.empty());

    const DaemonConfig edges = read_daemon_config(write_config(dir, "[Limits]\nMaxJobsPerUser=1000\n"));
    CHECK(edges.max_jobs_per_user == std::optional<std::size_t> { 1000 });
    CHECK(read_daemon_config(write_config(dir, "[Limits]\nMaxJobsPerUser=1\n")).max_jobs_per_user
          == std::optional<std::size_t> { 1 });
}

TEST_CASE("a value it cannot use, an unknown key or an unreadable file keeps the default and is said",
          "[daemon-parts]")
{
    ScratchDir dir;
    for (const std::string value : { "0", "1001", "-1", "+16", "16abc", "", "1e3", "99999999999999999999999" }) {
        INFO(value);
        const DaemonConfig config = read_daemon_config(write_config(dir, "[Limits]\nMaxJobsPerUser=" + value + "\n"));
        CHECK_FALSE(config.max_jobs_per_user);
        CHECK(mentions(config, "not a number from 1 to 1000"));
    }
    const DaemonConfig misspelt = read_daemon_config(write_config(dir, "[Limits]\nMaxJobPerUser=16\n"));
    CHECK_FALSE(misspelt.max_jobs_per_user);
    CHECK(mentions(misspelt, "unknown key MaxJobPerUser in [Limits]"));
    const DaemonConfig group = read_daemon_config(write_config(dir, "[Limit]\nMaxJobsPerUser=16\n"));
    CHECK_FALSE(group.max_jobs_per_user);
    CHECK(mentions(group, "unknown group [Limit]"));
    const DaemonConfig broken = read_daemon_config(write_config(dir, "MaxJobsPerUser=16\n"));
    CHECK_FALSE(broken.max_jobs_per_user);
    CHECK(broken.problems.size() == 1);
    // A folder where the file should be: unreadable, said, not fatal.
    const DaemonConfig folder = read_daemon_config(dir.path().string());
    CHECK_FALSE(folder.max_jobs_per_user);
    CHECK(folder.problems.size() == 1);
}
