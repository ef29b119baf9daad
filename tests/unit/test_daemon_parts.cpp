// SPDX-License-Identifier: GPL-3.0-or-later
// Small daemon pieces that need no bus: option conversion, the error table,
// object path escaping, sysfs queue facts of a real loop device.
#include "../../daemon/engine/base/errors.hpp"
#include "scratch.hpp"
#include "service/authorization_error.hpp"
#include "service/device_object.hpp"
#include "contract/display_text.hpp"
#include "service/write_safety.hpp"
#include "service/bus_errors.hpp"
#include "service/variant_conversion.hpp"
#include "system/queue_facts.hpp"

#include <sys/stat.h>

#include <cerrno>

#include <catch2/catch.hpp>

#include <fstream>

using namespace diskbench;
using namespace diskbench::service;
using diskbench::contract::display_text;

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
    const Failure failure { "error-fdatasync", { { "target", "/srv" }, { "reason", "the reason" } } };
    CHECK(error_code_of(ParameterError("size", Failure { "error-negative", { { "value", -1 } } }))
          == ErrorCode::InvalidArgument);
    CHECK(error_code_of(IoError(failure, ENOSPC)) == ErrorCode::NoSpace);
    CHECK(error_code_of(IoError(failure, EDQUOT)) == ErrorCode::NoSpace);
    CHECK(error_code_of(IoError(failure, EACCES)) == ErrorCode::PermissionDenied);
    CHECK(error_code_of(IoError(failure, EROFS)) == ErrorCode::PermissionDenied);
    CHECK(error_code_of(IoError(failure, EIO)) == ErrorCode::Failed);
    CHECK(error_code_of(TargetError(Failure { "error-not-a-folder", { { "target", "/srv" } } })) == ErrorCode::Failed);
    CHECK(error_code_of(std::runtime_error("?")) == ErrorCode::Failed);
    CHECK(error_name(ErrorCode::NoSpace) == "org.diskbench.DiskBench1.Error.NoSpace");
    CHECK(error_name(ErrorCode::PermissionDenied) == "org.diskbench.DiskBench1.Error.PermissionDenied");
}

TEST_CASE("error names follow the documented table", "[daemon-parts]")
{
    CHECK(error_name(ErrorCode::NotAuthorizedCanObtain) == "org.diskbench.DiskBench1.Error.NotAuthorizedCanObtain");
    CHECK(make_error(ErrorCode::DeviceBusy, { "error-daemon-exiting" }).getName()
          == "org.diskbench.DiskBench1.Error.DeviceBusy");
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

TEST_CASE("polkit's prompt shows a drive's model and serial escaped", "[daemon-parts]")
{
    // udisks passes on the drive's own bytes; a USB stick can carry
    // terminal escapes there, and polkit's text agent prints the prompt.
    diskbench::system::DeviceFacts facts;
    facts.node = "/dev/sdz";
    facts.vendor = "Evil";
    facts.model = "Stick\x1b]0;owned\x07\xc2\x9b" "2J";
    facts.serial = "S\nN";
    CHECK(diskbench::service::device_label(facts)
          == "Evil Stick\\x1b]0;owned\\x07\\xc2\\x9b2J, serial S\\x0aN (/dev/sdz)");
    facts.model = "Fast SSD";
    facts.vendor.clear();
    facts.serial = "123";
    CHECK(diskbench::service::device_label(facts) == "Fast SSD, serial 123 (/dev/sdz)");
}

TEST_CASE("folder names become text sd-bus sends and people can read", "[daemon-parts]")
{
    // Plain and valid UTF-8 names stay as they are.
    CHECK(display_text("/home/anna/Music") == "/home/anna/Music");
    CHECK(display_text("/home/j\xc3\xbcrgen/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x92\xbe")
          == "/home/j\xc3\xbcrgen/\xe6\x97\xa5\xe6\x9c\xac/\xf0\x9f\x92\xbe");
    CHECK(display_text("") == "");
    // Bytes that are not UTF-8 (a Latin-1 name), cut sequences, overlong
    // forms, surrogates and code points past U+10FFFF: each byte escaped.
    CHECK(display_text("/srv/caf\xe9") == "/srv/caf\\xe9");
    CHECK(display_text("a\xc3") == "a\\xc3");
    CHECK(display_text("\xc0\xaf") == "\\xc0\\xaf");
    CHECK(display_text("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");
    CHECK(display_text("\xed\xa0\x80") == "\\xed\\xa0\\x80");
    CHECK(display_text("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");
    CHECK(display_text("\xff\xfe") == "\\xff\\xfe");
    // Noncharacters are valid UTF-8 but sd-bus refuses them.
    CHECK(display_text("x\xef\xbf\xbf") == "x\\xef\\xbf\\xbf");      // U+FFFF
    CHECK(display_text("\xef\xb7\x90") == "\\xef\\xb7\\x90");        // U+FDD0
    CHECK(display_text("\xf4\x8f\xbf\xbe") == "\\xf4\\x8f\\xbf\\xbe"); // U+10FFFE
    CHECK(display_text("\xef\xbf\xbd") == "\xef\xbf\xbd");             // U+FFFD is fine
    // Control characters and the backslash itself: no extra lines in a
    // dialog, no ambiguity with an escape.
    CHECK(display_text("a\nb\tc\x1b[31m\x7f") == "a\\x0ab\\x09c\\x1b[31m\\x7f");
    CHECK(display_text("C:\\x") == "C:\\\\x");
    // What comes out is accepted as a D-Bus string by sd-bus, which
    // refuses what goes in.
    for (const char* name : { "\xff", "\xef\xbf\xbf", "\xc3" }) {
        CHECK_THROWS(sdbus::Variant(std::string(name)));
        CHECK_NOTHROW(sdbus::Variant(display_text(name)));
    }
}
