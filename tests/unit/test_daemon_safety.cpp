// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's guards that need no bus: which jobs collide on hardware, the
// per-user cap on requests waiting for polkit, telling a device from the one
// that replaced it, the caller's fsgid, and the error names callers see.
#include "../../daemon/engine/base/errors.hpp"
#include "../../daemon/engine/base/unique_fd.hpp"
#include "mounts.hpp"
#include "scratch.hpp"
#include "service/caller_credentials.hpp"
#include "service/device_claims.hpp"
#include "service/bus_errors.hpp"
#include "service/pending_authorizations.hpp"
#include "system/device_identity.hpp"
#include "system/queue_facts.hpp"
#include "system/system_disks.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fstream>
#include <set>

using namespace diskbench;
using namespace diskbench::service;

namespace {

system::DeviceFacts block(const std::string& name, const std::string& parent = "")
{
    system::DeviceFacts facts;
    facts.node = "/dev/" + name;
    facts.name = name;
    facts.udisks_block = "/org/freedesktop/UDisks2/block_devices/" + name;
    if (!parent.empty())
        facts.parent_block = "/org/freedesktop/UDisks2/block_devices/" + parent;
    return facts;
}

std::string error_name_of(const std::function<void()>& call)
{
    try {
        call();
    } catch (const sdbus::Error& error) {
        return error.getName();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("a job claims its disk, its partitions and their siblings", "[daemon-parts]")
{
    DeviceClaims claims;
    CHECK(claims.conflicting_job(block("sda")).empty());
    claims.claim("/jobs/1", block("sda1", "sda"));
    CHECK(claims.conflicting_job(block("sda1", "sda")) == "/jobs/1"); // the same
    CHECK(claims.conflicting_job(block("sda")) == "/jobs/1");         // its disk
    CHECK(claims.conflicting_job(block("sda2", "sda")) == "/jobs/1"); // a sibling
    CHECK(claims.conflicting_job(block("sdb")).empty());
    CHECK(claims.conflicting_job(block("sdb1", "sdb")).empty());
    CHECK(claims.job_on(block("sda1").udisks_block) == "/jobs/1");
    CHECK(claims.job_on(block("sda").udisks_block).empty());

    claims.claim("/jobs/2", block("sdb"));
    CHECK(claims.conflicting_job(block("sdb1", "sdb")) == "/jobs/2"); // a partition of it
    claims.release("/jobs/1");
    CHECK(claims.conflicting_job(block("sda")).empty());
    CHECK(claims.conflicting_job(block("sdb")) == "/jobs/2");
    claims.release("/jobs/2");
    claims.release("/jobs/2"); // twice is harmless
    CHECK(claims.conflicting_job(block("sdb")).empty());
}

TEST_CASE("one user may have only so many requests waiting for polkit", "[daemon-parts]")
{
    PendingAuthorizations pending(3);
    CHECK(pending.empty());
    for (int i = 0; i < 3; ++i)
        pending.begin(1000);
    CHECK(error_name_of([&] { pending.begin(1000); }) == "org.diskbench.DiskBench1.Error.LimitsExceeded");
    pending.begin(1001); // another user is not held up
    pending.end(1000);
    CHECK_NOTHROW(pending.begin(1000));
    for (int i = 0; i < 3; ++i)
        pending.end(1000);
    CHECK_FALSE(pending.empty());
    pending.end(1001);
    CHECK(pending.empty());
    pending.end(1001); // more ends than begins do not wrap around
    CHECK(pending.empty());
    CHECK_NOTHROW(pending.begin(1001));
}

TEST_CASE("a device that took another's node or object is not the one asked for", "[daemon-parts]")
{
    system::DeviceFacts asked = block("sdb");
    asked.device_number = makedev(8, 16);
    asked.size = 1ULL << 40;
    asked.serial = "S4EWNX0R123456";
    asked.wwn = "0x5002538e40a1b2c3";
    asked.queue.disk_sequence = 41;
    CHECK_FALSE(system::identity_change(asked, asked));

    const auto changed = [&](auto&& modify) {
        system::DeviceFacts now = asked;
        modify(now);
        const auto change = system::identity_change(asked, now);
        return change ? change->id : std::string();
    };
    CHECK_THAT(changed([](auto& d) { d.serial = "S4EWNX0R999999"; }), Catch::Equals("error-reason-serial"));
    CHECK_THAT(changed([](auto& d) { d.wwn = "0x5002538e40ffffff"; }), Catch::Equals("error-reason-serial"));
    CHECK_THAT(changed([](auto& d) { d.size = 1ULL << 39; }), Catch::Equals("error-reason-size"));
    CHECK_THAT(changed([](auto& d) { d.device_number = makedev(8, 32); }), Catch::Equals("error-reason-device-number"));
    CHECK_THAT(changed([](auto& d) { d.queue.disk_sequence = 42; }), Catch::Equals("error-reason-new-medium"));
    CHECK_THAT(changed([](auto& d) { d.udisks_block += "_2"; }), Catch::Equals("error-reason-udisks-object"));
    // What may change while the same disk stays: being mounted, its queue.
    CHECK(changed([](auto& d) {
              d.mounted = true;
              d.queue.scheduler = "none";
          }).empty());
}

TEST_CASE("every attachment of a loop device has its own disk sequence number", "[daemon-parts][loop]")
{
    testing::ScratchDir dir;
    const auto first_file = testing::make_data_file(dir, "first", 4 << 20);
    const auto second_file = testing::make_data_file(dir, "second", 4 << 20);
    testing::LoopDevice first(first_file);
    testing::LoopDevice second(second_file);
    const auto sequence_of = [](const testing::LoopDevice& loop) {
        const engine::UniqueFd fd(::open(loop.path().c_str(), O_RDONLY | O_CLOEXEC));
        REQUIRE(fd.valid());
        struct stat st {};
        REQUIRE(::fstat(fd.get(), &st) == 0);
        const auto from_ioctl = system::disk_sequence_of(fd.get());
        REQUIRE(from_ioctl);
        // sysfs (what udisks' facts carry) and the kernel agree.
        CHECK(system::read_queue_facts(st.st_rdev).disk_sequence == *from_ioctl);
        return *from_ioctl;
    };
    const std::uint64_t a = sequence_of(first);
    const std::uint64_t b = sequence_of(second);
    CHECK(a != 0);
    CHECK(b != 0);
    CHECK(a != b);
}

TEST_CASE("the caller's fsgid is its primary group only while its process has it", "[daemon-parts]")
{
    // root (uid 0, primary group 0) is in every passwd.
    CHECK(with_primary_group({ 0, { 0, 4 } }).gid == 0);
    CHECK(with_primary_group({ 0, { 4 } }).gid == overflow_gid);
    CHECK(with_primary_group({ 0, {} }).gid == overflow_gid);
    const engine::Credentials kept = with_primary_group({ 0, { 4, 0 } });
    CHECK(kept.uid == 0);
    CHECK(kept.groups == std::vector<gid_t> { 4, 0 });
    CHECK(error_name_of([] { with_primary_group({ 3999999, {} }); }) == "org.diskbench.DiskBench1.Error.Failed");
}

TEST_CASE("callers see only error names from our table", "[daemon-parts]")
{
    using namespace diskbench::engine;
    CHECK(reply_error(make_error(ErrorCode::NoSpace, { "error-fdatasync", { { "target", "/srv" }, { "reason", "full" } } }))
              .getName()
          == "org.diskbench.DiskBench1.Error.NoSpace");
    const sdbus::Error foreign("org.freedesktop.DBus.Error.NameHasNoOwner", "gone");
    const sdbus::Error mapped = reply_error(foreign);
    CHECK(mapped.getName() == "org.diskbench.DiskBench1.Error.Failed");
    CHECK_THAT(mapped.getMessage(), Catch::Contains("NameHasNoOwner") && Catch::Contains("gone"));
    CHECK(reply_error(DeviceBusyError(Failure { "error-device-in-use", { { "target", "/dev/loop9" } } })).getName()
          == "org.diskbench.DiskBench1.Error.DeviceBusy");
    const sdbus::Error parameter = reply_error(ParameterError("size", Failure { "error-negative", { { "value", -1 } } }));
    CHECK(parameter.getName() == "org.diskbench.DiskBench1.Error.InvalidArgument");
    CHECK(parameter.getMessage() == "size: -1 is negative"); // the key, then the catalogue's English
    CHECK(reply_error(IoError(Failure { "error-filesystem-full", { { "target", "/srv" }, { "detail", "?" } } }, ENOSPC))
              .getName()
          == "org.diskbench.DiskBench1.Error.NoSpace");
    CHECK(reply_error(std::bad_alloc()).getName() == "org.diskbench.DiskBench1.Error.Failed");
    CHECK(error_name(ErrorCode::LimitsExceeded) == "org.diskbench.DiskBench1.Error.LimitsExceeded");
}

namespace {

dev_t device_number_of(const std::string& node)
{
    struct stat st {};
    REQUIRE(::stat(node.c_str(), &st) == 0);
    REQUIRE(S_ISBLK(st.st_mode));
    return st.st_rdev;
}

// Partitions added to a loop device by hand (BLKPG, as addpart does): this
// kernel has no partition table parsers, and a test needs no table anyway.
// Removed again before the device is detached, which would leave them.
class LoopPartitions {
public:
    LoopPartitions(const testing::LoopDevice& disk, std::vector<std::pair<std::uint64_t, std::uint64_t>> sectors)
        : disk_(disk.path())
    {
        // A failed addpart (udev holding the disk a moment) throws out of
        // the constructor, where no destructor runs: remove what was added
        // first, or the detached loop device keeps stale partitions.
        try {
            for (const auto& [start, length] : sectors) {
                const std::string number = std::to_string(count_ + 1);
                testing::run_program({ "addpart", disk_, number, std::to_string(start), std::to_string(length) });
                ++count_;
            }
        } catch (...) {
            remove_all();
            throw;
        }
    }
    ~LoopPartitions() { remove_all(); }
    LoopPartitions(const LoopPartitions&) = delete;
    LoopPartitions& operator=(const LoopPartitions&) = delete;
    [[nodiscard]] std::string node(unsigned number) const { return disk_ + "p" + std::to_string(number); }

private:
    void remove_all() noexcept
    {
        for (unsigned number = count_; number > 0; --number) {
            try {
                testing::run_program({ "delpart", disk_, std::to_string(number) });
            } catch (...) {
            }
        }
        count_ = 0;
    }

    std::string disk_;
    unsigned count_ = 0;
};

} // namespace

TEST_CASE("a system disk's partitions are refused, also the ones nothing mounted", "[daemon-parts][loop]")
{
    // A two-partition loop "disk" whose first partition plays the system's
    // root: mounted (in the test's own mount namespace) at the one place
    // system_disks() is told to look.
    testing::ScratchDir dir;
    testing::LoopDevice disk(testing::make_data_file(dir, "disk", 64 << 20));
    const LoopPartitions partitions(disk, { { 2048, 63488 }, { 65536, 65536 } });
    const std::string root_partition = partitions.node(1);
    const std::string spare_partition = partitions.node(2);
    testing::run_program({ "mkfs.ext4", "-q", "-F", root_partition });
    testing::DeviceMount root(root_partition, dir.path() / "root", "ext4");
    testing::LoopDevice elsewhere(testing::make_data_file(dir, "other", 4 << 20));

    system::SystemPlaces places;
    places.mount_points = { root.path().string() };
    places.swaps = (dir.path() / "no-swaps").string();
    const system::SystemDisks found = system::system_disks(places);
    const std::set<dev_t>& disks = found.disks;
    CHECK(disks == std::set<dev_t> { device_number_of(disk.path()) });
    CHECK(found.unknown.empty());
    CHECK(system::on_any_of(device_number_of(spare_partition), disks));
    CHECK(system::on_any_of(device_number_of(root_partition), disks));
    CHECK(system::on_any_of(device_number_of(disk.path()), disks));
    CHECK_FALSE(system::on_any_of(device_number_of(elsewhere.path()), disks));

    SECTION("a swap file makes its filesystem's disk a system disk")
    {
        std::ofstream(root.path() / "swapfile") << "not really swap";
        const auto swaps = dir.path() / "swaps";
        std::ofstream(swaps) << "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                             << (root.path() / "swapfile").string() << "\tfile\t\t1024\t\t0\t\t-2\n";
        places.mount_points = {};
        places.swaps = swaps.string();
        CHECK(system::system_disks(places).disks == std::set<dev_t> { device_number_of(disk.path()) });
    }
    SECTION("nothing mounted at the places looked at: no system disk")
    {
        places.mount_points = { (dir.path() / "nothing-here").string() };
        CHECK(system::system_disks(places).disks.empty());
        CHECK(system::system_disks(places).unknown.empty());
    }
}

namespace {
// A mountinfo of one line, for the filesystems no test machine can mount
// (zfs, btrfs and bcachefs volumes of several disks): system_disks() reads
// only the file it is told to, so the rules are tested on its text.
system::SystemPlaces fake_mount(const testing::ScratchDir& dir, const std::string& numbers, const std::string& type,
                                const std::string& source)
{
    const auto mountinfo = dir.path() / "mountinfo";
    std::ofstream(mountinfo) << "27 1 " << numbers << " / /fake-root rw,relatime - " << type << " " << source
                             << " rw\n";
    system::SystemPlaces places;
    places.mountinfo = mountinfo.string();
    places.mount_points = { "/fake-root" };
    places.swaps = (dir.path() / "no-swaps").string();
    places.sysfs = (dir.path() / "sys").string();
    return places;
}
} // namespace

TEST_CASE("system disks fail closed where sysfs cannot name them", "[daemon-parts][loop]")
{
    testing::ScratchDir dir;
    testing::LoopDevice first(testing::make_data_file(dir, "first", 4 << 20));
    testing::LoopDevice second(testing::make_data_file(dir, "second", 4 << 20));
    testing::LoopDevice unrelated(testing::make_data_file(dir, "unrelated", 4 << 20));
    const std::string first_name = first.path().substr(first.path().rfind('/') + 1);
    const std::string second_name = second.path().substr(second.path().rfind('/') + 1);
    const std::set<dev_t> both { device_number_of(first.path()), device_number_of(second.path()) };

    SECTION("zfs names a dataset, not a disk: every device may be a system disk")
    {
        const auto found = system::system_disks(fake_mount(dir, "0:45", "zfs", "rpool/ROOT/debian"));
        CHECK(found.disks.empty());
        CHECK(found.unknown.find("zfs (rpool/ROOT/debian)") != std::string::npos);
        CHECK(found.may_hold(device_number_of(unrelated.path())));
    }
    SECTION("bcachefs names all its members")
    {
        const auto found
            = system::system_disks(fake_mount(dir, "0:46", "bcachefs", first.path() + ":" + second.path()));
        CHECK(found.unknown.empty());
        CHECK(found.disks == both);
        CHECK_FALSE(found.may_hold(device_number_of(unrelated.path())));
    }
    SECTION("btrfs names one member; sysfs lists the others")
    {
        // fs/btrfs/UUID/devices/ as the kernel has it: one entry per member.
        const auto devices = dir.path() / "sys/fs/btrfs/0b1c7d0e-5f6a-4e1b-9c2d-3e4f5a6b7c8d/devices";
        std::filesystem::create_directories(devices);
        std::ofstream(devices / first_name);
        std::ofstream(devices / second_name);
        const auto found = system::system_disks(fake_mount(dir, "0:47", "btrfs", first.path()));
        CHECK(found.unknown.empty());
        CHECK(found.disks == both);
        CHECK_FALSE(found.may_hold(device_number_of(unrelated.path())));
    }
    SECTION("memory filesystems are on no disk, and that is known")
    {
        const auto found = system::system_disks(fake_mount(dir, "0:48", "tmpfs", "tmpfs"));
        CHECK(found.disks.empty());
        CHECK(found.unknown.empty());
        CHECK_FALSE(found.may_hold(device_number_of(unrelated.path())));
    }
}

TEST_CASE("this machine's root filesystem is on a system disk", "[daemon-parts]")
{
    struct stat root {};
    REQUIRE(::stat("/", &root) == 0);
    INFO("/ is on " << major(root.st_dev) << ":" << minor(root.st_dev));
    // Only sysfs is read: the machine's own disk is never opened.
    if (major(root.st_dev) != 0 && !system::disks_under(root.st_dev).empty())
        CHECK(system::on_any_of(root.st_dev, system::system_disks().disks));
    CHECK(system::unescape_mount_field("/media/my\\040disk\\011x") == "/media/my disk\tx");
    CHECK(system::unescape_mount_field("/odd\\04") == "/odd\\04");
}
