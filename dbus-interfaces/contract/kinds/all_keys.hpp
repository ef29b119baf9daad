// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every kind's summary-key descriptor, and the one question a test asks of
// them: does this kind (or the code every kind shares) declare this key?

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/block.hpp"
#include "contract/kinds/burn_in.hpp"
#include "contract/kinds/burst.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/device_write.hpp"
#include "contract/kinds/device_write_sweep.hpp"
#include "contract/kinds/file_profile.hpp"
#include "contract/kinds/file_qd_sweep.hpp"
#include "contract/kinds/file_rw.hpp"
#include "contract/kinds/mixed_load.hpp"
#include "contract/kinds/overview.hpp"
#include "contract/kinds/profile.hpp"
#include "contract/kinds/qd_sweep.hpp"
#include "contract/kinds/random.hpp"
#include "contract/kinds/seek.hpp"
#include "contract/kinds/sequential.hpp"
#include "contract/kinds/small_files.hpp"
#include "contract/kinds/steady_state.hpp"
#include "contract/kinds/structure.hpp"
#include "contract/kinds/surface.hpp"
#include "contract/kinds/sustained_write.hpp"
#include "contract/kinds/verify_capacity.hpp"
#include "contract/kinds/write_sweep.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace diskbench::contract::kinds::keys {

using Declares = bool (*)(std::string_view) noexcept;

struct Descriptor {
    std::string_view kind;
    Declares declares;
};

// Every kind's descriptor: whether it declares a key itself, by name or by
// one of its patterns.
inline constexpr Descriptor descriptors[] {
    { kinds::overview, overview::declares },
    { kinds::seek, seek::declares },
    { kinds::random, random::declares },
    { kinds::sequential, sequential::declares },
    { kinds::surface, surface::declares },
    { kinds::block, block::declares },
    { kinds::profile, profile::declares },
    { kinds::qd_sweep, qd_sweep::declares },
    { kinds::burst, burst::declares },
    { kinds::device_write, device_write::declares },
    { kinds::device_write_sweep, device_write_sweep::declares },
    { kinds::sustained_write, sustained_write::declares },
    { kinds::steady_state, steady_state::declares },
    { kinds::verify_capacity, verify_capacity::declares },
    { kinds::burn_in, burn_in::declares },
    { kinds::file_rw, file_rw::declares },
    { kinds::write_sweep, write_sweep::declares },
    { kinds::structure, structure::declares },
    { kinds::small_files, small_files::declares },
    { kinds::mixed_load, mixed_load::declares },
    { kinds::file_profile, file_profile::declares },
    { kinds::file_qd_sweep, file_qd_sweep::declares },
};

// `kind`'s descriptor, nullptr for a kind without one.
constexpr Declares descriptor_of(std::string_view kind) noexcept
{
    for (const Descriptor& descriptor : descriptors)
        if (descriptor.kind == kind)
            return descriptor.declares;
    return nullptr;
}

// Compared by name only: under -fsanitize=undefined GCC does not take a
// function pointer's comparison with nullptr as a constant expression.
constexpr bool every_kind_described() noexcept
{
    return std::all_of(kinds::all.begin(), kinds::all.end(), [](std::string_view kind) {
        return std::any_of(std::begin(descriptors), std::end(descriptors),
                           [kind](const Descriptor& descriptor) { return descriptor.kind == kind; });
    });
}
static_assert(every_kind_described(), "a kind of benchmark_kinds.hpp has no contract/kinds/ descriptor");

// Whether `key` may be in a summary of `kind`: declared by the kind or by
// the shared code (common_keys.hpp), or the pass spread of such a key.
constexpr bool declares_summary_key(std::string_view kind, std::string_view key) noexcept
{
    const Declares kind_declares = descriptor_of(kind);
    const auto declared = [kind_declares](std::string_view name) {
        return common::declares(name) || (kind_declares && kind_declares(name));
    };
    if (declared(key))
        return true;
    const std::string_view figure = common::spread_figure(key);
    return !figure.empty() && declared(figure);
}

} // namespace diskbench::contract::kinds::keys
