// SPDX-License-Identifier: GPL-3.0-or-later
#include "stack.hpp"

#include "contract/kinds/common_keys.hpp"
#include "link.hpp"
#include "loop_identity.hpp"

#include <sys/stat.h>

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::storage {

namespace common_keys = contract::kinds::keys::common;

namespace fs = std::filesystem;

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& separator)
{
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : separator) + part;
    return text;
}

std::string dm_layer(const fs::path& directory)
{
    const std::string uuid = Sysfs::read_line(directory / "dm/uuid");
    const std::string name = Sysfs::read_line(directory / "dm/name");
    if (uuid.starts_with("CRYPT-"))
        return "dm-crypt";
    if (uuid.starts_with("LVM-"))
        return name.empty() ? "LVM" : "LVM " + name;
    if (uuid.starts_with("mpath-"))
        return "multipath";
    if (uuid.starts_with("VERITY-"))
        return "dm-verity";
    return name.empty() ? "device mapper" : "device mapper " + name;
}

std::vector<std::string> filesystem_layer(const Sysfs& sysfs, dev_t file_device, std::string& compression)
{
    const auto mount = sysfs.mount_of(file_device);
    if (!mount)
        return {};
    const auto options = result_affecting_options(mount->type, mount->options);
    for (const auto& option : options)
        if (option.starts_with("compress"))
            compression = mount->type + " " + option;
    if (options.empty())
        return { mount->type };
    return { fmt::format("{} ({})", mount->type, join(options, ", ")) };
}

void add_chain(const Sysfs& sysfs, fs::path at, Stack& stack)
{
    for (int depth = 0; depth < 16; ++depth) {
        const std::string name = block_name(at);
        std::error_code error;
        if (fs::is_directory(at / "dm", error)) {
            stack.layers.push_back(dm_layer(at));
        } else if (fs::is_directory(at / "md", error)) {
            const std::string level = Sysfs::read_line(at / "md/level");
            stack.layers.push_back(level.empty() ? "md " + name : fmt::format("md {} ({})", level, name));
        } else if (fs::is_directory(at / "loop", error)) {
            // The file is named by nobody: its path is text a user may have
            // chosen (loop_identity.hpp), and the layer is public.
            const bool direct = Sysfs::read_line(at / "loop/dio") == "1";
            const char* cached = direct ? "" : "page-cache-backed, ";
            const auto backing = loop_backing_identity(sysfs, name, Sysfs::device_number(at).value_or(0));
            if (!backing) {
                stack.layers.push_back(fmt::format("{} ({}backing file not identified)", name, cached));
                return;
            }
            std::string compression;
            const auto fs_layer = filesystem_layer(sysfs, backing->device, compression);
            if (!compression.empty())
                stack.compression = compression;
            stack.layers.push_back(
                fmt::format("{} ({}file{})", name, cached, fs_layer.empty() ? "" : " on " + fs_layer.front()));
            if (auto below = sysfs.filesystem_device(backing->device)) {
                at = *below;
                continue;
            }
            return;
        } else {
            stack.layers.push_back(name);
        }
        if (is_partition(at)) {
            at = at.parent_path();
            continue;
        }
        const auto slaves = Sysfs::entries(at / "slaves");
        if (slaves.empty())
            break;
        if (slaves.size() > 1)
            stack.layers.back() += fmt::format(" of {}", join(slaves, ", "));
        const fs::path next = fs::canonical(at / "slaves" / slaves.front(), error);
        if (error)
            break;
        at = next;
    }
    stack.link = find_link(at).text;
}

} // namespace

std::string Stack::line() const
{
    std::string text = join(layers, " → ");
    if (!link.empty())
        text += (text.empty() ? "" : ", ") + link;
    return text;
}

Stack device_stack(const Sysfs& sysfs, const fs::path& block_directory)
{
    Stack stack;
    add_chain(sysfs, block_directory, stack);
    return stack;
}

Stack filesystem_stack(const Sysfs& sysfs, dev_t file_device)
{
    Stack stack;
    std::string compression;
    stack.layers = filesystem_layer(sysfs, file_device, compression);
    stack.compression = compression;
    const std::optional<fs::path> device = sysfs.filesystem_device(file_device);
    if (device) {
        Stack below = device_stack(sysfs, *device);
        stack.layers.insert(stack.layers.end(), below.layers.begin(), below.layers.end());
        stack.link = below.link;
        if (stack.compression.empty())
            stack.compression = below.compression;
    }
    return stack;
}

std::vector<std::string> result_affecting_options(const std::string& type, const std::string& options)
{
    std::vector<std::string> found;
    std::size_t start = 0;
    while (start <= options.size()) {
        const std::size_t end = std::min(options.find(',', start), options.size());
        const std::string option = options.substr(start, end - start);
        start = end + 1;
        const bool affects = option == "sync" || option == "dirsync" || option == "noatime" || option == "strictatime"
            || option == "lazytime" || option == "nobarrier" || option == "barrier=0" || option == "data=journal"
            || option == "data=writeback" || option == "dax" || option.starts_with("dax=")
            || option.starts_with("compress") || option == "nodatacow" || option == "discard"
            || option.starts_with("commit=") || option == "journal_async_commit" || option == "norecovery";
        // Defaults some filesystems list anyway: not worth a word.
        const bool default_discard = option == "discard" && type != "ext4" && type != "xfs" && type != "btrfs";
        if (affects && !default_discard
            && std::find(found.begin(), found.end(), option) == found.end())
            found.push_back(option);
    }
    return found;
}

Stack stack_of(const Sysfs& sysfs, int fd)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return {};
    if (S_ISBLK(st.st_mode)) {
        const auto directory = sysfs.block_directory(st.st_rdev);
        return directory ? device_stack(sysfs, *directory) : Stack {};
    }
    return filesystem_stack(sysfs, st.st_dev);
}

void report_stack(const Stack& stack, Result& result, Recorder& recorder)
{
    const std::string line = stack.line();
    if (!line.empty())
        value_at(result.summary, common_keys::stack) = line;
    if (!stack.compression.empty())
        recorder.note(compression_note(stack.compression));
}

contract::Message compression_note(const std::string& compression)
{
    return { "compression-on-path", { { "compression", compression } } };
}

} // namespace diskbench::engine::storage
