// SPDX-License-Identifier: GPL-3.0-or-later
// What the daemon does with a start request before polkit is asked must
// cost no more than parsing it: check_benchmark() runs on the bus thread
// for every caller, one allowed nothing included. A kind that builds its
// plan there (verify-capacity laid out up to a million probe offsets: 16-20
// ms of the bus thread per call, and a flood of them from one user stalled
// everyone's calls for seconds) must count it instead.
//
// Measured as the bytes allocated during the check, which is what building
// a plan costs, rather than as time: a timed unit test would be flaky. This
// program replaces the global operator new (hence a program of its own) and
// counts only while a check runs, on this thread.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "benchmarks/capacity_probe.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string>

namespace {

thread_local bool counting = false;
thread_local std::size_t counted_bytes = 0;

void* allocate(std::size_t size, std::size_t alignment)
{
    if (counting)
        counted_bytes += size;
    void* memory = alignment > alignof(std::max_align_t)
        ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
        : std::malloc(size ? size : 1);
    if (!memory)
        throw std::bad_alloc();
    return memory;
}

} // namespace

void* operator new(std::size_t size) { return allocate(size, 0); }
void* operator new[](std::size_t size) { return allocate(size, 0); }
void* operator new(std::size_t size, std::align_val_t alignment)
{
    return allocate(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment)
{
    return allocate(size, static_cast<std::size_t>(alignment));
}
// The nothrow forms too: the runtime's own (AddressSanitizer's, libstdc++'s)
// would otherwise hand out memory that the replaced delete frees with
// free(), which ASan rightly calls a mismatch.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept
{
    try {
        return allocate(size, 0);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept
{
    try {
        return allocate(size, 0);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept
{
    try {
        return allocate(size, static_cast<std::size_t>(alignment));
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept
{
    try {
        return allocate(size, static_cast<std::size_t>(alignment));
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete(void* memory, std::align_val_t, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, std::align_val_t, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::align_val_t) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t, std::align_val_t) noexcept { std::free(memory); }

namespace {

using namespace diskbench::engine;

// Parsing a request, its notes and its summary: a few KiB. A plan of a
// large device is megabytes.
constexpr std::size_t check_budget_bytes = 256 * 1024;

// The largest disk a user may name: 20 TB, 512-byte sectors (the most
// blocks, so the largest plans).
Target big_disk()
{
    Target target;
    target.name = "/dev/big";
    target.size = 20'000'000'000'000ULL;
    target.logical_block = 512;
    target.physical_block = 4096;
    target.is_block_device = true;
    return target;
}

// The bytes check_benchmark() allocated, or none when it refused the
// values (a refusal is a cheap answer too, but it is counted the same).
std::size_t check_cost(const BenchmarkInfo& info, const ValueMap& given)
{
    const Target target = big_disk();
    counted_bytes = 0;
    counting = true;
    try {
        check_benchmark(info, target, validate_request(info, given));
    } catch (const ParameterError&) {
    } catch (const TargetError&) {
    }
    counting = false;
    return counted_bytes;
}

// Each parameter's extremes, one at a time, and a destroying run's mode:
// the values a caller allowed nothing can send.
std::vector<ValueMap> hostile_values(const BenchmarkInfo& info)
{
    std::vector<ValueMap> sets { {} };
    for (const ParamSpec& spec : info.params) {
        if (spec.type == ParamType::Unsigned) {
            sets.push_back({ { std::string(spec.key), static_cast<std::uint64_t>(spec.maximum) } });
            sets.push_back({ { std::string(spec.key), static_cast<std::uint64_t>(spec.minimum) } });
        } else if (spec.type == ParamType::Real) {
            sets.push_back({ { std::string(spec.key), spec.maximum } });
            sets.push_back({ { std::string(spec.key), spec.minimum } });
        } else if (spec.type == ParamType::Text) {
            for (const std::string_view choice : spec.choices)
                sets.push_back({ { std::string(spec.key), std::string(choice) } });
        }
    }
    // The write kinds again as a destroying run, confirmed: some refuse
    // preserve mode at once, and their plan comes only after.
    const bool has_mode = std::any_of(info.params.begin(), info.params.end(),
                                      [](const ParamSpec& spec) { return spec.key == "mode"; });
    if (has_mode) {
        const std::size_t given = sets.size();
        for (std::size_t i = 0; i < given; ++i) {
            if (sets[i].contains("mode"))
                continue;
            ValueMap destroying = sets[i];
            destroying.emplace("mode", std::string("destroy"));
            destroying.emplace("confirm", std::string("big"));
            sets.push_back(std::move(destroying));
        }
    }
    return sets;
}

} // namespace

TEST_CASE("every device kind's check before authorization costs no more than parsing", "[plan-cost]")
{
    std::size_t kinds = 0;
    for (const BenchmarkInfo& info : all_benchmarks()) {
        if (info.target() == TargetKind::Directory)
            continue;
        ++kinds;
        for (const ValueMap& given : hostile_values(info)) {
            std::string described(info.kind);
            for (const auto& [key, value] : given)
                described += " " + key;
            INFO(described);
            CHECK(check_cost(info, given) <= check_budget_bytes);
        }
    }
    CHECK(kinds > 10);
}

TEST_CASE("the count sees a plan built: verify-capacity's layout, as a run builds it", "[plan-cost]")
{
    // What the check before authorization built until it counted instead
    // (about a million offsets for 1M probes on a big disk): over the
    // budget, so the test above fails for a kind that builds its plan there.
    counted_bytes = 0;
    counting = true;
    const auto layout = benchmarks::plan_probes(big_disk().size, 64 * 1024, 512, 1'000'000);
    counting = false;
    CHECK(layout.offsets.size() > 1'000'000);
    CHECK(counted_bytes > check_budget_bytes);
}
