// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A sysfs tree built in a temp dir, for hardware this machine lacks (NVMe
// on PCIe, SATA, USB, dm-crypt, md): the storage readers take a root
// directory, which only tests set to anything but "/". Paths and file
// contents copy what the kernel shows on real machines.

#include "scratch.hpp"

#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace diskbench::testing {

class SysfsTree {
public:
    [[nodiscard]] const std::filesystem::path& root() const noexcept { return dir_.path(); }

    // Writes `content` (plus a newline) to root/relative, making directories.
    void write(const std::string& relative, const std::string& content) const
    {
        const std::filesystem::path file = root() / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file) << content << "\n";
    }
    void mkdir(const std::string& relative) const { std::filesystem::create_directories(root() / relative); }
    // A symlink at root/relative pointing to `target` (relative, like the kernel's).
    void link(const std::string& relative, const std::string& target) const
    {
        const std::filesystem::path at = root() / relative;
        std::filesystem::create_directories(at.parent_path());
        std::filesystem::create_directory_symlink(target, at);
    }

    // A block device at sys/devices/<device_path> (ends in block/NAME or
    // block/DISK/PART), with sys/dev/block/M:m and sys/class/block/NAME
    // pointing at it and a stat file with the given sector counts.
    void block(const std::string& device_path, dev_t number, std::uint64_t read_sectors = 0,
               std::uint64_t write_sectors = 0) const
    {
        mkdir("sys/devices/" + device_path);
        set_stat(device_path, read_sectors, write_sectors);
        const std::string name = std::filesystem::path(device_path).filename().string();
        link("sys/dev/block/" + std::to_string(major(number)) + ":" + std::to_string(minor(number)),
             "../../devices/" + device_path);
        link("sys/class/block/" + name, "../../devices/" + device_path);
    }
    void set_stat(const std::string& device_path, std::uint64_t read_sectors, std::uint64_t write_sectors) const
    {
        write("sys/devices/" + device_path + "/stat",
              "     100        0 " + std::to_string(read_sectors) + "      40      200        0 "
                  + std::to_string(write_sectors) + "      80        0      120      120        0        0        0        0");
    }

private:
    ScratchDir dir_;
};

} // namespace diskbench::testing
