// SPDX-License-Identifier: GPL-3.0-or-later
#include "mounts.hpp"

#include <fcntl.h>
#include <sched.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

extern char** environ;

namespace diskbench::testing {

namespace fs = std::filesystem;

namespace {

// The test process gets a mount namespace of its own before its first
// mount, with nothing propagating back. Should it crash (a test hitting
// undefined behaviour under a mutation did), the kernel tears the
// namespace down with it, which unmounts the filesystems; the loop devices'
// autoclear then detaches them. The destructor stays the normal way out.
// Threads started later (the scopes', the I/O runner's) inherit it.
void enter_private_mount_namespace()
{
    static std::once_flag once;
    std::call_once(once, [] {
        if (::unshare(CLONE_NEWNS) != 0)
            throw std::system_error(errno, std::generic_category(), "unshare(CLONE_NEWNS)");
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            throw std::system_error(errno, std::generic_category(), "make / private");
    });
}

} // namespace

void run_program(const std::vector<std::string>& argv)
{
    std::vector<char*> args;
    for (const auto& arg : argv)
        args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t child = 0;
    const int rc = ::posix_spawnp(&child, args[0], nullptr, nullptr, args.data(), environ);
    if (rc != 0)
        throw std::system_error(rc, std::generic_category(), "spawn " + argv[0]);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0)
        if (errno != EINTR)
            throw std::system_error(errno, std::generic_category(), "waitpid");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(argv[0] + " failed");
}

MountedFilesystem::MountedFilesystem(Kind kind, std::uint64_t size, std::uint64_t inodes, LoopDevice::Backing backing)
{
    enter_private_mount_namespace();
    mount_point_ = dir_.path() / "mnt";
    fs::create_directory(mount_point_);
    // Mounting is the last step: if anything before it throws, there is
    // nothing to unmount.
    if (kind == Kind::Tmpfs) {
        type_ = "tmpfs";
        const std::string options = fmt::format("size={},mode=0755", size);
        if (::mount("diskbench-test", mount_point_.c_str(), "tmpfs", 0, options.c_str()) != 0)
            throw std::system_error(errno, std::generic_category(), "mount tmpfs");
    } else {
        type_ = "ext4";
        loop_ = std::make_unique<LoopDevice>(make_data_file(dir_, "backing", size), 512, false, backing);
        // No lazy initialisation: nothing may write in the background while
        // a test measures or checks free space.
        std::vector<std::string> mkfs { "mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0,nodiscard" };
        if (inodes != 0)
            mkfs.insert(mkfs.end(), { "-N", std::to_string(inodes) });
        mkfs.push_back(loop_->path());
        run_program(mkfs);
        if (::mount(loop_->path().c_str(), mount_point_.c_str(), "ext4", 0, "") != 0)
            throw std::system_error(errno, std::generic_category(), "mount ext4");
        mounted_ = true;
        // The mount's own metadata (the superblock's mount time and state,
        // the journal's first commit) would otherwise reach the device up to
        // a commit interval later, while a test compares the device's bytes
        // (CI once saw a mounted device "change" under a refused open).
        const int fd = ::open(mount_point_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || ::syncfs(fd) != 0) {
            const int error = errno;
            if (fd >= 0)
                ::close(fd);
            throw std::system_error(error, std::generic_category(), "syncfs of the new ext4");
        }
        ::close(fd);
    }
    mounted_ = true;
}

MountedFilesystem::~MountedFilesystem()
{
    if (mounted_ && ::umount2(mount_point_.c_str(), 0) != 0)
        ::umount2(mount_point_.c_str(), MNT_DETACH); // autoclear detaches the loop device once it is free
}

DeviceMount::DeviceMount(const std::string& device, fs::path mount_point, const std::string& type)
    : mount_point_(std::move(mount_point))
{
    enter_private_mount_namespace();
    fs::create_directory(mount_point_);
    if (::mount(device.c_str(), mount_point_.c_str(), type.c_str(), 0, "") != 0)
        throw std::system_error(errno, std::generic_category(), "mount " + device);
}

DeviceMount::~DeviceMount()
{
    if (::umount2(mount_point_.c_str(), 0) != 0)
        ::umount2(mount_point_.c_str(), MNT_DETACH);
}

fs::path make_owned_directory(const fs::path& parent, const std::string& name, uid_t uid, gid_t gid, mode_t mode)
{
    const fs::path path = parent / name;
    if (::mkdir(path.c_str(), mode) != 0 || ::chown(path.c_str(), uid, gid) != 0 || ::chmod(path.c_str(), mode) != 0)
        throw std::system_error(errno, std::generic_category(), "make " + path.string());
    return path;
}

std::string tree_snapshot(const fs::path& root)
{
    std::vector<std::string> lines;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none); it != fs::end(it); ++it) {
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0)
            throw std::system_error(errno, std::generic_category(), "lstat " + it->path().string());
        std::string line = fmt::format("{} mode={:o} uid={} size={}", fs::relative(it->path(), root).string(),
                                       st.st_mode, st.st_uid, st.st_size);
        if (S_ISREG(st.st_mode))
            line += fmt::format(" sum={:x}", checksum(it->path()));
        if (S_ISLNK(st.st_mode))
            line += " -> " + fs::read_symlink(it->path()).string();
        lines.push_back(std::move(line));
    }
    std::sort(lines.begin(), lines.end());
    std::string text;
    for (const auto& line : lines)
        text += line + "\n";
    return text;
}

} // namespace diskbench::testing
