// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures that several kinds write under one name, each declaring it in its
// own descriptor, for a client that reads them whatever the kind (a
// result's headline, its one-line summary). Not shared code's keys: a kind
// not named here does not write them, so common_keys.hpp does not declare
// them for every kind. The asserts keep the kinds' spellings one.

#include "contract/kinds/block.hpp"
#include "contract/kinds/device_write.hpp"
#include "contract/kinds/file_profile.hpp"
#include "contract/kinds/file_rw.hpp"
#include "contract/kinds/mixed_load.hpp"
#include "contract/kinds/overview.hpp"
#include "contract/kinds/profile.hpp"
#include "contract/kinds/seek.hpp"
#include "contract/kinds/sequential.hpp"
#include "contract/kinds/small_files.hpp"
#include "contract/kinds/surface.hpp"
#include "contract/kinds/sustained_write.hpp"
#include "contract/kinds/verify_capacity.hpp"
#include "contract/kinds/write_sweep.hpp"

#include <string_view>

namespace diskbench::contract::kinds::keys::shared {

// The run's mean throughput: sequential, surface, sustained-write.
inline constexpr std::string_view throughput_mb_s = sequential::throughput_mb_s;
static_assert(throughput_mb_s == surface::throughput_mb_s && throughput_mb_s == sustained_write::throughput_mb_s);

// Its mean read and write rates: overview, file-rw, small-files, mixed-load.
inline constexpr std::string_view read_mb_s = overview::read_mb_s;
inline constexpr std::string_view write_mb_s = overview::write_mb_s;
static_assert(read_mb_s == file_rw::read_mb_s && read_mb_s == small_files::read_mb_s
              && read_mb_s == mixed_load::read_mb_s);
static_assert(write_mb_s == file_rw::write_mb_s && write_mb_s == small_files::write_mb_s
              && write_mb_s == mixed_load::write_mb_s);

// The data moved, the time taken, the operations per second and the reads
// made: the run's, or a test's after "<test>." (kinds/test_keys.hpp).
inline constexpr std::string_view bytes = sequential::bytes;
static_assert(bytes == surface::bytes && bytes == block::bytes && bytes == sustained_write::bytes
              && bytes == small_files::bytes && bytes == file_rw::bytes && bytes == write_sweep::bytes
              && bytes == profile::bytes && bytes == device_write::bytes && bytes == file_profile::bytes);
inline constexpr std::string_view seconds = sustained_write::seconds;
static_assert(seconds == verify_capacity::seconds && seconds == profile::seconds && seconds == device_write::seconds);
inline constexpr std::string_view iops = profile::iops;
static_assert(iops == device_write::iops && iops == file_profile::iops);
inline constexpr std::string_view reads = seek::reads;
static_assert(reads == block::reads);

} // namespace diskbench::contract::kinds::keys::shared
