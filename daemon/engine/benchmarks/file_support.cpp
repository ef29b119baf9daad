// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_support.hpp"

#include "../io/request_sources.hpp"
#include "../sandbox/fs_scope.hpp"
#include "contract/kinds/common_keys.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;

ParamSpec direct_param()
{
    return bool_param("direct", "Bypass the page cache with O_DIRECT where the filesystem allows it; otherwise (or "
                                "when false) writes are synced inside the timing and the file's cached pages dropped "
                                "before reading, with a warning.",
                      true);
}

ParamSpec data_seed_param()
{
    return unsigned_param("seed", "Seed of the written data (xoshiro256**): incompressible bytes, each 512-byte "
                                  "sector stamped with its offset.",
                          default_seed, 0, UINT64_MAX);
}

ScratchFile open_scratch_file(DirectoryContext& ctx, bool want_direct, std::uint64_t size)
{
    UniqueFd fd = ctx.scope->create_scratch_file();
    bool direct = false;
    if (want_direct) {
        const int flags = ::fcntl(fd.get(), F_GETFL);
        direct = flags >= 0 && ::fcntl(fd.get(), F_SETFL, flags | O_DIRECT) == 0;
        if (!direct && errno != EINVAL)
            throw IoError(Failure { "error-scratch-file-not-direct",
                                    { { "target", ctx.scope->name() }, { "reason", std::strerror(errno) } } },
                          errno);
    }
    return { target_for_scratch_file(std::move(fd), ctx.scope->name(), size), direct };
}

void explain_cache_mode(DirectoryContext& ctx, bool wanted_direct, bool got_direct, BufferedUse use)
{
    value_at(ctx.result.summary, common_keys::direct_io) = got_direct;
    value_at(ctx.result.summary, common_keys::scratch_file)
        = std::string(ctx.scope->uses_tmpfile() ? "O_TMPFILE" : "unlinked file");
    if (got_direct)
        return;
    const std::string why = wanted_direct ? "no-direct-io-" : "direct-io-off-";
    const char* what = use == BufferedUse::Profile ? "profile" : use == BufferedUse::Sort ? "sort" : "file";
    ctx.recorder.warn({ why + what, {} });
}

void sync_data(const Target& file)
{
    int rc;
    do
        rc = ::fdatasync(file.fd.get());
    while (rc != 0 && errno == EINTR);
    if (rc != 0)
        throw IoError(Failure { "error-fdatasync", { { "target", file.name }, { "reason", std::strerror(errno) } } },
                      errno);
}

IoError explained(const DirectoryContext& ctx, const IoError& error)
{
    const std::string& where = ctx.result.target_name;
    // The failure explained is the text's {detail}: a client translates it too.
    const auto explaining = [&](const char* id) {
        return IoError(Failure { id, { { "target", where }, failure_argument("detail", error) } },
                       error.error_number());
    };
    switch (error.error_number()) {
    case ENOSPC:
        return explaining("error-filesystem-full");
    case EDQUOT:
        return explaining("error-quota-used-up");
    case EIO:
        return explaining("error-device-io-error");
    default:
        return error;
    }
}

PassResult sequential_pass(DirectoryContext& ctx, const Target& file, const PassSpec& pass)
{
    try {
        return sequential_pass(PassEnvironment { ctx.recorder, ctx.cancel, ctx.io }, file, pass);
    } catch (const IoError& error) {
        throw explained(ctx, error);
    }
}

PassResult sequential_pass(const PassEnvironment& ctx, const Target& file, const PassSpec& pass)
{
    const bool write = pass.direction == IoDirection::Write;
    PassResult result;
    std::uint64_t done = 0;
    std::uint64_t interval_bytes = 0;
    std::uint64_t interval_start_ns = 0;
    std::uint64_t position = 0;
    bool any_point = false;
    // Queue depth 1: completions arrive in order, one at a time, on one
    // thread, so the syncs below happen between writes and are timed.
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        if (result.started_ns == 0)
            result.started_ns = interval_start_ns = c.submitted_ns;
        done += c.request.length;
        interval_bytes += c.request.length;
        const bool last = done == pass.size;
        const bool point_due = pass.point_bytes != 0 && interval_bytes >= pass.point_bytes;
        if (last || point_due) {
            std::uint64_t end_ns = c.completed_ns;
            if (write && (last || pass.sync_each_point)) {
                sync_data(file);
                end_ns = monotonic_ns();
            }
            if (pass.point_bytes != 0 && end_ns > interval_start_ns) {
                const double rate = mb_per_s(interval_bytes, end_ns - interval_start_ns);
                ctx.recorder.add_point(pass.series, { static_cast<double>(position), rate });
                result.slowest_mb_s = any_point ? std::min(result.slowest_mb_s, rate) : rate;
                result.fastest_mb_s = std::max(result.fastest_mb_s, rate);
                any_point = true;
            }
            position += interval_bytes;
            interval_bytes = 0;
            interval_start_ns = end_ns;
            result.finished_ns = end_ns;
        }
        ctx.recorder.set_progress(pass.progress_from
                                  + pass.progress_share * static_cast<double>(done) / static_cast<double>(pass.size));
    });

    IoRunSpec spec;
    spec.direction = pass.direction;
    spec.data_seed = pass.seed;
    spec.buffers = pass.buffers;
    spec.max_request_bytes = pass.block;
    spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(0, pass.size, pass.block, false); };
    spec.observer = &observer;
    spec.cancel = &ctx.cancel;
    spec.phase = pass.direction == IoDirection::Write ? "the write pass" : "the read pass";
    spec.measured = pass.measured;
    const IoRunStats stats = ctx.io.run(file, spec);
    result.bytes = stats.bytes;
    result.latency = stats.latency;
    result.cancelled = stats.cancelled || done < pass.size;
    return result;
}

} // namespace diskbench::engine::benchmarks
