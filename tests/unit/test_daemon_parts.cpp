// SPDX-License-Identifier: GPL-3.0-or-later
// Small daemon pieces that need no bus: option conversion, the error table,
// object path escaping, sysfs queue facts of a real loop device.
#include "../../daemon/engine/errors.hpp"
#include "scratch.hpp"
#include "service/authorization_error.hpp"
#include "service/device_object.hpp"
#include "service/bus_errors.hpp"
#include "service/variant_conversion.hpp"
#include "system/queue_facts.hpp"

#include <sys/stat.h>

#include <cerrno>

#include <catch2/catch.hpp>

#include <fstream>

using namespace diskbench;
using namespace diskbench::service;

TEST_CASE("D-Bus options convert to engine values by type", "[daemon-parts]")
{
    const VariantMap options {
        { "count", sdbus::Variant(std::uint32_t { 5 }) }, { "seed", sdbus::Variant(std::uint64_t { 7 }) },
        { "signed", sdbus::Variant(std::int32_t { -3 }) }, { "byte", sdbus::Variant(std::uint8_t { 2 }) },
        { "duration_s", sdbus::Variant(0.5) },             { "aligned", sdbus::Variant(false) },
        { "tests", sdbus::Variant(std::string("RND4K Q1T1")) },
    };
    const engine::ValueMap values = values_from_variants(options);
    CHECK(std::get<std::uint64_t>(values.at("count")) == 5);
    CHECK(std::get<std::uint64_t>(values.at("seed")) == 7);
    CHECK(std::get<std::int64_t>(values.at("signed")) == -3);
    CHECK(std::get<std::uint64_t>(values.at("byte")) == 2);
    CHECK(std::get<double>(values.at("duration_s")) == 0.5);
    CHECK(std::get<bool>(values.at("aligned")) == false);
    CHECK(std::get<std::string>(values.at("tests")) == "RND4K Q1T1");
}

TEST_CASE("an option of an unsupported D-Bus type is refused naming the key", "[daemon-parts]")
{
    const VariantMap options { { "count", sdbus::Variant(std::vector<std::string> { "a" }) } };
    try {
        values_from_variants(options);
        FAIL("accepted an array");
    } catch (const engine::ParameterError& error) {
        CHECK(error.key() == "count");
        CHECK_THAT(error.what(), Catch::Contains("'as'"));
    }
}

TEST_CASE("engine values go back to the matching D-Bus types", "[daemon-parts]")
{
    const VariantMap variants = variants_from_values(
        { { "a", true }, { "b", std::uint64_t { 3 } }, { "c", 1.5 }, { "d", std::string("x") } });
    CHECK(variants.at("a").peekValueType() == "b");
    CHECK(variants.at("b").peekValueType() == "t");
    CHECK(variants.at("c").peekValueType() == "d");
    CHECK(variants.at("d").peekValueType() == "s");
}

TEST_CASE("engine failures map to the error a caller can act on", "[daemon-parts]")
{
    using namespace diskbench::engine;
    CHECK(error_code_of(ParameterError("size", "too big")) == ErrorCode::InvalidArgument);
    CHECK(error_code_of(IoError("full", ENOSPC)) == ErrorCode::NoSpace);
    CHECK(error_code_of(IoError("quota", EDQUOT)) == ErrorCode::NoSpace);
    CHECK(error_code_of(IoError("no", EACCES)) == ErrorCode::PermissionDenied);
    CHECK(error_code_of(IoError("ro", EROFS)) == ErrorCode::PermissionDenied);
    CHECK(error_code_of(IoError("broken", EIO)) == ErrorCode::Failed);
    CHECK(error_code_of(TargetError("not a folder")) == ErrorCode::Failed);
    CHECK(error_code_of(std::runtime_error("?")) == ErrorCode::Failed);
    CHECK(error_name(ErrorCode::NoSpace) == "org.diskbench.DiskBench1.Error.NoSpace");
    CHECK(error_name(ErrorCode::PermissionDenied) == "org.diskbench.DiskBench1.Error.PermissionDenied");
}

TEST_CASE("error names follow the documented table", "[daemon-parts]")
{
    CHECK(error_name(ErrorCode::NotAuthorizedCanObtain) == "org.diskbench.DiskBench1.Error.NotAuthorizedCanObtain");
    CHECK(make_error(ErrorCode::DeviceBusy, "x").getName() == "org.diskbench.DiskBench1.Error.DeviceBusy");
    CHECK_FALSE(authorization_error(Authorization::Authorized, "a", ""));
    CHECK(authorization_error(Authorization::Challenge, "a", "")->getName()
          == "org.diskbench.DiskBench1.Error.NotAuthorizedCanObtain");
    CHECK(authorization_error(Authorization::Dismissed, "a", "")->getName()
          == "org.diskbench.DiskBench1.Error.NotAuthorizedDismissed");
    CHECK(authorization_error(Authorization::NotAuthorized, "a", "")->getName()
          == "org.diskbench.DiskBench1.Error.NotAuthorized");
    CHECK(authorization_error(Authorization::Unavailable, "a", "gone")->getName()
          == "org.diskbench.DiskBench1.Error.NotAuthorized");
}

TEST_CASE("device names become valid object path elements", "[daemon-parts]")
{
    CHECK(DeviceObject::path_element("sda1") == "sda1");
    CHECK(DeviceObject::path_element("nvme0n1p2") == "nvme0n1p2");
    CHECK(DeviceObject::path_element("dm-0") == "dm_2d0");
    CHECK(DeviceObject::path_element("") == "_");
}

TEST_CASE("the scheduler in brackets is the active one", "[daemon-parts]")
{
    CHECK(system::active_scheduler("mq-deadline kyber [none]") == "none");
    CHECK(system::active_scheduler("[bfq] none") == "bfq");
    CHECK(system::active_scheduler("none") == "none");
}

TEST_CASE("queue facts of a loop device match sysfs", "[daemon-parts][loop]")
{
    testing::ScratchDir dir;
    const auto backing = testing::make_data_file(dir, "backing", 8 << 20);
    testing::LoopDevice loop(backing, 4096);
    struct stat st {};
    REQUIRE(::stat(loop.path().c_str(), &st) == 0);
    const system::QueueFacts facts = system::read_queue_facts(st.st_rdev);
    const std::string sys = "/sys/block/" + loop.path().substr(5) + "/queue/";
    std::ifstream rotational(sys + "rotational");
    int rotates = -1;
    rotational >> rotates;
    CHECK(facts.rotational == (rotates == 1));
    CHECK(facts.logical_block_size == 4096);
    CHECK(facts.physical_block_size >= 4096);
    CHECK(facts.max_sectors_kib > 0);
    CHECK_FALSE(facts.has_holders);
}
