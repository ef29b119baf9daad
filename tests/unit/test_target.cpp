// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/errors.hpp"
#include "io/target.hpp"
#include "scratch.hpp"

#include <fcntl.h>

#include <catch2/catch.hpp>

using namespace diskbench::engine;
using diskbench::testing::LoopDevice;
using diskbench::testing::make_data_file;
using diskbench::testing::ScratchDir;

TEST_CASE("a regular file opens with O_DIRECT and reports its size", "[target]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 3 * 1024 * 1024 + 100);
    const Target target = open_target_for_read(path);
    CHECK_FALSE(target.is_block_device);
    CHECK(target.size % target.logical_block == 0);
    CHECK(target.size <= 3 * 1024 * 1024 + 100);
    CHECK(target.size > 3 * 1024 * 1024 - 4096);
    CHECK((::fcntl(target.fd.get(), F_GETFL) & O_DIRECT) != 0);
}

TEST_CASE("block devices report their logical and physical block size", "[target][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 16 * 1024 * 1024);
    for (std::uint32_t sector : { 512u, 4096u }) {
        LoopDevice loop(backing, sector);
        CHECK(loop.direct_io());
        const Target target = open_target_for_read(loop.path());
        CHECK(target.is_block_device);
        CHECK(target.size == 16 * 1024 * 1024);
        CHECK(target.logical_block == sector);
        CHECK(target.physical_block >= sector);
    }
}

TEST_CASE("what cannot be read with O_DIRECT is refused with a reason", "[target]")
{
    ScratchDir dir;
    const auto empty = make_data_file(dir, "empty", 0);
    CHECK_THROWS_WITH(open_target_for_read(dir.path()), Catch::Contains("not a block device or regular file")
                                                             || Catch::Contains("direct I/O"));
    CHECK_THROWS_WITH(open_target_for_read("/dev/null"), Catch::Contains("not a block device or regular file"));
    CHECK_THROWS_WITH(open_target_for_read((dir.path() / "missing").string()), Catch::Contains("No such file"));
    CHECK_THROWS_WITH(open_target_for_read(empty), Catch::Contains("empty"));
    CHECK_THROWS_AS(open_target_for_read("/dev/null"), TargetError);
}

TEST_CASE("an fd without O_DIRECT is refused", "[target]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 65536);
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(fd.valid());
    CHECK_THROWS_WITH(target_from_fd(std::move(fd), "data"), Catch::Contains("O_DIRECT"));
}
