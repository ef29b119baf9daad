// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_claims.hpp"

namespace diskbench::service {

void DeviceClaims::claim(const std::string& job_path, const system::DeviceFacts& device)
{
    claims_[job_path] = Claim { device.udisks_block, device.parent_block };
}

void DeviceClaims::claim_filesystem(const std::string& job_path, dev_t filesystem)
{
    filesystem_claims_[job_path] = filesystem;
}

void DeviceClaims::release(const std::string& job_path)
{
    claims_.erase(job_path);
    filesystem_claims_.erase(job_path);
}

std::string DeviceClaims::filesystem_job(dev_t filesystem) const
{
    for (const auto& [job, claimed] : filesystem_claims_)
        if (claimed == filesystem)
            return job;
    return {};
}

std::string DeviceClaims::conflicting_job(const system::DeviceFacts& wanted) const
{
    for (const auto& [job, busy] : claims_) {
        const bool same = busy.block == wanted.udisks_block;
        const bool parent = !wanted.parent_block.empty() && busy.block == wanted.parent_block;
        const bool child = !busy.parent_block.empty() && busy.parent_block == wanted.udisks_block;
        const bool sibling = !wanted.parent_block.empty() && busy.parent_block == wanted.parent_block;
        if (same || parent || child || sibling)
            return job;
    }
    return {};
}

std::string DeviceClaims::job_on(const std::string& udisks_block) const
{
    for (const auto& [job, claim] : claims_)
        if (claim.block == udisks_block)
            return job;
    return {};
}

} // namespace diskbench::service
