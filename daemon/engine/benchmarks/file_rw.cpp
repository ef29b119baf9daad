// SPDX-License-Identifier: GPL-3.0-or-later
// "R/W file" in HDDTest: writes `size` bytes into a new file in large
// blocks, then reads the file back; position against MB/s for both. Like
// `dd oflag=direct conv=fdatasync` and back, or fio's sequential write and
// read with direct=1 and end_fsync=1: one request at a time, the final
// fdatasync inside the write's time. Where the filesystem refuses O_DIRECT
// the writes go through the page cache and each point of the write series
// ends with an fdatasync, so the series shows the device and not the
// cache; the file's pages are dropped before it is read.
#include "benchmarks.hpp"
#include "contract/kinds/file_rw.hpp"
#include "file_support.hpp"

#include <fcntl.h>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace file_rw_keys = contract::kinds::keys::file_rw;

namespace {

// Points per series: direct I/O is cheap to cut finely; buffered points
// each cost an fdatasync, which must stay rare enough not to be what is
// measured.
constexpr std::uint64_t direct_points = 1024;
constexpr std::uint64_t buffered_points = 64;

// Where a pass's figures go in the summary (contract/kinds/file_rw.hpp).
struct PassKeys {
    std::string_view mb_s, min_mb_s, max_mb_s, latency_prefix;
};
constexpr PassKeys write_pass_keys { file_rw_keys::write_mb_s, file_rw_keys::write_min_mb_s,
                                     file_rw_keys::write_max_mb_s, file_rw_keys::write_latency_prefix };
constexpr PassKeys read_pass_keys { file_rw_keys::read_mb_s, file_rw_keys::read_min_mb_s, file_rw_keys::read_max_mb_s,
                                    file_rw_keys::read_latency_prefix };

void add_pass_summary(DirectoryContext& ctx, const PassResult& pass, const PassKeys& keys)
{
    value_at(ctx.result.summary, keys.mb_s) = pass.mb_per_s();
    value_at(ctx.result.summary, keys.min_mb_s) = pass.slowest_mb_s;
    value_at(ctx.result.summary, keys.max_mb_s) = pass.fastest_mb_s;
    add_latency_summary(ctx.result.summary, pass.latency, std::string(keys.latency_prefix));
}

void run(DirectoryContext& ctx)
{
    const std::uint64_t block = ctx.params.unsigned_value("block_size");
    const std::uint64_t room = usable_space(ctx.facts);
    if (room < block)
        throw IoError(Failure { "error-filesystem-full-no-block",
                                { { "target", ctx.result.target_name },
                                  { "free", format_bytes(ctx.facts.available_bytes) },
                                  { "block", format_bytes(block) } } },
                      ENOSPC);
    std::uint64_t size = fitted_amount(ctx.params, ctx.recorder, "size", room, block, "the file", "the free space");
    if (size < block)
        throw ParameterError("size",
                             Failure { "error-less-than-one-block",
                                       { { "size", size }, { "block", format_bytes(block) } } });
    size -= size % block; // whole blocks, so every direct write is aligned
    if (ctx.plan_only)
        return;

    const bool want_direct = ctx.params.boolean("direct");
    ScratchFile file = open_scratch_file(ctx, want_direct, size);
    if (file.direct && block % file.target.logical_block != 0)
        throw ParameterError("block_size", Failure { "error-not-direct-io-multiple",
                                                     { { "value", block },
                                                       { "alignment", file.target.logical_block } } });
    explain_cache_mode(ctx, want_direct, file.direct);
    value_at(ctx.result.summary, file_rw_keys::bytes) = size;

    const std::size_t write_series = ctx.recorder.add_series({ "write", "B", "MB/s", SeriesStyle::Line });
    const std::size_t read_series = ctx.recorder.add_series({ "read", "B", "MB/s", SeriesStyle::Line });
    const std::uint64_t points = file.direct ? direct_points : buffered_points;
    const std::uint64_t point_bytes = std::max<std::uint64_t>(1, (size / points + block - 1) / block) * block;

    PassSpec pass;
    pass.size = size;
    pass.block = static_cast<std::uint32_t>(block);
    pass.point_bytes = point_bytes;
    pass.direction = IoDirection::Write;
    pass.seed = ctx.params.unsigned_value("seed");
    pass.sync_each_point = !file.direct;
    pass.series = write_series;
    pass.progress_share = 0.5;
    const PassResult written = sequential_pass(ctx, file.target, pass);
    if (written.cancelled)
        return;
    add_pass_summary(ctx, written, write_pass_keys);

    // Synced, so every cached page is clean and can be dropped; with
    // O_DIRECT there are none, and asking costs nothing.
    ::posix_fadvise(file.target.fd.get(), 0, 0, POSIX_FADV_DONTNEED);
    pass.direction = IoDirection::Read;
    pass.sync_each_point = false;
    pass.series = read_series;
    pass.progress_from = 0.5;
    const PassResult read = sequential_pass(ctx, file.target, pass);
    if (!read.cancelled)
        add_pass_summary(ctx, read, read_pass_keys);
}

} // namespace

BenchmarkInfo file_rw()
{
    return {
        "file-rw",
        "R/W file",
        "Writes `size` bytes into a new scratch file in the chosen folder in block_size writes, with the final "
        "fdatasync inside the timing, then reads the file back; position against MB/s for both (O_DIRECT where the "
        "filesystem allows it). The file has no name and vanishes when the run ends, even if it crashes.",
        with_common_params({
            unsigned_param("size", "Bytes to write and read (scaled down to 90 % of the free space when not given).",
                           GiB, 1, 1ULL << 50),
            unsigned_param("block_size", "Bytes per write and read.", MiB, 512, max_request_size),
            direct_param(),
            data_seed_param(),
        }, Seeded::No, appending_writes_backend),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
