// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_description.hpp"

#include "text/value_format.hpp"
#include "types/saved_values.hpp"
#include "write_descriptions.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

#include <cctype>
#include <cstdio>
#include <memory>

namespace diskbench::client {

namespace kinds = contract::kinds;

namespace {

std::string bytes(std::int64_t value)
{
    return format_value(static_cast<double>(value), Unit::Bytes);
}

// fio's size suffixes are powers of two: 4k = 4096, 1m = 1 MiB.
std::string fio_size(std::int64_t value)
{
    if (value > 0 && value % (1LL << 30) == 0)
        return fmt::format("{}g", value >> 30);
    if (value > 0 && value % (1LL << 20) == 0)
        return fmt::format("{}m", value >> 20);
    if (value > 0 && value % (1LL << 10) == 0)
        return fmt::format("{}k", value >> 10);
    return fmt::format("{}", value);
}

std::string fio_base(const std::string& name, const std::string& node)
{
    return fmt::format("fio --name={} --filename={} --readonly --direct=1 --ioengine=io_uring", name, node);
}

struct Sweep {
    std::int64_t low, high;
};

Sweep block_sweep(const SavedValueMap& p, std::uint32_t logical_block_size)
{
    std::int64_t low = integer_of(p, "min_block");
    if (low == 0)
        low = logical_block_size ? logical_block_size : 512;
    return { low, std::max(low, integer_of(p, "max_block", 1 << 20)) };
}

// A test in the notation of CrystalDiskMark and KDiskMark ("SEQ1M Q8T1")
// as fio's options take it: "1m", 8, 1; its name without spaces.
struct FioTest {
    bool sequential = false;
    std::string size;
    int depth = 1, threads = 1;
    std::string name;
};

FioTest fio_test(const std::string& test)
{
    FioTest f;
    f.sequential = test.starts_with("SEQ");
    std::size_t i = 3; // after "SEQ" or "RND"
    while (i < test.size() && test[i] != ' ')
        f.size += static_cast<char>(std::tolower(static_cast<unsigned char>(test[i++])));
    std::sscanf(test.c_str() + std::min(test.size(), i), " Q%dT%d", &f.depth, &f.threads);
    f.name = test;
    for (char& c : f.name)
        if (c == ' ')
            c = '_';
    return f;
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

// One direction of a file-profile test as fio runs it on a file of its
// own in the folder (fio lays the file out first, as we fill ours;
// --unlink removes it after).
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

// Both queue-depth sweeps: on a device (node) or on a test file in a
// folder (node is the folder). A device's writes keep the data, which fio
// cannot do, so they get no commands.
void describe_qd_sweep(BenchmarkDescription& d, bool in_folder, const SavedValueMap& p, const std::string& node,
                       std::uint32_t logical_block_size)
{
    const std::int64_t max_depth = integer_of(p, "max_queue_depth", 128);
    const std::int64_t max_threads = integer_of(p, "max_threads", 8);
    std::int64_t block = integer_of(p, "block_size", 4096);
    if (block == 0)
        block = logical_block_size ? logical_block_size : 512;
    const bool sequential = text_of(p, "pattern", "random") == "sequential";
    const bool writes = boolean_of(p, "writes", false);
    const char* format = writes ? (sequential ? _("Sequential writes of %s at queue depths 1 to %lld on 1 to %lld "
                                                  "threads (doubling), each for %.1f s after %.1f s of warm-up, "
                                                  "within the first %s; IOPS and p99 latency per queue depth.")
                                              : _("Random writes of %s at queue depths 1 to %lld on 1 to %lld "
                                                  "threads (doubling), each for %.1f s after %.1f s of warm-up, "
                                                  "within the first %s; IOPS and p99 latency per queue depth."))
                                : (sequential ? _("Sequential reads of %s at queue depths 1 to %lld on 1 to %lld "
                                                  "threads (doubling), each for %.1f s after %.1f s of warm-up, "
                                                  "within the first %s; IOPS and p99 latency per queue depth.")
                                              : _("Random reads of %s at queue depths 1 to %lld on 1 to %lld threads "
                                                  "(doubling), each for %.1f s after %.1f s of warm-up, within the "
                                                  "first %s; IOPS and p99 latency per queue depth."));
    const std::int64_t area = integer_of(p, in_folder ? "file_size" : "region_size", 1LL << 30);
    d.what = printf_text(format, bytes(block).c_str(), static_cast<long long>(max_depth),
                         static_cast<long long>(max_threads), number_of(p, "duration_s", 1),
                         number_of(p, "warmup_s", 0.2), bytes(area).c_str());
    if (in_folder) {
        d.what += " "
            + std::string(writes ? _("The area is a test file written into the folder first (not timed); writes "
                                     "overwrite it in place, each cell's writes synced within its time.")
                                 : _("The area is a test file written into the folder first (not timed)."));
    } else if (writes) {
        d.what += " "
            + std::string(_("Each batch of writes first reads its blocks (not timed) and writes the same bytes back, "
                            "then syncs: the data stays, but the device must be unused and writing needs the "
                            "administrator's consent. fio has no write that keeps the data, so no command is "
                            "given for it."));
        return;
    }
    const std::string rw = writes ? (sequential ? "write" : "randwrite") : (sequential ? "read" : "randread");
    for (std::int64_t threads = 1; threads <= std::min<std::int64_t>(max_threads, 1 << 20); threads *= 2)
        for (std::int64_t qd = 1; qd <= std::min<std::int64_t>(max_depth, 1 << 20); qd *= 2) {
            // The cells the daemon leaves out have no line either.
            if (!kinds::qd_sweep_cell_runs(static_cast<std::uint64_t>(threads), static_cast<std::uint64_t>(qd),
                                           static_cast<std::uint64_t>(block)))
                continue;
            const std::string name = fmt::format("qd{}-t{}", qd, threads);
            const std::string common = fmt::format(
                "--rw={} --bs={} --iodepth={} --numjobs={} --size={} --ramp_time={:g} --runtime={:g} --time_based "
                "--group_reporting{}",
                rw, fio_size(block), qd, threads, fio_size(area), number_of(p, "warmup_s", 0.2),
                number_of(p, "duration_s", 1), sequential ? "" : " --norandommap --randrepeat=0");
            if (in_folder)
                // fio lays its file out first, as the sweep fills its own;
                // --unlink removes it after.
                d.fio_commands.push_back(fmt::format(
                    "fio --name={} --filename={} --direct={} --ioengine=io_uring {}{} --unlink=1", name,
                    shell_quoted(node + "/diskbench-fio.tmp"), boolean_of(p, "direct", true) ? 1 : 0, common,
                    writes ? " --end_fsync=1" : ""));
            else
                d.fio_commands.push_back(fmt::format("{} {}", fio_base(name, node), common));
        }
}

} // namespace

BenchmarkDescription describe_benchmark(const std::string& kind, const SavedValueMap& p, const std::string& node,
                                        std::uint32_t logical_block_size)
{
    BenchmarkDescription d;
    const std::int64_t depth = integer_of(p, "queue_depth", 1);
    if (kind == kinds::overview) {
        std::int64_t access_block = integer_of(p, "access_block_size");
        if (access_block == 0)
            access_block = logical_block_size ? logical_block_size : 512;
        const std::int64_t reads = integer_of(p, "access_reads", 1000);
        d.what = printf_text(_("Reads %s at each of %lld places spread evenly from the start to the end of the device, "
                               "one read of %s at a time, and plots the read rate at each place, as GNOME Disks "
                               "does; then reads %lld single blocks of %s at random places for the access time, "
                               "each drawn at its place. The same seed reads the same places on every machine."),
                             bytes(integer_of(p, "sample_size", 10 << 20)).c_str(),
                             static_cast<long long>(integer_of(p, "samples", 100)),
                             bytes(integer_of(p, "block_size", 1 << 20)).c_str(), static_cast<long long>(reads),
                             bytes(access_block).c_str());
        if (boolean_of(p, "write", false))
            d.what += " "
                + std::string(_("With the write rate, each sample is also read again and written back unchanged, "
                                "then synced, and the write with its sync is timed, as GNOME Disks does: the data "
                                "stays, but the device must be unused and writing needs the administrator's "
                                "consent. fio has no write that keeps the data, so no command is given for it."));
        // The samples' places depend on the device's size, which fio
        // cannot be told in one command; the access time it can.
        if (reads > 0)
            d.fio_commands.push_back(fmt::format("{} --rw=randread --bs={} --iodepth=1 --number_ios={} --norandommap "
                                                 "--randrepeat=0 --lat_percentiles=1",
                                                 fio_base("access-time", node), fio_size(access_block), reads));
    } else if (kind == kinds::seek) {
        std::int64_t block = integer_of(p, "block_size");
        if (block == 0)
            block = logical_block_size ? logical_block_size : 512;
        d.what = printf_text(_("Reads %lld blocks of %s, one at a time (queue depth 1), each at a random place "
                                 "over the whole device, and plots how far each read jumped against how long it took. "
                                 "The same seed reads the same places on every machine."),
                               static_cast<long long>(integer_of(p, "count", 1000)), bytes(block).c_str());
        d.fio_commands.push_back(fmt::format("{} --rw=randread --bs={} --iodepth=1 --number_ios={} --norandommap "
                                             "--randrepeat=0 --lat_percentiles=1",
                                             fio_base("seek", node), fio_size(block), integer_of(p, "count", 1000)));
    } else if (kind == kinds::random || kind == kinds::block) {
        const Sweep sweep = block_sweep(p, logical_block_size);
        if (kind == kinds::random)
            d.what = printf_text(_("For each block size from %s to %s (doubling), reads %lld blocks at random "
                                     "places (%s) with queue depth %lld; one bar per size."),
                                   bytes(sweep.low).c_str(), bytes(sweep.high).c_str(),
                                   static_cast<long long>(integer_of(p, "count_per_size", 100)),
                                   boolean_of(p, "aligned", true)
                                       ? _("aligned to the block size")
                                       : _("aligned only to the logical block"),
                                   static_cast<long long>(depth));
        else
            d.what = printf_text(_("For each block size from %s to %s (doubling), reads %s sequentially from the "
                                     "start of the device with queue depth %lld; one bar per size."),
                                   bytes(sweep.low).c_str(), bytes(sweep.high).c_str(),
                                   bytes(integer_of(p, "amount_per_size", 100 << 20)).c_str(),
                                   static_cast<long long>(depth));
        // At most 64 doublings: parameters come from the daemon, and a bad
        // value must not spin the GTK thread.
        for (std::int64_t block = sweep.low, n = 0; block > 0 && block <= sweep.high && n < 64; ++n) {
            if (kind == kinds::random)
                d.fio_commands.push_back(fmt::format("{} --rw=randread --bs={} --iodepth={} --number_ios={} "
                                                     "--norandommap --randrepeat=0",
                                                     fio_base(fmt::format("random-{}", fio_size(block)), node),
                                                     fio_size(block), depth, integer_of(p, "count_per_size", 100)));
            else
                d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth={} --size={}",
                                                     fio_base(fmt::format("block-{}", fio_size(block)), node),
                                                     fio_size(block), depth,
                                                     fio_size(integer_of(p, "amount_per_size", 100 << 20))));
            if (block > sweep.high / 2)
                break; // doubling would pass the end (or overflow)
            block *= 2;
        }
    } else if (kind == kinds::sequential) {
        d.what = printf_text(_("Reads %s from offset %s in blocks of %s with queue depth %lld and plots MB/s "
                                 "along the way (sizes larger than the device are scaled down to fit)."),
                               bytes(integer_of(p, "size", 4LL << 30)).c_str(), bytes(integer_of(p, "offset")).c_str(),
                               bytes(integer_of(p, "block_size", 4 << 20)).c_str(), static_cast<long long>(depth));
        d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth={} --offset={} --size={} "
                                             "--write_bw_log=cont --log_avg_msec=100",
                                             fio_base("cont", node), fio_size(integer_of(p, "block_size", 4 << 20)), depth,
                                             integer_of(p, "offset"), fio_size(integer_of(p, "size", 4LL << 30))));
    } else if (kind == kinds::surface) {
        d.what = printf_text(_("Reads the whole device once, front to back, in blocks of %s at queue depth 1, "
                                 "timing every read, and draws %lld stretches with their mean, slowest and fastest "
                                 "read. Takes as long as reading the whole disk."),
                               bytes(integer_of(p, "block_size", 1 << 20)).c_str(),
                               static_cast<long long>(integer_of(p, "buckets", 1000)));
        d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth=1 --size=100% --write_bw_log=surface "
                                             "--log_avg_msec=1000",
                                             fio_base("surface", node), fio_size(integer_of(p, "block_size", 1 << 20))));
    } else if (kind == kinds::profile) {
        const std::string tests = profile_tests_of(p);
        const double seconds = number_of(p, "duration_s", 5);
        const double warmup = number_of(p, "warmup_s", 1);
        d.what = printf_text(_("Runs %s, each after %.1f s of warm-up for %.1f s, within the first %s of the "
                                 "device. SEQ = sequential, RND = random, Q = reads in flight per thread, T = threads."),
                               tests.c_str(), warmup, seconds, bytes(integer_of(p, "region_size", 1LL << 30)).c_str());
        if (const double rest = number_of(p, "interval_s", 0); rest > 0)
            d.what += " " + printf_text(_("Rests %.0f s between two tests."), rest);
        for (const std::string& test : split_profile_tests(tests))
            d.fio_commands.push_back(
                fio_profile_test(test, node, integer_of(p, "region_size", 1LL << 30), seconds, warmup));
    } else if (kind == kinds::file_profile) {
        const std::string tests = profile_tests_of(p);
        const std::string mix = text_of(p, "mix", "RND4K Q1T1");
        d.what = printf_text(_("Writes a test file of %s into the folder first (not timed), then runs %s on it, each "
                                 "read and then written in place, after %.1f s of warm-up for %.1f s each; then a "
                                 "mixed test (%s, %lld %% reads) unless it is turned off. SEQ = sequential, RND = "
                                 "random, Q = requests in flight per thread, T = threads."),
                               bytes(integer_of(p, "file_size", 1LL << 30)).c_str(), tests.c_str(),
                               number_of(p, "warmup_s", 1), number_of(p, "duration_s", 5),
                               mix.empty() ? "-" : mix.c_str(),
                               static_cast<long long>(integer_of(p, "mix_read_percent", 70)));
        if (const double rest = number_of(p, "interval_s", 5); rest > 0)
            d.what += " " + printf_text(_("Rests %.0f s between two tests."), rest);
        // The same with fio, test by test, direction by direction, as `select` chooses.
        const std::string select = text_of(p, "select", "read-write");
        FileFio f;
        f.path = shell_quoted(node + "/diskbench-fio.tmp");
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
    } else if (kind == kinds::qd_sweep || kind == kinds::file_qd_sweep) {
        describe_qd_sweep(d, kind == kinds::file_qd_sweep, p, node, logical_block_size);
    } else if (auto written = describe_write_benchmark(kind, p, node, logical_block_size)) {
        return std::move(*written);
    }
    return d;
}

} // namespace diskbench::client
