// SPDX-License-Identifier: GPL-3.0-or-later
#include "messages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

// Marks a catalogue format for xgettext (po/meson.build's glib preset knows
// N_) without linking gettext: the daemon sends the English text.
#define N_(text) text

namespace diskbench::contract {

namespace {

// Ids are stable API (clients look them up): add new ones, never rename.
// Arguments in braces: see messages.hpp. Sizes ("4 KiB") and the daemon's
// names of phases, devices, files and parameters arrive as text.
// Formats with a literal % say so to xgettext (no-c-format), so msgfmt -c does not take "% b" for a directive.
constexpr std::array catalogue {
    // TRANSLATORS: {key} is a summary key such as seq_read_throughput_mb_s; {min} and {max} are its figures.
    // xgettext:no-c-format
    MessageFormat { "passes-varied", N_("{key}: results varied {percent:.0f} % between passes ({min} to {max} over {passes} passes)") },
    MessageFormat { "cancelled-in-warmup-pass", N_("cancelled in the warm-up pass, before any scored pass: the figures are those of the warm-up so far") },
    // TRANSLATORS: {passes} is how many passes were asked for.
    MessageFormat { "cancelled-in-first-pass", N_("cancelled in pass 1 of {passes}: the figures are those of that pass so far") },
    MessageFormat { "cancelled-in-pass", N_("cancelled in pass {pass} of {passes}: the figures are those of the {complete} complete passes") },
    // TRANSLATORS: the speed fell by {percent} % while the drive was at {celsius} degrees Celsius.
    // xgettext:no-c-format
    MessageFormat { "speed-drop-throttling", N_("speed fell {percent:.0f} % at {celsius:.0f} °C (warning threshold {threshold:.0f} °C): thermal throttling") },
    // xgettext:no-c-format
    MessageFormat { "speed-drop-throttling-assumed", N_("speed fell {percent:.0f} % at {celsius:.0f} °C (the drive gives no warning threshold; taken as {threshold:.0f} °C): thermal throttling") },
    // xgettext:no-c-format
    MessageFormat { "speed-drop-cache", N_("speed fell {percent:.0f} % at {celsius:.0f} °C (warning threshold {threshold:.0f} °C): the drive stayed cool, so a write cache filled up (SLC cache cliff), not thermal throttling") },
    // xgettext:no-c-format
    MessageFormat { "speed-drop-cache-assumed", N_("speed fell {percent:.0f} % at {celsius:.0f} °C (the drive gives no warning threshold; taken as {threshold:.0f} °C): the drive stayed cool, so a write cache filled up (SLC cache cliff), not thermal throttling") },
    // xgettext:no-c-format
    MessageFormat { "speed-drop-not-heat", N_("speed fell {percent:.0f} % at {celsius:.0f} °C (warning threshold {threshold:.0f} °C): the drive stayed cool, so not thermal throttling") },
    // xgettext:no-c-format
    MessageFormat { "speed-drop-not-heat-assumed", N_("speed fell {percent:.0f} % at {celsius:.0f} °C (the drive gives no warning threshold; taken as {threshold:.0f} °C): the drive stayed cool, so not thermal throttling") },
    MessageFormat { "no-temperature", N_("this device reports no temperature") },
    // TRANSLATORS: {seconds} is a time in seconds, such as 0.25.
    MessageFormat { "cancel-unanswered-folder", N_("the device did not answer within {seconds:.2f} s of the cancel: requests were still at the device, so the job ended without them; the benchmark's scratch files in the folder are removed when they come back") },
    MessageFormat { "cancel-unanswered-device", N_("the device did not answer within {seconds:.2f} s of the cancel: requests were still at the device, so the job ended without them; the device stays in use (Device.Job) until they come back") },
    MessageFormat { "samples-dropped", N_("the run made {dropped} more points than the {kept} a job keeps; they are not in the samples") },
    MessageFormat { "series-dropped", N_("the run made {dropped} more series than the {kept} a job keeps") },
    // TRANSLATORS: {filesystem} is tmpfs or ramfs.
    MessageFormat { "cross-check-memory-fs", N_("the block-layer cross-check cannot run: the files are on {filesystem}, which keeps them in memory with no block device under it") },
    MessageFormat { "cross-check-fuse", N_("the block-layer cross-check cannot run: the files are on a FUSE filesystem ({filesystem}), whose storage the kernel's block layer does not see") },
    MessageFormat { "cross-check-network", N_("the block-layer cross-check cannot run: the files are on a network filesystem ({filesystem}), with no local block device under it") },
    MessageFormat { "cross-check-no-device", N_("the block-layer cross-check cannot run: no block device found under the target ({reason})") },
    // TRANSLATORS: {device} is a loop device such as loop3, {backing_file} a path; keep the losetup command as it is.
    MessageFormat { "loop-page-cache-backed", N_("{device} is page-cache-backed: it reads and writes its backing file {backing_file} through the page cache (no direct I/O), so the figures are partly the memory's; attach it with losetup --direct-io=on") },
    MessageFormat { "loop-backing-in-memory", N_("{device}'s backing file {backing_file} is on {filesystem}: the figures are the memory's, not a disk's") },
    // xgettext:no-c-format
    MessageFormat { "loop-backing-cached", N_("a cache answered reads under {device}: the page cache held {percent:.0f} % of its backing file {backing_file} during the test") },
    // TRANSLATORS: {device} is a loop device such as loop3.
    MessageFormat { "loop-backing-not-identified", N_("how much of {device}'s backing file the page cache held was not measured: the file its path names is not the one the loop device reads") },
    // TRANSLATORS: {under} is the disk under the backing file; {served} and {issued} are sizes such as "12 MiB".
    // xgettext:no-c-format
    MessageFormat { "loop-backing-cached-served", N_("a cache answered reads under {device}: the page cache held {percent:.0f} % of its backing file {backing_file} during the test, and {under} served {served} of {issued} read") },
    // TRANSLATORS: {phases} names the test phases, e.g. "during SEQ1M Q8T1" or "in 2 of 4 phases (SEQ1M Q8T1, RND4K Q1T1)".
    // xgettext:no-c-format
    MessageFormat { "loop-backing-served-reads", N_("a cache answered reads under {device}: {under} (under its backing file) served {served} of {issued} read ({share:.1f} %) {phases}") },
    // xgettext:no-c-format
    MessageFormat { "loop-backing-absorbed-writes", N_("writes absorbed by the page cache under {device}: {under} (under its backing file) received {served} of {issued} written ({share:.1f} %) {phases}") },
    // TRANSLATORS: {link} describes a link such as "PCIe 3.0 x1 (the device supports x4)".
    MessageFormat { "link-degraded", N_("the link runs below what both its ends support: {link}, which carries at most {limit:.0f} MB/s") },
    MessageFormat { "link-too-fast", N_("faster than a {link} link allows: {speed:.0f} MB/s during {phase}, where the link carries at most {limit:.0f} MB/s: a cache answered") },
    MessageFormat { "rotating-impossible", N_("impossible for a rotating disk: {iops:.0f} random I/Os a second, {latency_us:.0f} us mean latency during {phase} (a spinning disk manages at most about {max_iops:.0f} a second and needs more than {min_latency_ms:.0f} ms a read at queue depth 1): a cache answered, or the disk does not rotate") },
    // xgettext:no-c-format
    MessageFormat { "device-served-reads", N_("a cache answered reads: {device} served {served} of {issued} read ({share:.1f} %) {phases}") },
    // xgettext:no-c-format
    MessageFormat { "device-absorbed-writes", N_("writes absorbed by the page cache inside the timing: {device} received {served} of {issued} written ({share:.1f} %) {phases}") },
    // TRANSLATORS: {activity} lists the other I/O, e.g. "during SEQ1M Q8T1: 4 MiB read".
    // xgettext:no-c-format
    MessageFormat { "foreign-io", N_("other I/O on {device} during the test (more than 1 % beyond the benchmark's own): {activity}") },
    // TRANSLATORS: {reason} is the system's error text.
    MessageFormat { "io-uring-unavailable", N_("io_uring is not available ({reason}); used the psync thread pool, which costs more CPU per I/O") },
    MessageFormat { "target-regular-file", N_("the target is a regular file: the figures include its filesystem and the device under it") },
    MessageFormat { "folder-on-tmpfs", N_("the folder is on tmpfs: its files live in memory, so the figures are the memory's, not a disk's") },
    MessageFormat { "scratch-removed-one", N_("removed 1 scratch directory left behind by an earlier run that did not end") },
    // TRANSLATORS: {count} is 2 or more.
    MessageFormat { "scratch-removed", N_("removed {count} scratch directories left behind by an earlier run that did not end") },
    MessageFormat { "tree-scaled-to-space", N_("directories and files scaled down from {directories} and {files} to {fitted_directories} and {fitted_files} to fit the free space") },
    MessageFormat { "tree-scaled-to-inodes", N_("directories and files scaled down from {directories} and {files} to {fitted_directories} and {fitted_files} to fit the free inodes") },
    MessageFormat { "no-direct-io-file", N_("this filesystem does not allow direct I/O (O_DIRECT): writes went through the page cache, with fdatasync inside the timing, and the file's cached pages were dropped before reading it back; caches below the filesystem may still have served some reads") },
    MessageFormat { "direct-io-off-file", N_("direct I/O was turned off: writes went through the page cache, with fdatasync inside the timing, and the file's cached pages were dropped before reading it back; caches below the filesystem may still have served some reads") },
    MessageFormat { "no-direct-io-profile", N_("this filesystem does not allow direct I/O (O_DIRECT): writes went through the page cache, with fdatasync inside each write test's time, and the file's cached pages were dropped before each read test where the filesystem allows it; reads may still have come from memory") },
    MessageFormat { "direct-io-off-profile", N_("direct I/O was turned off: writes went through the page cache, with fdatasync inside each write test's time, and the file's cached pages were dropped before each read test where the filesystem allows it; reads may still have come from memory") },
    MessageFormat { "no-direct-io-sort", N_("this filesystem does not allow direct I/O (O_DIRECT): the sort's reads and writes went through the page cache, so a chunk read again after it was written came from memory, and writes were timed into the cache, only the fdatasync at the end of each thread (inside the write timing) reaching the device; the files were synced and dropped from the cache before the sort started") },
    MessageFormat { "direct-io-off-sort", N_("direct I/O was turned off: the sort's reads and writes went through the page cache, so a chunk read again after it was written came from memory, and writes were timed into the cache, only the fdatasync at the end of each thread (inside the write timing) reaching the device; the files were synced and dropped from the cache before the sort started") },
    MessageFormat { "files-stayed-cached", N_("{cached} of {files} files kept pages in the page cache although they were dropped (POSIX_FADV_DONTNEED), or it could not be checked; their reads may have come from memory (tmpfs and some FUSE filesystems keep them)") },
    // TRANSLATORS: {block} is a size such as "1 MiB".
    MessageFormat { "surface-fewer-buckets", N_("{buckets} buckets instead of {wanted}: the device holds only {blocks} blocks of {block}") },
    MessageFormat { "surface-bad-blocks", N_("bad ranges: {ranges}, {bytes} unreadable, the first at block {first_lba}: this drive is failing; copy what matters off it") },
    // xgettext:no-c-format
    MessageFormat { "surface-stopped-bad", N_("the scan stopped by itself (bad ranges: {ranges}, {bytes}): more than max_bad_ranges={max_bad_ranges} or max_bad_percent={max_bad_percent} % of the device") },
    // TRANSLATORS: {real} and {claimed} are sizes such as "15.8 GiB" and "256 GiB".
    MessageFormat { "capacity-fake", N_("data beyond {real} of the claimed {claimed} is lost: this device is not what it claims; keep nothing on it past {real}") },
    MessageFormat { "capacity-wraps", N_("writes beyond {real} land at the start of the device again and overwrite what is there") },
    MessageFormat { "capacity-drops", N_("writes beyond the real size are dropped: reading them back gives other data") },
    MessageFormat { "capacity-unreadable", N_("reads beyond the real size fail") },
    MessageFormat { "capacity-scattered", N_("probe blocks lost: {lost} of {probes}, scattered over the device: not a smaller capacity but a device that loses data; trust nothing to it and run a surface scan") },
    MessageFormat { "capacity-intact", N_("all {probes} probe blocks read back intact: the device holds the whole claimed {claimed}") },
    // TRANSLATORS: the burn-in (every block written and read back); {bytes} is a size such as "1.2 MiB", {first_lba} a block number.
    MessageFormat { "burn-in-unreadable", N_("unreadable ranges: {ranges}, {bytes}, the first at block {first_lba}: this drive cannot be trusted with data") },
    // TRANSLATORS: {first} is a byte offset on the drive.
    MessageFormat { "burn-in-mismatch", N_("blocks read back other than written: {blocks} ({bytes}), the first wrong byte at {first}: this drive loses or misplaces writes") },
    // TRANSLATORS: {at} and {holds} are byte offsets on the drive.
    MessageFormat { "burn-in-misplaced", N_("the sector at {at} holds what was written to {holds}: writes land in the wrong place") },
    // TRANSLATORS: {first} is a byte offset on the drive.
    MessageFormat { "burn-in-write-errors", N_("writes failed: {count}, the first at {first}") },
    MessageFormat { "burn-in-slow", N_("slow blocks: {count} read slower than {threshold_ms} ms, and again when read once more") },
    // TRANSLATORS: {bytes} is a size such as "931 GiB".
    MessageFormat { "burn-in-passed", N_("every block written and read back as written: {bytes}, cycles: {cycles}") },
    MessageFormat { "surface-slow-spots", N_("slow spots: {count} (reads of {threshold_ms} ms or more), {repeatable} slow again when re-read, {one_off} one-off") },
    // TRANSLATORS: {tests} lists test labels such as "RND4K Q32T1, RND4K Q1T1".
    MessageFormat { "profile-random-writes-left-out-preserve", N_("{tests} not written: keeping the data, a random write test would spend its time reading back what it writes; erase mode (destroy) writes every test") },
    // TRANSLATORS: {test} is a test's label such as "SEQ1M Q8T1".
    MessageFormat { "profile-test-left-out", N_("{test} left out: the device is smaller than one block") },
    // TRANSLATORS: {cells} is a count of the queue-depth sweep's thread x depth combinations; {limit} is 1024.
    MessageFormat { "qd-sweep-cells-left-out", N_("{cells} combinations of threads and queue depth left out: they would keep more than {limit} reads (or 1 GiB of buffers) in flight") },
    // TRANSLATORS: {cells} is a count of the queue-depth sweep's thread x depth combinations; {limit} is a size such as "64 MiB".
    MessageFormat { "qd-sweep-cells-left-out-preserve", N_("{cells} combinations of threads and queue depth left out: writing back what they read, they would keep more than {limit} of the device's data in memory at once") },
    // xgettext:no-c-format
    MessageFormat { "write-speed-unsettled", N_("the write speed did not settle (the last {windows} windows vary by more than ±{tolerance:.0f} % or still trend): write longer (duration_s) for a steady figure") },
    // TRANSLATORS: {written} and {size} are sizes such as "8.0 GiB"; keep size and duration_s: they are parameter keys.
    MessageFormat { "write-no-cliff-short", N_("no cliff in the {written} written, less than the device's {size}: a cache larger than that would not show; write over the whole device (size 0) or longer (duration_s) to find it") },
    // TRANSLATORS: {rounds} and {window} are counts of rounds; {excursion} and {slope} percentages; keep max_rounds and round_s: they are parameter keys.
    // xgettext:no-c-format
    MessageFormat { "steady-state-not-reached", N_("steady state not reached in {rounds} rounds: the last {window} rounds' IOPS vary by {excursion:.0f} % with a slope of {slope:.0f} % (SNIA allows 20 % and 10 %); run more rounds (max_rounds) or longer ones (round_s)") },
    // TRANSLATORS: {rounds} and {window} are counts of rounds; keep max_rounds: it is a parameter key.
    MessageFormat { "steady-state-too-few-rounds", N_("only {rounds} rounds ran, fewer than the {window} that steady state is judged over: raise max_rounds") },
    MessageFormat { "steady-state-purge-unsupported", N_("not purged: the device takes no discards (its discard_max_bytes is 0), so the rounds start from whatever it held") },
    // TRANSLATORS: {reason} is the system's error text, such as "Operation not supported".
    MessageFormat { "steady-state-purge-refused", N_("not purged: the kernel refused the discard ({reason}), so the rounds start from whatever the device held") },
    MessageFormat { "test-file-scaled", N_("the test file scaled down from {requested} to {fitted} to fit the free space") },
    MessageFormat { "largest-block-scaled-to-amount", N_("largest block size scaled down to {block} to fit the amount written per size") },
    // TRANSLATORS: {alignment} is a count of bytes such as 4096.
    MessageFormat { "small-blocks-left-out-direct-io", N_("block sizes below {block} left out: this filesystem's direct I/O alignment is {alignment} bytes") },
    MessageFormat { "small-blocks-left-out-logical-block", N_("block sizes below {block} left out: the device's logical block is {alignment} bytes") },
    MessageFormat { "largest-block-scaled-to-device", N_("largest block size scaled down to {block} to fit the device") },
    // TRANSLATORS: {parameter} is a parameter's key such as region_size (keep it as it is).
    MessageFormat { "parameter-scaled-to-device", N_("{parameter} scaled down from {requested} to {fitted} to fit the device") },
    MessageFormat { "parameter-scaled-to-free-space", N_("{parameter} scaled down from {requested} to {fitted} to fit the free space") },
    // TRANSLATORS: {compression} names the compression, such as "btrfs zstd compression".
    MessageFormat { "compression-on-path", N_("{compression} on the path: the benchmark writes pseudo-random data, which does not compress, so the figures are those of incompressible files; compressible files may go faster") },
};

// A placeholder "{name}" or "{name:.Nf}" at `format[open]` (a '{').
struct Placeholder {
    std::string_view name;
    int decimals = -1;
    std::size_t end = 0; // one past the '}'
};

Placeholder parse_placeholder(std::string_view format, std::size_t open)
{
    const std::size_t close = format.find('}', open);
    if (close == std::string_view::npos)
        throw std::invalid_argument("message format: unclosed '{'");
    const std::string_view inside = format.substr(open + 1, close - open - 1);
    Placeholder placeholder;
    placeholder.end = close + 1;
    const std::size_t colon = inside.find(':');
    placeholder.name = inside.substr(0, colon);
    if (placeholder.name.empty()
        || !std::all_of(placeholder.name.begin(), placeholder.name.end(),
                        [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }))
        throw std::invalid_argument("message format: bad argument name in '{" + std::string(inside) + "}'");
    if (colon != std::string_view::npos) {
        const std::string_view spec = inside.substr(colon + 1);
        if (spec.size() != 3 || spec[0] != '.' || spec[1] < '0' || spec[1] > '9' || spec[2] != 'f')
            throw std::invalid_argument("message format: unknown spec '" + std::string(spec) + "'");
        placeholder.decimals = spec[1] - '0';
    }
    return placeholder;
}

std::string value_text(const MessageValue& value, int decimals, const NumberText& number_text)
{
    if (const auto* text = std::get_if<std::string>(&value))
        return *text;
    if (const auto* integer = std::get_if<std::int64_t>(&value))
        return decimals < 0 ? std::to_string(*integer) : number_text(static_cast<double>(*integer), decimals);
    return number_text(std::get<double>(value), decimals < 0 ? 0 : decimals);
}

} // namespace

bool MessageArg::operator==(const MessageArg& other) const
{
    if (name != other.name || value != other.value || !failure != !other.failure)
        return false;
    return !failure || *failure == *other.failure;
}

bool Message::operator==(const Message& other) const
{
    return id == other.id && args.size() == other.args.size()
        && std::all_of(args.begin(), args.end(), [&](const MessageArg& arg) {
               return std::find(other.args.begin(), other.args.end(), arg) != other.args.end();
           });
}

std::span<const MessageFormat> message_catalogue() noexcept
{
    return catalogue;
}

const MessageFormat* find_message_format(std::string_view id) noexcept
{
    for (const MessageFormat& format : catalogue)
        if (format.id == id)
            return &format;
    return nullptr;
}

std::vector<std::string> format_argument_names(std::string_view format)
{
    std::vector<std::string> names;
    for (std::size_t open = format.find('{'); open != std::string_view::npos; open = format.find('{', open)) {
        const Placeholder placeholder = parse_placeholder(format, open);
        if (std::find(names.begin(), names.end(), placeholder.name) == names.end())
            names.emplace_back(placeholder.name);
        open = placeholder.end;
    }
    return names;
}

std::string c_number_text(double value, int decimals)
{
    if (decimals < 0)
        return std::to_string(std::llround(value));
    char buffer[64];
    // The daemon runs in the C locale, so "%f" writes a decimal point.
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string render_message(std::string_view format, const std::vector<MessageArg>& args, const NumberText& number_text)
{
    std::string text;
    std::size_t done = 0;
    for (std::size_t open = format.find('{'); open != std::string_view::npos; open = format.find('{', done)) {
        const Placeholder placeholder = parse_placeholder(format, open);
        const auto arg = std::find_if(args.begin(), args.end(),
                                      [&](const MessageArg& a) { return a.name == placeholder.name; });
        if (arg == args.end())
            throw std::invalid_argument("message argument missing: " + std::string(placeholder.name));
        text.append(format.substr(done, open - done));
        text += value_text(arg->value, placeholder.decimals, number_text);
        done = placeholder.end;
    }
    text.append(format.substr(done));
    return text;
}

std::string english_text(const Message& message)
{
    const MessageFormat* format = find_message_format(message.id);
    if (!format)
        throw std::invalid_argument("message id not in the catalogue: " + message.id);
    return render_message(format->english, message.args);
}

std::string localized_text(const Message& message, std::string_view english,
                           const std::function<const char*(const char*)>& translate, const NumberText& number_text)
{
    const MessageFormat* format = find_message_format(message.id);
    if (!format)
        return std::string(english);
    try {
        return render_message(translate(format->english), message.args, number_text);
    } catch (const std::invalid_argument&) {
        // A translation naming an argument the message lacks: English, rather than nothing.
        try {
            return render_message(format->english, message.args, number_text);
        } catch (const std::invalid_argument&) {
            return std::string(english);
        }
    }
}

} // namespace diskbench::contract
