// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"

#include <map>
#include <string>

namespace diskbench::service {

// Which running job uses which block device. Kept by job, not on the Device
// objects: udisks may withdraw and re-announce a device (a change event, a
// media change) while a job runs on it, and its new Device object must not
// look free.
//
// A folder job on a filesystem that is on none of our Devices (tmpfs, a
// network or FUSE filesystem, a btrfs subvolume's anonymous device) claims
// the filesystem itself, by its st_dev: two benchmarks in one filesystem
// would measure neither, and unclaimed they could run without bound.
class DeviceClaims {
public:
    void claim(const std::string& job_path, const system::DeviceFacts& device);
    void claim_filesystem(const std::string& job_path, dev_t filesystem);
    void release(const std::string& job_path);
    // The job running in the filesystem with st_dev `filesystem`, or "".
    [[nodiscard]] std::string filesystem_job(dev_t filesystem) const;

    // The job whose device shares hardware with `device`: the same block
    // device, its disk, one of its partitions or a sibling partition
    // (benchmarking two of them at once would measure neither). "" when
    // there is none.
    [[nodiscard]] std::string conflicting_job(const system::DeviceFacts& device) const;
    // The job running on exactly the block device `udisks_block`, or "".
    [[nodiscard]] std::string job_on(const std::string& udisks_block) const;

private:
    struct Claim {
        std::string block;        // udisks object path
        std::string parent_block; // its disk's, for a partition
    };
    std::map<std::string, Claim> claims_; // by job path
    std::map<std::string, dev_t> filesystem_claims_; // by job path
};

} // namespace diskbench::service
