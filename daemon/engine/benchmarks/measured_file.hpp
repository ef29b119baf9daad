// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one filled file that folder benchmarks measure on (file-profile,
// file-qd-sweep; the "test file" of CrystalDiskMark's and fio's words), as
// CrystalDiskMark and fio lay theirs out:
// `file_size` bytes, scaled to the free space when not given, written
// front to back before any test (not timed).

#include "file_support.hpp"

namespace diskbench::engine::benchmarks {

inline constexpr std::uint64_t smallest_test_file = 16 * MiB;
inline constexpr std::uint64_t largest_test_file = 64 * GiB;
// The file is written in these, one at a time (not timed).
inline constexpr std::uint32_t test_file_fill_block = MiB;
// The share of the progress bar filling the file takes.
inline constexpr double test_file_fill_share = 0.05;

// `file_size`: 1 GiB by default, with the sizes a user picks from.
ParamSpec test_file_size_param();

// The file's size: what was asked, or (the default) what fits. A size the
// caller asked for that does not fit is refused as a full filesystem would
// be (IoError ENOSPC: NoSpace), before anything is written; a file smaller
// than `largest_block` is a ParameterError naming `block_key`.
std::uint64_t test_file_size(DirectoryContext& ctx, std::uint32_t largest_block, std::string_view block_key);

// Fills the new file front to back with seeded data, or `zeros` (not
// timed), syncs it and drops it from the page cache.
void fill_test_file(DirectoryContext& ctx, const ScratchFile& file, std::uint64_t size, const RequestBuffers* zeros);

} // namespace diskbench::engine::benchmarks
