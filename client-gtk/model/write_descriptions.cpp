// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_descriptions.hpp"

#include "text/value_format.hpp"
#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <memory>

namespace diskbench::client {

namespace kinds = contract::kinds;

namespace {

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;
constexpr std::int64_t GiB = 1024 * MiB;

std::string bytes(std::int64_t value)
{
    return format_value(static_cast<double>(value), Unit::Bytes);
}

// fio's and dd's size suffixes are powers of two: 4k = 4096 (dd: 4K).
std::string fio_size(std::int64_t value)
{
    if (value > 0 && value % GiB == 0)
        return fmt::format("{}g", value / GiB);
    if (value > 0 && value % MiB == 0)
        return fmt::format("{}m", value / MiB);
    if (value > 0 && value % KiB == 0)
        return fmt::format("{}k", value / KiB);
    return fmt::format("{}", value);
}

std::int64_t block_or_logical(const SavedValueMap& p, const char* key, std::int64_t fallback, std::uint32_t logical)
{
    const std::int64_t block = integer_of(p, key, fallback);
    return block > 0 ? block : (logical ? logical : 512);
}

// The dd study's sweep: one dd per block size, each run `repetitions` times.
// At most 64 doublings: parameters come from the daemon.
std::vector<std::string> dd_sweep(const SavedValueMap& p, const std::string& output, const std::string& extra)
{
    std::vector<std::string> commands;
    const std::int64_t low = std::max<std::int64_t>(1, integer_of(p, "min_block", 512));
    const std::int64_t high = std::max(low, integer_of(p, "max_block", 16 * MiB));
    const std::int64_t amount = integer_of(p, "amount_per_size", 64 * MiB);
    const std::int64_t repetitions = integer_of(p, "repetitions", 9);
    for (std::int64_t block = low, n = 0; block <= high && n < 64; ++n) {
        commands.push_back(fmt::format("for i in $(seq {}); do dd if=/dev/urandom of={} bs={} count={} oflag=direct "
                                       "conv=fdatasync{}; done",
                                       repetitions, output, block, std::max<std::int64_t>(1, amount / block), extra));
        if (block > high / 2)
            break;
        block *= 2;
    }
    return commands;
}

} // namespace

std::optional<BenchmarkDescription> describe_write_benchmark(const std::string& kind, const SavedValueMap& p,
                                                             const std::string& target, std::uint32_t logical)
{
    BenchmarkDescription d;
    const std::string where = shell_quoted(target);
    if (kind == kinds::file_rw) {
        const std::int64_t size = integer_of(p, "size", GiB);
        const std::int64_t block = integer_of(p, "block_size", MiB);
        d.what = printf_text(_("Writes %s of random data into a new file in the folder in writes of %s, the final "
                               "fdatasync inside the timing, then reads the file back; MB/s along the file for both. "
                               "The file has no name and is gone when the run ends. Without a size, 90 %% of the "
                               "free space at most."),
                             bytes(size).c_str(), bytes(block).c_str());
        for (const char* rw : { "write", "read" })
            d.fio_commands.push_back(fmt::format("fio --name=file-rw --directory={} --rw={} --bs={} --size={} "
                                                 "--direct=1 --ioengine=io_uring{} --write_bw_log=file-{} "
                                                 "--log_avg_msec=100",
                                                 where, rw, fio_size(block), fio_size(size),
                                                 rw == std::string("write") ? " --end_fsync=1" : "", rw));
    } else if (kind == kinds::write_sweep) {
        d.what = printf_text(_("For each block size from %s to %s (doubling), writes %s into a new file in the "
                               "folder %lld times, each write timed with its fdatasync; mean, median, slowest and "
                               "fastest MB/s per size, as in the dd study."),
                             bytes(integer_of(p, "min_block", 512)).c_str(),
                             bytes(integer_of(p, "max_block", 16 * MiB)).c_str(),
                             bytes(integer_of(p, "amount_per_size", 64 * MiB)).c_str(),
                             static_cast<long long>(integer_of(p, "repetitions", 9)));
        d.fio_commands = dd_sweep(p, shell_quoted(target + "/ddtest"), "; rm -f " + shell_quoted(target + "/ddtest"));
    } else if (kind == kinds::structure) {
        d.what = printf_text(_("Builds a tree of %lld directories and %lld empty files in a new directory in the "
                               "folder, then deletes it; one bar for each phase in seconds, each timed to the end of "
                               "a syncfs (HDDTest’s Structure). The same seed builds the same tree everywhere. fio "
                               "and dd have no equivalent."),
                             static_cast<long long>(integer_of(p, "directories", 1000)),
                             static_cast<long long>(integer_of(p, "files", 1000)));
    } else if (kind == kinds::small_files) {
        d.what = printf_text(_("Builds a tree of %lld directories, writes %lld files of %s to %s into it, reads them "
                               "back in random order after dropping their cached pages, and deletes the tree; four "
                               "bars in seconds, each phase timed to the end of a syncfs (HDDTest’s Small files). "
                               "fio and dd have no equivalent."),
                             static_cast<long long>(integer_of(p, "directories", 1000)),
                             static_cast<long long>(integer_of(p, "files", 1000)),
                             bytes(integer_of(p, "min_file_size", KiB)).c_str(),
                             bytes(integer_of(p, "max_file_size", 10 * KiB)).c_str());
    } else if (kind == kinds::mixed_load) {
        d.what = printf_text(_("DiskThrasher: %lld threads each write a file of %s (not timed), then all sort their "
                               "file in place at once, in 1 MiB chunks: about 1.7 reads per write at semi-random "
                               "places. Reads and writes are timed apart; MB/s over time for each. fio and dd have no "
                               "equivalent."),
                             static_cast<long long>(integer_of(p, "threads", 4)),
                             bytes(integer_of(p, "file_size", 256 * MiB)).c_str());
    } else if (kind == kinds::device_write) {
        const std::int64_t size = integer_of(p, "size", GiB);
        const std::int64_t block = block_or_logical(p, "block_size", 4 * MiB, logical);
        const std::int64_t region = integer_of(p, "region_size", GiB);
        const double seconds = number_of(p, "duration_s", 5.0);
        d.what = printf_text(_("Writes %s sequentially from the start of the device in writes of %s, then random "
                               "4 KiB writes within the first %s at queue depth 1 and 32 for %.1f s each, every batch "
                               "timed with its fdatasync; MB/s, IOPS and latency per test. Keep data reads each "
                               "stretch first and writes the same bytes back. The fio commands below cannot keep "
                               "data: they erase it."),
                             bytes(size).c_str(), bytes(block).c_str(), bytes(region).c_str(), seconds);
        d.fio_commands.push_back(fmt::format("fio --name=seq-write --filename={} --rw=write --bs={} --iodepth=1 "
                                             "--size={} --direct=1 --ioengine=io_uring --end_fsync=1",
                                             where, fio_size(block), fio_size(size)));
        for (int depth : { 1, 32 })
            d.fio_commands.push_back(fmt::format("fio --name=rnd4k-q{} --filename={} --rw=randwrite --bs=4k "
                                                 "--iodepth={} --size={} --runtime={:g} --time_based --direct=1 "
                                                 "--ioengine=io_uring --fdatasync=32 --norandommap --randrepeat=0 "
                                                 "--lat_percentiles=1",
                                                 depth, where, depth, fio_size(region), seconds));
    } else if (kind == kinds::device_write_sweep) {
        d.what = printf_text(_("Erases data: for each block size from %s to %s (doubling), writes %s from the start "
                               "of the device %lld times, each write timed with its fdatasync; mean, median, slowest "
                               "and fastest MB/s per size, as in the dd study."),
                             bytes(integer_of(p, "min_block", 512)).c_str(),
                             bytes(integer_of(p, "max_block", 16 * MiB)).c_str(),
                             bytes(integer_of(p, "amount_per_size", 64 * MiB)).c_str(),
                             static_cast<long long>(integer_of(p, "repetitions", 9)));
        d.fio_commands = dd_sweep(p, where, "");
    } else if (kind == kinds::sustained_write) {
        const std::int64_t size = integer_of(p, "size", 0);
        const std::int64_t block = block_or_logical(p, "block_size", 4 * MiB, logical);
        const double seconds = number_of(p, "duration_s", 0);
        const double window = number_of(p, "window_s", 1.0);
        const std::string over = size > 0 ? bytes(size) : std::string(_("the whole device"));
        d.what = seconds > 0
            ? printf_text(_("Erases data: writes over %s from the start of the device, round and round for %.0f s, in "
                            "writes of %s at queue depth %lld, and plots MB/s per %.2f s; reports the burst speed, "
                            "where it fell (a cache filling up) and the steady speed."),
                          over.c_str(), seconds, bytes(block).c_str(),
                          static_cast<long long>(integer_of(p, "queue_depth", 1)), window)
            : printf_text(_("Erases data: writes over %s from the start of the device once, in writes of %s at "
                            "queue depth %lld, and plots MB/s per %.2f s; reports the burst speed, where it fell (a "
                            "cache filling up) and the steady speed."),
                          over.c_str(), bytes(block).c_str(), static_cast<long long>(integer_of(p, "queue_depth", 1)),
                          window);
        d.fio_commands.push_back(fmt::format("fio --name=sustained --filename={} --rw=write --bs={} --iodepth={} "
                                             "--size={}{} --direct=1 --ioengine=io_uring --end_fsync=1 "
                                             "--write_bw_log=sustained --log_avg_msec={:.0f}",
                                             where, fio_size(block), integer_of(p, "queue_depth", 1),
                                             size > 0 ? fio_size(size) : "100%",
                                             seconds > 0 ? fmt::format(" --runtime={:g} --time_based", seconds) : "",
                                             window * 1000));
    } else if (kind == kinds::verify_capacity) {
        const std::int64_t block = block_or_logical(p, "block_size", 64 * KiB, logical);
        const std::int64_t probes = integer_of(p, "probes", 0);
        const std::string how_many = probes > 0
            ? printf_text(g_dngettext(GETTEXT_PACKAGE, "%lld probe block", "%lld probe blocks",
                                      static_cast<gulong>(probes)),
                          static_cast<long long>(probes))
            : std::string(_("probe blocks"));
        // No fio command: fio has no such check. f3probe (from f3) is the
        // tool users know for it.
        d.what = printf_text(_("Erases data: checks whether the device holds as much as it claims, as f3probe "
                               "--destructive does for fake USB sticks and memory cards. Writes %s of %s spread over "
                               "the whole claimed size, and the start of the device whole, each sector marked with "
                               "its place and a key drawn for this run; reads them all back and reports the real "
                               "size: to the sector when writes past it land at the start again, within one block "
                               "when they are lost."),
                             how_many.c_str(), bytes(block).c_str());
    } else {
        return std::nullopt;
    }
    return d;
}

std::string shell_quoted(const std::string& path)
{
    const bool plain = std::all_of(path.begin(), path.end(), [](char c) {
        return g_ascii_isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-';
    });
    if (plain && !path.empty())
        return path;
    const std::unique_ptr<gchar, decltype(&g_free)> quoted(g_shell_quote(path.c_str()), g_free);
    return quoted.get();
}

} // namespace diskbench::client
