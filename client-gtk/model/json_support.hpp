// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// RAII and output helpers for json-glib, shared by the result files and the
// engine CLI (which writes results in the same file format).

#include <json-glib/json-glib.h>

#include <memory>
#include <string>

namespace diskbench::client {

struct GObjectUnref {
    void operator()(gpointer object) const noexcept { g_object_unref(object); }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;

// The builder's document as pretty-printed text, ending in a newline.
std::string json_text(JsonBuilder* builder);

} // namespace diskbench::client
