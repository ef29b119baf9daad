// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_list.hpp"

namespace diskbench::service {

std::string parameter_type_name(engine::ParamType type)
{
    switch (type) {
    case engine::ParamType::Boolean:
        return "boolean";
    case engine::ParamType::Unsigned:
        return "unsigned";
    case engine::ParamType::Real:
        return "number";
    case engine::ParamType::Text:
        return "string";
    }
    return "string";
}

std::string target_name(engine::TargetKind target)
{
    switch (target) {
    case engine::TargetKind::Device:
        return "device";
    case engine::TargetKind::DeviceWrite:
        return "device-write";
    case engine::TargetKind::Directory:
        return "directory";
    }
    return "device";
}

} // namespace diskbench::service
