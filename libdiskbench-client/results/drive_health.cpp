// SPDX-License-Identifier: GPL-3.0-or-later
#include "drive_health.hpp"

#include "results/job_result.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

// The critical warning bits of an NVMe health log (NVMe 2.0, figure 207).
std::string nvme_warning_text(unsigned bits)
{
    const char* names[] = { N_("spare below its threshold"), N_("temperature beyond a threshold"),
                            N_("reliability degraded"),      N_("media read-only"),
                            N_("volatile memory backup failed"), N_("persistent memory read-only") };
    std::string text;
    for (unsigned bit = 0; bit < 6; ++bit)
        if (bits & (1u << bit))
            text += (text.empty() ? "" : ", ") + std::string(gettext(names[bit]));
    return text;
}

HealthVerdict nvme_health(const SavedValueMap& health, const SavedValueMap* previous, std::int64_t previous_at_us)
{
    HealthVerdict verdict;
    verdict.known = true;
    const auto bits = static_cast<unsigned>(integer_of(health, "critical_warning", 0));
    const auto media = static_cast<long long>(integer_of(health, "media_errors", 0));
    std::string state = bits ? printf_text(_("CRITICAL WARNING: %s"), nvme_warning_text(bits).c_str())
                             : std::string(_("Good: no critical warning"));
    state += printf_text(_(", %lld %% used, spare %lld %% (threshold %lld %%)"),
                         static_cast<long long>(integer_of(health, "percentage_used", 0)),
                         static_cast<long long>(integer_of(health, "available_spare_percent", 0)),
                         static_cast<long long>(integer_of(health, "available_spare_threshold_percent", 0)));
    if (media > 0)
        state += printf_text(g_dngettext(GETTEXT_PACKAGE, ", %lld media error", ", %lld media errors",
                                         static_cast<unsigned long>(media)),
                             media);
    if (const auto unsafe = static_cast<long long>(integer_of(health, "unsafe_shutdowns", 0)); unsafe > 0)
        state += printf_text(_(", %lld unsafe shutdowns"), unsafe);
    state += printf_text(_(", %lld hours powered on"), static_cast<long long>(integer_of(health, "power_on_hours", 0)));
    verdict.summary = state;
    if (bits) {
        verdict.warn = true;
        verdict.warning = printf_text(_("The NVMe drive reports a critical warning (%s): copy what matters off it now."),
                                      nvme_warning_text(bits).c_str());
    } else if (previous && previous->count("nvme_media_errors")
               && media > static_cast<long long>(integer_of(*previous, "nvme_media_errors", 0))) {
        verdict.warn = true;
        verdict.warning = printf_text(_("Its media errors grew from %lld to %lld since the result of %s: this drive "
                                        "is getting worse."),
                                      static_cast<long long>(integer_of(*previous, "nvme_media_errors", 0)), media,
                                      result_date_text(previous_at_us).c_str());
    }
    return verdict;
}

} // namespace

HealthVerdict drive_health(const SavedValueMap& health, const SavedValueMap* previous, std::int64_t previous_at_us)
{
    HealthVerdict verdict;
    if (health.empty())
        return verdict;
    if (text_of(health, "source") == "nvme")
        return nvme_health(health, previous, previous_at_us);
    verdict.known = true;
    const bool failing = boolean_of(health, "failing", false);
    const auto bad = static_cast<long long>(integer_of(health, "bad_sectors", 0));
    const double hours = number_of(health, "power_on_seconds", 0) / 3600;
    std::string state = failing ? _("FAILING: the drive predicts its own failure")
        : bad > 0 ? printf_text(g_dngettext(GETTEXT_PACKAGE, "%lld bad sector (reallocated or pending)",
                                            "%lld bad sectors (reallocated or pending)", static_cast<unsigned long>(bad)),
                                bad)
                  : std::string(_("Good: no bad sectors"));
    if (hours > 0)
        state += printf_text(_(", %.0f hours powered on"), hours);
    // The attributes that tell a dying drive, where it reports them and
    // they are not zero (Device.Health since API 0.10).
    const std::pair<const char*, const char*> counted[] {
        { "reallocated_sectors", N_("reallocated %lld") }, { "pending_sectors", N_("pending %lld") },
        { "offline_uncorrectable", N_("uncorrectable %lld") }, { "reported_uncorrectable", N_("reported errors %lld") },
        { "command_timeouts", N_("command timeouts %lld") }, { "crc_errors", N_("cable (CRC) errors %lld") },
    };
    std::string counts;
    for (const auto& [key, format] : counted)
        if (const auto count = static_cast<long long>(integer_of(health, key, 0)); count > 0)
            counts += (counts.empty() ? "" : ", ") + printf_text(gettext(format), count);
    if (!counts.empty())
        state += "; " + counts;
    verdict.summary = state;

    if (failing) {
        verdict.warn = true;
        verdict.warning = _("SMART says this drive is failing: copy what matters off it now.");
    } else if (previous && previous->count("smart_bad_sectors")) {
        const auto before = static_cast<long long>(integer_of(*previous, "smart_bad_sectors", 0));
        // The same for the reallocated and pending counts (5, 197), where
        // both the drive now and the kept result have them.
        const auto grew = [&](const char* key) {
            const std::string kept = std::string("smart_") + key;
            return health.count(key) && previous->count(kept)
                && integer_of(health, key, 0) > integer_of(*previous, kept.c_str(), 0);
        };
        if (bad > before) {
            verdict.warn = true;
            verdict.warning = printf_text(_("Its bad sectors grew from %lld to %lld since the result of %s: this "
                                            "drive is getting worse."),
                                          before, bad, result_date_text(previous_at_us).c_str());
        } else if (grew("reallocated_sectors") || grew("pending_sectors")) {
            verdict.warn = true;
            verdict.warning = printf_text(
                _("Its reallocated or pending sectors grew since the result of %s (reallocated %lld → %lld, pending "
                  "%lld → %lld): this drive is getting worse."),
                result_date_text(previous_at_us).c_str(),
                static_cast<long long>(integer_of(*previous, "smart_reallocated_sectors", 0)),
                static_cast<long long>(integer_of(health, "reallocated_sectors", 0)),
                static_cast<long long>(integer_of(*previous, "smart_pending_sectors", 0)),
                static_cast<long long>(integer_of(health, "pending_sectors", 0)));
        }
    }
    return verdict;
}

SavedValueMap health_at_start(const SavedValueMap& device_info)
{
    SavedValueMap health;
    for (const auto& [key, value] : device_info) {
        if (key.starts_with("nvme_"))
            health.emplace(key.substr(5), value);
        else if (key.starts_with("smart_"))
            health.emplace(key.substr(6), value);
    }
    if (health.count("source") == 0 && !health.empty()) // results before API 0.15: udisks' only
        health.emplace("source", std::string(device_info.count("nvme_critical_warning") ? "nvme" : "udisks-ata"));
    return health;
}

HealthVerdict device_health(const DeviceEntry& device, const std::vector<RecentResult>& results)
{
    if (device.health.empty())
        return {};
    const SavedValueMap identity = device_info_of(device);
    for (const RecentResult& kept : results) { // newest first
        const SavedValueMap& info = kept.result.device_info;
        if ((info.count("smart_bad_sectors") || info.count("nvme_media_errors")) && same_device(info, identity))
            return drive_health(device.health, &info, kept.result.started_at_us);
    }
    return drive_health(device.health, nullptr, 0);
}

} // namespace diskbench::client
