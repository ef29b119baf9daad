// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The replies of Manager.ListBenchmarks, ListParameterChoices and
// ListParameterRanges as sdbus-c++ types, for the daemon (the return types
// of its adaptor's methods) and the client (the arguments of its generated
// proxy's reply callbacks). The signatures themselves come from the XML:
// both sides override methods that sdbus-c++-xml2cpp generated from it, so
// a type here that drifts from the XML does not compile on either side.
//
// Spelled here rather than taken from the generated code because the
// generated adaptor declares its methods private and the proxy its reply
// callbacks protected: neither can be named from outside to derive a type.

#include <sdbus-c++/sdbus-c++.h>

#include <string>
#include <vector>

namespace diskbench::sdbus_types {

// ListBenchmarks, a(ssssa(sssv)): (kind, target, title, description,
// parameters), each parameter (key, type, description, default).
using ParameterEntry = sdbus::Struct<std::string, std::string, std::string, sdbus::Variant>;
using BenchmarkEntry = sdbus::Struct<std::string, std::string, std::string, std::string, std::vector<ParameterEntry>>;
using BenchmarkList = std::vector<BenchmarkEntry>;

// ListParameterChoices, a(sssbav): (kind, key, unit, exclusive, values).
using ChoiceEntry = sdbus::Struct<std::string, std::string, std::string, bool, std::vector<sdbus::Variant>>;
using ChoiceList = std::vector<ChoiceEntry>;

// ListParameterRanges, a(ssvv): (kind, key, minimum, maximum).
using RangeEntry = sdbus::Struct<std::string, std::string, sdbus::Variant, sdbus::Variant>;
using RangeList = std::vector<RangeEntry>;

} // namespace diskbench::sdbus_types
