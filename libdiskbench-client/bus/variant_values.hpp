// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <sdbus-c++/Types.h>

#include <map>
#include <optional>
#include <string>

namespace diskbench::client {

// D-Bus variants of the daemon's a{sv} maps as the client keeps them:
// integers of every width become int64, d double, s/o strings; other types
// (none are sent today) are left out rather than guessed.
std::optional<SavedValue> saved_value_from_variant(const sdbus::Variant& variant);
SavedValueMap saved_map_from_variants(const std::map<std::string, sdbus::Variant>& variants);

// The other way, for StartBenchmark options: integers go as t (or x when
// negative); the daemon accepts any integer type for its unsigned keys.
std::map<std::string, sdbus::Variant> variants_from_saved_map(const SavedValueMap& values);

} // namespace diskbench::client
