// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview_samples.hpp"

namespace diskbench::engine::benchmarks {

std::vector<std::uint64_t> sample_offsets(std::uint64_t span, std::uint64_t sample, std::uint64_t count,
                                          std::uint32_t align)
{
    std::vector<std::uint64_t> offsets;
    if (sample == 0 || sample > span || count == 0 || align == 0)
        return offsets;
    const std::uint64_t last = (span - sample) / align * align;
    if (count == 1) {
        offsets.push_back(0);
        return offsets;
    }
    offsets.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        // i * last / (count - 1), exactly and without overflow for any
        // span: the remainder's product is below count squared.
        const std::uint64_t steps = count - 1;
        const std::uint64_t at = last / steps * i + last % steps * i / steps;
        const std::uint64_t aligned = at / align * align;
        if (offsets.empty() || aligned > offsets.back())
            offsets.push_back(aligned);
    }
    return offsets;
}

} // namespace diskbench::engine::benchmarks
