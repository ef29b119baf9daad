// SPDX-License-Identifier: GPL-3.0-or-later
// Catch2 2.13 ships no separate main library on Debian; this is it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
