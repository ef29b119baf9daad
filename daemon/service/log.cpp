// SPDX-License-Identifier: GPL-3.0-or-later
#include "log.hpp"

#include <atomic>

namespace diskbench::service {

namespace {
std::atomic<bool> verbose_logging { false };
}

void set_verbose(bool verbose) noexcept
{
    verbose_logging = verbose;
}

bool verbose() noexcept
{
    return verbose_logging;
}

} // namespace diskbench::service
