// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/parameter_labels.hpp"

#include "text/printf_text.hpp"

#include "contract/byte_size.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <array>
#include <limits>

namespace diskbench::client {

namespace {

struct Label {
    std::string_view key;
    const char* label; // N_(): translated when shown
    bool bytes = false;
    const char* zero = nullptr; // what 0 means, for byte fields that give it one
};

// One row per key of any kind. A key means the same thing in every kind
// (the daemon's naming rule), so one label fits all; the unit test fails
// when the daemon's catalogue gains a key this table lacks.
constexpr std::array labels {
    /* TRANSLATORS: benchmark setting: how many single reads the seek test makes */
    Label { "count", N_("Reads") },
    Label { "block_size", N_("Block size"), true, N_("Device's block size") },
    /* TRANSLATORS: benchmark setting: the seed of the random offsets */
    Label { "seed", N_("Random seed") },
    /* TRANSLATORS: benchmark setting: io_uring or psync */
    Label { "backend", N_("I/O method") },
    Label { "passes", N_("Passes") },
    /* TRANSLATORS: Profiles setting: how the passes make one figure (their median, or the best after a warm-up, as CrystalDiskMark) */
    Label { "scoring", N_("Score") },
    Label { "count_per_size", N_("Reads per block size") },
    Label { "min_block", N_("Smallest block"), true, N_("Device's block size") },
    Label { "max_block", N_("Largest block"), true },
    /* TRANSLATORS: benchmark setting: each offset a multiple of the block size */
    Label { "aligned", N_("Aligned offsets") },
    Label { "queue_depth", N_("Queue depth") },
    /* TRANSLATORS: benchmark setting: how many bytes the test reads or writes */
    Label { "size", N_("Amount of data"), true },
    /* TRANSLATORS: benchmark setting: where on the device the test starts */
    Label { "offset", N_("Start at"), true },
    /* TRANSLATORS: benchmark setting: how many points the surface map has */
    Label { "buckets", N_("Points along the disk") },
    /* TRANSLATORS: surface scan setting: it stops by itself after this many bad ranges */
    Label { "max_bad_ranges", N_("Stop after bad ranges") },
    /* TRANSLATORS: surface scan setting: it stops by itself when this share of the disk is unreadable */
    Label { "max_bad_percent", N_("Stop after unreadable %") },
    /* TRANSLATORS: surface scan setting: re-reads of a failed read to find its exact bad blocks */
    Label { "reread_limit", N_("Re-reads per failed read") },
    /* TRANSLATORS: surface scan setting: a read this slow is a slow spot (0: automatic) */
    Label { "slow_ms", N_("Slow read (ms)") },
    /* TRANSLATORS: surface scan setting: read each slow spot again */
    Label { "reread_slow", N_("Read slow spots again") },
    /* TRANSLATORS: burn-in setting: how many times every block is written and read back */
    Label { "cycles", N_("Write-and-verify cycles") },
    /* TRANSLATORS: burn-in setting: every second cycle writes the inverse data */
    Label { "second_pattern", N_("Inverse data every second cycle") },
    Label { "amount_per_size", N_("Data per block size"), true },
    /* TRANSLATORS: benchmark setting: a ready-made set of tests */
    Label { "preset", N_("Test set") },
    /* TRANSLATORS: benchmark setting: the user's own list of tests, like "SEQ1M Q8T1" */
    Label { "tests", N_("Own tests") },
    /* TRANSLATORS: benchmark setting: the part of the device the reads stay in */
    Label { "region_size", N_("Test area"), true },
    Label { "duration_s", N_("Seconds per test") },
    /* TRANSLATORS: benchmark setting: unmeasured seconds before each test */
    Label { "warmup_s", N_("Warm-up seconds") },
    Label { "max_bytes", N_("Data limit per test"), true, N_("No limit") },
    Label { "max_queue_depth", N_("Largest queue depth") },
    Label { "max_threads", N_("Most threads") },
    /* TRANSLATORS: benchmark setting: O_DIRECT, bypassing the page cache */
    Label { "direct", N_("Bypass the cache") },
    Label { "repetitions", N_("Repetitions") },
    /* TRANSLATORS: benchmark setting: keep the device's data or overwrite it */
    Label { "mode", N_("Write mode") },
    /* TRANSLATORS: benchmark setting: the serial typed to allow destroying data */
    Label { "confirm", N_("Confirmation") },
    Label { "window_s", N_("Seconds per point") },
    /* TRANSLATORS: write benchmark setting: bytes written between two flushes to the medium (fdatasync); 0: one flush at the end */
    Label { "sync_every", N_("Flush every"), true, N_("Once, at the end") },
    /* TRANSLATORS: steady-state setting: discard the device first (BLKDISCARD), as fresh out of the box */
    Label { "purge", N_("Discard first") },
    /* TRANSLATORS: steady-state setting: bytes of sequential writes before the rounds; 0: twice the range (SNIA) */
    Label { "precondition_bytes", N_("Preconditioning"), true, N_("Twice the range") },
    Label { "read_percent", N_("Reads in the rounds (%)") },
    /* TRANSLATORS: steady-state setting: the length of one round of random writes */
    Label { "round_s", N_("Seconds per round") },
    Label { "max_rounds", N_("Most rounds") },
    Label { "threads", N_("Threads") },
    Label { "file_size", N_("File size"), true },
    /* TRANSLATORS: benchmark setting: the mixed read/write test, like "RND4K Q1T1" */
    Label { "mix", N_("Mixed test") },
    Label { "mix_read_percent", N_("Reads in the mixed test (%)") },
    /* TRANSLATORS: benchmark setting: what the test file is filled with */
    Label { "data", N_("Data written") },
    Label { "directories", N_("Folders") },
    Label { "files", N_("Files") },
    Label { "min_file_size", N_("Smallest file"), true },
    Label { "max_file_size", N_("Largest file"), true },
    /* TRANSLATORS: Overview settings: places along the disk where the read rate is sampled, and bytes read at each */
    Label { "samples", N_("Samples") },
    Label { "sample_size", N_("Sample size"), true },
    /* TRANSLATORS: Overview settings: the single-block reads that measure the access time, and their size */
    Label { "access_reads", N_("Access-time reads") },
    Label { "access_block_size", N_("Access-time read size"), true, N_("Device's block size") },
    /* TRANSLATORS: Overview and Profiles setting: also measure the write rate (a raw write: asks for the administrator's password; the Profiles' mode says whether the data is kept) */
    Label { "write", N_("Write rate too") },
    /* TRANSLATORS: QD sweep setting: the sweep writes instead of reading (on a device it writes back what it read, asking for the administrator's password) */
    Label { "writes", N_("Write instead of read") },
    /* TRANSLATORS: benchmark setting of the capacity check: how many blocks it writes over the device (0: automatic) */
    Label { "probes", N_("Probe blocks") },
    /* TRANSLATORS: Profiles setting (CrystalDiskMark's Interval): seconds of rest between two tests */
    Label { "interval_s", N_("Rest between tests (s)") },
    /* TRANSLATORS: Profiles setting (CrystalDiskMark's test mode): read, write, both or the mixed test */
    Label { "select", N_("Tests") },
    /* TRANSLATORS: queue-depth sweep setting: random or sequential reads */
    Label { "pattern", N_("Access pattern") },
};

struct Word {
    std::string_view key, word;
    const char* label; // nullptr: a name, shown as written
};

constexpr std::array words {
    /* TRANSLATORS: I/O method: io_uring when the kernel allows it, else psync */
    Word { "backend", "auto", N_("Automatic") },
    Word { "backend", "io_uring", nullptr },
    Word { "backend", "psync", nullptr },
    /* TRANSLATORS: test set: CrystalDiskMark's default four tests */
    Word { "preset", "default", N_("Standard") },
    /* TRANSLATORS: test set: CrystalDiskMark's NVMe SSD tests */
    Word { "preset", "nvme", N_("NVMe SSD") },
    /* TRANSLATORS: test set: CrystalDiskMark's Peak Performance profile (deep queues) */
    Word { "preset", "peak", N_("Peak performance") },
    /* TRANSLATORS: test set: CrystalDiskMark's Real World Performance profile (one request at a time) */
    Word { "preset", "real-world", N_("Real-world performance") },
    /* TRANSLATORS: Profiles tests: each test as reads and as writes, then the mixed test */
    Word { "select", "read-write", N_("Read and write") },
    /* TRANSLATORS: Profiles tests: reads only */
    Word { "select", "read", N_("Read only") },
    /* TRANSLATORS: Profiles tests: writes only */
    Word { "select", "write", N_("Write only") },
    /* TRANSLATORS: Profiles tests: only the mixed read/write test */
    Word { "select", "mix", N_("Mixed test only") },
    /* TRANSLATORS: queue-depth sweep reads: at random offsets */
    Word { "pattern", "random", N_("Random") },
    /* TRANSLATORS: queue-depth sweep reads: each thread one after another */
    Word { "pattern", "sequential", N_("Sequential") },
    /* TRANSLATORS: write mode: each range is read and written back unchanged */
    Word { "mode", "preserve", N_("Keep the data") },
    /* TRANSLATORS: write mode: random data over the device's contents */
    Word { "mode", "destroy", N_("Overwrite the data") },
    /* TRANSLATORS: scoring of the passes: each figure the median over them */
    Word { "scoring", "median", N_("Median of the passes") },
    /* TRANSLATORS: scoring of the passes: CrystalDiskMark's way, an unscored warm-up pass and then the best one */
    Word { "scoring", "best", N_("Best pass, after a warm-up (as CrystalDiskMark)") },
    /* TRANSLATORS: data written: incompressible random bytes */
    Word { "data", "random", N_("Random data") },
    /* TRANSLATORS: data written: zero bytes (what compression would shrink) */
    Word { "data", "zeros", N_("Zeros") },
};

const Label* find_label(std::string_view key)
{
    const auto found = std::find_if(labels.begin(), labels.end(), [&](const Label& l) { return l.key == key; });
    return found == labels.end() ? nullptr : &*found;
}

const Word* find_word(std::string_view key, std::string_view word)
{
    const auto found
        = std::find_if(words.begin(), words.end(), [&](const Word& w) { return w.key == key && w.word == word; });
    return found == words.end() ? nullptr : &*found;
}

// The translated unit names (value_format's msgids), so what a field shows
// in Russian ("1 ГиБ") can be typed back.
contract::ByteUnitNames unit_names()
{
    return { _("B"), _("KiB"), _("MiB"), _("GiB"), _("TiB") };
}

} // namespace

std::string parameter_label(std::string_view key)
{
    const Label* label = find_label(key);
    return label ? _(label->label) : std::string(key);
}

bool has_parameter_label(std::string_view key)
{
    return find_label(key) != nullptr;
}

std::string parameter_help(const std::string& english)
{
    // gettext("") is the catalogue's header, never a help.
    return english.empty() ? english : std::string(g_dgettext(GETTEXT_PACKAGE, english.c_str()));
}

std::vector<std::string_view> labelled_parameter_keys()
{
    std::vector<std::string_view> keys;
    for (const Label& label : labels)
        keys.push_back(label.key);
    return keys;
}

bool is_byte_parameter(const ParameterInfo& info)
{
    return info.type == "unsigned" && (info.unit == "bytes" || is_byte_parameter_key(info.key));
}

bool is_byte_parameter_key(std::string_view key)
{
    const Label* label = find_label(key);
    return label && label->bytes;
}

std::string choice_word_label(std::string_view key, std::string_view word)
{
    const Word* found = find_word(key, word);
    return found && found->label ? _(found->label) : std::string(word);
}

bool has_choice_word(std::string_view key, std::string_view word)
{
    return find_word(key, word) != nullptr;
}

std::string size_text(std::uint64_t bytes)
{
    return contract::byte_size_text(bytes, unit_names());
}

std::string zero_meaning(std::string_view key)
{
    const Label* label = find_label(key);
    return label && label->zero ? _(label->zero) : std::string();
}

std::string size_field_text(std::string_view key, std::uint64_t bytes)
{
    if (bytes == 0 && !zero_meaning(key).empty())
        return {};
    return size_text(bytes);
}

SizeInput read_size_field(const ParameterInfo& info, std::string_view text)
{
    const bool blank = std::all_of(text.begin(), text.end(), [](char c) { return g_ascii_isspace(c); });
    std::uint64_t bytes = 0;
    if (!blank) {
        const auto parsed = contract::parse_byte_size(text, unit_names());
        if (!parsed)
            return { std::nullopt, _("Not a size: write it like “1 GiB”, “512 MiB” or “4k”.") };
        bytes = *parsed;
    } else if (zero_meaning(info.key).empty()) {
        return { std::nullopt, _("Type a size, like “1 GiB”, “512 MiB” or “4k”.") };
    }
    // The daemon's range (ListParameterRanges), where it gives one: said
    // here rather than as an error when the run starts.
    // The bounds come over the bus as doubles; 2^64 - 1 arrives as 2^64,
    // which no uint64_t holds (the cast would be undefined): clamped first.
    const auto as_bytes = [](double value) {
        constexpr double top = static_cast<double>(std::numeric_limits<std::int64_t>::max());
        return static_cast<std::uint64_t>(std::clamp(value, 0.0, top));
    };
    if (info.ranged && static_cast<double>(bytes) < info.minimum)
        return { std::nullopt, printf_text(_("At least %s."), size_text(as_bytes(info.minimum)).c_str()) };
    if (info.ranged && static_cast<double>(bytes) > info.maximum)
        return { std::nullopt, printf_text(_("At most %s."), size_text(as_bytes(info.maximum)).c_str()) };
    return { static_cast<std::int64_t>(bytes), {} };
}

} // namespace diskbench::client
