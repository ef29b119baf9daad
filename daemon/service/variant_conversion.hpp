// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/parameters/value.hpp"
#include "contract/messages.hpp"

#include <sdbus-c++/Types.h>

#include <map>
#include <string>
#include <vector>

namespace diskbench::service {

using VariantMap = std::map<std::string, sdbus::Variant>;

// Benchmark options from D-Bus: b -> bool, y n q i u x t -> integer, d ->
// double, s -> string. Any other type throws engine::ParameterError naming
// the key, so the caller gets InvalidArgument for it.
engine::ValueMap values_from_variants(const VariantMap& options);

sdbus::Variant variant_from_value(const engine::Value& value);
VariantMap variants_from_values(const engine::ValueMap& values);

// Job.WarningMessages / NoteMessages entries: (id, English text, arguments
// as s, x or d). `texts` are the result's English texts, one per message.
using MessageStruct = sdbus::Struct<std::string, std::string, VariantMap>;
std::vector<MessageStruct> message_structs(const std::vector<contract::Message>& messages,
                                           const std::vector<std::string>& texts);

} // namespace diskbench::service
