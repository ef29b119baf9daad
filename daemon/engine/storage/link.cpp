// SPDX-License-Identifier: GPL-3.0-or-later
#include "link.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

namespace diskbench::engine::storage {

namespace fs = std::filesystem;

namespace {

bool present(const fs::path& path)
{
    std::error_code error;
    return fs::exists(path, error);
}

double number(const std::string& text)
{
    return std::strtod(text.c_str(), nullptr);
}

// Usable bandwidth per lane after line encoding (8b/10b to PCIe 2.0,
// 128b/130b from 3.0, FLIT from 6.0), in MB/s.
struct PcieGeneration {
    double transfers; // GT/s
    const char* name;
    double lane_mb_s;
};
constexpr PcieGeneration generations[] = {
    { 2.5, "1.0", 250 }, { 5.0, "2.0", 500 }, { 8.0, "3.0", 984.6 },
    { 16.0, "4.0", 1969.2 }, { 32.0, "5.0", 3938.5 }, { 64.0, "6.0", 7563 },
};

const PcieGeneration* generation_of(const std::string& speed)
{
    const double transfers = number(speed);
    for (const auto& generation : generations)
        if (std::abs(generation.transfers - transfers) < 0.1)
            return &generation;
    return nullptr;
}

// A PCI function with link attributes: the NVMe controller (or the HBA).
bool is_pci_function(const fs::path& directory)
{
    return present(directory / "current_link_speed") && present(directory / "max_link_speed");
}

Link pcie_link(const fs::path& function)
{
    const std::string current_speed = Sysfs::read_line(function / "current_link_speed");
    const std::string max_speed = Sysfs::read_line(function / "max_link_speed");
    const auto current_width = static_cast<unsigned>(number(Sysfs::read_line(function / "current_link_width")));
    auto max_width = static_cast<unsigned>(number(Sysfs::read_line(function / "max_link_width")));
    const PcieGeneration* current = generation_of(current_speed);
    const PcieGeneration* best = generation_of(max_speed);
    // The port above (root port or switch) limits it too: "both ends".
    const fs::path port = function.parent_path();
    if (is_pci_function(port)) {
        const PcieGeneration* port_best = generation_of(Sysfs::read_line(port / "max_link_speed"));
        if (port_best && best && port_best->transfers < best->transfers)
            best = port_best;
        const auto port_width = static_cast<unsigned>(number(Sysfs::read_line(port / "max_link_width")));
        if (port_width > 0 && port_width < max_width)
            max_width = port_width;
    }
    Link link;
    link.kind = LinkKind::Pcie;
    if (!current || current_width == 0) {
        link.text = "PCIe";
        return link;
    }
    link.text = fmt::format("PCIe {} x{}", current->name, current_width);
    link.limit_mb_s = current->lane_mb_s * current_width;
    if (best && max_width > 0 && (best->transfers > current->transfers || max_width > current_width))
        link.degraded = fmt::format("PCIe {} x{} of {} x{}", current->name, current_width, best->name, max_width);
    return link;
}

// ata3/link3/ata_link/link3/sata_spd ("6.0 Gbps"; "<unknown>" when down).
Link sata_link(const fs::path& port)
{
    Link link;
    link.kind = LinkKind::Sata;
    link.text = "SATA";
    for (const auto& name : Sysfs::entries(port)) {
        if (!name.starts_with("link"))
            continue;
        const fs::path attributes = port / name / "ata_link" / name;
        const std::string speed = Sysfs::read_line(attributes / "sata_spd");
        const double gbps = number(speed);
        if (gbps <= 0)
            continue;
        link.text = fmt::format("SATA {:.1f} Gbps", gbps);
        link.limit_mb_s = gbps * 100; // 8b/10b: 10 bits a byte
        const double host_gbps = number(Sysfs::read_line(attributes / "hw_sata_spd_limit"));
        if (host_gbps > gbps + 0.01)
            link.degraded = fmt::format("SATA {:.1f} of {:.1f} Gbps", gbps, host_gbps);
        break;
    }
    return link;
}

// The USB device (not interface) above the disk: it has `speed` in Mbit/s.
Link usb_link(const fs::path& device)
{
    Link link;
    link.kind = LinkKind::Usb;
    const double mbps = number(Sysfs::read_line(device / "speed"));
    // After line encoding: 8b/10b to 5 Gbps, 128b/132b above.
    struct UsbSpeed {
        double mbps;
        const char* name;
        double mb_s;
    };
    static constexpr UsbSpeed speeds[] = {
        { 1.5, "USB 1.0", 0.1875 }, { 12, "USB 1.1", 1.5 }, { 480, "USB 2", 60 },
        { 5000, "USB 5Gbps", 500 }, { 10000, "USB 10Gbps", 1212 }, { 20000, "USB 20Gbps", 2424 },
    };
    for (const auto& speed : speeds)
        if (std::abs(speed.mbps - mbps) < 0.5) {
            link.text = fmt::format("{} ({} Mbps)", speed.name, mbps < 10 ? fmt::format("{:.1f}", mbps)
                                                                            : fmt::format("{:.0f}", mbps));
            link.limit_mb_s = speed.mb_s;
            return link;
        }
    link.text = "USB";
    return link;
}

} // namespace

std::string pcie_generation(const std::string& speed)
{
    const PcieGeneration* generation = generation_of(speed);
    return generation ? generation->name : "";
}

double pcie_lane_mb_s(const std::string& speed)
{
    const PcieGeneration* generation = generation_of(speed);
    return generation ? generation->lane_mb_s : 0;
}

fs::path bottom_disk(const fs::path& block_directory)
{
    fs::path at = block_directory;
    for (int depth = 0; depth < 16; ++depth) {
        if (is_partition(at)) {
            at = at.parent_path();
            continue;
        }
        const auto slaves = Sysfs::entries(at / "slaves");
        if (slaves.empty())
            break;
        std::error_code error;
        const fs::path next = fs::canonical(at / "slaves" / slaves.front(), error);
        if (error)
            break;
        at = next;
    }
    return at;
}

bool rotational(const fs::path& block_directory)
{
    return Sysfs::read_line(bottom_disk(block_directory) / "queue/rotational") == "1";
}

Link find_link(const fs::path& block_directory)
{
    const fs::path disk = bottom_disk(block_directory);
    const std::string name = block_name(disk);
    for (const char* prefix : { "loop", "zram", "ram", "nbd" })
        if (name.starts_with(prefix))
            return { LinkKind::Virtual, fmt::format("virtual ({})", prefix), 0, {} };
    const std::string path = disk.string();
    if (path.find("/virtio") != std::string::npos)
        return { LinkKind::Virtual, "virtual (virtio)", 0, {} };
    // Walk up from the disk: the first USB device, ATA port or PCI function
    // with link attributes decides.
    for (fs::path up = disk.parent_path(); up.has_relative_path() && up != up.parent_path(); up = up.parent_path()) {
        const std::string element = up.filename().string();
        if (present(up / "speed") && present(up / "idVendor"))
            return usb_link(up);
        if (element.starts_with("ata") && element.size() > 3
            && std::all_of(element.begin() + 3, element.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return sata_link(up);
        if (is_pci_function(up))
            return pcie_link(up);
        if (element == "devices")
            break;
    }
    if (path.find("/virtual/") != std::string::npos)
        return { LinkKind::Virtual, "virtual", 0, {} };
    return {};
}

} // namespace diskbench::engine::storage
