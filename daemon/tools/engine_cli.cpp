// SPDX-License-Identifier: GPL-3.0-or-later
// diskbench-engine: run one engine benchmark on a file or block device (or,
// for the filesystem benchmarks, in a directory) from the command line and
// print the result as JSON. For developers and the perf benchmark; it does
// what diskbenchd does, minus D-Bus and polkit, so it must be run by someone
// who may read the target anyway (and write it, for the device write
// benchmarks, which open it exclusively). A directory is opened here and worked in
// with this process's own credentials, as the daemon does with a caller's.
#include "benchmark.hpp"
#include "base/errors.hpp"
#include "engine_json.hpp"
#include "sandbox/fs_scope.hpp"
#include "io/target.hpp"

#include <fcntl.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

namespace {

using namespace diskbench;

engine::CancelToken* active_cancel = nullptr;

void on_interrupt(int)
{
    if (active_cancel)
        active_cancel->cancel();
}

// key=value, the value typed the way busctl users write it: true/false,
// integers, numbers with a point, otherwise text.
bool parse_assignment(const std::string& text, engine::ValueMap& params)
{
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        return false;
    const std::string key = text.substr(0, equals);
    const std::string value = text.substr(equals + 1);
    char* end = nullptr;
    if (value == "true" || value == "false") {
        params[key] = value == "true";
    } else if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
        params[key] = static_cast<std::uint64_t>(std::strtoull(value.c_str(), &end, 10));
    } else if (!value.empty() && (std::strtod(value.c_str(), &end), *end == '\0')) {
        params[key] = std::strtod(value.c_str(), nullptr);
    } else {
        params[key] = value;
    }
    return true;
}

engine::Result run_in_directory(const engine::BenchmarkInfo& info, const std::string& path,
                                const engine::ParameterSet& params, const engine::CancelToken& cancel)
{
    engine::UniqueFd directory(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!directory.valid())
        throw engine::TargetError(
            engine::Failure { "error-cannot-open-directory", { { "target", path }, { "reason", std::strerror(errno) } } });
    engine::check_directory_benchmark(info, engine::filesystem_facts(directory.get()), params);
    engine::FilesystemScope scope(std::move(directory), path, engine::Credentials::of_this_process());
    return engine::run_directory_benchmark(info, scope, params, nullptr, cancel);
}

int usage()
{
    std::cerr << "usage: diskbench-engine --list\n"
                 "       diskbench-engine KIND PATH [KEY=VALUE ...]\n"
                 "PATH is a file or block device, or a directory for file-rw, write-sweep, mixed-load,\n"
                 "structure, small-files, file-profile and file-qd-sweep.\n"
                 "device-write, device-write-sweep, sustained-write, steady-state, verify-capacity and burn-in WRITE to PATH:\n"
                 "mode=preserve (device-write only) puts back what was there; mode=destroy confirm=PATH\n"
                 "overwrites it. overview write=true and qd-sweep writes=true write too, putting back what\n"
                 "was there.\n";
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 2 && std::string(argv[1]) == "--list") {
        std::cout << tools::benchmarks_to_json(engine::all_benchmarks());
        return 0;
    }
    if (argc < 3)
        return usage();
    const engine::BenchmarkInfo* info = engine::find_benchmark(argv[1]);
    if (!info) {
        std::cerr << "diskbench-engine: unknown benchmark \"" << argv[1] << "\" (try --list)\n";
        return 2;
    }
    engine::ValueMap given;
    for (int i = 3; i < argc; ++i)
        if (!parse_assignment(argv[i], given))
            return usage();

    engine::CancelToken cancel;
    active_cancel = &cancel;
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    try {
        // The one check of the command line, as the daemon's of a start request.
        const engine::ParameterSet params = engine::validate_request(*info, given);
        engine::Result result;
        switch (info->target_for(params.values())) {
        case engine::TargetKind::Directory:
            result = run_in_directory(*info, argv[2], params, cancel);
            break;
        case engine::TargetKind::Device:
            result = engine::run_benchmark(*info, engine::open_target_for_read(argv[2]), params, nullptr, cancel);
            break;
        case engine::TargetKind::DeviceWrite:
            // A block device opened O_EXCL (refused while mounted or held)
            // or a regular file; anything else is refused by the open. The
            // engine insists on confirm for mode=destroy, but checks
            // nothing about it: here, as root, that is the user's business.
            result = engine::run_benchmark(*info, engine::open_target_for_write(argv[2]), params, nullptr, cancel);
            break;
        }
        std::cout << contract::result_to_json(tools::saved_from_engine(result));
        return result.cancelled ? 130 : 0;
    } catch (const engine::Error& error) {
        std::cerr << "diskbench-engine: " << error.what() << "\n";
        return 1;
    }
}
