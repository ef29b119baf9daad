// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace diskbench::client {

// Writes `bytes` to a new file next to `path` and renames it over `path`,
// so a failed export never leaves a half-written picture behind (nor
// damages one that was there). Returns 0 or the errno of what failed.
int write_file_atomically(const std::string& path, std::string_view bytes);

} // namespace diskbench::client
