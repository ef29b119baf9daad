// SPDX-License-Identifier: GPL-3.0-or-later
// FilesystemScope on real ext4 (mkfs.ext4 on a loop device) and tmpfs,
// acting for nobody: files belong to the caller, the caller's permissions
// apply, planted symlinks are never followed, leftovers of a crashed run go
// and nothing else does. No Catch2 assertion runs on the scope's thread
// (Catch2 is not thread-safe): the work only collects facts, checked after.
#include "base/errors.hpp"
#include "failure_checks.hpp"
#include "fs_test_support.hpp"
#include "mounts.hpp"
#include "sandbox/fs_beneath.hpp"
#include "sandbox/fs_scope.hpp"

#include <catch2/catch.hpp>

#include <sys/syscall.h>

#include <sys/fsuid.h>

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

using namespace diskbench::engine;
using namespace diskbench::testing;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

struct stat stat_path(const fs::path& path)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0)
        throw std::runtime_error("lstat " + path.string());
    return st;
}

// Root as the caller: only the filesystem's own refusal can stop it.
Credentials engine_root()
{
    return { 0, 0, {} };
}

// A field of /proc/thread-self/status, e.g. "CapEff:".
std::string status_of_this_thread(const std::string& key)
{
    std::ifstream status("/proc/thread-self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.starts_with(key))
            return line.substr(line.find_first_not_of(" \t", key.size()));
    return "?";
}

std::string capabilities_of_this_thread()
{
    return status_of_this_thread("CapEff:");
}

// "Uid:" holds real, effective, saved and filesystem uid.
uid_t fsuid_of_this_thread()
{
    std::istringstream ids(status_of_this_thread("Uid:"));
    uid_t real = 0, effective = 0, saved = 0, filesystem = 0;
    ids >> real >> effective >> saved >> filesystem;
    return filesystem;
}

void write_text(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

} // namespace

TEST_CASE("a scope acts as the caller: its files are the caller's, other threads stay root", "[fs-scope][loop]")
{
    for (const auto kind : { MountedFilesystem::Kind::Ext4, MountedFilesystem::Kind::Tmpfs }) {
        MountedFilesystem mount(kind, 64 * MiB);
        INFO(mount.type());
        const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
        std::string scratch_name;
        {
            FilesystemScope scope(open_directory(home), home.string(), test_caller());
            scratch_name = scope.scratch_name();
            CHECK(scope.leftovers_removed() == 0);
            const struct stat scratch = stat_path(home / scratch_name);
            CHECK(S_ISDIR(scratch.st_mode));
            CHECK(scratch.st_uid == caller_uid);
            CHECK(scratch.st_gid == caller_gid);
            CHECK((scratch.st_mode & 07777) == 0700);

            struct stat named {};
            struct stat nameless {};
            std::string capabilities;
            uid_t fsuid_after_trying_root = 0;
            int setfsuid_result = 0;
            int setuid_result = 0;
            int setgroups_result = 0;
            [[maybe_unused]] int x32_setfsuid_result = 0;
            scope.run([&] {
                const UniqueFd kept = open_beneath(scope.scratch_directory(), "kept", O_CREAT | O_EXCL | O_RDWR, 0644);
                ::fstat(kept.get(), &named);
                const UniqueFd file = scope.create_scratch_file();
                ::fstat(file.get(), &nameless);
                capabilities = capabilities_of_this_thread();
                // The thread's real uid is still 0, to which the kernel lets
                // an fsuid return without a capability: refused, as is any
                // other credential change.
                setfsuid_result = ::syscall(SYS_setfsuid, 0) == -1 ? errno : 0;
                fsuid_after_trying_root = fsuid_of_this_thread();
                setuid_result = ::syscall(SYS_setresuid, -1, -1, 0) == 0 ? 0 : errno;
                setgroups_result = ::syscall(SYS_setgroups, 0, nullptr) == 0 ? 0 : errno;
#if defined(__x86_64__)
                // The x32 ABI's setfsuid: the filter's answer (EPERM), not
                // the kernel's ENOSYS (no x32 here) or a success (x32 built in).
                x32_setfsuid_result = ::syscall(0x40000000L | SYS_setfsuid, 0) == -1 ? errno : 0;
#endif
            });
#if defined(__x86_64__)
            CHECK(x32_setfsuid_result == EPERM);
#endif
            CHECK(setfsuid_result == EPERM);
            CHECK(fsuid_after_trying_root == caller_uid);
            CHECK(setuid_result == EPERM);
            CHECK(setgroups_result == EPERM);
            CHECK(named.st_uid == caller_uid);
            CHECK(named.st_gid == caller_gid);
            CHECK(nameless.st_uid == caller_uid);
            CHECK(nameless.st_nlink == 0); // never had a name (O_TMPFILE)
            CHECK(scope.uses_tmpfile());
            CHECK(capabilities == "0000000000000000");
            CHECK(stat_path(home / scratch_name / "kept").st_uid == caller_uid);

            // This thread is still root, and may not use the scope's directory.
            write_text(home / "root-file", "x");
            CHECK(stat_path(home / "root-file").st_uid == 0);
            CHECK_THROWS_AS(scope.scratch_directory(), Error);
            CHECK_THROWS_AS(scope.create_scratch_file(), Error);
            bool nested_refused = false;
            scope.run([&] {
                try {
                    scope.run([] {});
                } catch (const Error&) {
                    nested_refused = true;
                }
            });
            CHECK(nested_refused);
        }
        // Gone, with the file in it; nothing else touched.
        CHECK(scratch_entries(home).empty());
        CHECK(fs::exists(home / "root-file"));
    }
}

TEST_CASE("a scope in a folder the caller may not write is a permission error and writes nothing", "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 32 * MiB);
    const fs::path readable = make_owned_directory(mount.path(), "root-readable", 0, 0, 0755);
    const fs::path closed = make_owned_directory(mount.path(), "root-only", 0, 0, 0700);
    write_text(closed / "secret", "root's");
    ::chmod((closed / "secret").c_str(), 0600);
    const std::string before = tree_snapshot(mount.path());

    for (const fs::path& dir : { readable, closed }) {
        INFO(dir);
        try {
            FilesystemScope scope(open_directory(dir), dir.string(), test_caller());
            FAIL("the scope was created");
        } catch (const IoError& error) {
            CHECK(error.error_number() == EACCES);
            CHECK_THAT(error.what(), Catch::Contains("may not create files") && Catch::Contains(dir.string()));
        }
    }
    CHECK(tree_snapshot(mount.path()) == before);

    // Even with a directory fd root opened, the scope's thread reads nothing
    // the caller could not.
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const UniqueFd closed_fd = open_directory(closed);
    int open_errno = 0;
    {
        FilesystemScope scope(open_directory(home), home.string(), test_caller());
        scope.run([&] {
            const UniqueFd secret(::openat(closed_fd.get(), "secret", O_RDONLY | O_CLOEXEC));
            open_errno = secret.valid() ? 0 : errno;
        });
    }
    CHECK(open_errno == EACCES);
}

TEST_CASE("symlinks planted in the folder are never followed", "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 32 * MiB);
    // The caller could write `outside` itself: only the scope's own care
    // keeps it untouched. It even looks like a leftover scratch directory.
    const fs::path outside = make_owned_directory(mount.path(), "outside", caller_uid, caller_gid, 0755);
    write_text(outside / std::string(scratch_marker_name), std::string(scratch_marker_text));
    write_text(outside / "precious", "do not touch");
    make_owned_directory(outside, "sub", caller_uid, caller_gid, 0755);
    write_text(outside / "sub" / "also", "nor this");
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    fs::create_symlink("../outside", home / ".diskbench-scratch-relative");
    fs::create_symlink(outside, home / ".diskbench-scratch-absolute");
    const std::string before = tree_snapshot(outside);

    std::string scratch_name;
    int open_errno = 0;
    {
        FilesystemScope scope(open_directory(home), home.string(), test_caller());
        scratch_name = scope.scratch_name();
        CHECK(scope.leftovers_removed() == 0);
        scope.run([&] {
            // A symlink inside the scratch directory is not followed either.
            ::symlinkat(outside.c_str(), scope.scratch_directory(), "out");
            const UniqueFd through = open_beneath(scope.scratch_directory(), "out", O_RDONLY | O_DIRECTORY);
            open_errno = through.valid() ? 0 : errno;
        });
        // The scratch directory swapped for a symlink to `outside` mid-run.
        fs::rename(home / scratch_name, home / "moved");
        fs::create_symlink(outside, home / scratch_name);
    }
    CHECK((open_errno == ELOOP || open_errno == ENOTDIR)); // O_NOFOLLOW | O_DIRECTORY on a symlink
    CHECK(tree_snapshot(outside) == before);
    // The planted symlinks were not ours to remove, nor is whatever now has
    // the scratch directory's name; the real scratch directory was emptied
    // through its fd (its new name is whoever moved it's business).
    CHECK(fs::is_symlink(home / ".diskbench-scratch-relative"));
    CHECK(fs::is_symlink(home / ".diskbench-scratch-absolute"));
    CHECK(fs::is_symlink(home / scratch_name));
    CHECK(fs::is_empty(home / "moved"));
}

TEST_CASE("the scratch directory of a killed run is removed by the next one, and nothing else is", "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    const std::uint64_t free_before = free_bytes(home);

    // A run killed with SIGKILL mid-work: a tree of named files and an
    // unnamed scratch file with 8 MiB in it.
    run_killed_child([&] {
        FilesystemScope scope(open_directory(home), home.string(), test_caller());
        scope.run([&] {
            const int scratch = scope.scratch_directory();
            ::mkdirat(scratch, "d", 0700);
            const UniqueFd d = open_beneath(scratch, "d", O_RDONLY | O_DIRECTORY);
            ::mkdirat(d.get(), "e", 0700);
            const UniqueFd named = open_beneath(d.get(), "f", O_CREAT | O_WRONLY, 0600);
            const UniqueFd file = scope.create_scratch_file();
            const std::vector<char> data(8 * MiB, 'x');
            if (::write(file.get(), data.data(), data.size()) != static_cast<ssize_t>(data.size())
                || ::fsync(file.get()) != 0)
                ::_exit(4);
            ::kill(::getpid(), SIGKILL);
        });
    });
    const std::vector<std::string> left = scratch_entries(home);
    REQUIRE(left.size() == 1);
    CHECK(fs::exists(home / left[0] / "d" / "f"));

    // Look-alikes that are not ours: no marker, the wrong marker, a file.
    const fs::path unmarked = make_owned_directory(home, ".diskbench-scratch-users", caller_uid, caller_gid, 0755);
    write_text(unmarked / "data", "keep");
    const fs::path wrong = make_owned_directory(home, ".diskbench-scratch-wrong", caller_uid, caller_gid, 0755);
    write_text(wrong / std::string(scratch_marker_name), "something else\n");
    write_text(home / ".diskbench-scratch-file", "keep");
    const std::string unmarked_before = tree_snapshot(unmarked);
    const std::string wrong_before = tree_snapshot(wrong);

    {
        FilesystemScope live(open_directory(home), home.string(), test_caller());
        CHECK(live.leftovers_removed() == 1);
        CHECK_FALSE(fs::exists(home / left[0]));
        {
            // A second run at the same time leaves the live one alone.
            FilesystemScope second(open_directory(home), home.string(), test_caller());
            CHECK(second.leftovers_removed() == 0);
            CHECK(fs::exists(home / live.scratch_name() / std::string(scratch_marker_name)));
        }
        CHECK(fs::exists(home / live.scratch_name() / std::string(scratch_marker_name)));
    }
    CHECK(scratch_entries(home).size() == 3);
    CHECK(tree_snapshot(unmarked) == unmarked_before);
    CHECK(tree_snapshot(wrong) == wrong_before);
    CHECK(fs::is_regular_file(home / ".diskbench-scratch-file"));
    // The killed run's 8 MiB are free again (the unnamed file died with it).
    CHECK(free_bytes(home) + MiB >= free_before);
}

TEST_CASE("a scope on a read-only filesystem says so", "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Tmpfs, MiB);
    REQUIRE(::mount(nullptr, mount.path().c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
    try {
        FilesystemScope scope(open_directory(mount.path()), mount.path().string(), engine_root());
        FAIL("the scope was created");
    } catch (const IoError& error) {
        CHECK(error.error_number() == EROFS);
        CHECK_THAT(error.what(), Catch::Contains("read-only"));
    }
}

TEST_CASE("a scope refuses what is not a folder on storage", "[fs-scope]")
{
    CHECK_THROWS_AS(FilesystemScope(open_directory("/proc"), "/proc", test_caller()), TargetError);
    CHECK_THROWS_AS(FilesystemScope(open_directory("/sys/kernel"), "/sys/kernel", test_caller()), TargetError);
    CHECK_THROWS_AS(FilesystemScope(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), "/dev/null", test_caller()),
                    TargetError);
    CHECK_THROWS_AS(FilesystemScope(UniqueFd(), "nothing", test_caller()), TargetError);
}

// Shared folders: a folder others may write to (a lab's group folder,
// here 0777 without the sticky bit) lets them rename entries in it. Their
// moves must never make the scope delete the caller's own files.
TEST_CASE("someone else renaming things in a shared folder cannot get the caller's files deleted", "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 32 * MiB);
    const fs::path shared = make_owned_directory(mount.path(), "shared", 0, 0, 0777);
    // The caller's own folder with data the other user may not delete.
    const fs::path important = make_owned_directory(shared, "important", caller_uid, caller_gid, 0755);
    write_text(important / "data", "the caller's work");
    make_owned_directory(important, "sub", caller_uid, caller_gid, 0755);
    write_text(important / "sub" / "more", "and more");
    const std::string important_before = tree_snapshot(important);
    constexpr uid_t other_uid = 65533;

    SECTION("swapped in for the live scratch directory")
    {
        std::string scratch_name;
        {
            FilesystemScope scope(open_directory(shared), shared.string(), test_caller());
            scratch_name = scope.scratch_name();
            // The other user's moves (done by root here; rename() in a 0777
            // folder needs no more).
            fs::rename(shared / scratch_name, shared / "moved-away");
            fs::rename(important, shared / scratch_name);
        }
        // Still there under the scratch name: emptied the real scratch
        // directory through its fd, and removed a name only while it was
        // still that directory.
        CHECK(tree_snapshot(shared / scratch_name) == important_before);
        CHECK(fs::is_empty(shared / "moved-away"));
    }

    SECTION("a planted leftover, or one open to others, is not adopted")
    {
        const fs::path planted = make_owned_directory(shared, ".diskbench-scratch-planted", other_uid, other_uid, 0777);
        write_text(planted / std::string(scratch_marker_name), std::string(scratch_marker_text));
        REQUIRE(::chown((planted / std::string(scratch_marker_name)).c_str(), other_uid, other_uid) == 0);
        const fs::path open = make_owned_directory(shared, ".diskbench-scratch-open", caller_uid, caller_gid, 0777);
        write_text(open / std::string(scratch_marker_name), std::string(scratch_marker_text));
        REQUIRE(::chown((open / std::string(scratch_marker_name)).c_str(), caller_uid, caller_gid) == 0);
        // The caller's moved into the planted one: had the scope adopted it,
        // emptying it would delete them as the caller.
        fs::rename(important, planted / "important");
        const std::string planted_before = tree_snapshot(planted);
        const std::string open_before = tree_snapshot(open);
        {
            FilesystemScope scope(open_directory(shared), shared.string(), test_caller());
            CHECK(scope.leftovers_removed() == 0);
        }
        CHECK(tree_snapshot(planted) == planted_before);
        CHECK(tree_snapshot(open) == open_before);
    }
}

TEST_CASE("a scratch directory is on the disk before the run writes, so a dead disk's leftover is recognised",
          "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 64 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "home", caller_uid, caller_gid, 0755);
    ::sync(); // the folder itself is the test's, not the scope's, to make durable
    std::string scratch_name;
    {
        // The caller's fd may be O_PATH (it can be passed, not synced).
        UniqueFd path_only(::open(home.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        REQUIRE(path_only.valid());
        FilesystemScope scope(std::move(path_only), home.string(), test_caller());
        scratch_name = scope.scratch_name();
        // The disk dies now: nothing more reaches it, not even the journal
        // (EXT4_IOC_SHUTDOWN with EXT4_GOING_FLAGS_NOLOGFLUSH).
        const UniqueFd root(::open(mount.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        std::uint32_t flags = 2;
        REQUIRE(::ioctl(root.get(), _IOR('X', 125, std::uint32_t), &flags) == 0);
    } // its cleanup fails with EIO, quietly
    REQUIRE(::umount2(mount.path().c_str(), 0) == 0);
    REQUIRE(::mount(mount.device()->path().c_str(), mount.path().c_str(), "ext4", 0, "") == 0);

    REQUIRE(scratch_entries(home) == std::vector<std::string> { scratch_name });
    FilesystemScope next(open_directory(home), home.string(), test_caller());
    CHECK(next.leftovers_removed() == 1);
    CHECK_FALSE(fs::exists(home / scratch_name));
}

TEST_CASE("a setgid folder works: its new directories inherit the bit", "[fs-scope][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 16 * MiB);
    const fs::path home = make_owned_directory(mount.path(), "shared", caller_uid, caller_gid, 02770);
    FilesystemScope scope(open_directory(home), home.string(), test_caller());
    const struct stat scratch = stat_path(home / scope.scratch_name());
    CHECK((scratch.st_mode & S_ISGID) != 0);
    bool made = false;
    scope.run([&] { made = scope.create_scratch_file().valid(); });
    CHECK(made);
}
