// SPDX-License-Identifier: GPL-3.0-or-later
#include "small_runs.hpp"

#include <string>

namespace diskbench::testing {

using engine::ValueMap;

ValueMap small_run(std::string_view kind)
{
    const ValueMap destroy { { "mode", std::string("destroy") }, { "confirm", std::string("test file") } };
    if (kind == "overview")
        return { { "samples", std::uint64_t { 4 } }, { "sample_size", std::uint64_t { MiB } },
                 { "access_reads", std::uint64_t { 20 } } };
    if (kind == "profile")
        return { { "tests", std::string("RND4K Q4T2") }, { "duration_s", 0.05 }, { "warmup_s", 0.0 } };
    // The sweep's writes (preserve mode, opened for writing by
    // target_for): their copies and several workers are counted too; its
    // reads are timed runs as the profile's.
    if (kind == "qd-sweep")
        return { { "duration_s", 0.05 },
                 { "warmup_s", 0.0 },
                 { "writes", true },
                 { "max_threads", std::uint64_t { 2 } },
                 { "max_queue_depth", std::uint64_t { 2 } } };
    if (kind == "burst")
        return { { "duration_s", 0.05 }, { "warmup_s", 0.0 } };
    if (kind == "file-qd-sweep")
        return { { "file_size", 16 * MiB },
                 { "duration_s", 0.05 },
                 { "warmup_s", 0.0 },
                 { "max_threads", std::uint64_t { 2 } },
                 { "max_queue_depth", std::uint64_t { 2 } } };
    if (kind == "device-write" || kind == "device-write-sweep" || kind == "sustained-write"
        || kind == "verify-capacity" || kind == "burn-in") {
        ValueMap params = destroy;
        if (kind == "device-write")
            params.insert({ { "duration_s", 0.05 } });
        return params;
    }
    if (kind == "steady-state") {
        ValueMap params = destroy;
        params.insert({ { "size", 4 * MiB }, { "round_s", 0.05 }, { "max_rounds", std::uint64_t { 6 } } });
        return params;
    }
    if (kind == "file-rw")
        return { { "size", 4 * MiB }, { "block_size", std::uint64_t { MiB } } };
    if (kind == "write-sweep")
        return { { "amount_per_size", 2 * MiB },
                 { "min_block", std::uint64_t { MiB } },
                 { "max_block", std::uint64_t { 2 * MiB } },
                 { "repetitions", std::uint64_t { 9 } } };
    if (kind == "mixed-load")
        return { { "threads", std::uint64_t { 3 } }, { "file_size", 4 * MiB } };
    if (kind == "structure" || kind == "small-files")
        return { { "directories", std::uint64_t { 20 } }, { "files", std::uint64_t { 20 } } };
    if (kind == "file-profile")
        return { { "file_size", 16 * MiB },
                 { "tests", std::string("SEQ1M Q1T1") },
                 { "mix", std::string("") },
                 { "duration_s", 0.05 },
                 { "warmup_s", 0.0 },
                 { "interval_s", 0.0 } };
    return {};
}

} // namespace diskbench::testing
