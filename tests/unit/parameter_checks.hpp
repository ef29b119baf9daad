// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which parameter a benchmark refuses before it runs: the ParameterError's
// key, or "(accepted)"; and the unopened device such checks are made on.

#include "base/errors.hpp"
#include "benchmark.hpp"

#include <string>

namespace diskbench::testing {

// An unopened 64 MiB device with 512-byte blocks, as the daemon checks a
// request before it opens anything (device_start.cpp's unopened_target).
inline engine::Target unopened_device()
{
    engine::Target target;
    target.name = "/dev/loop7";
    target.size = 64ULL << 20;
    target.is_block_device = true;
    return target;
}

// For a device benchmark on `target`.
inline std::string rejected_key(const std::string& kind, const engine::Target& target, const engine::ValueMap& params)
{
    try {
        const engine::BenchmarkInfo& info = *engine::find_benchmark(kind);
        engine::check_benchmark(info, target, engine::validate_request(info, params));
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
        const engine::BenchmarkInfo& info = *engine::find_benchmark(kind);
        engine::check_directory_benchmark(info, facts, engine::validate_request(info, params));
        return "(accepted)";
    } catch (const engine::ParameterError& error) {
        return error.key();
    }
}

} // namespace diskbench::testing
