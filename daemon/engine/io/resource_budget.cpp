// SPDX-License-Identifier: GPL-3.0-or-later
#include "resource_budget.hpp"

#include "../base/errors.hpp"
#include "../base/units.hpp"

#include <fmt/format.h>

#include <utility>

namespace diskbench::engine {

ResourceBudget::Reservation::Reservation(Reservation&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), threads_(other.threads_), bytes_(other.bytes_)
{
}

ResourceBudget::Reservation& ResourceBudget::Reservation::operator=(Reservation&& other) noexcept
{
    if (this != &other) {
        if (budget_)
            budget_->give_back(threads_, bytes_);
        budget_ = std::exchange(other.budget_, nullptr);
        threads_ = other.threads_;
        bytes_ = other.bytes_;
    }
    return *this;
}

ResourceBudget::Reservation::~Reservation()
{
    if (budget_)
        budget_->give_back(threads_, bytes_);
}

ResourceBudget::Reservation ResourceBudget::reserve(std::uint64_t threads, std::uint64_t buffer_bytes)
{
    std::lock_guard lock(mutex_);
    if (threads_ + threads > max_threads_)
        throw LimitsError(Failure {
            "error-budget-threads", { { "threads", threads }, { "held", threads_ }, { "limit", max_threads_ } } });
    if (bytes_ + buffer_bytes > max_buffer_bytes_)
        throw LimitsError(Failure { "error-budget-buffers",
                                    { { "size", format_bytes(buffer_bytes) },
                                      { "held", format_bytes(bytes_) },
                                      { "limit", format_bytes(max_buffer_bytes_) } } });
    threads_ += threads;
    bytes_ += buffer_bytes;
    return Reservation(this, threads, buffer_bytes);
}

void ResourceBudget::give_back(std::uint64_t threads, std::uint64_t bytes) noexcept
{
    std::lock_guard lock(mutex_);
    threads_ -= threads;
    bytes_ -= bytes;
}

std::uint64_t ResourceBudget::threads_in_use() const
{
    std::lock_guard lock(mutex_);
    return threads_;
}

std::uint64_t ResourceBudget::buffer_bytes_in_use() const
{
    std::lock_guard lock(mutex_);
    return bytes_;
}

} // namespace diskbench::engine
