// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Running a filesystem benchmark in a test the way the daemon does, with a
// sink whose hooks let a test act mid-run (fill the filesystem, swap a
// directory, cancel).

#include "benchmark.hpp"
#include "fs_test_support.hpp"
#include "recording_sink.hpp"
#include "sandbox/fs_scope.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace diskbench::testing {

// A RecordingSink that also calls hooks for points and progress.
class HookSink final : public engine::SampleSink {
public:
    void series_added(std::size_t index, const engine::SeriesInfo& info) override
    {
        record.series_added(index, info);
    }
    void point_added(std::size_t series, const engine::SeriesPoint& point) override
    {
        record.point_added(series, point);
        if (on_point)
            on_point(series, point);
    }
    void progress_changed(double value) override
    {
        record.progress_changed(value);
        if (on_progress)
            on_progress(value);
    }

    RecordingSink record;
    std::function<void(std::size_t, const engine::SeriesPoint&)> on_point;
    std::function<void(double)> on_progress;
};

// What the daemon does with a caller's folder fd: check against the
// filesystem's facts, make the scope (as the test caller), run.
inline engine::Result run_in(const std::filesystem::path& dir, const std::string& kind,
                             const engine::ValueMap& params, engine::SampleSink* sink,
                             const engine::CancelToken* cancel = nullptr,
                             const std::function<void(engine::FilesystemScope&)>& prepare = {})
{
    const engine::BenchmarkInfo* info = engine::find_benchmark(kind);
    REQUIRE(info != nullptr);
    engine::UniqueFd fd = open_directory(dir);
    engine::check_directory_benchmark(*info, engine::filesystem_facts(fd.get()), validate_request(*info, params));
    engine::FilesystemScope scope(std::move(fd), dir.string(), test_caller());
    if (prepare)
        prepare(scope);
    engine::CancelToken never;
    return engine::run_directory_benchmark(*info, scope, validate_request(*info, params), sink, cancel ? *cancel : never);
}

} // namespace diskbench::testing
