// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace diskbench::client {

// Merges a job's samples from the two ways the daemon hands them out: the
// GetSampleRange(from, max) catch-up and the batched Samples(first_index,
// ...) signals. Every sample has an index; each is appended once, in order.
//  - While a catch-up is on its way, signals are dropped: the daemon's
//    GetSampleRange returns exactly the samples it signalled before the
//    call (up to its page size; the client asks for the next page from the
//    reply's callback, so no signal comes between), and later batches
//    follow on from its answer.
//  - A batch that starts past what we have (we missed one) asks for a
//    catch-up from our next index.
//  - Overlaps (a reply covering a batch we already took) are skipped by index.
//  - Partial points (series "NAME.partial", API 0.5) go to NAME's list, and
//    each point of NAME or NAME.partial replaces a partial point at the same
//    x at its end instead of following it: the list always holds the final
//    points plus at most one partial last point (the bucket being filled),
//    never a partial point twice. So a page that draws NAME shows the bucket
//    grow, and a result saved after the run holds final points only. The
//    NAME.partial lists themselves stay empty.
class SampleStream {
public:
    using Points = std::vector<std::vector<SeriesPoint>>;

    // The job's Series, as known before samples are handed over (the daemon
    // signals Series before the samples that use it); series only grow.
    void declare_series(std::span<const SeriesDeclaration> series);
    // Whether series `index`'s last point is partial.
    [[nodiscard]] bool partial_tail(std::size_t index) const noexcept
    {
        return index < partial_tail_.size() && partial_tail_[index];
    }

    // Once the job has ended: a partial last point (a bucket that was still
    // filling when the job was cancelled or failed) is no measurement, and
    // the daemon's result has none, so it leaves the lists; one that comes
    // later (a catch-up reply after the end) goes too. Returns whether a
    // point was removed.
    bool end(Points& points);

    // The catch-up to send: GetSampleRange(next(), ...). Marks it as on its way.
    std::uint64_t begin_catch_up() noexcept;
    void catch_up_failed() noexcept { catching_up_ = false; }

    enum class Signal { Appended, Dropped, NeedCatchUp };
    Signal on_signal(std::uint64_t first_index, std::span<const IndexedSample> samples, Points& points);
    // Returns whether anything was appended.
    bool on_reply(std::uint64_t from_index, std::span<const IndexedSample> samples, Points& points);

    [[nodiscard]] std::uint64_t next() const noexcept { return next_; }
    [[nodiscard]] bool catching_up() const noexcept { return catching_up_; }

    // A series index above this is treated as malformed (no allocation).
    static constexpr std::uint32_t max_series = 4096;

private:
    bool append(std::uint64_t first_index, std::span<const IndexedSample> samples, Points& points);
    void add(std::uint32_t series, SeriesPoint point, Points& points);

    std::uint64_t next_ = 0;
    // By series index: the series a point goes to (NAME's for NAME.partial)
    // and whether the series is partial.
    std::vector<std::uint32_t> target_;
    std::vector<bool> partial_series_;
    // By series index: whether points[index].back() is a partial point.
    std::vector<bool> partial_tail_;
    bool catching_up_ = false;
    bool ended_ = false;
};

} // namespace diskbench::client
