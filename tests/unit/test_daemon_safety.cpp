// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's guards that need no bus: which jobs collide on hardware, the
// per-user cap on requests waiting for polkit, telling a device from the one
// that replaced it, the caller's fsgid, and the error names callers see.
#include "../../daemon/engine/errors.hpp"
#include "../../daemon/engine/unique_fd.hpp"
#include "scratch.hpp"
#include "service/caller_credentials.hpp"
#include "service/device_claims.hpp"
#include "service/errors.hpp"
#include "service/pending_authorizations.hpp"
#include "system/device_identity.hpp"
#include "system/queue_facts.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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
    CHECK(system::identity_change(asked, asked).empty());

    const auto changed = [&](auto&& modify) {
        system::DeviceFacts now = asked;
        modify(now);
        return system::identity_change(asked, now);
    };
    CHECK_THAT(changed([](auto& d) { d.serial = "S4EWNX0R999999"; }), Catch::Contains("serial"));
    CHECK_THAT(changed([](auto& d) { d.wwn = "0x5002538e40ffffff"; }), Catch::Contains("serial"));
    CHECK_THAT(changed([](auto& d) { d.size = 1ULL << 39; }), Catch::Contains("size"));
    CHECK_THAT(changed([](auto& d) { d.device_number = makedev(8, 32); }), Catch::Contains("device number"));
    CHECK_THAT(changed([](auto& d) { d.queue.disk_sequence = 42; }), Catch::Contains("sequence"));
    CHECK_THAT(changed([](auto& d) { d.udisks_block += "_2"; }), Catch::Contains("udisks"));
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
    CHECK(reply_error(make_error(ErrorCode::NoSpace, "full")).getName() == "org.diskbench.DiskBench1.Error.NoSpace");
    const sdbus::Error foreign("org.freedesktop.DBus.Error.NameHasNoOwner", "gone");
    const sdbus::Error mapped = reply_error(foreign);
    CHECK(mapped.getName() == "org.diskbench.DiskBench1.Error.Failed");
    CHECK_THAT(mapped.getMessage(), Catch::Contains("NameHasNoOwner") && Catch::Contains("gone"));
    CHECK(reply_error(DeviceBusyError("/dev/loop9: in use")).getName()
          == "org.diskbench.DiskBench1.Error.DeviceBusy");
    CHECK(reply_error(ParameterError("size", "too big")).getName() == "org.diskbench.DiskBench1.Error.InvalidArgument");
    CHECK(reply_error(IoError("full", ENOSPC)).getName() == "org.diskbench.DiskBench1.Error.NoSpace");
    CHECK(reply_error(std::bad_alloc()).getName() == "org.diskbench.DiskBench1.Error.Failed");
    CHECK(error_name(ErrorCode::LimitsExceeded) == "org.diskbench.DiskBench1.Error.LimitsExceeded");
}
