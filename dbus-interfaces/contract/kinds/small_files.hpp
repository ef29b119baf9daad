// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the small-files benchmark (engine's small_files.cpp):
// the tree, and per phase (directories, write, read, delete) its seconds and
// rates.

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::small_files {

inline constexpr std::string_view directories = "directories";
inline constexpr std::string_view files = "files";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view tree_checksum = "tree_checksum";
inline constexpr std::string_view phases = "phases";
inline constexpr std::string_view directories_s = "directories_s";
inline constexpr std::string_view directories_ops_s = "directories_ops_s";
inline constexpr std::string_view write_s = "write_s";
inline constexpr std::string_view write_files_s = "write_files_s";
inline constexpr std::string_view write_mb_s = "write_mb_s";
inline constexpr std::string_view files_cached_before_read = "files_cached_before_read";
inline constexpr std::string_view read_s = "read_s";
inline constexpr std::string_view read_files_s = "read_files_s";
inline constexpr std::string_view read_mb_s = "read_mb_s";
inline constexpr std::string_view delete_s = "delete_s";
inline constexpr std::string_view delete_ops_s = "delete_ops_s";

inline constexpr std::array declared_keys {
    directories, files, bytes, tree_checksum, phases, directories_s, directories_ops_s, write_s, write_files_s,
    write_mb_s, files_cached_before_read, read_s, read_files_s, read_mb_s, delete_s, delete_ops_s,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::small_files
