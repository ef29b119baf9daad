// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// RAII and output helpers for json-glib: the result files use them, and the
// engine CLI for its list of benchmarks.

#include <json-glib/json-glib.h>

#include <memory>
#include <string>

namespace diskbench::contract {

struct GObjectUnref {
    void operator()(gpointer object) const noexcept { g_object_unref(object); }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;

// The builder's document as pretty-printed text, ending in a newline.
std::string json_text(JsonBuilder* builder);

} // namespace diskbench::contract
