// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <mutex>

namespace diskbench::engine {

// What one user's runs may hold at once: I/O threads and in-flight buffer
// memory. One run alone is capped by its parameters (at most 1024 requests
// and 1 GiB of buffers in flight); without a budget across runs, a user
// could start several such runs at once and take the machine's memory and
// threads from everyone else. Shared by the runs of one user (the daemon
// keeps one per uid); each I/O phase reserves what it needs for as long as
// it runs, so a run that finds the budget taken fails at once with
// LimitsError instead of waiting.
class ResourceBudget {
public:
    ResourceBudget(std::uint64_t max_threads, std::uint64_t max_buffer_bytes) noexcept
        : max_threads_(max_threads), max_buffer_bytes_(max_buffer_bytes)
    {
    }
    ResourceBudget(const ResourceBudget&) = delete;
    ResourceBudget& operator=(const ResourceBudget&) = delete;

    // Gives back what it reserved when it goes.
    class Reservation {
    public:
        Reservation() = default;
        Reservation(Reservation&& other) noexcept;
        Reservation& operator=(Reservation&& other) noexcept;
        ~Reservation();

    private:
        friend class ResourceBudget;
        Reservation(ResourceBudget* budget, std::uint64_t threads, std::uint64_t bytes) noexcept
            : budget_(budget), threads_(threads), bytes_(bytes)
        {
        }
        ResourceBudget* budget_ = nullptr;
        std::uint64_t threads_ = 0;
        std::uint64_t bytes_ = 0;
    };

    // Throws LimitsError, naming what is in use, when `threads` or
    // `buffer_bytes` do not fit beside what is reserved already.
    [[nodiscard]] Reservation reserve(std::uint64_t threads, std::uint64_t buffer_bytes);

    [[nodiscard]] std::uint64_t threads_in_use() const;
    [[nodiscard]] std::uint64_t buffer_bytes_in_use() const;

private:
    void give_back(std::uint64_t threads, std::uint64_t bytes) noexcept;

    const std::uint64_t max_threads_;
    const std::uint64_t max_buffer_bytes_;
    mutable std::mutex mutex_;
    std::uint64_t threads_ = 0;
    std::uint64_t bytes_ = 0;
};

} // namespace diskbench::engine
