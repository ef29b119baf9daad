// SPDX-License-Identifier: GPL-3.0-or-later
#include "sample_stream.hpp"

#include <algorithm>

namespace diskbench::client {

std::uint64_t SampleStream::begin_catch_up() noexcept
{
    catching_up_ = true;
    return next_;
}

SampleStream::Signal SampleStream::on_signal(std::uint64_t first_index, std::span<const IndexedSample> samples,
                                             Points& points)
{
    if (catching_up_)
        return Signal::Dropped;
    if (first_index > next_)
        return Signal::NeedCatchUp;
    append(first_index, samples, points);
    return Signal::Appended;
}

bool SampleStream::on_reply(std::uint64_t from_index, std::span<const IndexedSample> samples, Points& points)
{
    catching_up_ = false;
    if (from_index > next_)
        return false; // cannot happen for our own requests; never leave a hole
    return append(from_index, samples, points);
}

bool SampleStream::append(std::uint64_t first_index, std::span<const IndexedSample> samples, Points& points)
{
    bool added = false;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (first_index + i < next_)
            continue; // already have it
        const IndexedSample& sample = samples[i];
        if (sample.series < max_series) {
            if (points.size() <= sample.series)
                points.resize(sample.series + 1);
            points[sample.series].push_back({ sample.x, sample.y });
            added = true;
        }
        next_ = first_index + i + 1;
    }
    return added;
}

} // namespace diskbench::client
