// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/benchmark.hpp"

#include <string>

namespace diskbench::service {

// How ListBenchmarks() names a parameter's type and a kind's target (see
// the interface XML).
std::string parameter_type_name(engine::ParamType type);
std::string target_name(engine::TargetKind target);

} // namespace diskbench::service
