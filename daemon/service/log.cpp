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

std::string escaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (byte < 0x20 || byte == 0x7f)
            out += fmt::format("\\x{:02x}", byte);
        else
            out += c;
    }
    return out;
}

namespace detail {
void write_line(std::string_view prefix, const std::string& message)
{
    // One write per line, so lines of two threads do not interleave.
    const std::string line = std::string(prefix) + escaped(message) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
}
} // namespace detail

} // namespace diskbench::service
