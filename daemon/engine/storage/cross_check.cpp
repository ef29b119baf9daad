// SPDX-License-Identifier: GPL-3.0-or-later
#include "cross_check.hpp"

#include "../base/units.hpp"
#include "contract/kinds/common_keys.hpp"
#include "link.hpp"
#include "page_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include <fmt/format.h>

namespace diskbench::engine::storage {

namespace common_keys = contract::kinds::keys::common;

std::uint64_t PhaseFigures::foreign_tolerance() const noexcept
{
    const auto share = static_cast<std::uint64_t>(static_cast<double>(issued_read + issued_write) * foreign_share);
    return std::max(share, foreign_floor_bytes);
}

std::uint64_t PhaseFigures::foreign_read() const noexcept
{
    const std::uint64_t excess = device_read > issued_read ? device_read - issued_read : 0;
    return excess > foreign_tolerance() ? excess : 0;
}

std::uint64_t PhaseFigures::foreign_write() const noexcept
{
    const std::uint64_t excess = device_write > issued_write ? device_write - issued_write : 0;
    return excess > foreign_tolerance() ? excess : 0;
}

double PhaseFigures::mb_per_s() const noexcept
{
    return seconds > 0 ? static_cast<double>(issued_read + issued_write) / 1e6 / seconds : 0;
}

double PhaseFigures::iops() const noexcept
{
    return seconds > 0 ? static_cast<double>(operations) / seconds : 0;
}

double PhaseFigures::mean_latency_us() const noexcept
{
    return operations ? latency_sum_us / static_cast<double>(operations) : 0;
}

BlockCrossCheck::BlockCrossCheck(Sysfs sysfs, CheckedDevices devices)
    : sysfs_(std::move(sysfs)), devices_(std::move(devices))
{
    if (devices_.loop && !devices_.loop->direct_io && !devices_.loop->backing_file.empty()) {
        if (devices_.loop->backing)
            backing_file_ = open_backing_file(devices_.loop->backing_file, *devices_.loop->backing);
        backing_unidentified_ = !backing_file_.valid();
    }
}

// The loop's backing file, for mincore(). The path is only text from sysfs
// (loop_identity.hpp): a user who attached a file of their own mount
// namespace makes it name one of ours (their /etc/shadow reads as
// "/etc/shadow"), and whoever owns a directory on it can swap it for a FIFO
// (an open that never returns) or, through a symlinked directory, a device
// node (whose open as root has effects of its own). So it is opened O_PATH
// first, which reaches no driver and no FIFO, and kept only when it is the
// very file the loop driver holds (device and inode), then reopened for
// reading. Anything else is not measured: root does not report on a file
// the caller pointed it at.
UniqueFd BlockCrossCheck::open_backing_file(const std::string& path, const FileIdentity& backing)
{
    UniqueFd located(::open(path.c_str(), O_PATH | O_CLOEXEC | O_NOFOLLOW));
    if (!located.valid() || !is_file(located.get(), backing))
        return {};
    const std::string reopen = "/proc/self/fd/" + std::to_string(located.get());
    UniqueFd opened(::open(reopen.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (!opened.valid() || !is_file(opened.get(), backing))
        return {};
    return opened;
}

void BlockCrossCheck::phase_starting(const IoRunSpec& spec)
{
    if (!spec.measured)
        return;
    std::lock_guard lock(mutex_);
    device_ok_ = false;
    backing_ok_ = false;
    if (backing_file_.valid())
        if (const auto share = cached_share(backing_file_.get()))
            backing_cached_ = std::max(backing_cached_.value_or(0.0), *share);
    if (devices_.device)
        if (auto counters = sysfs_.counters(devices_.device->directory)) {
            device_before_ = *counters;
            device_ok_ = true;
        }
    if (devices_.backing)
        if (auto counters = sysfs_.counters(devices_.backing->directory)) {
            backing_before_ = *counters;
            backing_ok_ = true;
        }
}

void BlockCrossCheck::phase_finished(const IoRunSpec& spec, const IoRunStats& stats)
{
    if (!spec.measured)
        return;
    std::lock_guard lock(mutex_);
    if (!device_ok_)
        return;
    const auto device_after = sysfs_.counters(devices_.device->directory);
    if (!device_after)
        return;
    const std::string name = spec.phase.empty() ? std::string("the run") : spec.phase;
    auto phase = std::find_if(phases_.begin(), phases_.end(), [&](const PhaseFigures& p) { return p.name == name; });
    if (phase == phases_.end())
        phase = phases_.insert(phases_.end(), PhaseFigures { name });
    // Failed reads the run went on after (a surface scan of a failing
    // drive) reached the device too: ours, not foreign I/O.
    (spec.direction == IoDirection::Read ? phase->issued_read : phase->issued_write) += stats.bytes + stats.failed_bytes;
    phase->operations += stats.operations;
    phase->seconds += stats.seconds();
    phase->latency_sum_us += stats.latency.mean() / 1000.0 * static_cast<double>(stats.operations);
    phase->random = phase->random || spec.random;
    phase->in_flight = std::max(phase->in_flight, spec.workers * spec.queue_depth);
    phase->device_read += device_after->read_bytes - device_before_.read_bytes;
    phase->device_write += device_after->write_bytes - device_before_.write_bytes;
    if (backing_ok_)
        if (const auto backing_after = sysfs_.counters(devices_.backing->directory)) {
            phase->backing_read += backing_after->read_bytes - backing_before_.read_bytes;
            phase->backing_write += backing_after->write_bytes - backing_before_.write_bytes;
        }
}

std::vector<PhaseFigures> BlockCrossCheck::phases() const
{
    std::lock_guard lock(mutex_);
    return phases_;
}

void BlockCrossCheck::report(Result& result, Recorder& recorder) const
{
    CheckedDevices devices = devices_;
    {
        std::lock_guard lock(mutex_);
        if (devices.loop)
            devices.loop->cached_share = backing_cached_;
    }
    if (backing_unidentified_)
        recorder.note({ "loop-backing-not-identified", { { "device", devices.device->name } } });
    report_phases(devices, phases(), result, recorder);
}

namespace {

double percent(std::uint64_t part, std::uint64_t whole)
{
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// "in SEQ1M Q8T1", "in 2 of 4 phases (SEQ1M Q8T1, RND4K Q1T1)", at most
// three names, so a benchmark of many phases gives one short warning per kind.
std::string phase_list(const std::vector<const PhaseFigures*>& flagged, std::size_t total)
{
    if (total == 1)
        return "during " + flagged.front()->name;
    std::string names;
    for (std::size_t i = 0; i < flagged.size() && i < 3; ++i)
        names += (i ? ", " : "") + flagged[i]->name;
    if (flagged.size() > 3)
        names += fmt::format(" and {} more", flagged.size() - 3);
    return fmt::format("in {} of {} phases ({})", flagged.size(), total, names);
}

std::vector<const PhaseFigures*> select(const std::vector<PhaseFigures>& phases,
                                        const std::function<bool(const PhaseFigures&)>& flag)
{
    std::vector<const PhaseFigures*> flagged;
    for (const auto& phase : phases)
        if (flag(phase))
            flagged.push_back(&phase);
    return flagged;
}

std::uint64_t sum(const std::vector<const PhaseFigures*>& phases, std::uint64_t PhaseFigures::*field)
{
    std::uint64_t total = 0;
    for (const auto* phase : phases)
        total += phase->*field;
    return total;
}

bool served_too_little(std::uint64_t issued, std::uint64_t served)
{
    return issued > 0 && static_cast<double>(served) < served_minimum * static_cast<double>(issued);
}

contract::Message no_device_note(const std::string& reason)
{
    const auto message = [&](std::string id) {
        return contract::Message { std::move(id), { { "filesystem", reason }, { "reason", reason } } };
    };
    if (reason == "tmpfs" || reason == "ramfs")
        return message("cross-check-memory-fs");
    if (reason.starts_with("fuse"))
        return message("cross-check-fuse");
    if (reason.starts_with("nfs") || reason == "cifs" || reason == "smb3" || reason == "9p" || reason == "ceph")
        return message("cross-check-network");
    return message("cross-check-no-device");
}

void report_loop(const CheckedDevices& devices, const std::vector<PhaseFigures>& phases, Result& result,
                 Recorder& recorder)
{
    const LoopFacts& loop = *devices.loop;
    const std::string& name = devices.device->name;
    if (!loop.direct_io)
        recorder.warn({ "loop-page-cache-backed", { { "device", name }, { "backing_file", loop.backing_file } } });
    if (loop.backing_filesystem == "tmpfs" || loop.backing_filesystem == "ramfs")
        recorder.warn({ "loop-backing-in-memory",
                        { { "device", name },
                          { "backing_file", loop.backing_file },
                          { "filesystem", loop.backing_filesystem } } });
    const auto reads = select(phases, [](const PhaseFigures& p) { return served_too_little(p.issued_read, p.backing_read); });
    if (loop.cached_share) {
        value_at(result.summary, common_keys::backing_cached_percent) = *loop.cached_share * 100;
        // The disk under the backing file is shared with everyone: its
        // counters may hide a cache hit behind others' reads, the page
        // cache's own answer cannot.
        if (*loop.cached_share >= 1 - served_minimum && !phases.empty()) {
            contract::Message message { "loop-backing-cached",
                                        { { "device", name },
                                          { "percent", *loop.cached_share * 100 },
                                          { "backing_file", loop.backing_file } } };
            if (devices.backing && !reads.empty()) {
                message.id = "loop-backing-cached-served";
                message.args.emplace_back("under", devices.backing->name);
                message.args.emplace_back("served", format_bytes(sum(reads, &PhaseFigures::backing_read)));
                message.args.emplace_back("issued", format_bytes(sum(reads, &PhaseFigures::issued_read)));
            }
            recorder.warn(std::move(message));
            return;
        }
    }
    if (!devices.backing)
        return;
    const std::string& under = devices.backing->name;
    if (!reads.empty())
        recorder.warn({ "loop-backing-served-reads",
                        { { "device", name },
                          { "under", under },
                          { "served", format_bytes(sum(reads, &PhaseFigures::backing_read)) },
                          { "issued", format_bytes(sum(reads, &PhaseFigures::issued_read)) },
                          { "share", percent(sum(reads, &PhaseFigures::backing_read), sum(reads, &PhaseFigures::issued_read)) },
                          { "phases", phase_list(reads, phases.size()) } } });
    const auto writes
        = select(phases, [](const PhaseFigures& p) { return served_too_little(p.issued_write, p.backing_write); });
    if (!writes.empty())
        recorder.warn({ "loop-backing-absorbed-writes",
                        { { "device", name },
                          { "under", under },
                          { "served", format_bytes(sum(writes, &PhaseFigures::backing_write)) },
                          { "issued", format_bytes(sum(writes, &PhaseFigures::issued_write)) },
                          { "share", percent(sum(writes, &PhaseFigures::backing_write), sum(writes, &PhaseFigures::issued_write)) },
                          { "phases", phase_list(writes, phases.size()) } } });
}

void report_link(const CheckedDevices& devices, const std::vector<PhaseFigures>& phases, Result& result,
                 Recorder& recorder)
{
    const Link link = find_link(devices.device->directory);
    if (!link.text.empty())
        value_at(result.summary, common_keys::link) = link.text;
    if (link.limit_mb_s > 0)
        value_at(result.summary, common_keys::link_limit_mb_s) = link.limit_mb_s;
    if (!link.degraded.empty()) {
        value_at(result.summary, common_keys::link_degraded) = link.degraded;
        recorder.warn({ "link-degraded", { { "link", link.degraded }, { "limit", link.limit_mb_s } } });
    }
    if (link.limit_mb_s > 0) {
        const auto fast = select(phases, [&](const PhaseFigures& p) {
            return p.mb_per_s() > link.limit_mb_s * (1 + link_margin);
        });
        if (!fast.empty()) {
            const auto* fastest = *std::max_element(fast.begin(), fast.end(), [](const auto* a, const auto* b) {
                return a->mb_per_s() < b->mb_per_s();
            });
            recorder.warn({ "link-too-fast",
                            { { "link", link.text },
                              { "speed", fastest->mb_per_s() },
                              { "phase", fastest->name },
                              { "limit", link.limit_mb_s } } });
        }
    }
    if (link.kind == LinkKind::Virtual || !rotational(devices.device->directory))
        return;
    // Reads only: a rotating disk's write cache takes random writes in
    // microseconds, and a write phase's time here leaves out the sync that
    // puts them on the platter (it is the benchmark's, not the phase's).
    const auto impossible = select(phases, [](const PhaseFigures& p) {
        const bool quick = p.in_flight == 1 && p.operations > 0 && p.mean_latency_us() < rotational_min_latency_us;
        return p.random && p.issued_write == 0 && (p.iops() > rotational_max_iops || quick);
    });
    if (impossible.empty())
        return;
    const auto* first = impossible.front();
    recorder.warn({ "rotating-impossible",
                    { { "iops", first->iops() },
                      { "latency_us", first->mean_latency_us() },
                      { "phase", first->name },
                      { "max_iops", rotational_max_iops },
                      { "min_latency_ms", rotational_min_latency_us / 1000 } } });
}

} // namespace

namespace {

// queue/write_cache of block device `name` ("write back", "write
// through"), a partition's its disk's; "" when the kernel says nothing.
std::string write_cache_of(const std::string& name)
{
    const std::filesystem::path block = std::filesystem::path("/sys/class/block") / name;
    std::string cache = Sysfs::read_line(block / "queue" / "write_cache");
    if (cache.empty())
        cache = Sysfs::read_line(block / ".." / "queue" / "write_cache");
    return cache;
}

} // namespace

void report_phases(const CheckedDevices& devices, const std::vector<PhaseFigures>& phases, Result& result,
                   Recorder& recorder)
{
    if (!devices.device) {
        recorder.note(no_device_note(devices.no_device_reason));
        return;
    }
    const std::string& name = devices.device->name;
    value_at(result.summary, common_keys::checked_device) = name;
    report_link(devices, phases, result, recorder);
    if (phases.empty()) {
        // mixed-load, structure, small-files: their I/O does not go through
        // the shared runner, so there is nothing to compare (docs/checks.md).
        value_at(result.summary, common_keys::cross_check_phases) = std::uint64_t { 0 };
        if (devices.loop)
            report_loop(devices, phases, result, recorder);
        return;
    }

    std::vector<const PhaseFigures*> all;
    for (const auto& phase : phases)
        all.push_back(&phase);
    value_at(result.summary, common_keys::cross_check_phases) = std::uint64_t { phases.size() };
    value_at(result.summary, common_keys::issued_read_bytes) = sum(all, &PhaseFigures::issued_read);
    value_at(result.summary, common_keys::issued_write_bytes) = sum(all, &PhaseFigures::issued_write);
    // A run that wrote says whether the drive's volatile cache was on: its
    // writes then count as done once the cache holds them (only a flush
    // puts them on the medium), which the checks card names.
    if (sum(all, &PhaseFigures::issued_write) > 0)
        if (const std::string cache = write_cache_of(name); !cache.empty())
            value_at(result.summary, common_keys::write_cache) = cache;
    value_at(result.summary, common_keys::device_read_bytes) = sum(all, &PhaseFigures::device_read);
    value_at(result.summary, common_keys::device_write_bytes) = sum(all, &PhaseFigures::device_write);

    const auto reads = select(phases, [](const PhaseFigures& p) { return served_too_little(p.issued_read, p.device_read); });
    if (!reads.empty())
        recorder.warn({ "device-served-reads",
                        { { "device", name },
                          { "served", format_bytes(sum(reads, &PhaseFigures::device_read)) },
                          { "issued", format_bytes(sum(reads, &PhaseFigures::issued_read)) },
                          { "share", percent(sum(reads, &PhaseFigures::device_read), sum(reads, &PhaseFigures::issued_read)) },
                          { "phases", phase_list(reads, phases.size()) } } });
    const auto writes
        = select(phases, [](const PhaseFigures& p) { return served_too_little(p.issued_write, p.device_write); });
    if (!writes.empty())
        recorder.warn({ "device-absorbed-writes",
                        { { "device", name },
                          { "served", format_bytes(sum(writes, &PhaseFigures::device_write)) },
                          { "issued", format_bytes(sum(writes, &PhaseFigures::issued_write)) },
                          { "share", percent(sum(writes, &PhaseFigures::device_write), sum(writes, &PhaseFigures::issued_write)) },
                          { "phases", phase_list(writes, phases.size()) } } });

    std::uint64_t foreign_read = 0, foreign_write = 0;
    std::vector<std::string> foreign_phases;
    for (const auto& phase : phases) {
        foreign_read += phase.foreign_read();
        foreign_write += phase.foreign_write();
        if (phase.foreign_read() == 0 && phase.foreign_write() == 0)
            continue;
        std::string what;
        if (phase.foreign_read())
            what = fmt::format("{} read", format_bytes(phase.foreign_read()));
        if (phase.foreign_write())
            what += fmt::format("{}{} written", what.empty() ? "" : ", ", format_bytes(phase.foreign_write()));
        foreign_phases.push_back(fmt::format("during {}: {}", phase.name, what));
    }
    if (foreign_read)
        value_at(result.summary, common_keys::foreign_read_bytes) = foreign_read;
    if (foreign_write)
        value_at(result.summary, common_keys::foreign_write_bytes) = foreign_write;
    if (!foreign_phases.empty()) {
        std::string list;
        for (std::size_t i = 0; i < foreign_phases.size() && i < 3; ++i)
            list += (i ? "; " : "") + foreign_phases[i];
        if (foreign_phases.size() > 3)
            list += fmt::format("; and {} more phases", foreign_phases.size() - 3);
        recorder.warn({ "foreign-io", { { "device", name }, { "activity", list } } });
    }

    if (devices.backing) {
        value_at(result.summary, common_keys::backing_device) = devices.backing->name;
        value_at(result.summary, common_keys::backing_read_bytes) = sum(all, &PhaseFigures::backing_read);
        value_at(result.summary, common_keys::backing_write_bytes) = sum(all, &PhaseFigures::backing_write);
    }
    if (devices.loop)
        report_loop(devices, phases, result, recorder);
}

} // namespace diskbench::engine::storage
