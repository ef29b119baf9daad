// SPDX-License-Identifier: GPL-3.0-or-later
// Profiles in a folder (CrystalDiskMark on a test file): read and write
// bars per test, the latency distributions, and the read/write/mix table
// under the chart.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::vector<PageView> views()
{
    return { read_and_write(by_name(page_view(N_("MB/s"), chart_spec(ChartStyle::Bar, AxisScale::Categories,
                                                                     Unit::Plain, Unit::MegabytesPerSecond),
                                              "read"))),
             latency_cdf_view() };
}

// One direction of a test as fio runs it on a file of its own in the
// folder (fio lays the file out first, as we fill ours; --unlink removes
// it after).
struct FileFio {
    std::string path;
    std::int64_t size = 0;
    double seconds = 5, warmup = 1;
    bool direct = true, zeros = false;
    std::int64_t mix_read_percent = 70;
};

std::string fio_file_test(const std::string& test, const std::string& direction, const FileFio& f)
{
    const auto [sequential, size, depth, threads, test_name] = fio_test(test);
    const std::string rw = direction == "mix" ? "randrw"
        : direction == "write"                ? (sequential ? "write" : "randwrite")
                                              : (sequential ? "read" : "randread");
    const std::string name = direction + "-" + test_name;
    std::string command = fmt::format(
        "fio --name={} --filename={} --size={} --direct={} --ioengine=io_uring --rw={} --bs={} --iodepth={} "
        "--numjobs={} --ramp_time={:g} --runtime={:g} --time_based --group_reporting --unlink=1",
        name, f.path, fio_size(f.size), f.direct ? 1 : 0, rw, size, depth, threads, f.warmup, f.seconds);
    if (direction == "mix")
        command += fmt::format(" --rwmixread={}", f.mix_read_percent);
    if (direction != "read")
        command += " --end_fsync=1";
    if (!sequential || direction == "mix")
        command += " --norandommap --randrepeat=0";
    if (f.zeros)
        command += " --zero_buffers";
    return command;
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& folder, std::uint32_t)
{
    BenchmarkDescription d;
    const std::string tests = profile_tests_of(p);
    const std::string mix = text_of(p, "mix", "RND4K Q1T1");
    d.what = printf_text(_("Writes a test file of %s into the folder first (not timed), then runs %s on it, each "
                           "read and then written in place, after %.1f s of warm-up for %.1f s each; then a "
                           "mixed test (%s, %lld %% reads) unless it is turned off. SEQ = sequential, RND = "
                           "random, Q = requests in flight per thread, T = threads."),
                         bytes_text(integer_of(p, "file_size", 1LL << 30)).c_str(), tests.c_str(),
                         number_of(p, "warmup_s", 1), number_of(p, "duration_s", 5), mix.empty() ? "-" : mix.c_str(),
                         static_cast<long long>(integer_of(p, "mix_read_percent", 70)));
    if (const double rest = number_of(p, "interval_s", 5); rest > 0)
        d.what += " " + printf_text(_("Rests %.0f s between two tests."), rest);
    // The same with fio, test by test, direction by direction, as `select` chooses.
    const std::string select = text_of(p, "select", "read-write");
    FileFio f;
    f.path = shell_quoted(folder + "/diskbench-fio.tmp");
    f.size = integer_of(p, "file_size", 1LL << 30);
    f.seconds = number_of(p, "duration_s", 5);
    f.warmup = number_of(p, "warmup_s", 1);
    f.direct = boolean_of(p, "direct", true);
    f.zeros = text_of(p, "data", "random") == "zeros";
    f.mix_read_percent = integer_of(p, "mix_read_percent", 70);
    for (const std::string& test : split_profile_tests(tests)) {
        if (select == "read-write" || select == "read")
            d.fio_commands.push_back(fio_file_test(test, "read", f));
        if (select == "read-write" || select == "write")
            d.fio_commands.push_back(fio_file_test(test, "write", f));
    }
    if (!mix.empty() && (select == "read-write" || select == "mix"))
        d.fio_commands.push_back(fio_file_test(mix, "mix", f));
    return d;
}

} // namespace

extern constinit const PageModel file_profile_page {
    .kind = contract::kinds::file_profile,
    .icon = "power-profile-performance-symbolic",
    .target = PageTarget::Directory,
    .views = views,
    .describe = describe,
    .extra = PageExtra::FileProfileTable,
};

} // namespace diskbench::client
