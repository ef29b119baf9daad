// SPDX-License-Identifier: GPL-3.0-or-later
// "Capacity check": is the device as large as it claims? What f3probe does
// for fake USB sticks and SD cards, with our own layout (capacity_probe.hpp):
// probe blocks spread over the whole claimed span and a head written whole,
// every sector stamped with its offset and a key drawn for this run, all
// written from the end down, synced, then read back with O_DIRECT and
// compared. A wrap is measured from the stamps to the sector; a drop is
// narrowed by a bisection of single blocks (each written, synced and read
// back) to less than one block. Destroy only: it overwrites the head and
// every probe.
#include "../base/clock.hpp"
#include "../base/errors.hpp"
#include "../io/io_buffers.hpp"
#include "../io/request_sources.hpp"
#include "../io/write_data.hpp"
#include "benchmarks.hpp"
#include "capacity_probe.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/verify_capacity.hpp"
#include "device_write_support.hpp"
#include "file_support.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;
namespace verify_capacity_keys = contract::kinds::keys::verify_capacity;

namespace {

constexpr std::uint64_t batch_bytes = 16 * MiB;
constexpr std::uint64_t max_head_blocks = 1'000'000; // bounds the run's bookkeeping and its head
constexpr std::uint64_t min_probes = 100;            // the boundary to 1 % before the bisection

// The requests of one batch, each with its own buffer (a slot per request).
class BatchBuffers final : public RequestBuffers {
public:
    BatchBuffers(std::size_t slots, std::uint32_t block, std::size_t alignment) : buffers_(slots, block, alignment) {}
    void set(const std::vector<IoRequest>& requests)
    {
        slot_of_.clear();
        for (std::size_t i = 0; i < requests.size(); ++i)
            slot_of_[requests[i].offset] = i;
    }
    [[nodiscard]] std::byte* buffer_for(const IoRequest& request) const override
    {
        return buffers_.slot(slot_of_.at(request.offset));
    }

private:
    IoBuffers buffers_;
    std::map<std::uint64_t, std::size_t> slot_of_;
};

// What the run learnt of one probe block.
struct ProbeFinding {
    std::uint64_t offset = 0;
    ProbeCheck check;
    int read_error = 0; // errno of a failed read
    [[nodiscard]] double percent_intact() const noexcept
    {
        return check.sectors ? 100.0 * check.intact_sectors / check.sectors : 0.0;
    }
};

class CapacityRun {
public:
    CapacityRun(BenchmarkContext& ctx, const ProbeLayout& layout, std::uint64_t seed)
        : ctx_(ctx), layout_(layout),
          // The batch buffers and the filler count against the owner's
          // budget, taken before the memory is.
          reservation_(ctx.io.reserve(0, (std::max<std::size_t>(1, batch_bytes / layout.block) + 1) * layout.block)),
          filler_(layout.block),
          buffers_(std::max<std::size_t>(1, batch_bytes / layout.block), layout.block, ctx.target.memory_alignment)
    {
        fill_pseudo_random(filler_.data(), filler_.size(), seed);
        key_ = std::random_device {}() | static_cast<std::uint64_t>(std::random_device {}()) << 32;
        batch_ = std::max<std::size_t>(1, batch_bytes / layout.block);
    }

    // Every probe, from the end of the device down, one at a time, then the
    // head in batches of its own. A wrapping device keeps, of the probes
    // that land on one place, the one written last: the lowest, whose
    // stamp then names the wrap (wrap_size). Writes within a batch may
    // complete in any order, and a batch of probes let a higher alias land
    // last now and then: the device read as "scattered" instead of
    // "wrapping" (the flaky verify-capacity test of issue 40). The probes
    // are few (about sqrt(claimed / block)), so one at a time costs little;
    // every probe is on the device before any head block goes, so a
    // wrapped probe is overwritten by the head, never the other way.
    // Returns false when cancelled.
    bool write_probes(double share)
    {
        const std::vector<std::uint64_t> order(layout_.offsets.rbegin(), layout_.offsets.rend());
        const std::size_t probes = order.size() - layout_.head_blocks;
        std::size_t done = 0;
        for (const auto part : { std::span(order).first(probes), std::span(order).subspan(probes) }) {
            const std::size_t batch_size = part.data() == order.data() ? 1 : batch_;
            for (std::size_t from = 0; from < part.size(); from += batch_size) {
                const auto batch = part.subspan(from, std::min(batch_size, part.size() - from));
                if (!write(batch, "probe writes"))
                    return false;
                done += batch.size();
                ctx_.recorder.set_progress(share * static_cast<double>(done) / order.size());
            }
        }
        sync_data(ctx_.target);
        return !ctx_.cancel.cancelled();
    }

    // Every probe read back, in order; calls `found` for each.
    template <typename Found>
    bool read_probes(double done_before, double share, Found found)
    {
        const auto& offsets = layout_.offsets;
        for (std::size_t from = 0; from < offsets.size(); from += batch_) {
            const auto batch = std::span(offsets).subspan(from, std::min(batch_, offsets.size() - from));
            std::vector<ProbeFinding> findings;
            if (!read(batch, "probe reads", findings))
                return false;
            for (const ProbeFinding& finding : findings)
                found(finding);
            ctx_.recorder.set_progress(done_before + share * static_cast<double>(from + batch.size()) / offsets.size());
        }
        return true;
    }

    // One bisection step: a block written at `offset`, synced, read back.
    std::optional<ProbeFinding> test_block(std::uint64_t offset)
    {
        const std::uint64_t one[] { offset };
        std::vector<ProbeFinding> findings;
        if (!write(one, "bisection"))
            return std::nullopt;
        sync_data(ctx_.target);
        if (!read(one, "bisection", findings) || findings.empty())
            return std::nullopt;
        return findings.front();
    }

    [[nodiscard]] std::uint64_t write_errors() const noexcept { return write_errors_; }

private:
    std::vector<IoRequest> requests(std::span<const std::uint64_t> offsets) const
    {
        std::vector<IoRequest> list;
        list.reserve(offsets.size());
        for (const std::uint64_t offset : offsets)
            list.push_back({ offset, layout_.block });
        return list;
    }

    IoRunSpec spec(IoDirection direction, const char* phase, const std::vector<IoRequest>& list)
    {
        IoRunSpec spec;
        spec.direction = direction;
        spec.queue_depth = static_cast<unsigned>(std::min<std::size_t>(4, list.size()));
        spec.max_request_bytes = layout_.block;
        spec.buffers = &buffers_;
        // A stick that fails beyond its real size answers with errors: a
        // finding, not the end of the run.
        spec.tolerate_read_errors = true;
        spec.tolerate_write_errors = true;
        // Not a speed measurement: the cross-check counts it as our own I/O
        // and compares no figures.
        spec.measured = false;
        spec.phase = phase;
        spec.make_source = [&list](unsigned) { return std::make_unique<ListSource>(list); };
        spec.cancel = &ctx_.cancel;
        return spec;
    }

    bool write(std::span<const std::uint64_t> offsets, const char* phase)
    {
        const std::vector<IoRequest> list = requests(offsets);
        buffers_.set(list);
        for (const IoRequest& request : list)
            stamp_probe({ buffers_.buffer_for(request), layout_.block }, filler_, request.offset, key_);
        ObserverFunction observer([this](unsigned, const IoCompletion& c) { write_errors_ += c.error != 0; });
        IoRunSpec run = spec(IoDirection::Write, phase, list);
        run.observer = &observer;
        return !ctx_.io.run(ctx_.target, run).cancelled;
    }

    bool read(std::span<const std::uint64_t> offsets, const char* phase, std::vector<ProbeFinding>& findings)
    {
        const std::vector<IoRequest> list = requests(offsets);
        buffers_.set(list);
        ObserverFunction observer([&](unsigned, const IoCompletion& c) {
            ProbeFinding finding { c.request.offset, {}, c.error };
            if (c.error) {
                finding.check.sectors = layout_.block / stamp_unit;
                finding.check.first_lost = c.request.offset;
            } else {
                finding.check = check_probe({ buffers_.buffer_for(c.request), layout_.block }, filler_,
                                            c.request.offset, key_);
            }
            findings.push_back(finding);
        });
        IoRunSpec run = spec(IoDirection::Read, phase, list);
        run.observer = &observer;
        const bool done = !ctx_.io.run(ctx_.target, run).cancelled;
        std::sort(findings.begin(), findings.end(),
                  [](const ProbeFinding& a, const ProbeFinding& b) { return a.offset < b.offset; });
        return done;
    }

    BenchmarkContext& ctx_;
    const ProbeLayout& layout_;
    ResourceBudget::Reservation reservation_;
    std::vector<std::byte> filler_;
    BatchBuffers buffers_;
    std::uint64_t key_ = 0;
    std::size_t batch_ = 1;
    std::uint64_t write_errors_ = 0;
};

// Whether the probes from `from` on mostly read back intact: a lost probe
// there is damage, not the end of the device's real capacity.
bool scattered(const std::vector<SeriesPoint>& points, std::uint64_t from)
{
    std::uint64_t beyond = 0, intact = 0;
    for (const SeriesPoint& point : points)
        if (point.x >= static_cast<double>(from)) {
            ++beyond;
            intact += point.y == 100;
        }
    return intact * 2 > beyond;
}

// About sqrt(claimed / block) probes: the head (one spacing) and the probes
// (claimed / spacing blocks) then cost the same, and their sum, what the
// check writes, is smallest (256 MiB of a 256 GiB stick with 64 KiB blocks).
std::uint64_t automatic_probes(std::uint64_t claimed, std::uint32_t block)
{
    const auto balanced = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(claimed / block)));
    return std::max(min_probes, balanced);
}

void run(BenchmarkContext& ctx)
{
    checked_write_mode(ctx, false);
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    if (block % stamp_unit != 0)
        throw ParameterError("block_size", Failure { "error-multiple-of-bytes", { { "bytes", stamp_unit } } });
    const std::uint64_t claimed = ctx.target.size;
    std::uint64_t probes = ctx.params.unsigned_value("probes");
    if (probes == 0)
        probes = automatic_probes(claimed, block);
    else if (probes < min_probes)
        throw ParameterError("probes", Failure { "error-probes-below-minimum", { { "minimum", min_probes } } });
    // Refused before the layout exists: a head of millions of blocks would
    // cost the root daemon gigabytes of offsets, before any authorization.
    if (const std::uint64_t head = planned_head_blocks(claimed, block, probes); head > max_head_blocks)
        throw ParameterError("probes", Failure { "error-probes-head-too-large",
                                                 { { "head", head }, { "limit", max_head_blocks } } });
    // Counted, not laid out: this much runs before authorization (the
    // daemon's check of a request, on its bus thread); the layout itself,
    // up to millions of offsets, only for a run.
    const PlannedProbes planned = planned_probes(claimed, block, ctx.target.logical_block, probes);
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    auto& summary = ctx.result.summary;
    value_at(summary, verify_capacity_keys::claimed_bytes) = claimed;
    value_at(summary, verify_capacity_keys::probe_block) = static_cast<std::uint64_t>(block);
    value_at(summary, verify_capacity_keys::probe_spacing) = planned.spacing;
    value_at(summary, verify_capacity_keys::probes) = planned.blocks;
    value_at(summary, verify_capacity_keys::written_bytes) = planned.blocks * block;
    value_at(summary, common_keys::written_range_bytes) = claimed;
    if (ctx.plan_only)
        return;
    const ProbeLayout layout = plan_probes(claimed, block, ctx.target.logical_block, probes);

    const std::uint64_t started_ns = monotonic_ns();
    CapacityRun run(ctx, layout, seed);
    if (!run.write_probes(0.45))
        return;

    // What each probe beyond the head read back, and the head as a whole.
    std::vector<SeriesPoint> points;
    std::uint64_t head_sectors = 0, head_intact = 0, lost_probes = 0, unreadable = 0;
    std::uint64_t good_end = 0; // everything below it read back intact
    std::optional<ProbeFinding> first_lost;
    const bool read_all = run.read_probes(0.45, 0.45, [&](const ProbeFinding& finding) {
        if (finding.offset < layout.spacing) {
            head_sectors += finding.check.sectors;
            head_intact += finding.check.intact_sectors;
        } else {
            points.push_back({ static_cast<double>(finding.offset), finding.percent_intact() });
        }
        if (!finding.check.intact()) {
            ++lost_probes;
            unreadable += finding.read_error != 0;
            if (!first_lost)
                first_lost = finding;
        } else if (!first_lost) {
            good_end = finding.offset + block;
        }
    });
    if (!read_all)
        return;
    value_at(summary, verify_capacity_keys::probes_unreadable) = unreadable;
    value_at(summary, verify_capacity_keys::write_errors) = run.write_errors();
    std::uint64_t real_size = claimed;
    std::uint64_t uncertainty = 0;
    std::string failure = "none";
    if (first_lost) {
        const std::uint64_t lost_at = *first_lost->check.first_lost;
        // Sectors of the first lost block before its first lost one are
        // intact; between it and the probe before it nothing is known yet.
        if (lost_at > first_lost->offset)
            good_end = lost_at;
        // The device's last block may overlap the probe before it: what
        // that probe read back intact is not known good once its sectors
        // fail in the last block.
        good_end = std::min(good_end, lost_at);
        if (const auto wrapped = wrap_size(lost_at, first_lost->check.first_lost_holds)) {
            failure = "wraps";
            real_size = *wrapped;
        } else if (scattered(points, first_lost->offset)) {
            // Most probes past the first lost one held: not a capacity that
            // ends there, but a device that loses blocks here and there
            // (bad sectors, a dying card). No real size to bisect for.
            failure = "scattered";
        } else {
            failure = first_lost->read_error ? "unreadable" : "drops";
            std::uint64_t lost_from = lost_at;
            std::uint64_t steps = 0;
            while (const auto at = bisection_offset(good_end, lost_from, block, ctx.target.logical_block)) {
                const auto finding = run.test_block(*at);
                if (!finding)
                    return; // cancelled
                ++steps;
                if (finding->check.intact()) {
                    good_end = *at + block;
                } else {
                    lost_from = *finding->check.first_lost;
                    if (lost_from > *at) // the block's first sectors held: the end is inside it
                        good_end = lost_from;
                }
                ctx.recorder.set_progress(std::min(0.99, 0.9 + 0.005 * static_cast<double>(steps)));
            }
            value_at(summary, verify_capacity_keys::bisection_steps) = steps;
            real_size = good_end;
            uncertainty = lost_from - good_end;
        }
        value_at(summary, verify_capacity_keys::first_lost_offset) = lost_at;
        if (first_lost->read_error)
            value_at(summary, verify_capacity_keys::first_lost_errno)
                = static_cast<std::uint64_t>(first_lost->read_error);
    }
    // A wrapping device's probes beyond its real size that read back
    // intact did so only because nothing else landed on the same flash:
    // their bytes live at offset - real size, shared with the start, so
    // they hold nothing of their own.
    if (failure == "wraps")
        for (SeriesPoint& point : points)
            if (point.x >= static_cast<double>(real_size) && point.y > 0) {
                // Partly intact ones were counted as lost when read.
                if (point.y == 100)
                    ++lost_probes;
                point.y = 0;
            }
    const std::size_t intact_series = ctx.recorder.add_series({ "intact", "B", "%", SeriesStyle::Line });
    if (head_sectors > 0)
        ctx.recorder.add_point(intact_series, { 0, 100.0 * static_cast<double>(head_intact) / head_sectors });
    for (const SeriesPoint& point : points)
        ctx.recorder.add_point(intact_series, point);
    value_at(summary, verify_capacity_keys::probes_lost) = lost_probes;
    value_at(summary, verify_capacity_keys::failure) = failure;
    value_at(summary, verify_capacity_keys::real_size_bytes) = real_size;
    value_at(summary, verify_capacity_keys::lost_bytes) = claimed - real_size;
    value_at(summary, verify_capacity_keys::boundary_uncertainty_bytes) = uncertainty;
    value_at(summary, verify_capacity_keys::seconds) = static_cast<double>(monotonic_ns() - started_ns) / 1e9;
    if (failure == "none") {
        ctx.recorder.note({ "capacity-intact", { { "probes", static_cast<std::uint64_t>(layout.offsets.size()) },
                                                 { "claimed", format_bytes(claimed) } } });
    } else if (failure == "scattered") {
        ctx.recorder.warn({ "capacity-scattered", { { "lost", lost_probes },
                                                    { "probes", static_cast<std::uint64_t>(layout.offsets.size()) } } });
    } else {
        ctx.recorder.warn({ "capacity-fake", { { "real", format_bytes(real_size) },
                                               { "claimed", format_bytes(claimed) } } });
        if (failure == "wraps")
            ctx.recorder.note({ "capacity-wraps", { { "real", format_bytes(real_size) } } });
        else if (failure == "drops")
            ctx.recorder.note({ "capacity-drops", {} });
        else
            ctx.recorder.note({ "capacity-unreadable", {} });
    }
    ctx.recorder.set_progress(1.0);
}

} // namespace

BenchmarkInfo verify_capacity()
{
    BenchmarkInfo info {
        "verify-capacity",
        "Capacity check",
        "Destroys data: finds whether the device holds as much as it claims (a fake USB stick or SD card keeps "
        "only part of it and loses or wraps the rest). Writes probe blocks over the whole claimed span, each sector "
        "stamped with its offset and a key drawn for the run, reads them back with O_DIRECT and reports the real "
        "size: to the sector when writes wrap to the start, within one block (a bisection) when they are dropped. "
        "Needs mode=destroy and confirm.",
        with_common_params(write_mode_params({
            unsigned_param("block_size", "Bytes per probe block; 0 means the logical block size.", 64 * KiB, 0,
                           16 * MiB),
            unsigned_param("probes", "Probe blocks spread over the device beyond its head (at least 100: the "
                                     "boundary to 1 % before the bisection); 0: as many as balance the head's "
                                     "writes against the probes'.", 0, 0, 1'000'000),
        }, false), Seeded::No),
        run,
    };
    info.params.push_back(data_seed_param());
    info.writes_device = true;
    return info;
}

} // namespace diskbench::engine::benchmarks
