// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_write_support.hpp"

#include "../base/errors.hpp"
#include "../io/io_buffers.hpp"
#include "../io/request_feed.hpp"
#include "../io/request_sources.hpp"
#include "../storage/block_write_watch.hpp"
#include "../storage/device_holders.hpp"
#include "file_support.hpp"
#include "contract/kinds/common_keys.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;

namespace {

constexpr double batch_target_s = 0.25;
constexpr std::uint64_t report_interval_ns = 250'000'000;

// A batch's data as it was on the device: one aligned buffer per distinct
// offset, read first and written back from unchanged. Two requests for the
// same offset share one buffer, which is read once (reads() has one request
// per offset): two reads into one buffer at once would be a data race
// (ThreadSanitizer found it with psync's threads), harmless only as long as
// nothing changed the device between them. Both writes send its bytes.
class PreservedData final : public RequestBuffers {
public:
    PreservedData(const std::vector<IoRequest>& requests, std::uint32_t block, std::size_t alignment)
    {
        for (const IoRequest& request : requests)
            if (index_.try_emplace(request.offset, index_.size()).second)
                reads_.push_back(request);
        buffers_ = std::make_unique<IoBuffers>(index_.size(), block, alignment);
    }
    [[nodiscard]] std::byte* buffer_for(const IoRequest& request) const override
    {
        return buffers_->slot(index_.at(request.offset));
    }
    // The requests that fill the buffers: the first one for each offset.
    [[nodiscard]] const std::vector<IoRequest>& reads() const noexcept { return reads_; }

private:
    std::unordered_map<std::uint64_t, std::size_t> index_;
    std::vector<IoRequest> reads_;
    std::unique_ptr<IoBuffers> buffers_;
};

// Request i to worker i % workers, each worker's in their order: a
// sequential caller that made request i from stream i % workers gives
// every worker its own stream.
void deal_out(const std::vector<IoRequest>& requests, std::vector<std::vector<IoRequest>>& dealt)
{
    for (auto& list : dealt)
        list.clear();
    for (std::size_t i = 0; i < requests.size(); ++i)
        dealt[i % dealt.size()].push_back(requests[i]);
}

// Preserve mode stops at the first byte written to the device that it did
// not write (storage/block_write_watch.hpp), naming who has the device open
// now when it can. `reverted`: how much of the batch was written back after
// the other program's write may have landed (0: the batch's copy was not
// written back, so nothing it wrote was undone).
[[noreturn]] void stop_at_foreign_write(const Target& target, std::uint64_t foreign, std::uint64_t reverted)
{
    const std::string holders = storage::holders_text(storage::other_holders(target.fd.get()));
    // Each id a literal of its own: the catalogue's test finds them here.
    const char* id = reverted ? (holders.empty() ? "error-foreign-write-reverted" : "error-foreign-write-reverted-by")
                              : (holders.empty() ? "error-foreign-write" : "error-foreign-write-by");
    contract::Message failure { id, { { "target", target.name }, { "written", format_bytes(foreign) } } };
    if (reverted)
        failure.args.push_back({ "reverted", format_bytes(reverted) });
    if (!holders.empty())
        failure.args.push_back({ "holders", holders });
    throw DeviceBusyError(failure);
}

// What every run of a plan shares, its reads (preserve mode) and writes.
IoRunSpec plan_spec(const BenchmarkContext& ctx, const BatchedWritePlan& plan)
{
    IoRunSpec spec;
    spec.workers = std::max(1U, plan.workers);
    spec.queue_depth = plan.queue_depth;
    spec.max_request_bytes = plan.block;
    spec.cancel = &ctx.cancel;
    spec.random = plan.random;
    return spec;
}

// Tells plan.batch_done of each report_interval_ns of completions, from the
// I/O threads. The hot path is one relaxed add and one compare; the lock is
// taken once a report is due, so two workers never report at once.
class StreamReports final : public CompletionObserver {
public:
    explicit StreamReports(const BatchedWritePlan& plan) noexcept : plan_(plan) {}
    void completed(unsigned, const IoCompletion& completion) override
    {
        bytes_.fetch_add(completion.request.length, std::memory_order_relaxed);
        if (completion.completed_ns < next_report_ns_.load(std::memory_order_relaxed))
            return;
        const std::lock_guard lock(mutex_);
        if (window_start_ns_ == 0) { // the first completion starts the clock
            window_start_ns_ = completion.submitted_ns;
            next_report_ns_.store(window_start_ns_ + report_interval_ns, std::memory_order_relaxed);
            return;
        }
        if (completion.completed_ns < next_report_ns_.load(std::memory_order_relaxed))
            return;
        report(completion.completed_ns);
    }
    // After the run and its sync, on the caller's thread: the rest.
    void finish(std::uint64_t end_ns)
    {
        const std::lock_guard lock(mutex_);
        if (bytes_.load(std::memory_order_relaxed) > reported_bytes_ && window_start_ns_ != 0)
            report(end_ns);
    }

private:
    void report(std::uint64_t end_ns)
    {
        const std::uint64_t bytes = bytes_.load(std::memory_order_relaxed);
        if (plan_.batch_done && end_ns > window_start_ns_)
            plan_.batch_done(bytes - reported_bytes_, end_ns - window_start_ns_);
        reported_bytes_ = bytes;
        window_start_ns_ = end_ns;
        next_report_ns_.store(end_ns + report_interval_ns, std::memory_order_relaxed);
    }

    const BatchedWritePlan& plan_;
    std::atomic<std::uint64_t> bytes_ { 0 };
    // 0 until the first completion, which then only starts the clock.
    std::atomic<std::uint64_t> next_report_ns_ { 0 };
    std::mutex mutex_;
    std::uint64_t window_start_ns_ = 0;
    std::uint64_t reported_bytes_ = 0;
};

// Destroy mode with SyncRule::AtEnd: one run whose workers are fed from
// plan.next_batch as they go (io/request_feed.hpp), so the queue stays at
// its depth until the requests or the time run out, then one fdatasync,
// inside the timing.
BatchedWriteStats streamed_writes(BenchmarkContext& ctx, const BatchedWritePlan& plan)
{
    const unsigned workers = std::max(1U, plan.workers);
    const std::size_t in_flight = std::size_t { plan.queue_depth } * workers;
    // Enough per call that the feed's lock stays off the hot path, few
    // enough that a size-bound run's last chunk is not much planned ahead.
    RequestFeed feed(plan.next_batch, workers, std::max<std::size_t>(4 * in_flight, 64 * workers));
    StreamReports reports(plan);

    IoRunSpec spec = plan_spec(ctx, plan);
    spec.direction = IoDirection::Write;
    spec.measured = plan.measured;
    spec.phase = plan.phase;
    spec.data_seed = plan.data_seed;
    spec.make_source = [&](unsigned worker) { return feed.source(worker); };
    spec.time_limit_ns = plan.time_limit_ns;
    spec.observer = &reports;
    const IoRunStats written = ctx.io.run(ctx.target, spec);

    BatchedWriteStats stats;
    // A run cancelled before any write has nothing to flush.
    if (written.operations > 0) {
        sync_data(ctx.target);
        stats.syncs = 1;
    }
    const std::uint64_t end_ns = monotonic_ns();
    if (ctx.write_watch)
        ctx.write_watch->foreign_since_last(written.bytes); // counted as ours; destroy mode owns the device
    reports.finish(end_ns);
    stats.operations = written.operations;
    stats.bytes = written.bytes;
    stats.measured_ns = written.operations > 0 ? end_ns - written.started_ns : 0;
    stats.latency = written.latency;
    stats.cancelled = ctx.cancel.cancelled();
    return stats;
}

} // namespace

ParamSpec sync_every_param()
{
    return unsigned_param("sync_every",
                          "With mode=destroy: bytes written between fdatasyncs (fio's fsync=, in bytes), each "
                          "waiting for the writes before it; 0: the queue stays full and one fdatasync ends each "
                          "test, inside its time (fio's end_fsync=1). Preserve mode syncs after each batch and "
                          "keeps batches to at most this size.",
                          0, 0, 1ULL << 60);
}

SyncPlan checked_sync_plan(BenchmarkContext& ctx, WriteMode mode)
{
    SyncPlan plan;
    if (ctx.params.values().contains("sync_every"))
        plan.every_bytes = ctx.params.unsigned_value("sync_every");
    if (plan.every_bytes % ctx.target.logical_block != 0)
        throw ParameterError("sync_every", Failure { "error-not-logical-block-multiple",
                                                     { { "value", plan.every_bytes },
                                                       { "logical_block", ctx.target.logical_block } } });
    plan.rule = mode == WriteMode::Preserve ? SyncRule::Batch
        : plan.every_bytes != 0             ? SyncRule::Every
                                            : SyncRule::AtEnd;
    const char* rule = plan.rule == SyncRule::Batch ? "batch" : plan.rule == SyncRule::Every ? "every" : "end";
    value_at(ctx.result.summary, common_keys::sync_rule) = std::string(rule);
    if (plan.every_bytes != 0)
        value_at(ctx.result.summary, common_keys::sync_every_bytes) = plan.every_bytes;
    return plan;
}

void count_syncs(BenchmarkContext& ctx, std::uint64_t syncs)
{
    ValueMap& summary = ctx.result.summary;
    const std::string key(common_keys::syncs);
    const std::uint64_t before = summary.contains(key) ? std::get<std::uint64_t>(summary.at(key)) : 0;
    summary[key] = before + syncs;
}

std::vector<ParamSpec> write_mode_params(std::vector<ParamSpec> params, bool preserve_supported)
{
    // Each help a literal of its own call: po/meson.build extracts it there.
    if (preserve_supported)
        params.push_back(text_param("mode",
                                    "preserve: every write first reads its range and writes the same bytes back, so "
                                    "the data survives (only the writes and their syncs are timed); destroy: writes "
                                    "new pseudo-random data over the device's contents.",
                                    "preserve", { "preserve", "destroy" }));
    else
        params.push_back(text_param("mode",
                                    "Must be destroy: this benchmark writes new pseudo-random data over the device's "
                                    "contents and has no preserve mode.",
                                    "preserve", { "preserve", "destroy" }));
    params.push_back(text_param("confirm", "With mode=destroy: the device's serial or node, confirming that its "
                                           "data may be destroyed (checked by the daemon; must not be empty).",
                                ""));
    return params;
}

WriteMode checked_write_mode(BenchmarkContext& ctx, bool preserve_supported)
{
    const bool destroy = ctx.params.text("mode") == "destroy";
    if (!destroy && !preserve_supported)
        throw ParameterError("mode", Failure { "error-mode-cannot-preserve", {} });
    if (destroy && ctx.params.text("confirm").empty())
        throw ParameterError("confirm", Failure { "error-destroy-unconfirmed", {} });
    value_at(ctx.result.summary, common_keys::mode) = std::string(destroy ? "destroy" : "preserve");
    return destroy ? WriteMode::Destroy : WriteMode::Preserve;
}

BatchedWriteStats batched_writes(BenchmarkContext& ctx, const BatchedWritePlan& plan)
{
    const bool preserve = plan.mode == WriteMode::Preserve;
    if (!preserve && plan.fixed_batch == 0 && plan.sync.every_bytes == 0)
        return streamed_writes(ctx, plan);
    const unsigned workers = std::max(1U, plan.workers);
    const std::size_t in_flight = std::size_t { plan.queue_depth } * workers;
    // Requests of sync.every_bytes, rounded up to a whole request.
    const std::size_t sync_batch = plan.sync.every_bytes
        ? static_cast<std::size_t>((plan.sync.every_bytes + plan.block - 1) / plan.block)
        : 0;
    std::size_t largest_batch
        = std::max<std::size_t>(in_flight, static_cast<std::size_t>(max_preserved_batch_bytes / plan.block));
    if (sync_batch)
        largest_batch = std::min(largest_batch, sync_batch);
    // Below a full queue only when the syncs ask for it.
    const std::size_t smallest_batch = std::min(in_flight, largest_batch);
    // A run bounded by time starts with one request per slot in flight: on
    // a slow device (a USB stick's ten random writes a second) a first
    // batch of four times that could take the whole time and more.
    // Destroy mode's sync_every batches are that size from the start.
    std::size_t batch_size = plan.fixed_batch ? plan.fixed_batch
        : !preserve                           ? sync_batch
        : plan.time_limit_ns != 0             ? smallest_batch
                                              : std::min<std::size_t>(largest_batch, 4 * in_flight);

    IoRunSpec spec = plan_spec(ctx, plan);

    BatchedWriteStats stats;
    // Every byte the device is told to write must be ours: the run's watch
    // (run_benchmark() makes one for every device write).
    storage::BlockWriteWatch* const watch = ctx.write_watch;
    std::vector<IoRequest> requests;
    // A batch's requests (or its reads), one list per worker.
    std::vector<std::vector<IoRequest>> dealt(workers);
    for (std::uint64_t batch = 0; !ctx.cancel.cancelled(); ++batch) {
        if (plan.time_limit_ns != 0) {
            if (stats.measured_ns >= plan.time_limit_ns)
                break;
            // Do not plan much beyond what the time left allows.
            if (stats.measured_ns > 0) {
                const double left_s = static_cast<double>(plan.time_limit_ns - stats.measured_ns) / 1e9;
                const auto affordable = static_cast<std::size_t>(stats.iops() * left_s) + in_flight;
                batch_size = std::min(batch_size, affordable);
            }
        }
        requests.clear();
        plan.next_batch(requests, batch_size);
        if (requests.empty())
            break;

        // Declared first, so it is given back after the copies are freed.
        ResourceBudget::Reservation preserved_memory;
        std::unique_ptr<PreservedData> preserved;
        if (preserve) {
            // Preserve mode, as GNOME Disks does it: read the batch's ranges
            // (not timed), then write those same bytes back. Only the writes
            // and the fdatasync after them are timed; the reads would
            // otherwise halve the figure and measure reading. Should the run
            // stop between the two, nothing was written; should it stop
            // during the writes, every byte written is one that was there.
            // The copies (up to 64 MiB a batch) count against the owner's
            // budget beside the runner's own buffers.
            preserved_memory = ctx.io.reserve(0, std::uint64_t { plan.block } * requests.size());
            preserved = std::make_unique<PreservedData>(requests, plan.block, ctx.target.memory_alignment);
            spec.direction = IoDirection::Read;
            spec.buffers = preserved.get();
            deal_out(preserved->reads(), dealt);
            spec.make_source = [&](unsigned worker) { return std::make_unique<ListSource>(dealt[worker]); };
            spec.observer = nullptr;
            spec.time_limit_ns = 0; // every copy read whole before its write
            spec.measured = false;  // not timed, see above
            if (ctx.io.run(ctx.target, spec).cancelled)
                break;
            // Written to while we read (or since the last batch): the copy
            // may be older than the device, so it is not written back.
            if (const std::uint64_t foreign = watch ? watch->foreign_since_last(0) : 0)
                stop_at_foreign_write(ctx.target, foreign, 0);
        }

        spec.direction = IoDirection::Write;
        spec.measured = plan.measured;
        spec.phase = plan.phase;
        spec.buffers = preserved.get(); // null in destroy mode: the runner's seeded data
        spec.data_seed = plan.data_seed ^ batch;
        deal_out(requests, dealt);
        spec.make_source = [&](unsigned worker) { return std::make_unique<ListSource>(dealt[worker]); };
        // The writes stop at the time limit too; a request never sent keeps
        // its bytes as they are (its read copy is simply dropped).
        spec.time_limit_ns = plan.time_limit_ns != 0 ? plan.time_limit_ns - stats.measured_ns : 0;
        const IoRunStats written = ctx.io.run(ctx.target, spec);
        // The sync belongs to the measurement: a write is only done when it
        // is on the medium, not in the device's cache.
        sync_data(ctx.target);
        ++stats.syncs;
        const std::uint64_t measured = monotonic_ns() - written.started_ns;
        // Destroy mode counts its writes too, so the next preserve batch of
        // the run (none today) would not take them for another program's.
        if (const std::uint64_t foreign = watch ? watch->foreign_since_last(written.bytes) : 0; foreign && preserve)
            stop_at_foreign_write(ctx.target, foreign, std::min(foreign, written.bytes));

        stats.operations += written.operations;
        stats.bytes += written.bytes;
        stats.measured_ns += measured;
        stats.latency.merge(written.latency);
        if (plan.batch_done)
            plan.batch_done(written.bytes, measured);
        if (written.cancelled)
            break;

        if (measured == 0 || written.operations == 0 || plan.fixed_batch || !preserve)
            continue;
        // Aim the next batch at about batch_target_s of writes.
        const double per_second = static_cast<double>(written.operations) / (static_cast<double>(measured) / 1e9);
        const auto wanted = static_cast<std::size_t>(per_second * batch_target_s);
        batch_size = std::clamp<std::size_t>(wanted, smallest_batch, largest_batch);
    }
    stats.cancelled = ctx.cancel.cancelled();
    return stats;
}

} // namespace diskbench::engine::benchmarks
