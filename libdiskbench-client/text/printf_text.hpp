// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <glib.h>

#include <memory>
#include <string>

namespace diskbench::client {

// A (translated) printf format filled in, as a std::string; gettext checks
// a translation's placeholders against the original's. Strings are passed
// as const char*.
template <typename... Args> std::string printf_text(const char* format, Args... args)
{
    const std::unique_ptr<gchar, decltype(&g_free)> text(g_strdup_printf(format, args...), g_free);
    return text ? std::string(text.get()) : std::string();
}

} // namespace diskbench::client
