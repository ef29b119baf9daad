// SPDX-License-Identifier: GPL-3.0-or-later
// When the io_uring worker polls for a completion and when it sleeps at once
// (poll_rule.hpp): polling goes on while polls catch their completion, stops
// after a few misses, and comes back through the occasional trial poll.
#include "io/poll_rule.hpp"

#include <catch2/catch.hpp>

using diskbench::engine::detail::PollRule;

namespace {

// Asks the rule `waits` times, answering each poll with `caught`; returns
// how many of those waits polled.
unsigned run_waits(PollRule& rule, unsigned waits, bool caught)
{
    unsigned polls = 0;
    for (unsigned i = 0; i < waits; ++i) {
        if (rule.should_poll()) {
            ++polls;
            rule.polled(caught);
        }
    }
    return polls;
}

} // namespace

TEST_CASE("a fast device keeps the worker polling", "[uring]")
{
    PollRule rule;
    CHECK(run_waits(rule, 1000, true) == 1000);
    CHECK(rule.success_share() > 0.99);
}

TEST_CASE("a slow device stops the polling within a few waits and only trials poll", "[uring]")
{
    PollRule rule;
    // Every poll runs out: after a handful the worker sleeps at once.
    const unsigned first = run_waits(rule, 20, false);
    CHECK(first >= 2);
    CHECK(first <= 8);
    CHECK_FALSE(rule.should_poll());
    // From then on one wait in kTrialEvery polls, to notice a change.
    const unsigned waits = 100 * PollRule::kTrialEvery;
    const unsigned polls = run_waits(rule, waits, false);
    CHECK(polls >= 99);
    CHECK(polls <= 101);
}

TEST_CASE("waits around the poll window poll only when most polls pay", "[uring]")
{
    // Two of three polls run out (a disk-backed loop whose waits sit just
    // over the window): polling must stay off nearly all the time.
    PollRule mostly_missed;
    unsigned polls = 0;
    for (unsigned i = 0; i < 6400; ++i) {
        if (mostly_missed.should_poll()) {
            mostly_missed.polled(polls % 3 == 0);
            ++polls;
        }
    }
    CHECK(polls < 6400 / 10);

    // Two of three polls catch one: polling stays on nearly all the time.
    PollRule mostly_caught;
    polls = 0;
    for (unsigned i = 0; i < 6400; ++i) {
        if (mostly_caught.should_poll()) {
            mostly_caught.polled(polls % 3 != 0);
            ++polls;
        }
    }
    CHECK(polls > 6400 * 9 / 10);
}

TEST_CASE("a device that becomes fast again is polled again after a trial", "[uring]")
{
    PollRule rule;
    run_waits(rule, 50, false);
    REQUIRE_FALSE(rule.should_poll());
    // The next trials catch their completions: within a few trials polling
    // is back on for every wait.
    run_waits(rule, 4 * PollRule::kTrialEvery, true);
    CHECK(run_waits(rule, 100, true) == 100);
}

TEST_CASE("after a long slow spell polling comes back within six trials", "[uring]")
{
    PollRule rule;
    run_waits(rule, 100 * PollRule::kTrialEvery, false);
    REQUIRE(rule.success_share() < 0.01);
    // Every trial now catches its completion: polling is on for every wait
    // after at most six trials.
    run_waits(rule, 6 * PollRule::kTrialEvery, true);
    CHECK(rule.should_poll());
    CHECK(run_waits(rule, 100, true) == 100);
}
