// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/result_checks.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/burn_in.hpp"
#include "contract/kinds/surface.hpp"
#include "contract/kinds/verify_capacity.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <memory>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace burn_in_keys = contract::kinds::keys::burn_in;
namespace surface_keys = contract::kinds::keys::surface;
namespace verify_capacity_keys = contract::kinds::keys::verify_capacity;

namespace {

std::string size_text(std::int64_t bytes)
{
    const std::unique_ptr<gchar, decltype(&g_free)> text(
        g_format_size_full(static_cast<guint64>(std::max<std::int64_t>(bytes, 0)), G_FORMAT_SIZE_IEC_UNITS), g_free);
    return text.get();
}

// The engine's warnings of each check start with these words (engine/storage/*.cpp).
bool block_layer_warning(const std::string& w)
{
    return w.starts_with("a cache answered reads") || w.starts_with("writes absorbed by the page cache")
        || w.starts_with("other I/O on ");
}
bool link_warning(const std::string& w)
{
    return w.starts_with("faster than a ") || w.starts_with("the link runs below")
        || w.starts_with("impossible for a rotating disk");
}
bool surface_warning(const std::string& w)
{
    return w.starts_with("bad ranges: ") || w.starts_with("the scan stopped by itself");
}
bool capacity_warning(const std::string& w)
{
    return w.starts_with("data beyond ") || w.starts_with("probe blocks lost: ");
}
bool burn_in_warning(const std::string& w)
{
    return w.starts_with("unreadable ranges: ") || w.starts_with("blocks read back other than written: ")
        || w.starts_with("writes failed: ") || w.starts_with("slow blocks: ");
}
bool stack_warning(const std::string& w)
{
    return w.find(" is page-cache-backed") != std::string::npos || w.find("'s backing file ") != std::string::npos;
}

template <typename Predicate>
bool add_failures(ResultChecks& checks, const std::vector<std::string>& warnings, Predicate is_theirs)
{
    bool any = false;
    for (const auto& warning : warnings)
        if (is_theirs(warning)) {
            checks.lines.push_back({ false, warning });
            checks.shown_warnings.push_back(warning);
            any = true;
        }
    return any;
}

} // namespace

ResultChecks result_checks(const SavedValueMap& summary, const std::vector<std::string>& warnings)
{
    ResultChecks checks;
    // A surface scan first says what it found: never a plain "✓" over a
    // drive with bad blocks.
    if (has_key(summary, surface_keys::bad_ranges) && (integer_of(summary, surface_keys::bad_ranges) == 0
                                        || !add_failures(checks, warnings, surface_warning))) {
        if (integer_of(summary, surface_keys::bad_ranges) > 0)
            checks.lines.push_back({ false, printf_text(_("Surface: %lld bad ranges, %s unreadable"),
                                                        static_cast<long long>(integer_of(summary, surface_keys::bad_ranges)),
                                                        size_text(integer_of(summary, surface_keys::bad_bytes)).c_str()) });
        else
            checks.lines.push_back({ true, _("Surface: every block read, no bad blocks") });
    }
    // So does a capacity check: a fake is never under a plain "✓".
    if (has_key(summary, verify_capacity_keys::real_size_bytes) && has_key(summary, verify_capacity_keys::claimed_bytes)) {
        const std::int64_t real = integer_of(summary, verify_capacity_keys::real_size_bytes);
        const std::int64_t claimed = integer_of(summary, verify_capacity_keys::claimed_bytes);
        if (text_of(summary, verify_capacity_keys::failure) == "scattered") {
            if (!add_failures(checks, warnings, capacity_warning))
                checks.lines.push_back({ false, _("Capacity: blocks are lost here and there on this device") });
        } else if (real >= claimed)
            checks.lines.push_back({ true, printf_text(_("Capacity: all of the claimed %s holds data"),
                                                       size_text(claimed).c_str()) });
        else if (!add_failures(checks, warnings, capacity_warning))
            checks.lines.push_back({ false, printf_text(_("Capacity: only %s of the claimed %s holds data"),
                                                        size_text(real).c_str(), size_text(claimed).c_str()) });
    }
    // And a burn-in: a drive that lost, misplaced or could not read what
    // was written leads with that.
    if (const std::string verdict = text_of(summary, burn_in_keys::verdict); verdict == "pass")
        checks.lines.push_back({ true, printf_text(_("Burn-in: every block of %s written and read back as written"),
                                                   size_text(integer_of(summary, burn_in_keys::bytes)).c_str()) });
    else if (verdict == "fail" && !add_failures(checks, warnings, burn_in_warning))
        checks.lines.push_back({ false, printf_text(_("Burn-in: the drive failed (%s)"),
                                                    text_of(summary, burn_in_keys::verdict_reasons).c_str()) });
    const std::string device = text_of(summary, common_keys::checked_device);
    if (has_key(summary, common_keys::issued_read_bytes) && !add_failures(checks, warnings, block_layer_warning)) {
        const std::int64_t read = integer_of(summary, common_keys::issued_read_bytes);
        const std::int64_t written = integer_of(summary, common_keys::issued_write_bytes);
        std::string text;
        if (read > 0 && written > 0)
            text = printf_text(_("Block layer: %s counted %s of %s read and %s of %s written, no other I/O"),
                               device.c_str(), size_text(integer_of(summary, common_keys::device_read_bytes)).c_str(),
                               size_text(read).c_str(), size_text(integer_of(summary, common_keys::device_write_bytes)).c_str(),
                               size_text(written).c_str());
        else if (written > 0)
            text = printf_text(_("Block layer: %s counted %s of %s written, no other I/O"), device.c_str(),
                               size_text(integer_of(summary, common_keys::device_write_bytes)).c_str(), size_text(written).c_str());
        else
            text = printf_text(_("Block layer: %s counted %s of %s read, no other I/O"), device.c_str(),
                               size_text(integer_of(summary, common_keys::device_read_bytes)).c_str(), size_text(read).c_str());
        checks.lines.push_back({ true, text });
    }
    const std::string link = text_of(summary, common_keys::link);
    if (!link.empty() && !add_failures(checks, warnings, link_warning)) {
        const double limit = number_of(summary, common_keys::link_limit_mb_s, 0);
        checks.lines.push_back(
            { true, limit > 0 ? printf_text(_("Link: %s, at most %.0f MB/s; the figures fit"), link.c_str(), limit)
                              : printf_text(_("Link: %s"), link.c_str()) });
    }
    // A run that wrote, on a drive whose volatile write cache was on: its
    // figures count writes the drive confirmed from its cache.
    const std::string cache = text_of(summary, common_keys::write_cache);
    if (cache == "write back")
        checks.lines.push_back(
            { false, printf_text(_("Write cache: on at %s (write back): the drive confirmed writes once its cache "
                                   "held them; only the test's flushes put them on the medium"),
                                 device.c_str()) });
    else if (cache == "write through")
        checks.lines.push_back(
            { true, printf_text(_("Write cache: off at %s (write through): every write reached the medium before "
                                  "it counted"),
                                device.c_str()) });
    // When the writes were flushed: figures compare with another tool's
    // only under the same rule.
    const std::string sync_rule = text_of(summary, common_keys::sync_rule);
    if (sync_rule == "end")
        checks.lines.push_back({ true, _("Flushes: the queue stayed full, one flush ended each test inside its time "
                                         "(as fio's end_fsync=1)") });
    else if (sync_rule == "every")
        checks.lines.push_back(
            { true, printf_text(_("Flushes: one after every %s written, each waiting for the writes before it (as "
                                  "fio's fsync=)"),
                                size_text(integer_of(summary, common_keys::sync_every_bytes)).c_str()) });
    else if (sync_rule == "batch")
        checks.lines.push_back({ true, _("Flushes: one after each batch: preserve mode reads a range before it "
                                         "writes it back, so the queue empties between batches") });
    const std::string stack = text_of(summary, common_keys::stack);
    if (!stack.empty() && !add_failures(checks, warnings, stack_warning))
        checks.lines.push_back({ true, printf_text(_("Stack: %s"), stack.c_str()) });
    return checks;
}

std::string checks_text(const ResultChecks& checks)
{
    std::string text;
    for (const auto& line : checks.lines)
        text += (text.empty() ? "" : "\n") + std::string(line.passed ? "✓ " : "⚠ ") + line.text;
    return text;
}

std::vector<std::string> warnings_outside(const ResultChecks& checks, const std::vector<std::string>& warnings)
{
    std::vector<std::string> rest;
    for (const auto& warning : warnings)
        if (std::find(checks.shown_warnings.begin(), checks.shown_warnings.end(), warning) == checks.shown_warnings.end())
            rest.push_back(warning);
    return rest;
}

} // namespace diskbench::client
