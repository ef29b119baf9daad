// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the daemon is on the bus: its well-known name, its object paths and
// interface names, written once for the daemon, the clients and their
// tests. They must match the introspection XML (org.diskbench.DiskBench1.xml);
// the daemon checks that against its generated adaptors at compile time.

#include <string_view>

namespace diskbench::contract::bus {

inline constexpr const char* name = "org.diskbench.DiskBench1";

// The root object: Manager and the ObjectManager of every Device and Job.
inline constexpr const char* root_path = "/org/diskbench/DiskBench1";
// Device objects are root_path + devices_element + a name, Job objects
// root_path + jobs_element + a number ("/org/diskbench/DiskBench1/jobs/3").
inline constexpr std::string_view devices_element = "/devices/";
inline constexpr std::string_view jobs_element = "/jobs/";

inline constexpr const char* manager_interface = "org.diskbench.DiskBench1.Manager";
inline constexpr const char* device_interface = "org.diskbench.DiskBench1.Device";
inline constexpr const char* job_interface = "org.diskbench.DiskBench1.Job";

// Manager.Features' entry, and the call option it offers (API 0.16): a
// refusal with its failure as data after the message (sdbus_types/failure_data.hpp).
inline constexpr const char* failure_data_feature = "failure-data";
inline constexpr const char* failure_data_option = "failure_data";

} // namespace diskbench::contract::bus
