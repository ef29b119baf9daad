// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the filesystem benchmarks that write big files share: a scratch
// file opened O_DIRECT where the filesystem allows it, a timed sequential
// pass over it with the sync inside the timing, and errors that say what
// went wrong in the user's terms. Everything here runs on the
// FilesystemScope's thread (DirectoryContext).

#include "../base/errors.hpp"
#include "../benchmark_support.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace diskbench::engine::benchmarks {

// The `direct` parameter both benchmarks take.
ParamSpec direct_param();
// The `seed` of the written data.
ParamSpec data_seed_param();

struct ScratchFile {
    Target target;
    bool direct = false; // O_DIRECT took; otherwise the page cache is in the way
};

// A new unnamed file in the scope's scratch directory, with O_DIRECT when
// `want_direct` and the filesystem accepts it (fcntl() says EINVAL when it
// does not). `size` is what will be written.
ScratchFile open_scratch_file(DirectoryContext& ctx, bool want_direct, std::uint64_t size);

// How a benchmark uses the page cache when it cannot bypass it; each has
// its own catalogue message (contract/messages.cpp).
enum class BufferedUse {
    WriteThenRead, // writes, then reads the file back (file-rw, write-sweep)
    Profile,       // the file profile's write and read tests
    Sort,          // mixed-load's chunk sort
};

// Records, once, what a buffered run means for the figures.
void explain_cache_mode(DirectoryContext& ctx, bool wanted_direct, bool got_direct,
                        BufferedUse use = BufferedUse::WriteThenRead);

// fdatasync(); throws IoError (delayed write errors such as ENOSPC on some
// filesystems only surface here).
void sync_data(const Target& file);

// An IoError rephrased for the user: a full filesystem, an exhausted quota
// and a failing device say so first; the original text follows.
IoError explained(const DirectoryContext& ctx, const IoError& error);

struct PassSpec {
    IoDirection direction = IoDirection::Read;
    std::uint64_t size = 0;
    std::uint32_t block = 0;
    std::uint64_t seed = 0;
    // Writes: fdatasync after the last write, inside the timing (always);
    // with sync_each_point also at every point, which is how a buffered
    // write's series shows the device instead of the page cache.
    bool sync_each_point = false;
    // A point every this many bytes into `series` (x position in bytes, y
    // MB/s); 0: none.
    std::uint64_t point_bytes = 0;
    std::size_t series = 0;
    // This pass moves progress from `progress_from` by `progress_share`.
    double progress_from = 0;
    double progress_share = 1;
    // Writes send these bytes instead of seeded data (IoRunSpec::buffers).
    const RequestBuffers* buffers = nullptr;
    // False for a pass whose figures are not reported (file-profile's
    // fill): the block-layer cross-check leaves it out.
    bool measured = true;
};

struct PassResult {
    std::uint64_t bytes = 0;
    std::uint64_t started_ns = 0;  // first submission
    std::uint64_t finished_ns = 0; // last completion, or the end of its fdatasync
    double slowest_mb_s = 0;       // over the points
    double fastest_mb_s = 0;
    LatencyHistogram latency;
    bool cancelled = false;

    [[nodiscard]] double mb_per_s() const noexcept
    {
        return finished_ns > started_ns ? engine::mb_per_s(bytes, finished_ns - started_ns) : 0.0;
    }
};

// What a pass needs of its benchmark: the device write sweep runs passes
// over a device (BenchmarkContext), the filesystem benchmarks over files.
struct PassEnvironment {
    Recorder& recorder;
    const CancelToken& cancel;
    const IoRunner& io;
};

// One sequential pass from offset 0 over `file` at queue depth 1, like dd.
PassResult sequential_pass(const PassEnvironment& env, const Target& file, const PassSpec& pass);
// The same, throwing the explained IoError.
PassResult sequential_pass(DirectoryContext& ctx, const Target& file, const PassSpec& pass);

} // namespace diskbench::engine::benchmarks
