// SPDX-License-Identifier: GPL-3.0-or-later
#include "variant_conversion.hpp"

#include "../engine/base/errors.hpp"

namespace diskbench::service {

namespace {

// Tries each integer type D-Bus has; busctl and GDBus users send what is
// natural to them (busctl "u 100", GLib "<100>" is i, Python int is x or i).
bool integer_from_variant(const sdbus::Variant& variant, engine::Value& out)
{
    if (variant.containsValueOfType<std::uint8_t>())
        out = std::uint64_t { variant.get<std::uint8_t>() };
    else if (variant.containsValueOfType<std::uint16_t>())
        out = std::uint64_t { variant.get<std::uint16_t>() };
    else if (variant.containsValueOfType<std::uint32_t>())
        out = std::uint64_t { variant.get<std::uint32_t>() };
    else if (variant.containsValueOfType<std::uint64_t>())
        out = variant.get<std::uint64_t>();
    else if (variant.containsValueOfType<std::int16_t>())
        out = std::int64_t { variant.get<std::int16_t>() };
    else if (variant.containsValueOfType<std::int32_t>())
        out = std::int64_t { variant.get<std::int32_t>() };
    else if (variant.containsValueOfType<std::int64_t>())
        out = variant.get<std::int64_t>();
    else
        return false;
    return true;
}

} // namespace

engine::ValueMap values_from_variants(const VariantMap& options)
{
    engine::ValueMap values;
    for (const auto& [key, variant] : options) {
        engine::Value value;
        if (variant.containsValueOfType<bool>())
            value = variant.get<bool>();
        else if (variant.containsValueOfType<double>())
            value = variant.get<double>();
        else if (variant.containsValueOfType<std::string>())
            value = variant.get<std::string>();
        else if (!integer_from_variant(variant, value))
            throw engine::ParameterError(
                key, engine::Failure { "error-unsupported-dbus-type", { { "type", variant.peekValueType() } } });
        values.emplace(key, std::move(value));
    }
    return values;
}

sdbus::Variant variant_from_value(const engine::Value& value)
{
    return std::visit([](const auto& v) { return sdbus::Variant(v); }, value);
}

VariantMap variants_from_values(const engine::ValueMap& values)
{
    VariantMap variants;
    for (const auto& [key, value] : values)
        variants.emplace(key, variant_from_value(value));
    return variants;
}

std::vector<MessageStruct> message_structs(const std::vector<contract::Message>& messages,
                                           const std::vector<std::string>& texts)
{
    std::vector<MessageStruct> structs;
    for (std::size_t i = 0; i < messages.size() && i < texts.size(); ++i) {
        VariantMap args;
        for (const contract::MessageArg& arg : messages[i].args)
            std::visit([&](const auto& value) { args[arg.name] = sdbus::Variant(value); }, arg.value);
        structs.emplace_back(messages[i].id, texts[i], std::move(args));
    }
    return structs;
}

} // namespace diskbench::service
