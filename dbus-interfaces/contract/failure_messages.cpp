// SPDX-License-Identifier: GPL-3.0-or-later
#include "failure_messages.hpp"

#include <array>
#include <optional>
#include <stdexcept>

// Marks a catalogue format for xgettext without linking gettext: the
// daemon sends the English text (see messages.cpp).
#define N_(text) text

namespace diskbench::contract {

namespace {

// Ids are stable API (clients look them up): add new ones, never rename.
// Arguments in braces: see messages.hpp. {target} is a device's node, a
// folder's or a file's name, or "the folder" (error-the-folder) in a
// folder job's public error; {reason} is the system's error text
// (strerror), in English.
constexpr std::array catalogue {
    // Parameters (engine::ParameterError: the D-Bus error's message is "key: " and this).
    // TRANSLATORS: {expected} and {got} are a type's name such as "an unsigned integer".
    MessageFormat { "error-wrong-type", N_("expected {expected}, got {got}") },
    MessageFormat { "error-type-boolean", N_("a boolean") },
    MessageFormat { "error-type-signed", N_("a signed integer") },
    MessageFormat { "error-type-unsigned", N_("an unsigned integer") },
    MessageFormat { "error-type-real", N_("a floating-point number") },
    MessageFormat { "error-type-number", N_("a number") },
    MessageFormat { "error-type-text", N_("a string") },
    MessageFormat { "error-out-of-range", N_("{value} is out of range [{minimum}, {maximum}]") },
    MessageFormat { "error-negative", N_("{value} is negative") },
    MessageFormat { "error-text-too-long", N_("{size} bytes of text; at most {limit}") },
    // TRANSLATORS: {choices} lists the allowed words, which stay as they are.
    MessageFormat { "error-not-a-choice", N_("\"{value}\" is not one of: {choices}") },
    // TRANSLATORS: {known} lists parameter keys, which stay as they are.
    MessageFormat { "error-unknown-parameter", N_("unknown parameter (known: {known})") },
    // TRANSLATORS: keep "b", "d" and "s": they are D-Bus type codes.
    MessageFormat { "error-unsupported-dbus-type", N_("unsupported D-Bus type '{type}' (use b, an integer type, d or s)") },
    MessageFormat { "error-expected-boolean", N_("expected a boolean (b)") },
    MessageFormat { "error-unknown-option", N_("unknown option or wrong type") },
    // TRANSLATORS: keep SampleCount: it is a D-Bus property's name.
    MessageFormat { "error-past-sample-count", N_("{index} is past SampleCount ({count})") },
    MessageFormat { "error-must-be-power-of-two", N_("must be a power of two") },
    MessageFormat { "error-not-power-of-two", N_("{value} is not a power of two") },
    // TRANSLATORS: keep min_block and min_file_size: they are parameter keys.
    MessageFormat { "error-max-below-min-block", N_("{max} is smaller than min_block ({min})") },
    MessageFormat { "error-amount-below-min-block", N_("{amount} is less than min_block ({min})") },
    MessageFormat { "error-max-below-min-file-size", N_("{max} is smaller than min_file_size ({min})") },
    // TRANSLATORS: {block} and {amount} are sizes such as "1 MiB".
    MessageFormat { "error-block-above-amount", N_("{block} is more than the {amount} written per block size") },
    MessageFormat { "error-no-block-fits-logical-block", N_("no block size up to {block} is a multiple of the device's {alignment}-byte logical block") },
    MessageFormat { "error-no-block-fits-direct-io", N_("no block size up to {block} is a multiple of this filesystem's {alignment}-byte direct I/O alignment") },
    MessageFormat { "error-amount-below-largest-block", N_("must be at least the largest block size") },
    // TRANSLATORS: {logical_block} is a count of bytes such as 512; {block} a size such as "4 KiB".
    MessageFormat { "error-size-not-whole-blocks", N_("must be a multiple of the {logical_block}-byte logical block and at least one block ({block})") },
    MessageFormat { "error-not-logical-block-multiple", N_("{value} is not a multiple of the {logical_block}-byte logical block") },
    MessageFormat { "error-not-device-logical-block-multiple", N_("{value} is not a multiple of the device's {logical_block}-byte logical block") },
    MessageFormat { "error-not-direct-io-multiple", N_("{value} is not a multiple of this filesystem's {alignment}-byte direct I/O alignment") },
    MessageFormat { "error-offset-not-aligned", N_("must be a multiple of {logical_block} below the device size {size}") },
    MessageFormat { "error-less-than-one-block", N_("{size} is less than one block ({block})") },
    MessageFormat { "error-device-below-one-block", N_("the device is smaller than one {block} block") },
    MessageFormat { "error-below-one-block", N_("is smaller than one {block} block") },
    MessageFormat { "error-sample-below-logical-block", N_("must be at least one {logical_block}-byte logical block") },
    // TRANSLATORS: keep block_size: it is a parameter key.
    MessageFormat { "error-sample-too-large-with-write", N_("with write, at most {size} in whole reads of block_size (each sample is kept in memory between its read and its write-back)") },
    MessageFormat { "error-larger-than-device", N_("{size} is larger than the device ({device_size})") },
    MessageFormat { "error-larger-than-limit", N_("{size} is larger than the {limit} limit") },
    // TRANSLATORS: {reason} is the system's error text, such as "Input/output error".
    MessageFormat { "error-purge-failed", N_("the discard of the device failed: {reason}") },
    MessageFormat { "error-does-not-fit", N_("{size} does not fit: only {available} are available") },
    MessageFormat { "error-too-many-reads-in-flight", N_("{threads} threads x {depth} reads in flight is more than {limit} reads in flight") },
    MessageFormat { "error-too-many-buffers-in-flight", N_("{reads} reads of {block} in flight need {size} of buffers; the limit is {limit}") },
    MessageFormat { "error-multiple-of-bytes", N_("must be a multiple of {bytes} bytes") },
    MessageFormat { "error-probes-below-minimum", N_("must be 0 (automatic) or at least {minimum}") },
    // TRANSLATORS: keep block_size: it is a parameter key.
    MessageFormat { "error-probes-head-too-large", N_("too few for this device and block_size: the head would be {head} blocks (at most {limit}); ask for more probes or larger blocks") },
    // TRANSLATORS: keep the example list as it is: it is what the parameter takes.
    MessageFormat { "error-tests-not-a-list", N_("expected a comma-separated list like \"SEQ1M Q8T1, RND4K Q32T16\"") },
    MessageFormat { "error-too-many-tests", N_("{count} tests; at most {limit} run in one job") },
    // TRANSLATORS: {test} is a test's label such as "SEQ1M Q8T1".
    MessageFormat { "error-test-block-not-logical-multiple", N_("{test}: block size is not a multiple of the logical block") },
    MessageFormat { "error-test-block-above-device", N_("{test}: block size is larger than the device") },
    MessageFormat { "error-no-preset-test-fits", N_("no test of the preset fits on this device") },
    // TRANSLATORS: {test} is a test's label such as "SEQ1M Q8T1", {value} a size such as "4 KiB", {alignment} a count of bytes.
    MessageFormat { "error-test-not-direct-io-multiple", N_("{value} ({test}) is not a multiple of this filesystem's {alignment}-byte direct I/O alignment") },
    // TRANSLATORS: keep the example as it is: it is what the parameter takes.
    MessageFormat { "error-mix-not-a-test", N_("expected one test like \"RND4K Q1T1\", or nothing for no mixed test") },
    // TRANSLATORS: keep write=true: it is a parameter and its value.
    MessageFormat { "error-select-write-without-write", N_("select=write needs write=true: without it the Profiles only read") },
    // TRANSLATORS: keep `mix`: it is a parameter key.
    MessageFormat { "error-select-mix-without-mix", N_("only the mixed test was chosen, and `mix` names none") },
    // TRANSLATORS: {size} and {block} are sizes such as "1 GiB" and "1 MiB".
    MessageFormat { "error-region-below-largest-block", N_("{size} is smaller than the largest block ({block})") },
    MessageFormat { "error-block-above-test-file", N_("a block of {block} is larger than the test file ({size})") },
    // TRANSLATORS: {block} and {limit} are sizes such as "128 MiB" and "64 MiB".
    MessageFormat { "error-block-above-preserved", N_("{block} is more than a preserving write keeps in memory at once ({limit})") },
    // TRANSLATORS: keep mode=destroy and confirm: they are the API's words.
    MessageFormat { "error-mode-cannot-preserve", N_("this benchmark writes new data over the whole area it tests and cannot preserve the device's contents; pass mode=destroy with confirm") },
    MessageFormat { "error-destroy-unconfirmed", N_("mode=destroy overwrites the device's data; confirm must name the device") },
    MessageFormat { "error-tree-short-of-inodes", N_("{directories} directories and {files} files do not fit: they need {inodes} inodes and about {size}, and only {free_inodes} free inodes may be used") },
    MessageFormat { "error-tree-short-of-space", N_("{directories} directories and {files} files do not fit: they need {inodes} inodes and about {size}, and only {free_space} of free space may be used") },
    MessageFormat { "error-file-size-not-whole-chunks", N_("{size} is not a whole number of {chunk} chunks") },
    MessageFormat { "error-no-chunk-per-thread", N_("{free} free, not even one {chunk} chunk for each of {threads} threads") },

    // The target (engine::TargetError, DeviceBusyError).
    MessageFormat { "error-device-size-unreadable", N_("{target}: cannot read the device size: {reason}") },
    MessageFormat { "error-logical-block-unreadable", N_("{target}: cannot read the logical block size: {reason}") },
    MessageFormat { "error-invalid-descriptor", N_("{target}: invalid file descriptor: {reason}") },
    // TRANSLATORS: {kind} is a benchmark kind such as device-write.
    MessageFormat { "error-not-opened-for-writing", N_("{target}: {kind} writes to the device, which was not opened for writing") },
    MessageFormat { "error-not-opened-direct", N_("{target}: not opened with O_DIRECT; cached reads would not measure the device") },
    MessageFormat { "error-cannot-stat", N_("{target}: cannot stat: {reason}") },
    MessageFormat { "error-not-block-or-file", N_("{target}: not a block device or regular file") },
    // TRANSLATORS: {block} is a count of bytes such as 512.
    MessageFormat { "error-target-empty", N_("{target}: is empty (smaller than one {block}-byte block)") },
    MessageFormat { "error-scratch-not-regular", N_("{target}: the scratch file is not a regular file") },
    MessageFormat { "error-cannot-open", N_("{target}: cannot open: {reason}") },
    MessageFormat { "error-cannot-open-for-writing", N_("{target}: cannot open for writing: {reason}") },
    MessageFormat { "error-no-direct-io", N_("{target}: the filesystem or device does not support direct I/O (O_DIRECT)") },
    MessageFormat { "error-device-in-use", N_("{target}: the device is in use (mounted, or held by another program); unmount it first") },
    MessageFormat { "error-device-locked", N_("{target}: another program holds the device's lock (partitioning or formatting it?)") },
    // TRANSLATORS: {holders} lists programs as "qemu-system-x86 (pid 4242), dd (pid 17)".
    MessageFormat { "error-device-open-elsewhere", N_("{target}: the device is open in another program ({holders}); writing to it now could undo what that program writes. Close it first") },
    // TRANSLATORS: {written} is a size such as "4 KiB".
    MessageFormat { "error-foreign-write", N_("{target}: another program wrote {written} to the device during the run; stopped before writing back anything it may have changed") },
    MessageFormat { "error-foreign-write-by", N_("{target}: another program wrote {written} to the device during the run (it is open in {holders}); stopped before writing back anything it may have changed") },
    // TRANSLATORS: {written} and {reverted} are sizes such as "4 KiB".
    MessageFormat { "error-foreign-write-reverted", N_("{target}: another program wrote {written} to the device while the run wrote its data back; stopped, but up to {reverted} of what it wrote may hold the older data again") },
    MessageFormat { "error-foreign-write-reverted-by", N_("{target}: another program wrote {written} to the device while the run wrote its data back (it is open in {holders}); stopped, but up to {reverted} of what it wrote may hold the older data again") },
    MessageFormat { "error-cannot-lock", N_("{target}: cannot lock the device: {reason}") },
    MessageFormat { "error-not-a-directory", N_("{target}: not a directory") },
    // TRANSLATORS: {filesystem} is a filesystem type such as proc or sysfs.
    MessageFormat { "error-kernel-interface", N_("{target}: is on {filesystem}, a kernel interface rather than storage; choose a folder on a disk") },
    MessageFormat { "error-folder-unstatable", N_("{target}: cannot stat the folder") },
    MessageFormat { "error-not-a-folder", N_("{target} is not a folder") },
    MessageFormat { "error-folder-kernel-interface", N_("{target} is on {filesystem}, a kernel interface and not storage") },
    MessageFormat { "error-cannot-open-directory", N_("{target}: cannot open the directory: {reason}") },
    // TRANSLATORS: what a folder benchmark's public error says instead of the folder's name ({target}).
    MessageFormat { "error-the-folder", N_("the folder") },

    // The user's share (engine::LimitsError).
    MessageFormat { "error-budget-threads", N_("this run needs {threads} I/O threads and the user's other runs hold {held}; one user may have {limit} at once") },
    // TRANSLATORS: {size}, {held} and {limit} are sizes such as "64 MiB".
    MessageFormat { "error-budget-buffers", N_("this run needs {size} of I/O buffers and the user's other runs hold {held}; one user may have {limit} at once") },

    // I/O while running (engine::IoError), and what a folder's failures mean.
    MessageFormat { "error-read-failed", N_("{target}: read of {length} bytes at offset {offset} failed: {reason}") },
    // TRANSLATORS: {size}, {free} and {usable} are sizes such as "1 GiB".
    MessageFormat { "error-test-file-does-not-fit", N_("{target}: a test file of {size} does not fit: {free} free ({usable} usable)") },
    MessageFormat { "error-write-failed", N_("{target}: write of {length} bytes at offset {offset} failed: {reason}") },
    MessageFormat { "error-short-read", N_("{target}: short read at offset {offset}: {done} of {length} bytes") },
    MessageFormat { "error-short-write", N_("{target}: short write at offset {offset}: {done} of {length} bytes") },
    MessageFormat { "error-uring-submit", N_("io_uring submit failed: {reason}") },
    MessageFormat { "error-entry-unopenable", N_("cannot open \"{name}\": {reason}") },
    MessageFormat { "error-entry-unlistable", N_("cannot list \"{name}\": {reason}") },
    MessageFormat { "error-entry-unremovable", N_("cannot remove \"{name}\": {reason}") },
    MessageFormat { "error-entry-unexaminable", N_("cannot look at \"{name}\": {reason}") },
    MessageFormat { "error-entry-nested-too-deeply", N_("cannot remove \"{name}\": nested too deeply") },
    MessageFormat { "error-scratch-directory-uncreatable", N_("cannot create a scratch directory: {reason}") },
    MessageFormat { "error-scratch-directory-unopenable", N_("cannot open the scratch directory {name}: {reason}") },
    MessageFormat { "error-scratch-directory-replaced", N_("the scratch directory {name} was replaced before it could be used") },
    MessageFormat { "error-scratch-directory-unmarkable", N_("cannot mark the scratch directory {name}: {reason}") },
    MessageFormat { "error-scratch-directory-unsyncable", N_("cannot sync the scratch directory {name}: {reason}") },
    MessageFormat { "error-scratch-directory-unexaminable", N_("cannot look at the scratch directory {name}: {reason}") },
    MessageFormat { "error-filesystem-facts", N_("cannot read the filesystem's facts: {reason}") },
    MessageFormat { "error-scratch-file-uncreatable", N_("{target}: cannot create a scratch file: {reason}") },
    MessageFormat { "error-scratch-file-unlinkable", N_("{target}: cannot unlink a scratch file: {reason}") },
    MessageFormat { "error-scratch-file-not-direct", N_("{target}: cannot set O_DIRECT on a scratch file: {reason}") },
    MessageFormat { "error-fdatasync", N_("{target}: fdatasync failed: {reason}") },
    MessageFormat { "error-syncfs", N_("{target}: syncfs failed: {reason}") },
    // TRANSLATORS: {chunk} is a size such as "1 MiB"; {offset} a count of bytes.
    MessageFormat { "error-scratch-read-failed", N_("{target}: a read of {chunk} at {offset} in a scratch file failed: {reason}") },
    MessageFormat { "error-scratch-write-failed", N_("{target}: a write of {chunk} at {offset} in a scratch file failed: {reason}") },
    // TRANSLATORS: {detail} is the failure this explains, already translated.
    MessageFormat { "error-folder-not-writable", N_("{target}: you may not create files in this folder ({detail})") },
    MessageFormat { "error-filesystem-read-only", N_("{target}: the filesystem is read-only ({detail})") },
    MessageFormat { "error-filesystem-full", N_("{target}: the filesystem is full ({detail})") },
    MessageFormat { "error-quota-used-up", N_("{target}: your disk quota is used up ({detail})") },
    MessageFormat { "error-device-io-error", N_("{target}: the device reported an I/O error ({detail})") },
    MessageFormat { "error-in-folder", N_("{target}: {detail}") },
    MessageFormat { "error-filesystem-full-no-block", N_("{target}: the filesystem is full: {free} free, not even one {block} block fits") },
    MessageFormat { "error-filesystem-full-no-chunk", N_("{target}: the filesystem is full: {free} free, not even one {chunk} chunk for each of {threads} threads") },
    MessageFormat { "error-filesystem-full-no-tree-inodes", N_("{target}: the filesystem is full: not even one directory and one file fit ({free_inodes} free inodes)") },
    MessageFormat { "error-filesystem-full-no-tree-space", N_("{target}: the filesystem is full: not even one directory and one file fit ({free_space} of free space)") },
    MessageFormat { "error-tree-entry-uncreatable", N_("{target}: cannot create \"{name}\" in the benchmark's tree: {reason}") },
    MessageFormat { "error-tree-entry-unopenable", N_("{target}: cannot open \"{name}\" in the benchmark's tree: {reason}") },
    MessageFormat { "error-tree-entry-unwritable", N_("{target}: cannot write \"{name}\" in the benchmark's tree: {reason}") },
    MessageFormat { "error-tree-entry-unreadable", N_("{target}: cannot read \"{name}\" in the benchmark's tree: {reason}") },
    MessageFormat { "error-tree-entry-unremovable", N_("{target}: cannot remove \"{name}\" in the benchmark's tree: {reason}") },
    MessageFormat { "error-tree-unremovable", N_("{target}: cannot remove the benchmark's tree: {reason}") },
    MessageFormat { "error-tree-entry-replaced", N_("{target}: \"{name}\" in the benchmark's tree was replaced by something that is not a file") },
    MessageFormat { "error-tree-entry-changed", N_("{target}: \"{name}\" in the benchmark's tree was changed during the run ({size} bytes instead of {expected})") },
    MessageFormat { "error-direct-io-uneven", N_("{target}: O_DIRECT took on one scratch file but not on another") },
    MessageFormat { "error-chunk-misaligned", N_("{target}: direct I/O here needs {alignment}-byte alignment, which a {chunk} chunk does not have") },
    // TRANSLATORS: {thread} is a thread's number; {why} says what was out of order, in English.
    MessageFormat { "error-not-sorted", N_("{target}: thread {thread}'s file is not sorted after the sort ({why}); the figures are void") },

    // The service's own refusals.
    MessageFormat { "error-no-device", N_("no device {device}") },
    // TRANSLATORS: keep ListBenchmarks: it is a D-Bus method's name.
    MessageFormat { "error-no-device-kind", N_("no device benchmark kind \"{kind}\" (see ListBenchmarks)") },
    MessageFormat { "error-no-folder-kind", N_("no filesystem benchmark kind \"{kind}\" (see ListBenchmarks)") },
    MessageFormat { "error-not-offered", N_("\"{device}\" is not a block device diskbench offers") },
    MessageFormat { "error-daemon-exiting", N_("diskbenchd is exiting; call again (a new one will start)") },
    // TRANSLATORS: {job} is a job's object path such as /org/diskbench/DiskBench1/jobs/3.
    MessageFormat { "error-device-in-use-by", N_("{device} is in use by {job}") },
    MessageFormat { "error-device-in-use-by-stuck", N_("{device} is in use by {job}, which was cancelled while the device was not answering; its requests have not come back from the device yet") },
    MessageFormat { "error-filesystem-in-use-by", N_("the filesystem of {folder} is in use by {job}") },
    MessageFormat { "error-filesystem-in-use-by-stuck", N_("the filesystem of {folder} is in use by {job}, which was cancelled while the device was not answering; its requests have not come back from the device yet") },
    // TRANSLATORS: {detail} says what changed, already translated (one of the texts below).
    MessageFormat { "error-device-went-away", N_("{device} went away or was replaced while authorization was asked ({detail}); nothing was done") },
    MessageFormat { "error-reason-gone", N_("it is gone") },
    MessageFormat { "error-reason-not-block", N_("its node is not a block device") },
    MessageFormat { "error-reason-other-device", N_("its node now names another device") },
    MessageFormat { "error-reason-udisks-object", N_("its udisks object changed") },
    MessageFormat { "error-reason-device-number", N_("its device number changed") },
    MessageFormat { "error-reason-size", N_("its size changed") },
    MessageFormat { "error-reason-serial", N_("its serial number changed") },
    MessageFormat { "error-reason-new-medium", N_("it is a new medium or attachment (disk sequence number)") },
    // TRANSLATORS: {action} is a polkit action id such as org.diskbench.benchmark-read; keep auth.no_user_interaction.
    MessageFormat { "error-authentication-required", N_("authentication is required for {action} (auth.no_user_interaction was set, or no authentication agent could ask)") },
    MessageFormat { "error-dialog-dismissed", N_("the authentication dialog was dismissed") },
    MessageFormat { "error-polkit-unavailable", N_("cannot ask polkit about {action}: {reason}") },
    MessageFormat { "error-not-authorized", N_("not authorized for {action}") },
    MessageFormat { "error-folder-error-private", N_("the error of a benchmark in a folder names the folder: it is for the user who started it (and root)") },
    MessageFormat { "error-folder-private", N_("the folder of a benchmark in a folder is for the user who started it (and root)") },
    MessageFormat { "error-samples-private", N_("the samples of a benchmark in a folder are for the user who started it (and root)") },
    MessageFormat { "error-limit-pending-authorizations", N_("uid {uid} already has {count} requests waiting for authorization; answer those first") },
    MessageFormat { "error-limit-refused-starts", N_("uid {uid} had {count} benchmark starts refused by polkit within a few seconds; try again in {seconds} s") },
    // TRANSLATORS: {jobs} lists jobs' object paths.
    MessageFormat { "error-limit-stuck-runs", N_("uid {uid} has {count} cancelled benchmarks whose threads still wait for I/O that a device or filesystem has not answered ({jobs}), the most one user may have; they end when it answers again") },
    MessageFormat { "error-limit-stuck-runs-total", N_("diskbenchd already has {count} cancelled benchmarks whose threads wait for I/O that a device or filesystem has not answered; no new benchmark starts until some of it comes back") },
    MessageFormat { "error-limit-stuck-runs-total-yours", N_("diskbenchd already has {count} cancelled benchmarks whose threads wait for I/O that a device or filesystem has not answered (yours: {jobs}); no new benchmark starts until some of it comes back") },
    MessageFormat { "error-limit-disposals", N_("uid {uid} has {count} scratch folders whose removal has not finished (a filesystem that does not answer); wait for them") },
    MessageFormat { "error-limit-disposals-total", N_("diskbenchd is still removing {count} scratch folders on filesystems that do not answer; no new benchmark starts until some are gone") },
    MessageFormat { "error-limit-running", N_("uid {uid} already runs {count} benchmarks, the most one user may run at once; wait for one to end or cancel it") },
    MessageFormat { "error-limit-running-stuck", N_("uid {uid} already runs {count} benchmarks ({stuck} of them cancelled, but still waiting for I/O that a device or filesystem has not answered: {jobs}), the most one user may run at once; wait for one to end or cancel it") },
    MessageFormat { "error-limit-running-preparing", N_("uid {uid} already runs {count} benchmarks and has {preparing} more being started (their folders being prepared), the most one user may run at once; wait for one to end or cancel it") },
    MessageFormat { "error-limit-running-stuck-preparing", N_("uid {uid} already runs {count} benchmarks ({stuck} of them cancelled, but still waiting for I/O that a device or filesystem has not answered: {jobs}) and has {preparing} more being started (their folders being prepared), the most one user may run at once; wait for one to end or cancel it") },
    MessageFormat { "error-limit-preparations", N_("uid {uid} already has {count} folders being prepared for a benchmark; wait for them") },
    MessageFormat { "error-write-mounted", N_("{device} (or one of its partitions) is mounted; a raw write test needs it unused") },
    MessageFormat { "error-write-in-use", N_("{device} is in use (held by RAID, LVM or dm-crypt, or swap); a raw write test needs it unused") },
    MessageFormat { "error-write-disk-unknown", N_("{device}: sysfs does not say which disk it is on, so it cannot be told apart from the system's; a raw write test needs that") },
    // TRANSLATORS: {reason} says which system disks could not be found, in English.
    MessageFormat { "error-write-system-disks-unknown", N_("raw write tests are refused on every disk here: {reason}, so a write could hit a disk the running system is on") },
    MessageFormat { "error-write-system-disk", N_("{device} is on a disk the running system uses (/, /usr, /var, /boot, the ESP or swap); raw write tests never run there, not even on an unmounted partition") },
    // TRANSLATORS: keep mode=destroy, EraseConfirmation and Serial: they are the API's words.
    MessageFormat { "error-confirm-node", N_("mode=destroy erases the data on {device}; confirm must be its node (the Device's EraseConfirmation)") },
    MessageFormat { "error-confirm-serial", N_("mode=destroy erases the data on {device}; confirm must be its serial number (the Device's Serial) (the Device's EraseConfirmation)") },
    MessageFormat { "error-uid-unknown", N_("uid {uid} is not in the user database, so its group is unknown") },
    MessageFormat { "error-bus-who", N_("cannot ask the bus who {name} is: {reason}") },
    MessageFormat { "error-bus-uid-unconfirmed", N_("the bus does not confirm the uid of {name}") },
};

// {target} too: a folder job's public error says "the folder" there (job_object.cpp).
constexpr std::array nested_arguments { std::string_view("detail"), std::string_view("expected"),
                                        std::string_view("got"), std::string_view("target") };

std::string fallback_text(const Message& message)
{
    std::string text = message.id;
    for (const MessageArg& arg : message.args)
        text += " " + arg.name + "=" + render_message("{" + arg.name + "}", { arg });
    return text;
}

} // namespace

std::span<const MessageFormat> failure_catalogue() noexcept
{
    return catalogue;
}

const MessageFormat* find_failure_format(std::string_view id) noexcept
{
    for (const MessageFormat& format : catalogue)
        if (format.id == id)
            return &format;
    return nullptr;
}

std::span<const std::string_view> nested_failure_arguments() noexcept
{
    return nested_arguments;
}

MessageArg::MessageArg(std::string n, const Message& nested_failure)
    : name(std::move(n)), value(failure_english(nested_failure)),
      failure(std::make_shared<const Message>(nested_failure))
{
}

std::string failure_english(const Message& message)
{
    try {
        if (const MessageFormat* format = find_failure_format(message.id))
            return render_message(format->english, message.args);
    } catch (const std::invalid_argument&) {
    }
    try {
        return fallback_text(message);
    } catch (const std::invalid_argument&) {
        return message.id; // an argument name render_message does not take
    }
}

} // namespace diskbench::contract

namespace diskbench::contract {

std::string failure_report_english(const FailureReport& report)
{
    std::string text = failure_english(report.failure);
    return report.parameter.empty() ? text : report.parameter + ": " + text;
}

namespace {

// The failure's own text in the user's language, or nothing when this
// client cannot render it (an id it does not know, arguments that do not
// fit the format).
std::optional<std::string> localized(const Message& message,
                                     const std::function<const char*(const char*)>& translate,
                                     const NumberText& number_text, int depth)
{
    const MessageFormat* format = find_failure_format(message.id);
    // A failure nests one or two deep (an explanation of an I/O error); a
    // report deeper than that was not made by a daemon.
    if (!format || depth > 8)
        return std::nullopt;
    std::vector<MessageArg> args = message.args;
    for (MessageArg& arg : args)
        if (arg.failure)
            if (auto nested = localized(*arg.failure, translate, number_text, depth + 1))
                arg.value = std::move(*nested);
    for (const char* english_format : { translate(format->english), format->english }) {
        try {
            return render_message(english_format, args, number_text);
        } catch (const std::invalid_argument&) {
            // A translation naming an argument the message lacks: English, rather than nothing.
        }
    }
    return std::nullopt;
}

} // namespace

std::string localized_failure_report(const FailureReport& report, std::string_view english,
                                     const std::function<const char*(const char*)>& translate,
                                     const NumberText& number_text)
{
    std::optional<std::string> text = localized(report.failure, translate, number_text, 0);
    if (!text)
        return std::string(english);
    // The parameter's key is the API's word: it stays as it is, as in the English.
    return report.parameter.empty() ? *text : report.parameter + ": " + *text;
}

} // namespace diskbench::contract
