// SPDX-License-Identifier: GPL-3.0-or-later
#include "kinds/capacity_check.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/verify_capacity.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <memory>

namespace diskbench::client {

namespace verify_capacity_keys = contract::kinds::keys::verify_capacity;

namespace {

std::uint64_t bytes_of(const SavedResult& result, std::string_view key)
{
    // A result file may hold any number: no cast past what fits.
    const double value = number_of(result.summary, key, 0);
    if (!(value > 0))
        return 0;
    return value >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(value);
}

// "15.8 GiB": one decimal, where format_value's "16 GiB" would hide how
// much is missing.
std::string size_text(std::uint64_t bytes)
{
    const std::unique_ptr<gchar, decltype(&g_free)> text(g_format_size_full(bytes, G_FORMAT_SIZE_IEC_UNITS), g_free);
    return text.get();
}

} // namespace

CapacityVerdict capacity_verdict(const SavedResult& result)
{
    CapacityVerdict verdict;
    // Only a capacity check's summary means these keys (its module).
    if (result.kind != contract::kinds::verify_capacity || !has_key(result.summary, verify_capacity_keys::real_size_bytes))
        return verdict;
    verdict.checked = true;
    verdict.claimed = bytes_of(result, verify_capacity_keys::claimed_bytes);
    verdict.real = bytes_of(result, verify_capacity_keys::real_size_bytes);
    verdict.uncertainty = bytes_of(result, verify_capacity_keys::boundary_uncertainty_bytes);
    verdict.failure = text_of(result.summary, verify_capacity_keys::failure);
    return verdict;
}

std::string capacity_line(const CapacityVerdict& verdict)
{
    if (verdict.damaged())
        return _("Blocks are lost here and there on this device: it loses data (not a smaller capacity)");
    if (!verdict.lost())
        return printf_text(_("The whole claimed %s holds data"), size_text(verdict.claimed).c_str());
    const std::string real = size_text(verdict.real), claimed = size_text(verdict.claimed);
    if (verdict.failure == "wraps")
        return printf_text(_("Data beyond %s of the claimed %s is lost: writes there land at the start again"),
                           real.c_str(), claimed.c_str());
    if (verdict.failure == "unreadable")
        return printf_text(_("Data beyond %s of the claimed %s is lost: reads there fail"), real.c_str(),
                           claimed.c_str());
    return printf_text(_("Data beyond %s of the claimed %s is lost: writes there are dropped"), real.c_str(),
                       claimed.c_str());
}

} // namespace diskbench::client
