// SPDX-License-Identifier: GPL-3.0-or-later
// The info popover of every kind: what the run does, with its sizes, and the
// fio or dd command lines that do the same where one exists.
#include "model/benchmark_description.hpp"

#include "contract/benchmark_kinds.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace diskbench::client;
namespace kinds = diskbench::contract::kinds;

namespace {

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

constexpr std::int64_t MiB = 1 << 20;

// A target as the app passes it: the folder for folder kinds, else the node.
std::string target_of(std::string_view kind)
{
    return kinds::in_folder(kind) ? "/home/me/bench folder" : "/dev/sdb";
}

} // namespace

TEST_CASE("every kind the daemon knows has a description in the info popover", "[client-model]")
{
    // kinds::all is the daemon's list (its registry is built from the same
    // contract header).
    for (const std::string_view kind : kinds::all) {
        INFO(kind);
        const BenchmarkDescription d = describe_benchmark(std::string(kind), {}, target_of(kind), 512);
        CHECK(d.what.size() > 80);
        for (const std::string& command : d.fio_commands) {
            INFO(command);
            // steady-state's purge is util-linux's blkdiscard: fio trims block devices only.
            CHECK((command.starts_with("fio ") || command.starts_with("for i in")
                   || (kind == kinds::steady_state && command.starts_with("blkdiscard "))));
            // Folder commands quote the folder (it has a space here).
            if (kinds::in_folder(kind))
                CHECK(contains(command, "'/home/me/bench folder"));
            else
                CHECK(contains(command, "/dev/sdb"));
        }
    }
}

TEST_CASE("write descriptions state the sizes of the run and its fio/dd equivalent", "[client-model]")
{
    const auto file_rw = describe_benchmark("file-rw", { { "size", std::int64_t { 8 * MiB } },
                                                         { "block_size", std::int64_t { MiB } } },
                                            "/srv/f", 512);
    CHECK(contains(file_rw.what, "8 MiB"));
    REQUIRE(file_rw.fio_commands.size() == 2);
    CHECK(contains(file_rw.fio_commands[0], "--rw=write --bs=1m --size=8m"));
    CHECK(contains(file_rw.fio_commands[0], "--end_fsync=1"));
    CHECK(contains(file_rw.fio_commands[1], "--rw=read"));

    // The dd study: one dd per block size, repeated.
    const auto sweep = describe_benchmark("write-sweep", { { "min_block", std::int64_t { 4096 } },
                                                           { "max_block", std::int64_t { 65536 } },
                                                           { "amount_per_size", std::int64_t { MiB } },
                                                           { "repetitions", std::int64_t { 9 } } },
                                          "/srv/f", 512);
    CHECK(contains(sweep.what, "4 KiB"));
    CHECK(contains(sweep.what, "64 KiB"));
    CHECK(contains(sweep.what, "9 times"));
    REQUIRE(sweep.fio_commands.size() == 5);
    CHECK(sweep.fio_commands[0] == "for i in $(seq 9); do dd if=/dev/urandom of=/srv/f/ddtest bs=4096 count=256 "
                                   "oflag=direct conv=fdatasync; rm -f /srv/f/ddtest; done");
    CHECK(contains(sweep.fio_commands[4], "bs=65536 count=16 "));

    const auto tree = describe_benchmark("small-files", { { "directories", std::int64_t { 100 } },
                                                          { "files", std::int64_t { 500 } } },
                                         "/srv/f", 512);
    CHECK(contains(tree.what, "100 directories"));
    CHECK(contains(tree.what, "500 files of 1 KiB to 10 KiB"));
    CHECK(tree.fio_commands.empty()); // no tool builds a tree: none is claimed

    const auto write = describe_benchmark("device-write", { { "size", std::int64_t { 4 * MiB } },
                                                            { "block_size", std::int64_t { 0 } },
                                                            { "region_size", std::int64_t { 64 * MiB } },
                                                            { "duration_s", 0.5 } },
                                          "/dev/sdb", 4096);
    CHECK(contains(write.what, "4 MiB"));
    CHECK(contains(write.what, "4 KiB")); // block_size 0: the logical block
    CHECK(contains(write.what, "erase it")); // fio has no keep-data mode
    REQUIRE(write.fio_commands.size() == 3);
    CHECK(contains(write.fio_commands[0], "--rw=write --bs=4k --iodepth=1 --size=4m"));
    CHECK(contains(write.fio_commands[2], "--iodepth=32 --size=64m --runtime=0.5"));

    const auto sustained = describe_benchmark("sustained-write", { { "duration_s", 60.0 } }, "/dev/sdb", 512);
    CHECK(contains(sustained.what, "the whole device"));
    CHECK(contains(sustained.what, "60 s"));
    REQUIRE(sustained.fio_commands.size() == 1);
    CHECK(contains(sustained.fio_commands[0], "--size=100% --runtime=60 --time_based"));
    CHECK(contains(sustained.fio_commands[0], "--log_avg_msec=1000"));
}

TEST_CASE("the queue-depth sweep's fio lines are the cells the daemon runs", "[client-model]")
{
    const auto wide = describe_benchmark("qd-sweep", { { "max_threads", std::int64_t { 64 } },
                                                       { "max_queue_depth", std::int64_t { 256 } } },
                                         "/dev/sdb", 512);
    // 7 x 9 cells, of which 10 keep more than 1024 reads in flight.
    CHECK(wide.fio_commands.size() == 53);
    CHECK(contains(wide.fio_commands.back(), "--iodepth=16 --numjobs=64"));
    const auto sequential = describe_benchmark("qd-sweep", { { "pattern", std::string("sequential") } }, "/dev/sdb", 512);
    CHECK(contains(sequential.what, "Sequential reads"));
    CHECK(contains(sequential.fio_commands.front(), "--rw=read "));
    CHECK_FALSE(contains(sequential.fio_commands.front(), "norandommap"));
}
