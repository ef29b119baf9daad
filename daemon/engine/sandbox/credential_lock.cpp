// SPDX-License-Identifier: GPL-3.0-or-later
#include "credential_lock.hpp"

#include "../base/errors.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_AARCH64;
#elif defined(__i386__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_I386;
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr std::uint32_t native_arch = AUDIT_ARCH_PPC64LE;
#elif defined(__s390x__)
constexpr std::uint32_t native_arch = AUDIT_ARCH_S390X;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr std::uint32_t native_arch = AUDIT_ARCH_RISCV64;
#else
#error "diskbench: add this architecture's AUDIT_ARCH_* to credential_lock.cpp"
#endif

// Every syscall that changes a thread's ids, groups or capabilities.
// prctl stays allowed: without capabilities none of its options gives any
// back, and glibc uses it (thread names).
constexpr std::array<long, 10> credential_syscalls = {
    SYS_setuid, SYS_setgid, SYS_setreuid, SYS_setregid, SYS_setresuid, SYS_setresgid,
    SYS_setfsuid, SYS_setfsgid, SYS_setgroups, SYS_capset,
};

#if defined(__x86_64__)
// x32 syscalls arrive with the x86_64 arch and this bit set in their number
// (their setuid is __X32_SYSCALL_BIT | 105), so the arch check above cannot
// catch them; refuse every number from the bit up.
constexpr std::size_t abi_number_checks = 2;
constexpr std::uint32_t x32_syscall_bit = 0x40000000U; // __X32_SYSCALL_BIT
#else
constexpr std::size_t abi_number_checks = 0;
#endif

constexpr sock_filter statement(std::uint16_t code, std::uint32_t k)
{
    return sock_filter { code, 0, 0, k };
}

constexpr sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t if_true, std::uint8_t if_false)
{
    return sock_filter { code, if_true, if_false, k };
}

} // namespace

void forbid_credential_changes_on_this_thread()
{
    constexpr std::uint32_t deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    std::array<sock_filter, 4 + abi_number_checks + 2 * credential_syscalls.size() + 1> program {};
    std::size_t at = 0;
    // A syscall of another ABI (i386 on x86_64, and x32 below) has other
    // numbers: refuse them all rather than let them past the list.
    program[at++] = statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
    program[at++] = jump(BPF_JMP | BPF_JEQ | BPF_K, native_arch, 1, 0);
    program[at++] = statement(BPF_RET | BPF_K, deny);
    program[at++] = statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#if defined(__x86_64__)
    program[at++] = jump(BPF_JMP | BPF_JGE | BPF_K, x32_syscall_bit, 0, 1);
    program[at++] = statement(BPF_RET | BPF_K, deny);
#endif
    for (long number : credential_syscalls) {
        program[at++] = jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(number), 0, 1);
        program[at++] = statement(BPF_RET | BPF_K, deny);
    }
    program[at++] = statement(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

    const sock_fprog filter { static_cast<unsigned short>(at), program.data() };
    // Required to install a filter without CAP_SYS_ADMIN (the thread has
    // dropped it); it is per thread, like the filter.
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        throw Error(fmt::format("cannot set no_new_privs: {}", std::strerror(errno)));
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter, 0, 0) != 0)
        throw Error(fmt::format("cannot install the credential filter: {}", std::strerror(errno)));
}

} // namespace diskbench::engine
