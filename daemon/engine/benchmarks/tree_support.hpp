// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the directory-tree benchmarks (structure, small-files) share: the
// seeded plan of a tree of directories and files, counts fitted to the free
// inodes and space, and the timed phases that build, fill, read and remove
// the tree below the FilesystemScope's scratch directory. Everything here
// runs on the scope's thread (DirectoryContext).

#include "../base/unique_fd.hpp"
#include "../benchmark_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::engine::benchmarks {

// A tree of `directories` directories and `files` files below one root,
// drawn from xoshiro256** so the same seed gives the same tree on every
// machine. Node 0 is the root; node d + 1 is directory d ("d<d>"), whose
// parent is drawn uniformly from the root and the directories before it
// (a random recursive tree: shallow and bushy like real trees, depth about
// ln(n), and every parent exists before its children). File f ("f<f>")
// lies in a node drawn uniformly from all of them.
struct TreePlan {
    std::vector<std::uint32_t> directory_parent; // node of each directory's parent
    std::vector<std::uint32_t> file_parent;      // node of each file's parent
    std::vector<std::uint32_t> file_size;        // bytes; 0 for empty files
    std::vector<std::uint32_t> read_order;       // a seeded permutation of the files
    // Per node, derived from the parents: what it holds, in creation order.
    std::vector<std::vector<std::uint32_t>> child_directories;
    std::vector<std::vector<std::uint32_t>> child_files;

    [[nodiscard]] std::size_t directories() const noexcept { return directory_parent.size(); }
    [[nodiscard]] std::size_t files() const noexcept { return file_parent.size(); }
    [[nodiscard]] std::uint64_t total_bytes() const noexcept;
    // FNV-1a over every parent and size, as 16 hex digits: equal for equal trees.
    [[nodiscard]] std::string checksum() const;
    // "d3/d17/f42": file `file` relative to the root.
    [[nodiscard]] std::string file_path(std::uint32_t file) const;
};

// No directory deeper than this below the root: a bound on the fds held
// open at once and on recursion, far above what a random tree of a million
// directories reaches (about 37), so it changes no realistic tree, and
// below remove_tree_below()'s limit.
inline constexpr std::uint32_t max_tree_depth = 48;

// File sizes are drawn uniformly from [min_size, max_size]; both 0 for
// empty files. The draws come in a fixed order (directories' parents, then
// each file's parent and size, then the read order): changing it changes
// every tree.
TreePlan plan_tree(std::uint64_t directories, std::uint64_t files, std::uint32_t min_size, std::uint32_t max_size,
                   std::uint64_t seed);

// The `directories`, `files` and `seed` parameters both benchmarks take.
std::vector<ParamSpec> tree_params(std::vector<ParamSpec> more);

struct TreeCounts {
    std::uint64_t directories = 0;
    std::uint64_t files = 0;
};

// The counts asked for, checked against the free inodes (f_favail) and
// space less a tenth (usable_space) with an estimate per directory
// (`directory_bytes`) and per file (`file_bytes`). Defaults that do not fit
// are scaled down together with a note; counts the caller gave that do not
// fit are a ParameterError naming the key. IoError ENOSPC when not even one
// of each fits.
TreeCounts fitted_tree_counts(DirectoryContext& ctx, std::uint64_t directory_bytes, std::uint64_t file_bytes);

// Builds, fills, reads and removes the planned tree in a directory "tree"
// in the scope's scratch directory, every name through fs_beneath.hpp. Each
// phase is timed HDDTest's way: syncfs() first, outside the timing, so
// nobody else's dirty data is flushed inside it; then the work; then
// syncfs() inside the timing, so what the phase wrote is on the device when
// the clock stops. Progress advances by one step per operation out of
// `total_steps`. A phase returns its nanoseconds, or nullopt when cancelled
// (polled between operations). Failures throw the explained IoError. The
// destructor removes whatever is left (after a cancel or an error), not
// timed.
class TreeRun {
public:
    TreeRun(DirectoryContext& ctx, const TreePlan& plan, std::uint64_t total_steps);
    ~TreeRun();
    TreeRun(const TreeRun&) = delete;
    TreeRun& operator=(const TreeRun&) = delete;

    // Every directory, and with `empty_files` every file (empty) in it.
    std::optional<std::uint64_t> create(bool empty_files);
    // Every file, written with seeded data (`seed`): each file's bytes
    // differ from every other's, so neither compression nor dedup helps.
    std::optional<std::uint64_t> write_files(std::uint64_t seed);
    // Drops every file's cached pages (POSIX_FADV_DONTNEED, after the sync
    // made them clean) and returns how many files still had pages cached
    // afterwards (mincore()), or the files count when it could not check.
    std::uint64_t drop_cached_files();
    // Every file in plan.read_order, whole, by its path from the root.
    std::optional<std::uint64_t> read_files();
    // Every file and directory, the tree's root last (not timed).
    std::optional<std::uint64_t> remove();

private:
    template <typename Work>
    std::optional<std::uint64_t> timed(Work&& work);
    std::uint64_t drop_cached();
    bool step();
    bool create_below(int directory, std::uint32_t node, bool empty_files);
    bool write_below(int directory, std::uint32_t node, std::vector<std::byte>& data);
    bool remove_below(int directory, std::uint32_t node);
    // `id`: one of the catalogue's error-tree-entry-* failures.
    [[noreturn]] void fail(const char* id, const std::string& name, int error_number) const;
    // One of the tree's files, for reading; fails unless it is still the
    // regular file the run made.
    [[nodiscard]] UniqueFd open_tree_file(const std::string& path) const;

    DirectoryContext& ctx_;
    const TreePlan& plan_;
    // The largest file's bytes (one more for reading), the data buffer the
    // write and read phases take in turn: reserved from the owner's budget
    // for the whole run, before anything is made.
    ResourceBudget::Reservation data_memory_;
    int scratch_;
    UniqueFd root_;
    bool removed_ = false;
    std::uint64_t total_steps_;
    std::uint64_t steps_ = 0;
    std::uint64_t data_seed_ = 0;
};

} // namespace diskbench::engine::benchmarks
