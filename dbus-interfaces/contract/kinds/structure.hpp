// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the directory-structure benchmark (engine's
// structure.cpp): the tree, and per phase (create, delete) its seconds and
// its entries per second.

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::structure {

inline constexpr std::string_view directories = "directories";
inline constexpr std::string_view files = "files";
inline constexpr std::string_view tree_checksum = "tree_checksum";
inline constexpr std::string_view phases = "phases";
inline constexpr std::string_view create_s = "create_s";
inline constexpr std::string_view create_ops_s = "create_ops_s";
inline constexpr std::string_view delete_s = "delete_s";
inline constexpr std::string_view delete_ops_s = "delete_ops_s";

inline constexpr std::array declared_keys {
    directories, files, tree_checksum, phases, create_s, create_ops_s, delete_s, delete_ops_s,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::structure
