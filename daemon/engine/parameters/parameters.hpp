// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "value.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::engine {

enum class ParamType { Boolean, Unsigned, Real, Text };

// The longest text a parameter takes, in bytes.
inline constexpr std::size_t max_text_bytes = 4096;

// One documented benchmark parameter. The daemon publishes these so a busctl
// user can see every key, its type, range and default.
struct ParamSpec {
    std::string_view key;
    ParamType type;
    std::string_view description;
    Value default_value;
    // Inclusive range for Unsigned and Real; ignored otherwise.
    double minimum = 0;
    double maximum = 0;
    // For Text: the allowed words (empty means any text).
    std::vector<std::string_view> choices = {};
    // For an Unsigned number of bytes: the sizes a user picks from (a
    // client's drop-down); any other value in range is accepted too.
    std::vector<std::uint64_t> choices_bytes = {};
};

// Validated parameters: every key of the schema is present, either as given
// by the caller or as its default.
class ParameterSet {
public:
    [[nodiscard]] bool boolean(std::string_view key) const;
    [[nodiscard]] std::uint64_t unsigned_value(std::string_view key) const;
    [[nodiscard]] double real(std::string_view key) const;
    [[nodiscard]] const std::string& text(std::string_view key) const;
    // True when the caller gave this key (so it must not be scaled down silently).
    [[nodiscard]] bool given(std::string_view key) const;

    [[nodiscard]] const ValueMap& values() const noexcept { return values_; }
    // A copy with `key` (which must be in the schema, with a valid value)
    // set to `value`, the given keys unchanged: the passes set each pass's
    // seed this way without making defaults look given.
    [[nodiscard]] ParameterSet with_value(std::string_view key, Value value) const;

    // Whether these were validated against `schema` (the same vector, not
    // an equal one): the engine refuses a kind's run with another kind's.
    [[nodiscard]] bool validated_for(std::span<const ParamSpec> schema) const noexcept
    {
        return schema_ != nullptr && schema_ == schema.data();
    }

private:
    friend ParameterSet validate_parameters(std::span<const ParamSpec>, const ValueMap&);
    [[nodiscard]] const Value& at(std::string_view key) const;
    ValueMap values_;
    std::vector<std::string> given_;
    const ParamSpec* schema_ = nullptr;
};

// Checks the caller's values against the schema, once for a whole run: the
// daemon does it when a start request arrives (read_start_request) and
// diskbench-engine when it reads its command line; both hand the result to
// check_benchmark() and run_benchmark(), which take nothing else. Throws ParameterError naming
// the key for an unknown key, a wrong type, an out-of-range number or a word
// not among the choices. Integers of either signedness are accepted for
// Unsigned and Real parameters (busctl sends what the user typed).
ParameterSet validate_parameters(std::span<const ParamSpec> schema, const ValueMap& given);

std::string_view type_name(ParamType type) noexcept;

} // namespace diskbench::engine
