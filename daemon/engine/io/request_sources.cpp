// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_sources.hpp"

#include <algorithm>

namespace diskbench::engine {

bool SequentialSource::next(IoRequest& request)
{
    if ((limit_ && issued_ >= limit_) || begin_ >= end_)
        return false;
    if (next_ >= end_ || (wrap_ && end_ - next_ < block_)) {
        if (!wrap_)
            return false;
        next_ = begin_;
    }
    request.offset = next_;
    request.length = static_cast<std::uint32_t>(std::min<std::uint64_t>(block_, end_ - next_));
    next_ += request.length;
    ++issued_;
    return true;
}

RandomSource::RandomSource(Xoshiro256StarStar& rng, std::uint64_t begin, std::uint64_t end, std::uint32_t block,
                           std::uint32_t alignment, std::uint64_t limit) noexcept
    : rng_(rng)
    , begin_(begin)
    , slots_(end - begin >= block ? (end - begin - block) / alignment + 1 : 0)
    , block_(block)
    , alignment_(alignment)
    , limit_(limit)
{
}

bool RandomSource::next(IoRequest& request)
{
    if (slots_ == 0 || (limit_ && issued_ >= limit_))
        return false;
    request.offset = begin_ + rng_.below(slots_) * alignment_;
    request.length = block_;
    ++issued_;
    return true;
}

bool MixedSource::next(IoRequest& request)
{
    if (!inner_->next(request))
        return false;
    request.write = rng_.below(100) >= read_percent_;
    return true;
}

} // namespace diskbench::engine
