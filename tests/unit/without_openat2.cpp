// SPDX-License-Identifier: GPL-3.0-or-later
// without-openat2 PROGRAM [ARGS...]: runs PROGRAM with openat2() refused
// with ENOSYS, as diskbenchd runs under its unit: systemd's
// RestrictSUIDSGID= installs exactly this refusal (its seccomp filter cannot
// look at the mode inside struct open_how). The filesystem tests run under
// it a second time, so the engine's openat() fallback in fs_beneath.cpp
// passes the same tests (symlinks, mounts, swapped directories) as openat2.
// Sets DISKBENCH_TEST_OPENAT2_REFUSED=1 so a test can check it took effect.
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: without-openat2 PROGRAM [ARGS...]\n");
        return 2;
    }
    // openat2 is system call 437 on every architecture (it came after the
    // tables were unified), so the number alone is checked, for native and
    // compat calls alike.
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program { static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter };
    // no_new_privs lets a process without CAP_SYS_ADMIN install a filter;
    // the tests use no set-uid programs, so it changes nothing else.
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        std::fprintf(stderr, "without-openat2: cannot install the seccomp filter: %s\n", std::strerror(errno));
        return 2;
    }
    ::setenv("DISKBENCH_TEST_OPENAT2_REFUSED", "1", 1);
    ::execv(argv[1], argv + 1);
    std::fprintf(stderr, "without-openat2: cannot run %s: %s\n", argv[1], std::strerror(errno));
    return 2;
}
