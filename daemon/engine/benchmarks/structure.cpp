// SPDX-License-Identifier: GPL-3.0-or-later
// "Structure" in HDDTest (its "File hierarchy benchmark"): builds a
// pseudo-random but always identical tree of 1000 directories and 1000
// empty files, then deletes it; a bar graph of two bars, the build time and
// the delete time. Each phase is synced inside its timing (syncfs), so it
// shows how fast the filesystem makes and removes directories and inodes on
// the device, not how fast it notes them in memory.
#include "benchmarks.hpp"
#include "contract/kinds/structure.hpp"
#include "tree_support.hpp"

#include <algorithm>

namespace diskbench::engine::benchmarks {

namespace structure_keys = contract::kinds::keys::structure;

namespace {

void run(DirectoryContext& ctx)
{
    // Empty files take an inode and no data; a directory takes a block.
    const TreeCounts counts = fitted_tree_counts(ctx, std::max<std::uint64_t>(ctx.facts.block_size, 4096), 0);
    if (ctx.plan_only)
        return;

    const TreePlan plan = plan_tree(counts.directories, counts.files, 0, 0, ctx.params.unsigned_value("seed"));
    const std::uint64_t entries = plan.directories() + plan.files();
    value_at(ctx.result.summary, structure_keys::directories) = std::uint64_t { plan.directories() };
    value_at(ctx.result.summary, structure_keys::files) = std::uint64_t { plan.files() };
    value_at(ctx.result.summary, structure_keys::tree_checksum) = plan.checksum();
    value_at(ctx.result.summary, structure_keys::phases) = std::string("create,delete");
    // Seconds per phase, as HDDTest's bars: the figure a user compares
    // between disks and filesystems is how long the job takes; the rates
    // are in the summary.
    const std::size_t bars = ctx.recorder.add_series({ "time", "test", "s", SeriesStyle::Bar });

    TreeRun tree(ctx, plan, 2 * entries);
    const auto record = [&](double x, std::uint64_t ns, std::string_view seconds_key, std::string_view rate_key) {
        const double seconds = static_cast<double>(ns) / 1e9;
        value_at(ctx.result.summary, seconds_key) = seconds;
        value_at(ctx.result.summary, rate_key) = seconds > 0 ? static_cast<double>(entries) / seconds : 0.0;
        ctx.recorder.add_point(bars, { x, seconds });
    };
    const auto created = tree.create(true);
    if (!created)
        return;
    record(0, *created, structure_keys::create_s, structure_keys::create_ops_s);
    const auto deleted = tree.remove();
    if (deleted)
        record(1, *deleted, structure_keys::delete_s, structure_keys::delete_ops_s);
}

} // namespace

BenchmarkInfo structure()
{
    return {
        "structure",
        "Structure",
        "Builds a seeded pseudo-random tree of `directories` directories and `files` empty files in a scratch "
        "directory in the chosen folder, then deletes it; one bar for each, in seconds, each phase timed up to the "
        "end of a syncfs (HDDTest's Structure). The same seed builds the same tree everywhere. Directory entries and "
        "inodes stay in the kernel's caches between the phases, as for any program: dropping them needs root and "
        "affects the whole machine.",
        tree_params({}),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
