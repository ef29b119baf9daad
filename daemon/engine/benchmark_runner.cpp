// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_runner.hpp"

#include "base/errors.hpp"
#include "benchmark_support.hpp"
#include "contract/kinds/common_keys.hpp"
#include "passes.hpp"
#include "sandbox/fs_scope.hpp"
#include "storage/cross_check.hpp"
#include "storage/device_holders.hpp"
#include "storage/stack.hpp"

#include <fcntl.h>

#include <fmt/format.h>

#include <chrono>
#include <thread>

namespace diskbench::engine {

namespace common_keys = contract::kinds::keys::common;

namespace {

bool on_device(TargetKind kind) noexcept
{
    return kind == TargetKind::Device || kind == TargetKind::DeviceWrite;
}

void require_target(const BenchmarkInfo& info, TargetKind kind, const ParameterSet& params)
{
    if (on_device(info.target()) != on_device(kind))
        throw Error(fmt::format("{} runs {}", info.kind,
                                info.target() == TargetKind::Directory ? "in a directory, not on a device"
                                                                       : "on a device, not in a directory"));
    // A bug of the caller's, not the user's: validate_request() for this kind.
    if (!params.validated_for(info.params))
        throw Error(fmt::format("internal: the parameters of {} were not validated for it", info.kind));
}

Result started_result(const BenchmarkInfo& info, const ParameterSet& params)
{
    Result result;
    result.kind = std::string(info.kind);
    result.parameters = params.values();
    result.started = std::chrono::system_clock::now();
    return result;
}

// `ring_features`: IoRunner::io_uring_features() of the run's runner.
void finish_result(Result& result, Recorder& recorder, const CancelToken& cancel, const std::string& ring_features)
{
    // Which ring features ran, beside the Backend ("io_uring"), which
    // clients match on and so stays as it was.
    if (!ring_features.empty())
        value_at(result.summary, common_keys::io_uring_features) = ring_features;
    result.cancelled = cancel.cancelled();
    if (!result.cancelled)
        recorder.set_progress(1.0);
    result.finished = std::chrono::system_clock::now();
}

// A raw write refuses a device that another program has open: O_EXCL and
// the BSD lock keep out only those who ask for them, and whatever the other
// program writes during a preserve-mode run could be put back to what it
// was (storage/device_holders.hpp). udevd opens a device for a moment after
// a writer's close (its probe, which our lock turns away) and blkid or a
// desktop's disk watcher may too, so the device is looked at again every
// 20 ms for up to a second before it counts as held.
void refuse_other_holders(const Target& target, const CancelToken& cancel)
{
    if (!target.is_block_device)
        return;
    constexpr int looks = 50;
    constexpr std::chrono::milliseconds between { 20 };
    std::vector<storage::DeviceHolder> holders;
    for (int look = 0; look < looks && !cancel.cancelled(); ++look) {
        holders = storage::other_holders(target.fd.get());
        if (holders.empty())
            return;
        std::this_thread::sleep_for(between);
    }
    if (cancel.cancelled())
        return;
    throw DeviceBusyError(Failure { "error-device-open-elsewhere",
                                    { { "target", target.name }, { "holders", storage::holders_text(holders) } } });
}

void warn_about_fallback(Recorder& recorder, const IoRunner& io)
{
    if (!io.fallback_reason().empty())
        recorder.warn({ "io-uring-unavailable", { { "reason", io.fallback_reason() } } });
}

} // namespace

ParameterSet validate_request(const BenchmarkInfo& info, const ValueMap& given)
{
    return validate_parameters(info.params, given);
}

void check_benchmark(const BenchmarkInfo& info, const Target& target, const ParameterSet& params)
{
    require_target(info, TargetKind::Device, params);
    Result scratch;
    Recorder recorder(scratch, nullptr);
    CancelToken cancel;
    const IoRunner io(BackendPreference::Psync); // never used: plan only
    BenchmarkContext ctx { target, params, recorder, scratch, cancel, io, true };
    info.run(ctx);
}

Result run_benchmark(const BenchmarkInfo& info, const Target& target, const ParameterSet& params, SampleSink* sink,
                     const CancelToken& cancel, ResourceBudget* budget)
{
    require_target(info, TargetKind::Device, params);
    // Decided on the validated values, as the daemon decides it.
    if (info.target_for(params.values()) == TargetKind::DeviceWrite) {
        // A read-only fd would fail at the first write, after the preserve
        // mode's first read: refuse before any I/O instead.
        const int flags = ::fcntl(target.fd.get(), F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) != O_RDWR)
            throw TargetError(Failure { "error-not-opened-for-writing",
                                        { { "target", target.name }, { "kind", std::string(info.kind) } } });
        refuse_other_holders(target, cancel);
    }
    // From here on every byte written to the device must be the run's own.
    std::optional<storage::BlockWriteWatch> write_watch;
    if (info.target_for(params.values()) == TargetKind::DeviceWrite)
        write_watch.emplace(target.fd.get());
    IoRunner io(backend_preference(params), budget);
    storage::BlockCrossCheck cross_check(storage::Sysfs(), storage::checked_devices(storage::Sysfs(), target.fd.get()));
    io.observe_phases(&cross_check);

    Result result = started_result(info, params);
    result.backend = std::string(backend_name(io.backend()));
    result.target_name = target.name;
    result.target_size = target.size;
    result.logical_block = target.logical_block;
    result.physical_block = target.physical_block;

    Recorder recorder(result, sink);
    warn_about_fallback(recorder, io);
    if (!target.is_block_device)
        recorder.warn({ "target-regular-file", {} });
    run_passes(params, recorder, result, cancel,
               [&](const ParameterSet& pass_params, Recorder& pass_recorder, Result& pass_result) {
                   BenchmarkContext ctx { target, pass_params, pass_recorder, pass_result, cancel, io, false,
                                          write_watch ? &*write_watch : nullptr };
                   info.run(ctx);
               });
    cross_check.report(result, recorder);
    storage::report_stack(storage::stack_of(storage::Sysfs(), target.fd.get()), result, recorder);
    finish_result(result, recorder, cancel, io.io_uring_features());
    return result;
}

void check_directory_benchmark(const BenchmarkInfo& info, const FilesystemFacts& facts, const ParameterSet& params)
{
    require_target(info, TargetKind::Directory, params);
    Result scratch;
    Recorder recorder(scratch, nullptr);
    CancelToken cancel;
    const IoRunner io(BackendPreference::Psync); // never used: plan only
    DirectoryContext ctx { facts, nullptr, params, recorder, scratch, cancel, io, true };
    info.run_in_directory(ctx);
}

Result run_directory_benchmark(const BenchmarkInfo& info, FilesystemScope& scope, const ParameterSet& params,
                               SampleSink* sink, const CancelToken& cancel, ResourceBudget* budget)
{
    require_target(info, TargetKind::Directory, params);
    Result result = started_result(info, params);
    result.target_name = scope.name();
    Recorder recorder(result, sink);
    std::string ring_features;
    // Found here, as the daemon: the caller may not be allowed to look at
    // a loop device's backing file, which the check follows too.
    storage::BlockCrossCheck cross_check(storage::Sysfs(),
                                         storage::checked_devices_of_filesystem(storage::Sysfs(), scope.device()));
    scope.run([&] {
        // Made on the scope's thread: whether io_uring may be used depends
        // on the thread's credentials (kernel.io_uring_disabled=1 allows
        // rings only to privileged processes and io_uring_group).
        IoRunner io(backend_preference(params), budget);
        io.observe_phases(&cross_check);
        result.backend = std::string(backend_name(io.backend()));
        warn_about_fallback(recorder, io);
        const FilesystemFacts facts = scope.facts();
        result.target_size = facts.total_bytes;
        result.logical_block = facts.block_size;
        result.physical_block = facts.block_size;
        value_at(result.summary, common_keys::filesystem) = facts.type;
        if (facts.type == "tmpfs")
            recorder.warn({ "folder-on-tmpfs", {} });
        if (scope.leftovers_removed() > 0)
            recorder.note(scope.leftovers_removed() == 1
                              ? contract::Message { "scratch-removed-one", {} }
                              : contract::Message { "scratch-removed", { { "count", scope.leftovers_removed() } } });
        run_passes(params, recorder, result, cancel,
                   [&](const ParameterSet& pass_params, Recorder& pass_recorder, Result& pass_result) {
                       DirectoryContext ctx { facts, &scope, pass_params, pass_recorder, pass_result, cancel, io, false };
                       info.run_in_directory(ctx);
                   });
        cross_check.report(result, recorder);
        ring_features = io.io_uring_features();
    });
    storage::report_stack(storage::filesystem_stack(storage::Sysfs(), scope.device()), result, recorder);
    finish_result(result, recorder, cancel, ring_features);
    return result;
}

} // namespace diskbench::engine
