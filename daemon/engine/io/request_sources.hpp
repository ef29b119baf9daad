// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../base/prng.hpp"
#include "io_request.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace diskbench::engine {

// Consecutive requests of `block` bytes over [begin, end). With `wrap` it
// starts again at `begin` (time-bounded runs, like fio's time_based);
// otherwise the last request is shortened to what is left, which is a
// multiple of the logical block because begin and end are. `limit` caps the
// number of requests (0: none).
class SequentialSource final : public RequestSource {
public:
    SequentialSource(std::uint64_t begin, std::uint64_t end, std::uint32_t block, bool wrap,
                     std::uint64_t limit = 0) noexcept
        : begin_(begin), end_(end), block_(block), wrap_(wrap), limit_(limit), next_(begin) {}
    bool next(IoRequest& request) override;

private:
    std::uint64_t begin_, end_;
    std::uint32_t block_;
    bool wrap_;
    std::uint64_t limit_;
    std::uint64_t next_;
    std::uint64_t issued_ = 0;
};

// The requests of a list, in order; the list is borrowed and must outlive
// the run (preserve mode's batches, the surface scan's re-reads, the
// capacity check's probes).
class ListSource final : public RequestSource {
public:
    explicit ListSource(const std::vector<IoRequest>& requests) noexcept : requests_(requests) {}
    bool next(IoRequest& request) override
    {
        if (next_ >= requests_.size())
            return false;
        request = requests_[next_++];
        return true;
    }

private:
    const std::vector<IoRequest>& requests_;
    std::size_t next_ = 0;
};

// Requests of `block` bytes at seeded random offsets in [begin, end), each a
// multiple of `alignment` from `begin`. `limit` caps the count (0: none).
// The generator is borrowed so that consecutive phases of one benchmark
// continue one reproducible stream.
class RandomSource final : public RequestSource {
public:
    RandomSource(Xoshiro256StarStar& rng, std::uint64_t begin, std::uint64_t end, std::uint32_t block,
                 std::uint32_t alignment, std::uint64_t limit = 0) noexcept;
    bool next(IoRequest& request) override;

private:
    Xoshiro256StarStar& rng_;
    std::uint64_t begin_;
    std::uint64_t slots_; // number of possible aligned start positions
    std::uint32_t block_;
    std::uint32_t alignment_;
    std::uint64_t limit_;
    std::uint64_t issued_ = 0;
};

// Another source's requests, each marked a write (IoRequest::write) with
// probability 1 - read_percent/100, drawn from its own seeded stream: a run
// of IoDirection::Mixed, like fio's rw=randrw with rwmixread.
class MixedSource final : public RequestSource {
public:
    MixedSource(std::unique_ptr<RequestSource> inner, unsigned read_percent, std::uint64_t seed) noexcept
        : inner_(std::move(inner)), read_percent_(read_percent), rng_(seed) {}
    bool next(IoRequest& request) override;

private:
    std::unique_ptr<RequestSource> inner_;
    unsigned read_percent_;
    Xoshiro256StarStar rng_;
};

} // namespace diskbench::engine
