// SPDX-License-Identifier: GPL-3.0-or-later
// "Mixed load", after DiskThrasher (John Rennie, 2008): `threads` threads
// each fill a file of `file_size` bytes with pseudo-random data (not
// timed), then all start together and sort their file in place, a
// quicksort of 1 MiB chunks keyed by their first 8 bytes
// (chunk_quicksort.cpp). Every chunk moves in one read or write, which is
// sequential inside the chunk; the partitions visit chunks in a
// semi-random order and the threads compete for the disk: several users'
// reads and writes at once, about 1.7 chunk reads per chunk written.
//
// As in DiskThrasher each thread times only its reads and its writes (not
// the comparisons or the waiting), and the result is what all threads
// together moved per second of one thread's mean read (write) time: the
// bytes read by all over the summed read time, times the number of
// threads. The fdatasync that ends each thread counts as writing, so a
// volatile write cache below has to give back what it held (DiskThrasher
// measured write-back controller caches instead of disks). At the end the
// chunk keys are read back: the run fails unless every file is sorted.
#include "../base/clock.hpp"
#include "../base/prng.hpp"
#include "../io/io_buffers.hpp"
#include "../io/write_data.hpp"
#include "../results/latency_histogram.hpp"
#include "../sandbox/fs_scope.hpp"
#include "benchmarks.hpp"
#include "chunk_quicksort.hpp"
#include "contract/kinds/mixed_load.hpp"
#include "file_support.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace mixed_load_keys = contract::kinds::keys::mixed_load;

namespace {

// DiskThrasher's block: one ReadFile or WriteFile per chunk.
constexpr std::uint64_t chunk_size = MiB;
constexpr std::uint64_t max_threads = 64;
// The most chunk buffers a thread holds at once: the sort's three (the
// file's creation takes one, the final check less, each before or after).
constexpr std::uint64_t buffers_per_thread = 3;
constexpr auto point_interval = std::chrono::milliseconds(250);
// While the files are written nobody polls the cancel token but the
// scope's thread (the threads wait at the start line); this bounds the
// delay.
constexpr auto start_poll_interval = std::chrono::milliseconds(20);
// Writing the files is one chunk per chunk of the file; the sort about
// twenty (DiskThrasher's run: 31 per chunk over 4 threads' 256 chunks).
constexpr double creation_share = 0.05;

// One sorting thread with its file. The atomics are the live figures the
// scope's thread samples; everything else belongs to the thread until it
// is joined.
struct Worker {
    unsigned index = 0;
    ScratchFile file;
    std::uint64_t data_seed = 0;
    std::vector<std::uint64_t> sorted_keys; // what the file must hold at the end
    ChunkSortCounts planned;                // chunk_quicksort_keys() on the keys written
    ChunkSortCounts done;
    LatencyHistogram read_latency;
    LatencyHistogram write_latency; // chunk writes; the sync is in write_ns only
    std::uint64_t syncs = 0;
    std::uint64_t finished_ns = 0; // end of its fdatasync
    bool verified = false;
    std::string verify_failure;

    std::atomic<std::uint64_t> created { 0 }; // chunks written into the new file
    std::atomic<std::uint64_t> read_bytes { 0 };
    std::atomic<std::uint64_t> read_ns { 0 };
    std::atomic<std::uint64_t> written_bytes { 0 };
    std::atomic<std::uint64_t> write_ns { 0 };
    std::atomic<std::uint64_t> transfers { 0 }; // chunk reads and writes of the sort

    std::thread thread;
};

// The start line and the finish, shared by the scope's thread and the
// workers.
struct Coordination {
    std::mutex mutex;
    std::condition_variable changed;
    unsigned ready = 0;    // files written, waiting to start
    unsigned finished = 0; // returned, whatever the reason
    bool go = false;
    std::exception_ptr error; // the first worker's
    std::atomic<bool> stop { false };

    void fail(std::exception_ptr failure)
    {
        const std::lock_guard lock(mutex);
        if (!error)
            error = std::move(failure);
        stop = true;
        changed.notify_all();
    }
};

// Joins every started thread when the run ends, however it ends: an
// exception on the scope's thread stops them first.
class JoinAll {
public:
    JoinAll(std::vector<std::unique_ptr<Worker>>& workers, Coordination& coordination)
        : workers_(workers), coordination_(coordination) {}
    ~JoinAll()
    {
        {
            const std::lock_guard lock(coordination_.mutex);
            if (coordination_.finished < started())
                coordination_.stop = true;
            coordination_.changed.notify_all();
        }
        for (auto& worker : workers_)
            if (worker->thread.joinable())
                worker->thread.join();
    }
    JoinAll(const JoinAll&) = delete;
    JoinAll& operator=(const JoinAll&) = delete;

private:
    [[nodiscard]] unsigned started() const
    {
        return static_cast<unsigned>(std::count_if(workers_.begin(), workers_.end(),
                                                   [](const auto& w) { return w->thread.joinable(); }));
    }
    std::vector<std::unique_ptr<Worker>>& workers_;
    Coordination& coordination_;
};

// `id`: error-scratch-read-failed or error-scratch-write-failed.
void transfer_failed(const Target& file, const char* id, std::uint64_t offset)
{
    const int error = errno;
    throw IoError(Failure { id,
                            { { "target", file.name },
                              { "chunk", format_bytes(chunk_size) },
                              { "offset", offset },
                              { "reason", std::strerror(error) } } },
                  error);
}

void read_fully(const Target& file, std::byte* into, std::size_t length, std::uint64_t offset)
{
    for (std::size_t done = 0; done < length;) {
        const ssize_t n = ::pread(file.fd.get(), into + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO; // the file shrank under us: nothing a retry fixes
            transfer_failed(file, "error-scratch-read-failed", offset);
        }
        done += static_cast<std::size_t>(n);
    }
}

void write_fully(const Target& file, const std::byte* from, std::size_t length, std::uint64_t offset)
{
    for (std::size_t done = 0; done < length;) {
        // A short write is continued, so a failure reports its real cause
        // (ENOSPC) rather than "short write".
        const ssize_t n = ::pwrite(file.fd.get(), from + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            transfer_failed(file, "error-scratch-write-failed", offset);
        done += static_cast<std::size_t>(n);
    }
}

// The sort's view of a worker's file: times each transfer and publishes it.
class FileChunks final : public ChunkStore {
public:
    FileChunks(Worker& worker, const Coordination& coordination, const CancelToken& cancel)
        : worker_(worker), coordination_(coordination), cancel_(cancel) {}

    void read(std::uint64_t index, std::byte* into) override
    {
        const std::uint64_t start = monotonic_ns();
        read_fully(worker_.file.target, into, chunk_size, index * chunk_size);
        const std::uint64_t took = monotonic_ns() - start;
        worker_.read_latency.record(took);
        worker_.read_ns.fetch_add(took, std::memory_order_relaxed);
        worker_.read_bytes.fetch_add(chunk_size, std::memory_order_relaxed);
        worker_.transfers.fetch_add(1, std::memory_order_relaxed);
    }

    void write(std::uint64_t index, const std::byte* from) override
    {
        const std::uint64_t start = monotonic_ns();
        write_fully(worker_.file.target, from, chunk_size, index * chunk_size);
        const std::uint64_t took = monotonic_ns() - start;
        worker_.write_latency.record(took);
        worker_.write_ns.fetch_add(took, std::memory_order_relaxed);
        worker_.written_bytes.fetch_add(chunk_size, std::memory_order_relaxed);
        worker_.transfers.fetch_add(1, std::memory_order_relaxed);
    }

    bool stop_requested() override { return coordination_.stop.load() || cancel_.cancelled(); }

private:
    Worker& worker_;
    const Coordination& coordination_;
    const CancelToken& cancel_;
};

// Fills the new file chunk by chunk and learns the keys. Not timed, and
// synced (then, buffered, dropped from the page cache) so the sort starts
// against the device with nothing of the file in memory.
bool create_file(Worker& worker, std::uint64_t chunks, const Coordination& coordination, const CancelToken& cancel)
{
    const Target& file = worker.file.target;
    const IoBuffers buffer(1, chunk_size, file.memory_alignment);
    SplitMix64 chunk_seeds(worker.data_seed);
    worker.sorted_keys.reserve(chunks);
    for (std::uint64_t index = 0; index < chunks; ++index) {
        if (coordination.stop.load() || cancel.cancelled())
            return false;
        // Random bytes and nothing else: a stamp of the offset, as the
        // other write benchmarks put in each sector, would make the keys
        // the chunks' positions, already sorted.
        fill_pseudo_random(buffer.slot(0), chunk_size, chunk_seeds.next());
        worker.sorted_keys.push_back(chunk_key(buffer.slot(0)));
        write_fully(file, buffer.slot(0), chunk_size, index * chunk_size);
        worker.created.fetch_add(1, std::memory_order_relaxed);
    }
    sync_data(file);
    ::posix_fadvise(file.fd.get(), 0, 0, POSIX_FADV_DONTNEED);
    // The same quicksort on the keys alone gives the real sort's exact
    // counts (for progress). The order the file must end in comes from
    // std::sort, not from that sort, so the check at the end holds the
    // quicksort to an order it did not make itself.
    std::vector<std::uint64_t> dry_run = worker.sorted_keys;
    worker.planned = chunk_quicksort_keys(dry_run);
    std::sort(worker.sorted_keys.begin(), worker.sorted_keys.end());
    return true;
}

// Reads every chunk's key back from the file (past the page cache where
// O_DIRECT took) and compares it with the keys sorted in memory: the file
// is sorted and still holds every chunk it started with.
void verify_sorted(Worker& worker, const Coordination& coordination, const CancelToken& cancel)
{
    const Target& file = worker.file.target;
    const std::size_t length = std::max<std::size_t>(chunk_key_bytes, file.logical_block);
    const IoBuffers buffer(1, length, file.memory_alignment);
    for (std::uint64_t index = 0; index < worker.sorted_keys.size(); ++index) {
        if (coordination.stop.load() || cancel.cancelled())
            return;
        read_fully(file, buffer.slot(0), length, index * chunk_size);
        const std::uint64_t key = chunk_key(buffer.slot(0));
        if (key != worker.sorted_keys[index]) {
            worker.verify_failure = fmt::format("chunk {} has key {:016x} where {:016x} belongs", index, key,
                                                worker.sorted_keys[index]);
            return;
        }
    }
    worker.verified = true;
}

// Waits until every file is written (all threads start sorting
// together, as in DiskThrasher); false when the run was stopped instead.
bool reach_start_line(Coordination& coordination)
{
    std::unique_lock lock(coordination.mutex);
    ++coordination.ready;
    coordination.changed.notify_all();
    coordination.changed.wait(lock, [&] { return coordination.go || coordination.stop; });
    return !coordination.stop;
}

void sort_and_verify(Worker& worker, std::uint64_t chunks, const Coordination& coordination,
                     const CancelToken& cancel)
{
    FileChunks store(worker, coordination, cancel);
    worker.done = chunk_quicksort(store, chunks, chunk_size, worker.file.target.memory_alignment);
    if (!worker.done.finished)
        return;
    const std::uint64_t start = monotonic_ns();
    sync_data(worker.file.target);
    worker.finished_ns = monotonic_ns();
    worker.write_ns.fetch_add(worker.finished_ns - start, std::memory_order_relaxed);
    ++worker.syncs;
    verify_sorted(worker, coordination, cancel);
}

void work(Worker& worker, std::uint64_t chunks, Coordination& coordination, const CancelToken& cancel)
{
    try {
        if (create_file(worker, chunks, coordination, cancel) && reach_start_line(coordination))
            sort_and_verify(worker, chunks, coordination, cancel);
    } catch (...) {
        coordination.fail(std::current_exception());
    }
    const std::lock_guard lock(coordination.mutex);
    ++coordination.finished;
    coordination.changed.notify_all();
}

struct Totals {
    std::uint64_t read_bytes = 0, read_ns = 0, written_bytes = 0, write_ns = 0, transfers = 0;
};

// The live figures. Each worker's own rate in the interval is its bytes
// over its time spent reading (writing); the point is their sum, the
// running counterpart of read_mb_s and write_mb_s.
class Sampler {
public:
    Sampler(DirectoryContext& ctx, const std::vector<std::unique_ptr<Worker>>& workers, std::uint64_t start_ns)
        : ctx_(ctx), workers_(workers), start_ns_(start_ns), last_(workers.size())
    {
        for (const auto& worker : workers)
            planned_ += worker->planned.reads + worker->planned.writes;
        read_series_ = ctx.recorder.add_series({ "read", "s", "MB/s", SeriesStyle::Line });
        write_series_ = ctx.recorder.add_series({ "write", "s", "MB/s", SeriesStyle::Line });
    }

    void sample(std::uint64_t now_ns)
    {
        double read_rate = 0, write_rate = 0;
        bool any_read = false, any_write = false;
        std::uint64_t transfers = 0;
        for (std::size_t i = 0; i < workers_.size(); ++i) {
            const Worker& worker = *workers_[i];
            Totals now;
            now.read_bytes = worker.read_bytes.load(std::memory_order_relaxed);
            now.read_ns = worker.read_ns.load(std::memory_order_relaxed);
            now.written_bytes = worker.written_bytes.load(std::memory_order_relaxed);
            now.write_ns = worker.write_ns.load(std::memory_order_relaxed);
            now.transfers = worker.transfers.load(std::memory_order_relaxed);
            Totals& last = last_[i];
            if (now.read_ns > last.read_ns) {
                read_rate += mb_per_s(now.read_bytes - last.read_bytes, now.read_ns - last.read_ns);
                any_read = true;
            }
            if (now.write_ns > last.write_ns) {
                write_rate += mb_per_s(now.written_bytes - last.written_bytes, now.write_ns - last.write_ns);
                any_write = true;
            }
            transfers += now.transfers;
            last = now;
        }
        const double x = static_cast<double>(now_ns - start_ns_) / 1e9;
        if (any_read)
            ctx_.recorder.add_point(read_series_, { x, read_rate });
        if (any_write)
            ctx_.recorder.add_point(write_series_, { x, write_rate });
        if (planned_ > 0)
            ctx_.recorder.set_progress(creation_share + (1 - creation_share)
                                       * std::min(1.0, static_cast<double>(transfers) / static_cast<double>(planned_)));
    }

private:
    DirectoryContext& ctx_;
    const std::vector<std::unique_ptr<Worker>>& workers_;
    std::uint64_t start_ns_;
    std::vector<Totals> last_;
    std::uint64_t planned_ = 0;
    std::size_t read_series_ = 0, write_series_ = 0;
};

// Waits for the files, starts the sort, samples until every worker has
// returned. Returns when the sort started, 0 if it never did.
std::uint64_t supervise(DirectoryContext& ctx, const std::vector<std::unique_ptr<Worker>>& workers,
                        std::uint64_t chunks, Coordination& coordination, std::unique_ptr<Sampler>& sampler)
{
    const auto count = static_cast<unsigned>(workers.size());
    const double total_chunks = static_cast<double>(count * chunks);
    std::unique_lock lock(coordination.mutex);
    while (coordination.ready < count && !coordination.stop) {
        coordination.changed.wait_for(lock, start_poll_interval);
        if (ctx.cancel.cancelled()) {
            coordination.stop = true;
            coordination.changed.notify_all();
        }
        std::uint64_t created = 0;
        for (const auto& worker : workers)
            created += worker->created.load(std::memory_order_relaxed);
        lock.unlock(); // the sink runs outside our lock
        ctx.recorder.set_progress(creation_share * static_cast<double>(created) / total_chunks);
        lock.lock();
    }
    if (ctx.cancel.cancelled())
        coordination.stop = true; // before the start: nothing gets measured
    if (coordination.stop) {
        coordination.changed.notify_all();
        coordination.changed.wait(lock, [&] { return coordination.finished == count; });
        return 0;
    }

    lock.unlock(); // every plan is made (each before its `ready`)
    const std::uint64_t start_ns = monotonic_ns();
    sampler = std::make_unique<Sampler>(ctx, workers, start_ns);
    lock.lock();
    coordination.go = true;
    coordination.changed.notify_all();
    auto next_point = std::chrono::steady_clock::now() + point_interval;
    while (coordination.finished < count) {
        if (coordination.changed.wait_until(lock, next_point, [&] { return coordination.finished == count; }))
            break;
        lock.unlock();
        sampler->sample(monotonic_ns());
        lock.lock();
        next_point += point_interval;
    }
    return start_ns;
}

void add_summary(DirectoryContext& ctx, const std::vector<std::unique_ptr<Worker>>& workers, std::uint64_t start_ns)
{
    Totals sum;
    ChunkSortCounts counts;
    LatencyHistogram read_latency, write_latency;
    std::uint64_t syncs = 0, finished_ns = start_ns;
    for (const auto& worker : workers) {
        sum.read_bytes += worker->read_bytes.load();
        sum.read_ns += worker->read_ns.load();
        sum.written_bytes += worker->written_bytes.load();
        sum.write_ns += worker->write_ns.load();
        counts.comparisons += worker->done.comparisons;
        counts.swaps += worker->done.swaps;
        counts.reads += worker->done.reads;
        counts.writes += worker->done.writes;
        read_latency.merge(worker->read_latency);
        write_latency.merge(worker->write_latency);
        syncs += worker->syncs;
        finished_ns = std::max(finished_ns, worker->finished_ns);
    }
    const auto threads = static_cast<std::uint64_t>(workers.size());
    // DiskThrasher: "this is the average for the individual threads, so
    // the average for all four threads is four times this".
    const auto per_mean_thread = [&](std::uint64_t bytes, std::uint64_t summed_ns) {
        return summed_ns ? mb_per_s(bytes * threads, summed_ns) : 0.0;
    };
    ValueMap& summary = ctx.result.summary;
    value_at(summary, mixed_load_keys::read_mb_s) = per_mean_thread(sum.read_bytes, sum.read_ns);
    value_at(summary, mixed_load_keys::write_mb_s) = per_mean_thread(sum.written_bytes, sum.write_ns);
    value_at(summary, mixed_load_keys::bytes_read) = sum.read_bytes;
    value_at(summary, mixed_load_keys::bytes_written) = sum.written_bytes;
    value_at(summary, mixed_load_keys::read_time_s) = static_cast<double>(sum.read_ns) / 1e9;
    value_at(summary, mixed_load_keys::write_time_s) = static_cast<double>(sum.write_ns) / 1e9;
    value_at(summary, mixed_load_keys::chunk_reads) = counts.reads;
    value_at(summary, mixed_load_keys::chunk_writes) = counts.writes;
    value_at(summary, mixed_load_keys::comparisons) = counts.comparisons;
    value_at(summary, mixed_load_keys::swaps) = counts.swaps;
    value_at(summary, mixed_load_keys::syncs) = syncs;
    value_at(summary, mixed_load_keys::sort_s) = static_cast<double>(finished_ns - start_ns) / 1e9;
    add_latency_summary(summary, read_latency, std::string(mixed_load_keys::read_latency_prefix));
    add_latency_summary(summary, write_latency, std::string(mixed_load_keys::write_latency_prefix));
}

void run(DirectoryContext& ctx)
{
    const std::uint64_t threads = ctx.params.unsigned_value("threads");
    if (ctx.params.unsigned_value("file_size") % chunk_size != 0)
        throw ParameterError("file_size", Failure { "error-file-size-not-whole-chunks",
                                                    { { "size", ctx.params.unsigned_value("file_size") },
                                                      { "chunk", format_bytes(chunk_size) } } });
    const std::uint64_t room = usable_space(ctx.facts) / threads;
    if (room < chunk_size) {
        const std::vector<contract::MessageArg> why { { "free", format_bytes(ctx.facts.available_bytes) },
                                                      { "chunk", format_bytes(chunk_size) },
                                                      { "threads", threads } };
        if (ctx.params.given("threads") && usable_space(ctx.facts) >= chunk_size)
            throw ParameterError("threads", Failure { "error-no-chunk-per-thread", why });
        std::vector<contract::MessageArg> where = why;
        where.emplace_back("target", ctx.result.target_name);
        throw IoError(Failure { "error-filesystem-full-no-chunk", std::move(where) }, ENOSPC);
    }
    const std::uint64_t file_size = fitted_amount(ctx.params, ctx.recorder, "file_size", room, chunk_size,
                                                  fmt::format("each of the {} threads' files", threads),
                                                  "the free space");
    const std::uint64_t chunks = file_size / chunk_size;
    if (ctx.plan_only)
        return;
    // Its threads and their chunk buffers count against the owner's budget
    // like any I/O runner's, before any file exists: unreserved, a user
    // whose budget was all taken still ran 64 of them (issue 26).
    const ResourceBudget::Reservation reservation = ctx.io.reserve(threads, threads * buffers_per_thread * chunk_size);

    // The first file tells whether O_DIRECT works here; the others follow it.
    const bool want_direct = ctx.params.boolean("direct");
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    std::vector<std::unique_ptr<Worker>> workers;
    for (unsigned index = 0; index < threads; ++index) {
        auto worker = std::make_unique<Worker>();
        worker->index = index;
        worker->data_seed = worker_seed(seed, index);
        worker->file = open_scratch_file(ctx, index == 0 ? want_direct : workers.front()->file.direct, file_size);
        if (index > 0 && worker->file.direct != workers.front()->file.direct)
            throw Error(Failure { "error-direct-io-uneven", { { "target", ctx.result.target_name } } });
        if (chunk_size % worker->file.target.logical_block != 0)
            throw Error(Failure { "error-chunk-misaligned",
                                  { { "target", ctx.result.target_name },
                                    { "alignment", worker->file.target.logical_block },
                                    { "chunk", format_bytes(chunk_size) } } });
        workers.push_back(std::move(worker));
    }
    explain_cache_mode(ctx, want_direct, workers.front()->file.direct, BufferedUse::Sort);
    value_at(ctx.result.summary, mixed_load_keys::threads) = threads;
    value_at(ctx.result.summary, mixed_load_keys::file_size) = file_size;
    value_at(ctx.result.summary, mixed_load_keys::chunk_size) = chunk_size;

    // Started from the scope's thread, so they act with the caller's
    // filesystem credentials as it does (fs_scope.hpp).
    Coordination coordination;
    std::unique_ptr<Sampler> sampler;
    std::uint64_t start_ns = 0;
    {
        const JoinAll join(workers, coordination);
        for (auto& worker : workers)
            worker->thread = std::thread(work, std::ref(*worker), chunks, std::ref(coordination), std::cref(ctx.cancel));
        start_ns = supervise(ctx, workers, chunks, coordination, sampler);
    }
    if (coordination.error) {
        try {
            std::rethrow_exception(coordination.error);
        } catch (const IoError& error) {
            throw explained(ctx, error);
        }
    }
    if (start_ns == 0)
        return; // cancelled while the files were written: nothing was measured
    sampler->sample(monotonic_ns()); // the last, partial interval
    add_summary(ctx, workers, start_ns);
    if (ctx.cancel.cancelled())
        return; // what was measured so far; a half-sorted file proves nothing
    for (const auto& worker : workers)
        if (!worker->verified)
            throw Error(Failure { "error-not-sorted",
                                  { { "target", ctx.result.target_name },
                                    { "thread", worker->index },
                                    { "why", worker->verify_failure } } });
    value_at(ctx.result.summary, mixed_load_keys::sorted) = true;
}

} // namespace

BenchmarkInfo mixed_load()
{
    return {
        "mixed-load",
        "Mixed load",
        "DiskThrasher: `threads` threads each write a file of `file_size` bytes of random data (not timed), then "
        "all at once sort their file in place, a quicksort of 1 MiB chunks by their first 8 bytes that reads a chunk "
        "for every comparison and writes both chunks of every swap: whole-chunk transfers at semi-random places from "
        "several threads, about 1.7 reads per write. Reads and writes are timed apart, each thread's final fdatasync "
        "inside the write time; MB/s is the bytes over one thread's mean read (write) time. The series show the same "
        "over time (the threads' rates summed, every 0.25 s). O_DIRECT where the filesystem allows it; the files "
        "have no name and vanish when the run ends.",
        {
            unsigned_param("threads", "Threads, each sorting its own file at the same time (DiskThrasher: 4).", 4, 1,
                           max_threads),
            unsigned_param("file_size", "Bytes of each thread's file, a whole number of 1 MiB chunks (DiskThrasher: "
                                        "256 chunks). Scaled down to fit 90 % of the free space when not given.",
                           256 * MiB, chunk_size, 1ULL << 50),
            direct_param(),
            unsigned_param("seed", "Seed of the files' random data (xoshiro256**), a different stream per thread: "
                                   "the same seed gives the same files, so the same chunk reads and writes.",
                           default_seed, 0, UINT64_MAX),
        },
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
