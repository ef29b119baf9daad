// SPDX-License-Identifier: GPL-3.0-or-later
#include "qd_sweep_description.hpp"

#include "command_lines.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

BenchmarkDescription describe_qd_sweep(bool in_folder, const SavedValueMap& p, const std::string& node,
                                       std::uint32_t logical_block_size)
{
    BenchmarkDescription d;
    const std::int64_t max_depth = integer_of(p, "max_queue_depth", 128);
    const std::int64_t max_threads = integer_of(p, "max_threads", 8);
    const std::int64_t block = block_or_logical(p, "block_size", 4096, logical_block_size);
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
    d.what = printf_text(format, bytes_text(block).c_str(), static_cast<long long>(max_depth),
                         static_cast<long long>(max_threads), number_of(p, "duration_s", 1),
                         number_of(p, "warmup_s", 0.2), bytes_text(area).c_str());
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
        return d;
    }
    const std::string rw = writes ? (sequential ? "write" : "randwrite") : (sequential ? "read" : "randread");
    for (std::int64_t threads = 1; threads <= std::min<std::int64_t>(max_threads, 1 << 20); threads *= 2)
        for (std::int64_t qd = 1; qd <= std::min<std::int64_t>(max_depth, 1 << 20); qd *= 2) {
            // The cells the daemon leaves out have no line either.
            if (!contract::kinds::qd_sweep_cell_runs(static_cast<std::uint64_t>(threads),
                                                     static_cast<std::uint64_t>(qd),
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
    return d;
}

} // namespace diskbench::client
