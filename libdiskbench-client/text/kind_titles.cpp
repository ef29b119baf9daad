// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/kind_titles.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

namespace kinds = contract::kinds;

constexpr KindTitle titles[] = {
    // TRANSLATORS: page titles (the HDDTest benchmarks): Seek = access
    // time, Random = random reads per block size, Cont = continuous
    // (sequential) read, Surface = whole-surface read map, Block = block
    // size sweep, Profiles = CrystalDiskMark-style tests, QD sweep =
    // queue depth sweep. Keep them short: they are the rows of the
    // app's list of pages.
    // TRANSLATORS: the first page: GNOME Disks' benchmark (read rate over
    // the whole disk and access time in about a minute).
    { kinds::overview, N_("Overview"),
      N_("Read rate sampled over the whole device and the access time, in about a minute.") },
    { kinds::seek, N_("Seek"),
      N_("Access time: single-block reads at random places; distance travelled against latency.") },
    { kinds::random, N_("Random"), N_("Random reads of each block size from the logical block to 1 MiB.") },
    { kinds::sequential, N_("Cont"), N_("Continuous read: throughput along a long sequential read.") },
    { kinds::surface, N_("Surface"),
      N_("Whole-surface read map: every block read once; mean with the slowest and fastest read per stretch.") },
    { kinds::block, N_("Block"),
      N_("Sequential reads with block sizes from the logical block to 1 MiB: where the device gets fast.") },
    { kinds::profile, N_("Profiles"),
      N_("CrystalDiskMark-style tests: sequential and random reads at several queue depths.") },
    { kinds::qd_sweep, N_("QD sweep"),
      N_("Random 4 KiB reads (or writes that keep the data) at growing queue depths and thread counts: where the "
         "device saturates.") },
    // TRANSLATORS: page titles of the folder (filesystem) benchmarks:
    // R/W file = write a file and read it back, Write sweep = writes per
    // block size, Structure = folder and file operations, Small files =
    // many small files, Mixed load = reads and writes at once.
    { kinds::file_rw, N_("R/W file"), N_("Writes a file into the folder, then reads it back: throughput along the way.") },
    { kinds::write_sweep, N_("Write sweep"),
      N_("Writes with block sizes from small to large: median throughput with the slowest and fastest repetition.") },
    { kinds::structure, N_("Structure"), N_("Builds a tree of folders and empty files, then deletes it.") },
    { kinds::small_files, N_("Small files"), N_("Writes, reads and deletes many small files.") },
    // TRANSLATORS: the folder Profiles page: CrystalDiskMark's tests on a test file.
    { kinds::file_profile, N_("Profiles"),
      N_("CrystalDiskMark-style tests on a test file in the folder, each read and written.") },
    { kinds::mixed_load, N_("Mixed load"), N_("Reads and writes at the same time: throughput of each over time.") },
    { kinds::file_qd_sweep, N_("QD sweep"),
      N_("Random 4 KiB reads or writes on a test file in the folder at growing queue depths and thread counts.") },
    // TRANSLATORS: page titles of the raw device write benchmarks.
    { kinds::device_write, N_("Write"), N_("Sequential and random 4 KiB writes to the raw device.") },
    { kinds::device_write_sweep, N_("Write sweep"), N_("Writes to the raw device with block sizes from small to large.") },
    { kinds::sustained_write, N_("Sustained"),
      N_("A long write over the device: where its cache runs full. Erases the data.") },
    // TRANSLATORS: the page of the fake-capacity check (a USB stick that
    // claims 256 GB and holds 16 GB).
    { kinds::verify_capacity, N_("Capacity"),
      N_("Whether the device holds as much as it claims: finds fake USB sticks and cards. Erases the data.") },
    // TRANSLATORS: a result of several benchmarks run one after another
    // on one device and kept as one session (History's rows)
    { kinds::run_set, N_("Set of benchmarks"),
      N_("Several read benchmarks one after another on one device, kept as one session.") },
};

} // namespace

const KindTitle* kind_title(std::string_view kind) noexcept
{
    for (const KindTitle& entry : titles)
        if (entry.kind == kind)
            return &entry;
    return nullptr;
}

std::string kind_title_text(std::string_view kind)
{
    const KindTitle* title = kind_title(kind);
    return title ? _(title->title) : std::string(kind);
}

} // namespace diskbench::client
