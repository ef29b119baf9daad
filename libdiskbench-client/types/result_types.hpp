// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The result-file types of the contract library under the client's names:
// the app keeps every job as a SavedResult.
#include "contract/result_file.hpp"
#include "contract/series.hpp"

namespace diskbench::client {

using contract::IndexedSample;
using contract::LoadError;
using contract::result_from_json;
using contract::result_schema_version;
using contract::result_to_json;
using contract::SavedResult;
using contract::SavedSeries;
using contract::SavedValue;
using contract::SavedValueMap;
using contract::SeriesDeclaration;
using contract::SeriesPoint;

} // namespace diskbench::client
