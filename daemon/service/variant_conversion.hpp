// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/value.hpp"

#include <sdbus-c++/Types.h>

#include <map>
#include <string>

namespace diskbench::service {

using VariantMap = std::map<std::string, sdbus::Variant>;

// Benchmark options from D-Bus: b -> bool, y n q i u x t -> integer, d ->
// double, s -> string. Any other type throws engine::ParameterError naming
// the key, so the caller gets InvalidArgument for it.
engine::ValueMap values_from_variants(const VariantMap& options);

sdbus::Variant variant_from_value(const engine::Value& value);
VariantMap variants_from_values(const engine::ValueMap& values);

} // namespace diskbench::service
