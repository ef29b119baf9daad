// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs that must fail in a given way: a filesystem that fills up mid-run,
// and a run killed with SIGKILL in the middle of its work.

#include "base/errors.hpp"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace diskbench::testing {

// `run` must throw the IoError of a full filesystem naming `folder`, not
// end well.
template <typename Run> void check_full_mid_run(Run&& run, const std::string& folder)
{
    try {
        run();
        FAIL("the run ended well");
    } catch (const engine::IoError& error) {
        CHECK(error.error_number() == ENOSPC);
        CHECK_THAT(error.what(), Catch::Contains("the filesystem is full") && Catch::Contains(folder));
    }
}

// Runs `work` in a forked child that must die of SIGKILL (sent by `work`
// itself at the moment the test wants), as a crashed or killed daemon
// would: nothing of the child's cleanup runs. In the child no Catch2
// assertion may run; an exception or a return ends it with exit code 3,
// which fails the test here.
template <typename Work> void run_killed_child(Work&& work)
{
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        try {
            work();
        } catch (...) {
        }
        ::_exit(3);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);
}

} // namespace diskbench::testing
