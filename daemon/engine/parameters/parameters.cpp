// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameters.hpp"

#include "../base/errors.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

const ParamSpec* find_spec(std::span<const ParamSpec> schema, std::string_view key)
{
    for (const auto& spec : schema)
        if (spec.key == key)
            return &spec;
    return nullptr;
}

std::string known_keys(std::span<const ParamSpec> schema)
{
    std::string keys;
    for (const auto& spec : schema) {
        if (!keys.empty())
            keys += ", ";
        keys += spec.key;
    }
    return keys;
}

// The failure catalogue's names of a value's and a parameter's types:
// nested failures, which a client translates too.
Failure value_type_name(const Value& value)
{
    static constexpr const char* ids[] = { "error-type-boolean", "error-type-signed", "error-type-unsigned",
                                           "error-type-real", "error-type-text" };
    return Failure { ids[value.index()] };
}

Failure param_type_name(ParamType type)
{
    switch (type) {
    case ParamType::Boolean:
        return Failure { "error-type-boolean" };
    case ParamType::Unsigned:
        return Failure { "error-type-unsigned" };
    case ParamType::Real:
        return Failure { "error-type-number" };
    case ParamType::Text:
        break;
    }
    return Failure { "error-type-text" };
}

ParameterError wrong_type(const ParamSpec& spec, const Value& value)
{
    return ParameterError(std::string(spec.key), Failure { "error-wrong-type",
                                                           { { "expected", param_type_name(spec.type) },
                                                             { "got", value_type_name(value) } } });
}

void check_range(const ParamSpec& spec, double number)
{
    if (!std::isfinite(number) || number < spec.minimum || number > spec.maximum)
        throw ParameterError(std::string(spec.key), Failure { "error-out-of-range",
                                                              { { "value", fmt::format("{}", number) },
                                                                { "minimum", fmt::format("{}", spec.minimum) },
                                                                { "maximum", fmt::format("{}", spec.maximum) } } });
}

Value normalise(const ParamSpec& spec, const Value& value)
{
    switch (spec.type) {
    case ParamType::Boolean:
        if (!std::holds_alternative<bool>(value))
            throw wrong_type(spec, value);
        return value;
    case ParamType::Unsigned: {
        std::uint64_t number = 0;
        if (const auto* u = std::get_if<std::uint64_t>(&value)) {
            number = *u;
        } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
            if (*i < 0)
                throw ParameterError(std::string(spec.key), Failure { "error-negative", { { "value", *i } } });
            number = static_cast<std::uint64_t>(*i);
        } else {
            throw wrong_type(spec, value);
        }
        if (static_cast<double>(number) < spec.minimum || static_cast<double>(number) > spec.maximum)
            throw ParameterError(std::string(spec.key),
                                 Failure { "error-out-of-range",
                                           { { "value", number },
                                             { "minimum", static_cast<std::uint64_t>(spec.minimum) },
                                             { "maximum", static_cast<std::uint64_t>(spec.maximum) } } });
        return number;
    }
    case ParamType::Real: {
        double number = 0;
        if (const auto* d = std::get_if<double>(&value))
            number = *d;
        else if (const auto* u = std::get_if<std::uint64_t>(&value))
            number = static_cast<double>(*u);
        else if (const auto* i = std::get_if<std::int64_t>(&value))
            number = static_cast<double>(*i);
        else
            throw wrong_type(spec, value);
        check_range(spec, number);
        return number;
    }
    case ParamType::Text: {
        const auto* text = std::get_if<std::string>(&value);
        if (!text)
            throw wrong_type(spec, value);
        // Texts end up in properties, summaries and logs: keep them small.
        if (text->size() > max_text_bytes)
            throw ParameterError(std::string(spec.key), Failure { "error-text-too-long",
                                                                  { { "size", text->size() },
                                                                    { "limit", max_text_bytes } } });
        if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), *text) == spec.choices.end()) {
            std::string allowed;
            for (auto choice : spec.choices)
                allowed += (allowed.empty() ? "" : ", ") + std::string(choice);
            throw ParameterError(std::string(spec.key),
                                 Failure { "error-not-a-choice", { { "value", *text }, { "choices", allowed } } });
        }
        return value;
    }
    }
    throw wrong_type(spec, value);
}

} // namespace

std::string_view type_name(ParamType type) noexcept
{
    switch (type) {
    case ParamType::Boolean:
        return "a boolean";
    case ParamType::Unsigned:
        return "an unsigned integer";
    case ParamType::Real:
        return "a number";
    case ParamType::Text:
        return "a string";
    }
    return "?";
}

ParameterSet validate_parameters(std::span<const ParamSpec> schema, const ValueMap& given)
{
    ParameterSet set;
    set.schema_ = schema.data();
    for (const auto& [key, value] : given) {
        const ParamSpec* spec = find_spec(schema, key);
        if (!spec)
            throw ParameterError(key, Failure { "error-unknown-parameter", { { "known", known_keys(schema) } } });
        set.values_.insert_or_assign(key, normalise(*spec, value));
        set.given_.push_back(key);
    }
    for (const auto& spec : schema)
        if (set.values_.find(spec.key) == set.values_.end())
            set.values_.emplace(std::string(spec.key), spec.default_value);
    return set;
}

const Value& ParameterSet::at(std::string_view key) const
{
    auto it = values_.find(key);
    if (it == values_.end())
        throw Error(fmt::format("internal: parameter {} is not in the schema", key));
    return it->second;
}

bool ParameterSet::boolean(std::string_view key) const
{
    return std::get<bool>(at(key));
}

std::uint64_t ParameterSet::unsigned_value(std::string_view key) const
{
    return std::get<std::uint64_t>(at(key));
}

double ParameterSet::real(std::string_view key) const
{
    return std::get<double>(at(key));
}

const std::string& ParameterSet::text(std::string_view key) const
{
    return std::get<std::string>(at(key));
}

bool ParameterSet::given(std::string_view key) const
{
    return std::find(given_.begin(), given_.end(), key) != given_.end();
}

ParameterSet ParameterSet::with_value(std::string_view key, Value value) const
{
    ParameterSet copy = *this;
    copy.values_.at(std::string(key)) = std::move(value);
    return copy;
}

} // namespace diskbench::engine
