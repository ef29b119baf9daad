// SPDX-License-Identifier: GPL-3.0-or-later
#include "tree_support.hpp"

#include "../base/clock.hpp"
#include "../base/errors.hpp"
#include "../io/write_data.hpp"
#include "../sandbox/fs_beneath.hpp"
#include "../sandbox/fs_scope.hpp"
#include "file_support.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

constexpr const char* root_name = "tree";

std::string directory_name(std::uint32_t directory)
{
    return fmt::format("d{}", directory);
}

std::string file_name(std::uint32_t file)
{
    return fmt::format("f{}", file);
}

std::uint64_t fnv1a(std::uint64_t hash, std::uint32_t value) noexcept
{
    for (int i = 0; i < 4; ++i) {
        hash ^= (value >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

void sync_filesystem(int fd, const std::string& where)
{
    // syncfs() as HDDTest's "sync", but for this filesystem only; since
    // Linux 5.8 it also reports writeback errors (EIO, ENOSPC).
    if (::syncfs(fd) != 0)
        throw IoError(Failure { "error-syncfs", { { "target", where }, { "reason", std::strerror(errno) } } }, errno);
}

} // namespace

std::uint64_t TreePlan::total_bytes() const noexcept
{
    std::uint64_t total = 0;
    for (std::uint32_t size : file_size)
        total += size;
    return total;
}

std::string TreePlan::checksum() const
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    hash = fnv1a(hash, static_cast<std::uint32_t>(directories()));
    hash = fnv1a(hash, static_cast<std::uint32_t>(files()));
    for (std::uint32_t parent : directory_parent)
        hash = fnv1a(hash, parent);
    for (std::size_t f = 0; f < files(); ++f)
        hash = fnv1a(fnv1a(hash, file_parent[f]), file_size[f]);
    return fmt::format("{:016x}", hash);
}

std::string TreePlan::file_path(std::uint32_t file) const
{
    std::string path = file_name(file);
    for (std::uint32_t node = file_parent[file]; node != 0; node = directory_parent[node - 1])
        path = directory_name(node - 1) + "/" + path;
    return path;
}

TreePlan plan_tree(std::uint64_t directories, std::uint64_t files, std::uint32_t min_size, std::uint32_t max_size,
                   std::uint64_t seed)
{
    Xoshiro256StarStar rng(seed);
    TreePlan plan;
    plan.child_directories.resize(directories + 1);
    plan.child_files.resize(directories + 1);
    std::vector<std::uint32_t> depth(directories + 1, 0);
    plan.directory_parent.reserve(directories);
    for (std::uint32_t d = 0; d < directories; ++d) {
        auto parent = static_cast<std::uint32_t>(rng.below(std::uint64_t { d } + 1));
        if (depth[parent] >= max_tree_depth)
            parent = 0;
        depth[d + 1] = depth[parent] + 1;
        plan.directory_parent.push_back(parent);
        plan.child_directories[parent].push_back(d + 1);
    }
    plan.file_parent.reserve(files);
    plan.file_size.reserve(files);
    for (std::uint32_t f = 0; f < files; ++f) {
        const auto parent = static_cast<std::uint32_t>(rng.below(directories + 1));
        plan.file_parent.push_back(parent);
        plan.child_files[parent].push_back(f);
        plan.file_size.push_back(max_size == 0 ? 0
                                               : min_size + static_cast<std::uint32_t>(rng.below(max_size - min_size + 1)));
    }
    // Fisher-Yates: every order equally likely, and reproducible.
    plan.read_order.resize(files);
    for (std::uint32_t f = 0; f < files; ++f)
        plan.read_order[f] = f;
    for (std::uint64_t i = files; i > 1; --i)
        std::swap(plan.read_order[i - 1], plan.read_order[rng.below(i)]);
    return plan;
}

std::vector<ParamSpec> tree_params(std::vector<ParamSpec> more)
{
    std::vector<ParamSpec> params {
        unsigned_param("directories", "Directories in the tree (scaled down to the free inodes and space when not "
                                      "given; HDDTest used 1000).",
                       1000, 1, 1'000'000),
        unsigned_param("files", "Files in the tree (scaled down with the directories; HDDTest used 1000).", 1000, 1,
                       1'000'000),
    };
    for (auto& spec : more)
        params.push_back(std::move(spec));
    params.push_back(unsigned_param("seed", "Seed of the tree's shape (xoshiro256**): the same seed makes the same "
                                            "tree on every machine.",
                                    default_seed, 0, UINT64_MAX));
    return with_common_params(std::move(params), Seeded::No);
}

TreeCounts fitted_tree_counts(DirectoryContext& ctx, std::uint64_t directory_bytes, std::uint64_t file_bytes)
{
    TreeCounts counts { ctx.params.unsigned_value("directories"), ctx.params.unsigned_value("files") };
    // The root "tree" takes one inode and one directory's bytes as well.
    const auto inodes = [](const TreeCounts& c) { return c.directories + c.files + 1; };
    const auto bytes = [&](const TreeCounts& c) { return (c.directories + 1) * directory_bytes + c.files * file_bytes; };
    const FilesystemFacts& facts = ctx.facts;
    const bool limited_inodes = facts.total_inodes != 0;
    const std::uint64_t inode_room = limited_inodes ? facts.available_inodes - facts.available_inodes / 10 : UINT64_MAX;
    const std::uint64_t byte_room = usable_space(facts);
    if (inodes(counts) <= inode_room && bytes(counts) <= byte_room)
        return counts;

    const bool short_of_inodes = inodes(counts) > inode_room;
    // What is short, in the words of the failures below: free inodes or free space.
    const contract::MessageArg scarce = short_of_inodes ? contract::MessageArg("free_inodes", inode_room)
                                                        : contract::MessageArg("free_space", format_bytes(byte_room));
    if (ctx.params.given("directories") || ctx.params.given("files")) {
        const std::string key = ctx.params.given("files") ? "files" : "directories";
        throw ParameterError(key, Failure { short_of_inodes ? "error-tree-short-of-inodes" : "error-tree-short-of-space",
                                            { { "directories", counts.directories },
                                              { "files", counts.files },
                                              { "inodes", inodes(counts) },
                                              { "size", format_bytes(bytes(counts)) },
                                              scarce } });
    }
    const double factor = std::min(static_cast<double>(inode_room) / static_cast<double>(inodes(counts)),
                                   static_cast<double>(byte_room) / static_cast<double>(bytes(counts)));
    TreeCounts fitted { static_cast<std::uint64_t>(static_cast<double>(counts.directories) * factor),
                        static_cast<std::uint64_t>(static_cast<double>(counts.files) * factor) };
    // Rounding may leave one too many; take them off until it fits.
    while ((inodes(fitted) > inode_room || bytes(fitted) > byte_room) && fitted.directories + fitted.files > 0) {
        if (fitted.directories > 0)
            --fitted.directories;
        if (fitted.files > 0)
            --fitted.files;
    }
    if (fitted.directories == 0 || fitted.files == 0)
        throw IoError(Failure { short_of_inodes ? "error-filesystem-full-no-tree-inodes"
                                                : "error-filesystem-full-no-tree-space",
                                { { "target", ctx.result.target_name }, scarce } },
                      ENOSPC);
    ctx.recorder.note({ short_of_inodes ? "tree-scaled-to-inodes" : "tree-scaled-to-space",
                        { { "directories", counts.directories },
                          { "files", counts.files },
                          { "fitted_directories", fitted.directories },
                          { "fitted_files", fitted.files } } });
    return fitted;
}

namespace {

std::uint32_t largest_file(const TreePlan& plan)
{
    return plan.file_size.empty() ? 0 : *std::max_element(plan.file_size.begin(), plan.file_size.end());
}

} // namespace

TreeRun::TreeRun(DirectoryContext& ctx, const TreePlan& plan, std::uint64_t total_steps)
    : ctx_(ctx), plan_(plan),
      data_memory_(ctx.io.reserve(0, largest_file(plan) == 0 ? 0 : std::uint64_t { largest_file(plan) } + 1)),
      scratch_(ctx.scope->scratch_directory()),
      total_steps_(std::max<std::uint64_t>(1, total_steps))
{
    try {
        if (!make_directory_beneath(scratch_, root_name, 0700))
            fail("error-tree-entry-uncreatable", root_name, errno);
        root_ = open_beneath(scratch_, root_name, O_RDONLY | O_DIRECTORY);
        if (!root_.valid())
            fail("error-tree-entry-unopenable", root_name, errno);
    } catch (const IoError& error) {
        throw explained(ctx_, error);
    }
}

TreeRun::~TreeRun()
{
    if (removed_)
        return;
    root_.reset();
    try {
        remove_beneath(scratch_, root_name);
    } catch (const Error&) {
        // The scope removes its scratch directory with whatever is left.
    }
}

UniqueFd TreeRun::open_tree_file(const std::string& path) const
{
    // The caller owns the scratch tree and may swap a file for a FIFO
    // mid-run: a blocking open() of it would hang this thread, beyond the
    // reach of Cancel, holding the disk's claim. O_NONBLOCK makes such an
    // open return at once (and changes nothing for regular files), and the
    // fstat() refuses anything but a regular file. openat2 follows no
    // symlink anyway; O_NOFOLLOW says so here too.
    UniqueFd fd = open_path_beneath(root_.get(), path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
    if (!fd.valid())
        fail("error-tree-entry-unopenable", path, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        fail("error-tree-entry-unopenable", path, errno);
    if (!S_ISREG(st.st_mode))
        throw Error(Failure { "error-tree-entry-replaced", { { "target", ctx_.result.target_name }, { "name", path } } });
    return fd;
}

void TreeRun::fail(const char* id, const std::string& name, int error_number) const
{
    // Explained by the caller (timed() or explaining()), once.
    throw IoError(Failure { id,
                            { { "target", ctx_.result.target_name },
                              { "name", name },
                              { "reason", std::strerror(error_number) } } },
                  error_number);
}

bool TreeRun::step()
{
    ++steps_;
    ctx_.recorder.set_progress(static_cast<double>(steps_) / static_cast<double>(total_steps_));
    return !ctx_.cancel.cancelled();
}

template <typename Work>
std::optional<std::uint64_t> TreeRun::timed(Work&& work)
{
    try {
        sync_filesystem(root_.get(), ctx_.result.target_name);
        const std::uint64_t start = monotonic_ns();
        if (!work())
            return std::nullopt;
        sync_filesystem(root_.get(), ctx_.result.target_name);
        return monotonic_ns() - start;
    } catch (const IoError& error) {
        throw explained(ctx_, error);
    }
}

bool TreeRun::create_below(int directory, std::uint32_t node, bool empty_files)
{
    if (empty_files)
        for (std::uint32_t f : plan_.child_files[node]) {
            const std::string name = file_name(f);
            if (!open_beneath(directory, name, O_CREAT | O_EXCL | O_WRONLY, 0600).valid())
                fail("error-tree-entry-uncreatable", name, errno);
            if (!step())
                return false;
        }
    for (std::uint32_t child : plan_.child_directories[node]) {
        const std::string name = directory_name(child - 1);
        if (!make_directory_beneath(directory, name, 0700))
            fail("error-tree-entry-uncreatable", name, errno);
        if (!step())
            return false;
        if (plan_.child_directories[child].empty() && (!empty_files || plan_.child_files[child].empty()))
            continue; // nothing to put in it: no need to open it
        const UniqueFd fd = open_beneath(directory, name, O_RDONLY | O_DIRECTORY);
        if (!fd.valid())
            fail("error-tree-entry-unopenable", name, errno);
        if (!create_below(fd.get(), child, empty_files))
            return false;
    }
    return true;
}

std::optional<std::uint64_t> TreeRun::create(bool empty_files)
{
    return timed([&] { return create_below(root_.get(), 0, empty_files); });
}

bool TreeRun::write_below(int directory, std::uint32_t node, std::vector<std::byte>& data)
{
    for (std::uint32_t f : plan_.child_files[node]) {
        const std::string name = file_name(f);
        const UniqueFd fd = open_beneath(directory, name, O_CREAT | O_EXCL | O_WRONLY, 0600);
        if (!fd.valid())
            fail("error-tree-entry-uncreatable", name, errno);
        // Every sector stamped with the file's own number and its offset,
        // over the same seeded bytes: cheap, and no two sectors are equal.
        const std::uint32_t size = plan_.file_size[f];
        stamp_offsets(data.data(), size, (std::uint64_t { f } << 32) ^ data_seed_);
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = ::write(fd.get(), data.data() + done, size - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                fail("error-tree-entry-unwritable", name, n < 0 ? errno : EIO);
            done += static_cast<std::size_t>(n);
        }
        if (!step())
            return false;
    }
    for (std::uint32_t child : plan_.child_directories[node]) {
        const std::string name = directory_name(child - 1);
        const UniqueFd fd = open_beneath(directory, name, O_RDONLY | O_DIRECTORY);
        if (!fd.valid())
            fail("error-tree-entry-unopenable", name, errno);
        if (!write_below(fd.get(), child, data))
            return false;
    }
    return true;
}

std::optional<std::uint64_t> TreeRun::write_files(std::uint64_t seed)
{
    const std::uint32_t largest = largest_file(plan_); // reserved in data_memory_
    std::vector<std::byte> data(largest);
    fill_pseudo_random(data.data(), data.size(), seed); // before the clock
    data_seed_ = seed;
    return timed([&] { return write_below(root_.get(), 0, data); });
}

std::uint64_t TreeRun::drop_cached_files()
{
    try {
        return drop_cached();
    } catch (const IoError& error) {
        throw explained(ctx_, error);
    }
}

std::uint64_t TreeRun::drop_cached()
{
    const long page = ::sysconf(_SC_PAGESIZE);
    std::vector<unsigned char> residency;
    std::uint64_t still_cached = 0;
    for (std::uint32_t f = 0; f < plan_.files(); ++f) {
        if (ctx_.cancel.cancelled())
            return 0;
        const std::string path = plan_.file_path(f);
        const UniqueFd fd = open_tree_file(path);
        // Only clean pages can be dropped; the phase's syncfs made them so.
        ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
        const std::size_t size = plan_.file_size[f];
        if (size == 0)
            continue;
        // mincore() of a mapping tells which of the file's pages are in the
        // page cache (for files we own); mapping reads nothing.
        void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd.get(), 0);
        if (map == MAP_FAILED)
            return plan_.files();
        residency.assign((size + static_cast<std::size_t>(page) - 1) / static_cast<std::size_t>(page), 0);
        const bool known = ::mincore(map, size, residency.data()) == 0;
        ::munmap(map, size);
        if (!known)
            return plan_.files();
        if (std::any_of(residency.begin(), residency.end(), [](unsigned char r) { return r & 1; }))
            ++still_cached;
    }
    return still_cached;
}

std::optional<std::uint64_t> TreeRun::read_files()
{
    const std::uint32_t largest = largest_file(plan_); // reserved in data_memory_
    // One byte more than any file, so a file that grew is noticed.
    std::vector<std::byte> buffer(std::size_t { largest } + 1);
    return timed([&] {
        for (std::uint32_t f : plan_.read_order) {
            const std::string path = plan_.file_path(f);
            const UniqueFd fd = open_tree_file(path);
            std::size_t done = 0;
            while (true) {
                const ssize_t n = ::read(fd.get(), buffer.data() + done, buffer.size() - done);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n < 0)
                    fail("error-tree-entry-unreadable", path, errno);
                if (n == 0 || (done += static_cast<std::size_t>(n)) == buffer.size())
                    break;
            }
            if (done != plan_.file_size[f])
                throw Error(Failure { "error-tree-entry-changed",
                                      { { "target", ctx_.result.target_name },
                                        { "name", path },
                                        { "size", done },
                                        { "expected", plan_.file_size[f] } } });
            if (!step())
                return false;
        }
        return true;
    });
}

bool TreeRun::remove_below(int directory, std::uint32_t node)
{
    for (std::uint32_t f : plan_.child_files[node]) {
        const std::string name = file_name(f);
        if (!unlink_beneath(directory, name, false))
            fail("error-tree-entry-unremovable", name, errno);
        if (!step())
            return false;
    }
    for (std::uint32_t child : plan_.child_directories[node]) {
        const std::string name = directory_name(child - 1);
        if (!plan_.child_directories[child].empty() || !plan_.child_files[child].empty()) {
            const UniqueFd fd = open_beneath(directory, name, O_RDONLY | O_DIRECTORY);
            if (!fd.valid())
                fail("error-tree-entry-unopenable", name, errno);
            if (!remove_below(fd.get(), child))
                return false;
        }
        if (!unlink_beneath(directory, name, true))
            fail("error-tree-entry-unremovable", name, errno);
        if (!step())
            return false;
    }
    return true;
}

std::optional<std::uint64_t> TreeRun::remove()
{
    const auto time = timed([&] { return remove_below(root_.get(), 0); });
    if (!time)
        return time;
    root_.reset();
    if (!unlink_beneath(scratch_, root_name, true))
        throw explained(ctx_, IoError(Failure { "error-tree-unremovable",
                                                { { "target", ctx_.result.target_name },
                                                  { "reason", std::strerror(errno) } } },
                                      errno));
    removed_ = true;
    return time;
}

} // namespace diskbench::engine::benchmarks
