// SPDX-License-Identifier: GPL-3.0-or-later
#include "sysfs.hpp"

#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace diskbench::engine::storage {

namespace fs = std::filesystem;

std::optional<BlockCounters> parse_block_stat(const std::string& text)
{
    // Fields (Documentation/block/stat.rst): read I/Os, read merges, read
    // sectors, read ticks, write I/Os, write merges, write sectors, ...
    std::istringstream in(text);
    std::uint64_t field[7] {};
    for (auto& value : field)
        if (!(in >> value))
            return std::nullopt;
    return BlockCounters { field[2] * 512, field[6] * 512 };
}

Sysfs::Sysfs(fs::path root) : root_(std::move(root)) {}

std::optional<fs::path> Sysfs::block_directory(dev_t device) const
{
    const fs::path link = root_ / "sys/dev/block" / fmt::format("{}:{}", major(device), minor(device));
    std::error_code error;
    fs::path resolved = fs::canonical(link, error);
    if (error || !fs::is_directory(resolved, error))
        return std::nullopt;
    return resolved;
}

std::optional<BlockCounters> Sysfs::counters(const fs::path& block_directory) const
{
    std::ifstream in(block_directory / "stat");
    if (!in)
        return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    return parse_block_stat(text.str());
}

std::string Sysfs::read_line(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    if (in)
        std::getline(in, line);
    return line;
}

std::vector<std::string> Sysfs::entries(const fs::path& directory)
{
    std::vector<std::string> names;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape_mountinfo(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 3 < text.size()) {
            const std::string octal = text.substr(i + 1, 3);
            if (std::all_of(octal.begin(), octal.end(), [](char c) { return c >= '0' && c <= '7'; })) {
                out += static_cast<char>(std::stoi(octal, nullptr, 8));
                i += 3;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

} // namespace

std::optional<Sysfs::Mount> Sysfs::mount_of(dev_t device) const
{
    std::ifstream in(root_ / "proc/self/mountinfo");
    const std::string wanted = fmt::format("{}:{}", major(device), minor(device));
    std::string line;
    std::optional<Mount> found;
    while (std::getline(in, line)) {
        // id parent major:minor root mount-point options [optional...] - type source super-options
        std::istringstream fields(line);
        std::string id, parent, numbers, root, mount_point, options;
        if (!(fields >> id >> parent >> numbers >> root >> mount_point >> options) || numbers != wanted)
            continue;
        std::string word;
        while (fields >> word && word != "-") {
        }
        Mount mount;
        std::string super_options;
        fields >> mount.type >> mount.source >> super_options;
        mount.source = unescape_mountinfo(mount.source);
        mount.mount_point = unescape_mountinfo(mount_point);
        mount.options = options + "," + super_options;
        found = mount; // the last one is on top
    }
    return found;
}

bool plain_name(const std::string& name)
{
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos;
}

std::optional<dev_t> Sysfs::device_number(const fs::path& block_directory)
{
    unsigned major_number = 0, minor_number = 0;
    if (std::sscanf(Sysfs::read_line(block_directory / "dev").c_str(), "%u:%u", &major_number, &minor_number) != 2)
        return std::nullopt;
    return makedev(major_number, minor_number);
}

std::optional<dev_t> Sysfs::device_named(const std::string& source) const
{
    const fs::path devices = root_ / "sys/class/block";
    if (source.starts_with("/dev/mapper/")) {
        const std::string name = source.substr(12);
        if (!plain_name(name))
            return std::nullopt;
        for (const std::string& entry : entries(devices))
            if (entry.starts_with("dm-") && read_line(devices / entry / "dm/name") == name)
                return device_number(devices / entry);
        return std::nullopt;
    }
    if (!source.starts_with("/dev/") || !plain_name(source.substr(5)))
        return std::nullopt;
    return device_number(devices / source.substr(5));
}

std::optional<fs::path> Sysfs::filesystem_device(dev_t file_device) const
{
    if (auto device = block_directory(file_device))
        return device;
    if (const auto mount = mount_of(file_device))
        if (const auto source = device_named(mount->source))
            return block_directory(*source);
    return std::nullopt;
}

std::string block_name(const fs::path& block_directory)
{
    return block_directory.filename().string();
}

bool is_partition(const fs::path& block_directory)
{
    std::error_code error;
    return fs::exists(block_directory / "partition", error);
}

} // namespace diskbench::engine::storage
