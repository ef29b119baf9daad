// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace diskbench::engine {

// A parameter or summary value. The alternatives are the D-Bus basic types
// the daemon maps them to (b, x, t, d, s), so nothing is lost on the bus.
using Value = std::variant<bool, std::int64_t, std::uint64_t, double, std::string>;

using ValueMap = std::map<std::string, Value, std::less<>>;

// The value under `key`, made when new, for a key the contract names as a
// std::string_view (a summary key of contract/kinds/): the map's
// operator[] takes only a std::string.
inline Value& value_at(ValueMap& map, std::string_view key)
{
    return map[std::string(key)];
}

} // namespace diskbench::engine
