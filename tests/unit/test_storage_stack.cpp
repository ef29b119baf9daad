// SPDX-License-Identifier: GPL-3.0-or-later
// The link and the stack, from sysfs trees built here: this machine has no
// NVMe, SATA, USB, dm-crypt or md device (a virtio disk and loop devices
// only), so their sysfs is copied into a temp dir the reader is pointed at.
#include "storage/cross_check.hpp"
#include "storage/link.hpp"
#include "storage/stack.hpp"
#include "sysfs_tree.hpp"

#include <catch2/catch.hpp>

using namespace diskbench::engine;
using namespace diskbench::engine::storage;
using diskbench::testing::SysfsTree;

namespace {

const std::string port = "pci0000:00/0000:00:01.1";
const std::string nvme_function = port + "/0000:01:00.0";
const std::string nvme_disk = nvme_function + "/nvme/nvme0/nvme0n1";
const std::string sata_host = "pci0000:00/0000:00:17.0";
const std::string sda = sata_host + "/ata2/host1/target1:0:0/1:0:0:0/block/sda";
const std::string sdc = sata_host + "/ata3/host2/target2:0:0/2:0:0:0/block/sdc";
const std::string usb_device = "pci0000:00/0000:00:14.0/usb1/1-2";
const std::string sdb = usb_device + "/1-2:1.0/host6/target6:0:0/6:0:0:0/block/sdb";

void pcie(const SysfsTree& tree, const std::string& function, const std::string& current, int current_width,
          const std::string& best, int best_width)
{
    tree.write("sys/devices/" + function + "/current_link_speed", current);
    tree.write("sys/devices/" + function + "/current_link_width", std::to_string(current_width));
    tree.write("sys/devices/" + function + "/max_link_speed", best);
    tree.write("sys/devices/" + function + "/max_link_width", std::to_string(best_width));
}

// An NVMe drive that can do PCIe 4.0 x4 in a slot that can too, running at
// 3.0 x4; a partition with dm-crypt on it.
void build_nvme(const SysfsTree& tree, const std::string& current = "8.0 GT/s PCIe")
{
    pcie(tree, port, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
    pcie(tree, nvme_function, current, 4, "16.0 GT/s PCIe", 4);
    tree.block(nvme_disk, makedev(259, 0));
    tree.write("sys/devices/" + nvme_disk + "/queue/rotational", "0");
    tree.block(nvme_disk + "/nvme0n1p3", makedev(259, 3));
    tree.write("sys/devices/" + nvme_disk + "/nvme0n1p3/partition", "3");
    tree.block("virtual/block/dm-0", makedev(253, 0));
    tree.write("sys/devices/virtual/block/dm-0/dm/uuid", "CRYPT-LUKS2-0123456789abcdef0123456789abcdef-luks-home");
    tree.write("sys/devices/virtual/block/dm-0/dm/name", "luks-home");
    tree.link("sys/devices/virtual/block/dm-0/slaves/nvme0n1p3", "../../../../" + nvme_disk + "/nvme0n1p3");
    tree.link("sys/devices/" + nvme_disk + "/nvme0n1p3/holders/dm-0", "../../../../../../../../../virtual/block/dm-0");
}

// Two SATA disks, one at 3.0 of the host's 6.0 Gbps, rotating; md raid1
// over a partition of each.
void build_sata_md(const SysfsTree& tree)
{
    pcie(tree, sata_host, "8.0 GT/s PCIe", 1, "8.0 GT/s PCIe", 1); // the AHCI controller: not the disk's link
    for (auto [disk, ata, number, speed] : { std::tuple { sda, std::string("ata2"), 0, std::string("3.0 Gbps") },
                                             std::tuple { sdc, std::string("ata3"), 32, std::string("6.0 Gbps") } }) {
        const std::string link = sata_host + "/" + ata + "/link" + ata.substr(3) + "/ata_link/link" + ata.substr(3);
        tree.write("sys/devices/" + link + "/sata_spd", speed);
        tree.write("sys/devices/" + link + "/hw_sata_spd_limit", "6.0 Gbps");
        tree.block(disk, makedev(8, number));
        tree.write("sys/devices/" + disk + "/queue/rotational", "1");
        const std::string name = std::filesystem::path(disk).filename().string();
        tree.block(disk + "/" + name + "1", makedev(8, number + 1));
        tree.write("sys/devices/" + disk + "/" + name + "1/partition", "1");
    }
    tree.block("virtual/block/md0", makedev(9, 0));
    tree.write("sys/devices/virtual/block/md0/md/level", "raid1");
    tree.link("sys/devices/virtual/block/md0/slaves/sda1", "../../../../" + sda + "/sda1");
    tree.link("sys/devices/virtual/block/md0/slaves/sdc1", "../../../../" + sdc + "/sdc1");
}

void build_usb(const SysfsTree& tree)
{
    tree.write("sys/devices/pci0000:00/0000:00:14.0/usb1/speed", "480");
    tree.write("sys/devices/pci0000:00/0000:00:14.0/usb1/idVendor", "1d6b");
    tree.write("sys/devices/" + usb_device + "/speed", "480");
    tree.write("sys/devices/" + usb_device + "/idVendor", "0781");
    tree.write("sys/devices/" + usb_device + "/version", " 2.10");
    tree.block(sdb, makedev(8, 16));
    tree.write("sys/devices/" + sdb + "/queue/rotational", "0");
}

std::filesystem::path directory(const SysfsTree& tree, dev_t number)
{
    const auto found = Sysfs(tree.root()).block_directory(number);
    REQUIRE(found);
    return *found;
}

Result reported(const CheckedDevices& devices, const std::vector<PhaseFigures>& phases)
{
    Result result;
    Recorder recorder(result, nullptr);
    report_phases(devices, phases, result, recorder);
    return result;
}

} // namespace

TEST_CASE("NVMe: PCIe generation and width from the PCI function, below what both ends support", "[storage]")
{
    SysfsTree tree;
    build_nvme(tree);
    const Link link = find_link(directory(tree, makedev(259, 3)));
    CHECK(link.kind == LinkKind::Pcie);
    CHECK(link.text == "PCIe 3.0 x4");
    CHECK(link.limit_mb_s == Approx(3938.4));
    CHECK(link.degraded == "PCIe 3.0 x4 of 4.0 x4");

    SysfsTree full;
    build_nvme(full, "16.0 GT/s PCIe");
    const Link fine = find_link(directory(full, makedev(259, 0)));
    CHECK(fine.text == "PCIe 4.0 x4");
    CHECK(fine.degraded.empty());

    // The slot can only do 3.0: the drive running at 3.0 is as good as it gets.
    SysfsTree slot;
    build_nvme(slot);
    pcie(slot, port, "8.0 GT/s PCIe", 4, "8.0 GT/s PCIe", 4);
    CHECK(find_link(directory(slot, makedev(259, 0))).degraded.empty());
}

TEST_CASE("SATA: the ata_link speed, not the controller's PCIe link", "[storage]")
{
    SysfsTree tree;
    build_sata_md(tree);
    const Link link = find_link(directory(tree, makedev(8, 1)));
    CHECK(link.kind == LinkKind::Sata);
    CHECK(link.text == "SATA 3.0 Gbps");
    CHECK(link.limit_mb_s == Approx(300));
    CHECK(link.degraded == "SATA 3.0 of 6.0 Gbps");
    CHECK(find_link(directory(tree, makedev(8, 32))).degraded.empty());
}

TEST_CASE("USB: the speed of the USB device above the disk", "[storage]")
{
    SysfsTree tree;
    build_usb(tree);
    const Link link = find_link(directory(tree, makedev(8, 16)));
    CHECK(link.kind == LinkKind::Usb);
    CHECK(link.text == "USB 2 (480 Mbps)");
    CHECK(link.limit_mb_s == Approx(60));
}

TEST_CASE("loop and virtio devices are virtual", "[storage]")
{
    SysfsTree tree;
    tree.block("virtual/block/loop3", makedev(7, 3));
    tree.block("pci0000:00/0000:00:02.0/virtio1/block/vda", makedev(254, 0));
    CHECK(find_link(directory(tree, makedev(7, 3))).text == "virtual (loop)");
    CHECK(find_link(directory(tree, makedev(7, 3))).kind == LinkKind::Virtual);
    CHECK(find_link(directory(tree, makedev(254, 0))).text == "virtual (virtio)");
}

TEST_CASE("a folder's stack: filesystem with its options, dm-crypt, partition, disk, link", "[storage]")
{
    SysfsTree tree;
    build_nvme(tree);
    tree.write("proc/self/mountinfo", "1 0 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
                                      "36 1 253:0 / /home rw,noatime shared:1 - ext4 /dev/mapper/luks-home rw,commit=60");
    const Stack stack = filesystem_stack(Sysfs(tree.root()), makedev(253, 0));
    CHECK(stack.line() == "ext4 (noatime, commit=60) → dm-crypt → nvme0n1p3 → nvme0n1, PCIe 3.0 x4");
    CHECK(stack.compression.empty());
    CHECK(device_stack(Sysfs(tree.root()), directory(tree, makedev(259, 3))).line() == "nvme0n1p3 → nvme0n1, PCIe 3.0 x4");
}

TEST_CASE("md over two SATA partitions, LVM, and btrfs compression", "[storage]")
{
    SysfsTree tree;
    build_sata_md(tree);
    tree.block("virtual/block/dm-1", makedev(253, 1));
    tree.write("sys/devices/virtual/block/dm-1/dm/uuid", "LVM-abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcd");
    tree.write("sys/devices/virtual/block/dm-1/dm/name", "vg0-data");
    tree.link("sys/devices/virtual/block/dm-1/slaves/md0", "../../md0");
    tree.write("proc/self/mountinfo", "40 1 0:45 / /data rw,relatime - btrfs /dev/mapper/vg0-data "
                                      "rw,compress=zstd:3,ssd,space_cache=v2,subvolid=5,subvol=/");
    CHECK(device_stack(Sysfs(tree.root()), directory(tree, makedev(253, 1))).line()
          == "LVM vg0-data → md raid1 (md0) of sda1, sdc1 → sda1 → sda, SATA 3.0 Gbps");
    // btrfs's st_dev is anonymous (0:45) and /dev/mapper/vg0-data does not
    // exist here: the filesystem layer alone, with its compression.
    const Stack folder = filesystem_stack(Sysfs(tree.root()), makedev(0, 45));
    CHECK(folder.line() == "btrfs (compress=zstd:3)");
    CHECK(folder.compression == "btrfs compress=zstd:3");
    CHECK_THAT(diskbench::contract::english_text(compression_note(folder.compression)), Catch::Contains("does not compress"));
}

TEST_CASE("result-affecting mount options are picked, defaults left out", "[storage]")
{
    CHECK(result_affecting_options("ext4", "rw,relatime,sync,data=ordered") == std::vector<std::string> { "sync" });
    CHECK(result_affecting_options("xfs", "rw,noatime,nobarrier,attr2,inode64")
          == std::vector<std::string> { "noatime", "nobarrier" });
    CHECK(result_affecting_options("ext4", "rw,relatime").empty());
}

TEST_CASE("throughput above the link's limit and a link below both ends are warned about", "[storage]")
{
    SysfsTree tree;
    build_usb(tree);
    CheckedDevices devices;
    devices.device = CheckedDevice { directory(tree, makedev(8, 16)), "sdb" };
    PhaseFigures fast { "SEQ1M Q8T1", 200'000'000, 0, 200'000'000, 0 };
    fast.seconds = 1;
    fast.operations = 200;
    PhaseFigures slow { "SEQ1M Q1T1", 50'000'000, 0, 50'000'000, 0 };
    slow.seconds = 1;
    slow.operations = 50;
    const Result result = reported(devices, { fast, slow });
    REQUIRE(result.warnings.size() == 1);
    CHECK(result.warnings[0]
          == "faster than a USB 2 (480 Mbps) link allows: 200 MB/s during SEQ1M Q8T1, where the link carries at most "
             "60 MB/s: a cache answered");
    CHECK(std::get<std::string>(result.summary.at("link")) == "USB 2 (480 Mbps)");
    CHECK(std::get<double>(result.summary.at("link_limit_mb_s")) == Approx(60));
    CHECK(reported(devices, { slow }).warnings.empty());

    SysfsTree nvme;
    build_nvme(nvme);
    devices.device = CheckedDevice { directory(nvme, makedev(259, 3)), "nvme0n1p3" };
    const Result degraded = reported(devices, { slow });
    REQUIRE(degraded.warnings.size() == 1);
    CHECK(degraded.warnings[0] == "the link runs below what both its ends support: PCIe 3.0 x4 of 4.0 x4, which carries "
                                  "at most 3938 MB/s");
}

TEST_CASE("random reads a rotating disk cannot do are warned about; not writes, not for a loop device", "[storage]")
{
    SysfsTree tree;
    build_sata_md(tree);
    tree.block("virtual/block/loop0", makedev(7, 0));
    tree.write("sys/devices/virtual/block/loop0/queue/rotational", "1"); // as loop devices over a virtual disk say
    CheckedDevices devices;
    devices.device = CheckedDevice { directory(tree, makedev(8, 32)), "sdc" };
    PhaseFigures random { "RND4K Q1T1", 4096 * 500, 0, 4096 * 500, 0 };
    random.seconds = 1;
    random.operations = 500;
    random.latency_sum_us = 500 * 200.0; // 0.2 ms a read
    random.random = true;
    const Result quick = reported(devices, { random });
    REQUIRE(quick.warnings.size() == 1);
    CHECK(quick.warnings[0].starts_with("impossible for a rotating disk: 500 random I/Os a second, 200 us mean latency "
                                        "during RND4K Q1T1"));

    PhaseFigures plausible = random;
    plausible.operations = 150;
    plausible.latency_sum_us = 150 * 6500.0;
    CHECK(reported(devices, { plausible }).warnings.empty());
    PhaseFigures sequential = random;
    sequential.random = false;
    CHECK(reported(devices, { sequential }).warnings.empty());
    // Random writes as quick are the disk's write cache: the sync that
    // puts them on the platter is not in the phase's time.
    PhaseFigures writes { "RND4K Q1T1", 0, 4096 * 500, 0, 4096 * 500 };
    writes.seconds = 1;
    writes.operations = 500;
    writes.latency_sum_us = 500 * 200.0;
    writes.random = true;
    CHECK(reported(devices, { writes }).warnings.empty());

    devices.device = CheckedDevice { directory(tree, makedev(7, 0)), "loop0" };
    CHECK(reported(devices, { random }).warnings.empty());
}
