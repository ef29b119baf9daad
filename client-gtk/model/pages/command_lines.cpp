// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_lines.hpp"

#include "text/value_format.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>

namespace diskbench::client {

namespace {

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;
constexpr std::int64_t GiB = 1024 * MiB;

} // namespace

std::string bytes_text(std::int64_t value)
{
    return format_value(static_cast<double>(value), Unit::Bytes);
}

std::string fio_sync_option(std::int64_t sync_every, std::int64_t block)
{
    if (sync_every <= 0 || block <= 0)
        return "--end_fsync=1";
    return fmt::format("--fdatasync={}", (sync_every + block - 1) / block);
}

std::string fio_size(std::int64_t value)
{
    if (value > 0 && value % GiB == 0)
        return fmt::format("{}g", value / GiB);
    if (value > 0 && value % MiB == 0)
        return fmt::format("{}m", value / MiB);
    if (value > 0 && value % KiB == 0)
        return fmt::format("{}k", value / KiB);
    return fmt::format("{}", value);
}

std::string fio_base(const std::string& name, const std::string& node)
{
    return fmt::format("fio --name={} --filename={} --readonly --direct=1 --ioengine=io_uring", name, node);
}

std::string shell_quoted(const std::string& path)
{
    const bool plain = std::all_of(path.begin(), path.end(), [](char c) {
        return g_ascii_isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-';
    });
    if (plain && !path.empty())
        return path;
    const std::unique_ptr<gchar, decltype(&g_free)> quoted(g_shell_quote(path.c_str()), g_free);
    return quoted.get();
}

std::vector<std::int64_t> doublings(std::int64_t low, std::int64_t high)
{
    std::vector<std::int64_t> sizes;
    for (std::int64_t size = low; size > 0 && size <= high && sizes.size() < 64;) {
        sizes.push_back(size);
        if (size > high / 2)
            break; // doubling would pass the end (or overflow)
        size *= 2;
    }
    return sizes;
}

std::int64_t block_or_logical(const SavedValueMap& p, const char* key, std::int64_t fallback, std::uint32_t logical)
{
    const std::int64_t block = integer_of(p, key, fallback);
    return block > 0 ? block : (logical ? logical : 512);
}

FioTest fio_test(const std::string& test)
{
    FioTest f;
    f.sequential = test.starts_with("SEQ");
    std::size_t i = 3; // after "SEQ" or "RND"
    while (i < test.size() && test[i] != ' ')
        f.size += static_cast<char>(std::tolower(static_cast<unsigned char>(test[i++])));
    std::sscanf(test.c_str() + std::min(test.size(), i), " Q%dT%d", &f.depth, &f.threads);
    f.name = test;
    for (char& c : f.name)
        if (c == ' ')
            c = '_';
    return f;
}

std::vector<std::string> dd_sweep(const SavedValueMap& p, const std::string& output, const std::string& extra)
{
    std::vector<std::string> commands;
    const std::int64_t low = std::max<std::int64_t>(1, integer_of(p, "min_block", 512));
    const std::int64_t high = std::max(low, integer_of(p, "max_block", 16 * MiB));
    const std::int64_t amount = integer_of(p, "amount_per_size", 64 * MiB);
    const std::int64_t repetitions = integer_of(p, "repetitions", 9);
    for (const std::int64_t block : doublings(low, high))
        commands.push_back(fmt::format("for i in $(seq {}); do dd if=/dev/urandom of={} bs={} count={} oflag=direct "
                                       "conv=fdatasync{}; done",
                                       repetitions, output, block, std::max<std::int64_t>(1, amount / block), extra));
    return commands;
}

} // namespace diskbench::client
