// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine's entry for the daemon, diskbench-engine and the tests: the
// kinds (benchmark_registry.hpp) and running them (benchmark_runner.hpp).
// The kinds themselves (benchmarks/) include benchmark_kind.hpp only.

#include "benchmark_kind.hpp"
#include "benchmark_registry.hpp"
#include "benchmark_runner.hpp"
