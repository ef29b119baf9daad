// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which parameter a benchmark refuses before it runs: the ParameterError's
// key, or "(accepted)".

#include "benchmark.hpp"
#include "errors.hpp"

#include <string>

namespace diskbench::testing {

// For a device benchmark on `target`.
inline std::string rejected_key(const std::string& kind, const engine::Target& target, const engine::ValueMap& params)
{
    try {
        engine::check_benchmark(*engine::find_benchmark(kind), target, validate_request(*engine::find_benchmark(kind), params));
        return "(accepted)";
    } catch (const engine::ParameterError& error) {
        return error.key();
    }
}

// For a filesystem benchmark in a folder with these facts.
inline std::string rejected_key(const std::string& kind, const engine::FilesystemFacts& facts,
                                const engine::ValueMap& params)
{
    try {
        engine::check_directory_benchmark(*engine::find_benchmark(kind), facts, validate_request(*engine::find_benchmark(kind), params));
        return "(accepted)";
    } catch (const engine::ParameterError& error) {
        return error.key();
    }
}

} // namespace diskbench::testing
