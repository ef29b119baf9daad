// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys that a profile-like kind (profile, device-write,
// file-profile) builds per test: the test's name, a dot, a figure
// ("seq1m_q8t1.throughput_mb_s"). The name is the test's label in lower
// case with '_' for the space ("SEQ1M Q8T1" -> "seq1m_q8t1", "SEQ512B Q1T1"
// -> "seq512b_q1t1"); each kind's descriptor says which figures follow it.

#include "contract/kinds/common_keys.hpp"

#include <string>
#include <string_view>

namespace diskbench::contract::kinds::keys::per_test {

inline constexpr std::string_view separator = ".";

// "SEQ1M Q8T1" -> "seq1m_q8t1": the test's part of its keys.
inline std::string test_name(std::string_view label)
{
    std::string name;
    for (const char c : label)
        name += c == ' ' ? '_' : (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    return name;
}

// "seq1m_q8t1" -> "seq1m_q8t1.": what the test's figures follow, and so the
// prefix of its latency figures (common::latency_key).
inline std::string test_prefix(std::string_view test) { return joined(test, separator); }

// "seq1m_q8t1" + "iops" -> "seq1m_q8t1.iops".
inline std::string test_key(std::string_view test, std::string_view figure)
{
    return joined(test_prefix(test), figure);
}

namespace detail {

// Takes the digits at the front of `text`; false when there are none.
constexpr bool take_digits(std::string_view& text) noexcept
{
    std::size_t count = 0;
    while (count < text.size() && text[count] >= '0' && text[count] <= '9')
        ++count;
    text.remove_prefix(count);
    return count != 0;
}

constexpr bool take(std::string_view& text, std::string_view prefix) noexcept
{
    if (!text.starts_with(prefix))
        return false;
    text.remove_prefix(prefix.size());
    return true;
}

} // namespace detail

// Whether `name` is a test's name: (seq|rnd) digits (k|m|b) _q digits t digits.
constexpr bool is_test_name(std::string_view name) noexcept
{
    using detail::take;
    using detail::take_digits;
    return (take(name, "seq") || take(name, "rnd")) && take_digits(name)
        && (take(name, "k") || take(name, "m") || take(name, "b")) && take(name, "_q") && take_digits(name)
        && take(name, "t") && take_digits(name) && name.empty();
}

// The test's name in `key` ("seq1m_q8t1" of "seq1m_q8t1.iops"), "" when the
// key has no separator.
constexpr std::string_view test_of(std::string_view key) noexcept
{
    const std::size_t dot = key.find(separator);
    return dot == std::string_view::npos ? std::string_view {} : key.substr(0, dot);
}

// The figure in `key` ("iops" of "seq1m_q8t1.iops"), "" when it has none.
constexpr std::string_view figure_of(std::string_view key) noexcept
{
    const std::size_t dot = key.find(separator);
    return dot == std::string_view::npos ? std::string_view {} : key.substr(dot + separator.size());
}

} // namespace diskbench::contract::kinds::keys::per_test
