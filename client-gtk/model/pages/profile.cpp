// SPDX-License-Identifier: GPL-3.0-or-later
// Profiles (CrystalDiskMark's tests on the device): a bar per test as MB/s
// or IOPS, p99 beside p99.9, the latency distributions, and the
// CrystalDiskMark grid under the chart.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/profile.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

namespace profile_keys = contract::kinds::keys::profile;

std::vector<PageView> views()
{
    using enum ChartStyle;
    using enum AxisScale;
    return { page_view(N_("MB/s"), chart_spec(Bar, Categories, Unit::Plain, Unit::MegabytesPerSecond), "throughput"),
             page_view(N_("IOPS"), chart_spec(Bar, Categories, Unit::Plain, Unit::Iops), "iops"),
             // p99.9 next to p99 in one graph: five toggles would not fit a phone.
             tail_latency_view(), latency_cdf_view() };
}

// "SEQ1M Q8T1" -> fio options on the device.
std::string fio_profile_test(const std::string& test, const std::string& node, std::int64_t region, double seconds,
                             double warmup)
{
    const auto [sequential, size, depth, threads, name] = fio_test(test);
    return fmt::format("{} --rw={} --bs={} --iodepth={} --numjobs={} --size={} --ramp_time={:g} --runtime={:g} "
                       "--time_based --group_reporting{}",
                       fio_base(name, node), sequential ? "read" : "randread", size, depth, threads, fio_size(region),
                       warmup, seconds, sequential ? "" : " --norandommap --randrepeat=0");
}

// The write column's tests (destroy mode), "SEQ1M Q8T1" or the mixed
// test as fio writes on the device, each ending with one flush as the
// engine's (--end_fsync=1).
std::string fio_profile_write(const std::string& test, const std::string& node, std::int64_t region, double seconds,
                              double warmup, std::int64_t mix_read_percent)
{
    const auto [sequential, size, depth, threads, name] = fio_test(test);
    const std::string rw = mix_read_percent >= 0 ? "randrw" : sequential ? "write" : "randwrite";
    // Not fio_base(): that one reads (--readonly).
    std::string line = fmt::format("fio --name={}-write --filename={} --direct=1 --ioengine=io_uring --rw={} --bs={} "
                                   "--iodepth={} --numjobs={} --size={} --ramp_time={:g} --runtime={:g} --time_based "
                                   "--group_reporting --end_fsync=1{}",
                                   name, node, rw, size, depth, threads, fio_size(region), warmup, seconds,
                                   sequential ? "" : " --norandommap --randrepeat=0");
    if (mix_read_percent >= 0)
        line += fmt::format(" --rwmixread={}", mix_read_percent);
    return line;
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t)
{
    BenchmarkDescription d;
    const std::string tests = profile_tests_of(p);
    const double seconds = number_of(p, "duration_s", 5);
    const double warmup = number_of(p, "warmup_s", 1);
    d.what = printf_text(_("Runs %s, each after %.1f s of warm-up for %.1f s, within the first %s of the "
                           "device. SEQ = sequential, RND = random, Q = reads in flight per thread, T = threads."),
                         tests.c_str(), warmup, seconds, bytes_text(integer_of(p, "region_size", 1LL << 30)).c_str());
    if (const double rest = number_of(p, "interval_s", 0); rest > 0)
        d.what += " " + printf_text(_("Rests %.0f s between two tests."), rest);
    const std::int64_t region = integer_of(p, "region_size", 1LL << 30);
    for (const std::string& test : split_profile_tests(tests))
        d.fio_commands.push_back(fio_profile_test(test, node, region, seconds, warmup));
    if (!boolean_of(p, "write", false))
        return d;
    if (text_of(p, "mode", "preserve") != "destroy") {
        d.what += " " + std::string(_("Then writes each sequential test, reading each range first and writing the "
                                      "same bytes back, so the data is kept; fio has no write that keeps the data, so "
                                      "no command is given for these."));
        return d;
    }
    const std::string mix = text_of(p, "mix", "RND4K Q1T1");
    const std::int64_t mix_read_percent = integer_of(p, "mix_read_percent", 70);
    d.what += " " + printf_text(_("Then writes each test with new data, erasing what the test area held, each "
                                  "ending with one flush to the medium; then the mixed test %s with %lld %% reads."),
                                mix.c_str(), static_cast<long long>(mix_read_percent));
    for (const std::string& test : split_profile_tests(tests))
        d.fio_commands.push_back(fio_profile_write(test, node, region, seconds, warmup, -1));
    if (!mix.empty())
        d.fio_commands.push_back(fio_profile_write(mix, node, region, seconds, warmup, mix_read_percent));
    return d;
}

// The tests the run reported (summary), else those it was asked for.
std::vector<std::string> categories(const SavedValueMap& parameters, const SavedValueMap& summary)
{
    const std::string reported = text_of(summary, profile_keys::tests);
    return split_profile_tests(reported.empty() ? profile_tests_of(parameters) : reported);
}

} // namespace

extern constinit const PageModel profile_page {
    .kind = contract::kinds::profile,
    .icon = "power-profile-performance-symbolic",
    .views = views,
    .describe = describe,
    .categories = categories,
    .extra = PageExtra::ProfileGrid,
    .consent_when_writing = true,
    .steady_state_beside = true,
};

} // namespace diskbench::client
