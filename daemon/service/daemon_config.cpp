// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon_config.hpp"

#include <glib.h>

#include <cerrno>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

namespace diskbench::service {

namespace {

constexpr std::size_t max_jobs_limit = 1000;

struct KeyFileFree {
    void operator()(GKeyFile* file) const { g_key_file_free(file); }
};
struct ErrorFree {
    void operator()(GError* error) const { g_error_free(error); }
};
struct TextFree {
    void operator()(gchar* text) const { g_free(text); }
};

} // namespace

DaemonConfig read_daemon_config(const std::string& path)
{
    DaemonConfig config;
    std::unique_ptr<GKeyFile, KeyFileFree> file(g_key_file_new());
    GError* raw_error = nullptr;
    if (!g_key_file_load_from_file(file.get(), path.c_str(), G_KEY_FILE_NONE, &raw_error)) {
        const std::unique_ptr<GError, ErrorFree> error(raw_error);
        if (!g_error_matches(error.get(), G_FILE_ERROR, G_FILE_ERROR_NOENT))
            config.problems.push_back(fmt::format("{}: {}", path, error->message));
        return config;
    }
    // A key or group this version does not know is said, not skipped: a
    // misspelt MaxJobsPerUser would otherwise leave the default in force
    // with nothing to tell the admin why.
    gsize group_count = 0;
    const std::unique_ptr<gchar*, decltype(&g_strfreev)> groups(g_key_file_get_groups(file.get(), &group_count),
                                                                 g_strfreev);
    for (gsize g = 0; g < group_count; ++g) {
        const std::string group = groups.get()[g];
        if (group != "Limits") {
            config.problems.push_back(fmt::format("{}: unknown group [{}]", path, group));
            continue;
        }
        gsize key_count = 0;
        const std::unique_ptr<gchar*, decltype(&g_strfreev)> keys(
            g_key_file_get_keys(file.get(), group.c_str(), &key_count, nullptr), g_strfreev);
        for (gsize k = 0; k < key_count; ++k)
            if (std::string(keys.get()[k]) != "MaxJobsPerUser")
                config.problems.push_back(fmt::format("{}: unknown key {} in [Limits]", path, keys.get()[k]));
    }
    // Read as text and parsed here: g_key_file_get_integer() takes "16abc"
    // as 16 and a negative number as itself.
    std::unique_ptr<gchar, TextFree> text(g_key_file_get_value(file.get(), "Limits", "MaxJobsPerUser", nullptr));
    if (text) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long value = std::strtoull(text.get(), &end, 10);
        if (text.get()[0] >= '0' && text.get()[0] <= '9' && *end == '\0' && errno == 0 && value >= 1
            && value <= max_jobs_limit)
            config.max_jobs_per_user = static_cast<std::size_t>(value);
        else
            config.problems.push_back(fmt::format("{}: MaxJobsPerUser={}: not a number from 1 to {}", path,
                                                  text.get(), max_jobs_limit));
    }
    return config;
}

} // namespace diskbench::service
