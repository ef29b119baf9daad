// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/crystal_report.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/file_profile.hpp"
#include "contract/kinds/profile.hpp"
#include "contract/kinds/test_keys.hpp"
#include "results/job_result.hpp"
#include "text/parameter_labels.hpp"
#include "text/printf_text.hpp"
#include "text/value_format.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

#include <charconv>
#include <optional>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace file_profile_keys = contract::kinds::keys::file_profile;
namespace per_test_keys = contract::kinds::keys::per_test;
namespace profile_keys = contract::kinds::keys::profile;

namespace {

constexpr const char* rule = "------------------------------------------------------------------------------\n";

std::optional<double> number(const SavedValueMap& summary, const std::string& key)
{
    const auto found = summary.find(key);
    return found == summary.end() ? std::nullopt : as_number(found->second);
}

struct Figures {
    std::optional<double> mb_s, iops, mean_us;
};

// CrystalDiskMark's widths: MB/s to three decimals in 9 columns, IOPS to
// one in 10, µs to two in 8; numbers in the C locale, as its text result.
std::string figures_text(const Figures& f)
{
    const auto or_dash = [](const std::optional<double>& value, int width, int decimals) {
        return value ? fmt::format("{:>{}.{}f}", *value, width, decimals) : fmt::format("{:>{}}", "-", width);
    };
    return fmt::format("{} MB/s [{} IOPS] <{} us>", or_dash(f.mb_s, 9, 3), or_dash(f.iops, 10, 1),
                       or_dash(f.mean_us, 8, 2));
}

// A folder run's direction: its series, and its keys' prefix after the
// test's (contract/kinds/file_profile.hpp).
struct Direction {
    const char* series;
    std::string_view key_prefix;
};
constexpr Direction reading { "read", file_profile_keys::read_prefix };
constexpr Direction writing { "write", file_profile_keys::write_prefix };

// A test's figures in one direction (the device's profile only reads),
// from the summary, else from the series.
Figures direction_figures(const SavedResult& result, bool device, const std::string& test,
                          const Direction& direction, std::size_t index)
{
    // The device's reads have no prefix, its writes (the write column) "write_".
    const auto key = [&](std::string_view device_figure, std::string_view folder_figure) {
        if (!device)
            return file_profile_keys::direction_key(test, direction.key_prefix, folder_figure);
        return direction.key_prefix == file_profile_keys::write_prefix
            ? profile_keys::direction_key(test, profile_keys::write_prefix, device_figure)
            : per_test_keys::test_key(test, device_figure);
    };
    Figures f;
    const bool device_write = device && direction.key_prefix == file_profile_keys::write_prefix;
    f.mb_s = number(result.summary, key(profile_keys::throughput_mb_s, file_profile_keys::mb_s));
    if (!f.mb_s)
        f.mb_s = point_at_test(result.series,
                               device ? (device_write ? "write_throughput" : "throughput") : direction.series, index);
    f.iops = number(result.summary, key(profile_keys::iops, file_profile_keys::iops));
    if (!f.iops && device)
        f.iops = point_at_test(result.series, device_write ? "write_iops" : "iops", index);
    f.mean_us = number(result.summary, key(common_keys::latency_mean_us, common_keys::latency_mean_us));
    return f;
}

// The mixed test as one line: the total rate, both directions' IOPS, and
// their mean latency weighted by how many requests each made.
Figures mixed_figures(const SavedResult& result)
{
    const SavedValueMap& s = result.summary;
    Figures f;
    using namespace file_profile_keys;
    f.mb_s = number(s, per_test_keys::test_key(mix_test, total_mb_s));
    const auto read_iops = number(s, direction_key(mix_test, read_prefix, iops));
    const auto write_iops = number(s, direction_key(mix_test, write_prefix, iops));
    if (read_iops && write_iops) {
        f.iops = *read_iops + *write_iops;
        const auto read_us = number(s, direction_key(mix_test, read_prefix, common_keys::latency_mean_us));
        const auto write_us = number(s, direction_key(mix_test, write_prefix, common_keys::latency_mean_us));
        if (read_us && write_us && *f.iops > 0)
            f.mean_us = (*read_iops * *read_us + *write_iops * *write_us) / *f.iops;
    }
    return f;
}

std::string profile_name(const SavedValueMap& parameters)
{
    if (!text_of(parameters, "tests").empty())
        return _("Own tests");
    const std::string preset = text_of(parameters, "preset", "default");
    return choice_word_label("preset", preset);
}

} // namespace

std::string crystal_test_name(std::string_view label)
{
    // (SEQ|RND)<n>(K|M) Q<n>T<n>, as the engine's profile_tests parse it.
    if (!label.starts_with("SEQ") && !label.starts_with("RND"))
        return std::string(label);
    std::string_view rest = label.substr(3);
    // A number at the front of `rest`, then the character `after`; both consumed.
    const auto take = [&rest](std::string_view after) -> std::optional<unsigned> {
        unsigned value = 0;
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
        const std::string_view tail = rest.substr(static_cast<std::size_t>(end - rest.data()));
        if (error != std::errc() || !tail.starts_with(after))
            return std::nullopt;
        rest = tail.substr(after.size());
        return value;
    };
    const bool mebibytes = rest.find('M') < rest.find(' ');
    const auto size = take(mebibytes ? "M Q" : "K Q");
    const auto depth = size ? take("T") : std::nullopt;
    const auto threads = depth ? take("") : std::nullopt;
    if (!threads || !rest.empty())
        return std::string(label);
    return fmt::format("{} {:>4}{}iB (Q={:>3}, T={:>2})", label.substr(0, 3), *size, mebibytes ? 'M' : 'K', *depth,
                       *threads);
}

std::string crystal_report(const SavedResult& result, const OutsideText& outside, CrystalRun run)
{
    const bool device = run == CrystalRun::Device;
    std::string text = rule;
    /* TRANSLATORS: the first line of the Profiles text result, laid out as CrystalDiskMark's */
    text += std::string(_("Disk Benchmark: Profiles (CrystalDiskMark's layout)")) + "\n";
    text += rule;
    /* TRANSLATORS: the units legend of the Profiles text, as CrystalDiskMark's */
    text += std::string(_("* MB/s = 1,000,000 bytes/s")) + "\n";
    text += std::string(_("* KB = 1000 bytes, KiB = 1024 bytes")) + "\n";

    const std::vector<std::string> tests
        = split_profile_tests(text_of(result.summary, profile_keys::tests, profile_tests_of(result.parameters)));
    const auto block = [&](const char* title, const Direction& direction) {
        std::string lines;
        for (std::size_t i = 0; i < tests.size(); ++i) {
            if (tests[i].starts_with("MIX "))
                continue;
            const Figures f = direction_figures(result, device, profile_summary_key(tests[i]), direction, i);
            if (!f.mb_s && !f.iops)
                continue;
            lines += "  " + outside(crystal_test_name(tests[i])) + ": " + figures_text(f) + "\n";
        }
        if (!lines.empty())
            text += fmt::format("\n[{}]\n", title) + lines;
    };
    block("Read", reading);
    const std::size_t before_writes = text.size();
    block("Write", writing);
    // A device's writes that kept its data are not CrystalDiskMark's
    // figures (which erase): said after the block.
    if (device && text.size() > before_writes && text_of(result.summary, common_keys::mode) == "preserve")
        text += "  " + std::string(_("(data kept: each range read first and written back, sequential tests only)"))
            + "\n";
    for (const std::string& test : tests)
        if (test.starts_with("MIX ")) {
            const Figures f = mixed_figures(result);
            const std::string read_percent
                = per_test_keys::test_key(file_profile_keys::mix_test, file_profile_keys::read_percent);
            const std::int64_t reads = integer_of(result.summary, read_percent,
                                                  integer_of(result.parameters, "mix_read_percent", 70));
            text += fmt::format("\n[Mix] Read {}%/Write {}%\n", reads, 100 - reads);
            text += "  " + outside(crystal_test_name(test.substr(4))) + ": " + figures_text(f) + "\n";
        }

    // CrystalDiskMark's footer: profile, test size and passes, times, date.
    const std::int64_t size = device
        ? integer_of(result.summary, profile_keys::region_size, integer_of(result.parameters, "region_size", 1 << 30))
        : integer_of(result.summary, file_profile_keys::file_size_bytes, integer_of(result.parameters, "file_size", 1 << 30));
    const std::int64_t passes = std::max<std::int64_t>(1, integer_of(result.parameters, "passes", 1));
    text += "\n";
    // Labels right-aligned as CrystalDiskMark's ("   Test:"), in characters.
    const auto footer = [&](const char* label, const std::string& value) {
        const auto width = static_cast<std::size_t>(g_utf8_strlen(label, -1));
        text += std::string(width < 7 ? 7 - width : 0, ' ') + label + ": " + value + "\n";
    };
    // TRANSLATORS: the footer lines of the Profiles text (CrystalDiskMark's
    // layout): the test set, the test size, the data and I/O, the times,
    // the date, the device, the run's state. Short: they are right-aligned.
    footer(_("Profile"), outside(profile_name(result.parameters)));
    footer(_("Test"), fmt::format("{} (x{}) [{}]", format_value(static_cast<double>(size), Unit::Bytes), passes,
                               outside(result_target_text(result))));
    // CrystalDiskMark scores the best pass, diskbench the median unless
    // asked: figures compare only when one knows which.
    const std::string scoring = text_of(result.summary, common_keys::scoring);
    const auto scored = static_cast<unsigned long>(integer_of(result.summary, common_keys::passes, passes));
    if (scoring == "best")
        footer(_("Score"), printf_text(g_dngettext(GETTEXT_PACKAGE, "best of %lu pass, after a warm-up pass",
                                                   "best of %lu passes, after a warm-up pass", scored),
                                       scored));
    else if (scored > 1)
        footer(_("Score"), printf_text(g_dngettext(GETTEXT_PACKAGE, "median of %lu pass", "median of %lu passes", scored),
                                       scored));
    if (!device) {
        const std::string data
            = text_of(result.summary, file_profile_keys::data, text_of(result.parameters, "data", "random"));
        std::string mode = data == "zeros" ? _("zero data") : _("random data");
        if (has_key(result.summary, common_keys::direct_io))
            mode += std::string(", ") + (boolean_of(result.summary, common_keys::direct_io, true) ? _("direct I/O")
                                                                                       : _("through the page cache"));
        footer(_("Mode"), mode);
        // The device line of other results is about devices; a folder's
        // says what holds it.
        std::string holder = text_of(result.device_info, "node");
        if (const std::string model = text_of(result.device_info, "model"); !model.empty())
            holder += (holder.empty() ? "" : " ") + ("(" + model + ")");
        if (const std::string filesystem = text_of(result.device_info, "filesystem_type"); !filesystem.empty())
            holder += (holder.empty() ? "" : ", ") + filesystem;
        if (!holder.empty())
            footer(_("Device"), outside(holder));
    }
    const double rest = number_of(result.summary, profile_keys::interval_s,
                                  number_of(result.parameters, "interval_s", device ? 0.0 : 5.0));
    // printf's format: msgfmt -c checks a translation's placeholders.
    footer(_("Time"), printf_text(_("Measure %g sec / Interval %g sec"), number_of(result.parameters, "duration_s", 5),
                                  rest));
    footer(_("Date"), result_date_text(result.finished_at_us ? result.finished_at_us : result.started_at_us));
    if (result.state != "finished")
        footer(_("State"), outside(result.state));
    const std::string after = result_report_footer(result, outside);
    if (!after.empty())
        text += "\n" + after;
    return text;
}

} // namespace diskbench::client
