// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus/variant_values.hpp"

#include <cstdint>
#include <type_traits>

namespace diskbench::client {

std::optional<SavedValue> saved_value_from_variant(const sdbus::Variant& variant)
{
    const std::string type = variant.peekValueType();
    if (type == "b")
        return variant.get<bool>();
    if (type == "y")
        return static_cast<std::int64_t>(variant.get<std::uint8_t>());
    if (type == "n")
        return static_cast<std::int64_t>(variant.get<std::int16_t>());
    if (type == "q")
        return static_cast<std::int64_t>(variant.get<std::uint16_t>());
    if (type == "i")
        return static_cast<std::int64_t>(variant.get<std::int32_t>());
    if (type == "u")
        return static_cast<std::int64_t>(variant.get<std::uint32_t>());
    if (type == "x")
        return variant.get<std::int64_t>();
    if (type == "t")
        // Values past 2^63 (only random seeds come close) wrap; result files
        // store JSON integers, which json-glib reads as int64 as well.
        return static_cast<std::int64_t>(variant.get<std::uint64_t>());
    if (type == "d")
        return variant.get<double>();
    if (type == "s")
        return variant.get<std::string>();
    if (type == "o")
        return std::string(variant.get<sdbus::ObjectPath>());
    return std::nullopt;
}

SavedValueMap saved_map_from_variants(const std::map<std::string, sdbus::Variant>& variants)
{
    SavedValueMap values;
    for (const auto& [key, variant] : variants)
        if (auto value = saved_value_from_variant(variant))
            values.emplace(key, std::move(*value));
    return values;
}

std::map<std::string, sdbus::Variant> variants_from_saved_map(const SavedValueMap& values)
{
    std::map<std::string, sdbus::Variant> variants;
    for (const auto& [key, value] : values) {
        std::visit(
            [&, &key = key](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::int64_t>) {
                    if (v >= 0)
                        variants.emplace(key, sdbus::Variant(static_cast<std::uint64_t>(v)));
                    else
                        variants.emplace(key, sdbus::Variant(v));
                } else {
                    variants.emplace(key, sdbus::Variant(v));
                }
            },
            value);
    }
    return variants;
}

} // namespace diskbench::client
