// SPDX-License-Identifier: GPL-3.0-or-later
// "Small files" in HDDTest: builds a tree of 1000 directories, writes 1000
// files of 1 to 10 KiB into it, reads them all in pseudo-random order and
// deletes the tree; a bar graph of four bars, the time of each of these
// phases. Like "Structure" every phase ends with a syncfs inside its
// timing; before the reads each file's cached pages are dropped, so they
// come from the device (checked, with a warning where the filesystem keeps
// them anyway).
#include "../base/errors.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/small_files.hpp"
#include "tree_support.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace small_files_keys = contract::kinds::keys::small_files;

namespace {

std::uint32_t size_param(const DirectoryContext& ctx, std::string_view key)
{
    return static_cast<std::uint32_t>(ctx.params.unsigned_value(key));
}

void run(DirectoryContext& ctx)
{
    const std::uint32_t min_size = size_param(ctx, "min_file_size");
    const std::uint32_t max_size = size_param(ctx, "max_file_size");
    if (max_size < min_size)
        throw ParameterError("max_file_size",
                             Failure { "error-max-below-min-file-size", { { "max", max_size }, { "min", min_size } } });
    // The estimate assumes every file is as large as the largest and takes
    // whole blocks; a directory takes a block.
    const std::uint64_t block = std::max<std::uint64_t>(ctx.facts.block_size, 4096);
    const TreeCounts counts = fitted_tree_counts(ctx, block, (max_size + block - 1) / block * block);
    if (ctx.plan_only)
        return;

    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    const TreePlan plan = plan_tree(counts.directories, counts.files, min_size, max_size, seed);
    const auto directories = static_cast<double>(plan.directories());
    const auto files = static_cast<double>(plan.files());
    const std::uint64_t bytes = plan.total_bytes();
    value_at(ctx.result.summary, small_files_keys::directories) = std::uint64_t { plan.directories() };
    value_at(ctx.result.summary, small_files_keys::files) = std::uint64_t { plan.files() };
    value_at(ctx.result.summary, small_files_keys::bytes) = bytes;
    value_at(ctx.result.summary, small_files_keys::tree_checksum) = plan.checksum();
    value_at(ctx.result.summary, small_files_keys::phases) = std::string("directories,write,read,delete");
    // Seconds per phase, as HDDTest's four bars; rates in the summary.
    const std::size_t bars = ctx.recorder.add_series({ "time", "test", "s", SeriesStyle::Bar });

    TreeRun tree(ctx, plan, 2 * plan.directories() + 3 * plan.files());
    const auto record = [&](double x, std::uint64_t ns, std::string_view seconds_key) {
        const double seconds = static_cast<double>(ns) / 1e9;
        value_at(ctx.result.summary, seconds_key) = seconds;
        ctx.recorder.add_point(bars, { x, seconds });
        return seconds > 0 ? seconds : 1e-9;
    };
    const auto built = tree.create(false);
    if (!built)
        return;
    value_at(ctx.result.summary, small_files_keys::directories_ops_s)
        = directories / record(0, *built, small_files_keys::directories_s);

    const auto written = tree.write_files(SplitMix64(seed).next()); // data apart from the shape's stream
    if (!written)
        return;
    const double write_s = record(1, *written, small_files_keys::write_s);
    value_at(ctx.result.summary, small_files_keys::write_files_s) = files / write_s;
    value_at(ctx.result.summary, small_files_keys::write_mb_s) = static_cast<double>(bytes) / 1e6 / write_s;

    const std::uint64_t cached = tree.drop_cached_files();
    if (ctx.cancel.cancelled())
        return;
    value_at(ctx.result.summary, small_files_keys::files_cached_before_read) = cached;
    if (cached > 0)
        ctx.recorder.warn({ "files-stayed-cached", { { "cached", cached }, { "files", plan.files() } } });

    const auto read = tree.read_files();
    if (!read)
        return;
    const double read_s = record(2, *read, small_files_keys::read_s);
    value_at(ctx.result.summary, small_files_keys::read_files_s) = files / read_s;
    value_at(ctx.result.summary, small_files_keys::read_mb_s) = static_cast<double>(bytes) / 1e6 / read_s;

    const auto deleted = tree.remove();
    if (!deleted)
        return;
    value_at(ctx.result.summary, small_files_keys::delete_ops_s)
        = (directories + files) / record(3, *deleted, small_files_keys::delete_s);
}

} // namespace

BenchmarkInfo small_files()
{
    return {
        "small-files",
        "Small files",
        "Builds a seeded pseudo-random tree of `directories` directories, writes `files` files of min_file_size to "
        "max_file_size bytes (seeded sizes and data) into it, reads them all back in seeded random order after "
        "dropping their cached pages, and deletes the tree; four bars in seconds, each phase timed up to the end of a "
        "syncfs (HDDTest's Small files). Directory entries and inodes stay cached between the phases: dropping them "
        "needs root and affects the whole machine.",
        tree_params({
            unsigned_param("min_file_size", "Smallest file in bytes (HDDTest: 1 KiB).", KiB, 1, MiB),
            unsigned_param("max_file_size", "Largest file in bytes (HDDTest: 10 KiB).", 10 * KiB, 1, MiB),
        }),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
