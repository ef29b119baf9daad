// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"

#include <optional>
#include <string>
#include <vector>

namespace diskbench::cli {

using client::BenchmarkInfo;
using client::ParameterInfo;
using client::SavedValue;
using client::SavedValueMap;

// A command-line value typed as the daemon's parameter list says, so users
// write `count=1000` and the call carries t, never a{sv} by hand:
//   "unsigned" → t: a whole number, optionally with a binary suffix
//                (k/K/KiB = 1024, M/MiB, G/GiB, T/TiB): bs=4k, size=1G;
//   "number"   → d: any decimal number (2, 0.5, 1e3);
//   "boolean"  → b: true/false, yes/no, on/off, 1/0;
//   "string"   → s: as written (and one of the choices, when the daemon
//                publishes choices for it).
// On failure: nothing, and `error` says what is wrong (translated).
std::optional<SavedValue> typed_value(const ParameterInfo& parameter, const std::string& text, std::string& error);

// KEY=VALUE arguments and --passes typed for `benchmark`; every error (an
// unknown key, a bad value, a key given twice, --passes for a kind without
// a "passes" parameter) in `error`, and nothing returned.
std::optional<SavedValueMap> typed_options(const BenchmarkInfo& benchmark, const std::vector<std::string>& assignments,
                                           std::optional<std::string> passes, std::string& error);

// A default value or a summary value as text: 4096, 0.5, true, "random".
std::string value_text(const SavedValue& value);

// The choices the daemon publishes for a parameter (Manager.ListBenchmarks;
// empty when it publishes none, or before the API carried them).
std::vector<std::string> parameter_choices(const ParameterInfo& parameter);

} // namespace diskbench::cli
