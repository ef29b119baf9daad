// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/base/unique_fd.hpp"
#include "../engine/benchmark.hpp"
#include "../engine/sandbox/filesystem_facts.hpp"
#include "../engine/sandbox/fs_credentials.hpp"
#include "../engine/sandbox/fs_scope.hpp"
#include "caller_credentials.hpp"
#include "main_loop.hpp"

#include "bus_errors.hpp"

#include <sdbus-c++/Error.h>

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace diskbench::service {

// A caller's folder, ready for a filesystem benchmark.
struct PreparedDirectory {
    std::unique_ptr<engine::FilesystemScope> scope;
    engine::FilesystemFacts facts;
    dev_t device_number = 0; // st_dev of the folder: which block device holds it, if any
};

// Gets a caller's folder ready off the bus thread: looks up the caller's
// primary group (NSS may ask the network), checks it is a folder on a real
// filesystem, checks the parameters against its free space, and
// makes the FilesystemScope (which removes a crashed run's scratch folder
// and makes a fresh one, as the caller). Every step may touch the
// filesystem, and a filesystem (NFS, a caller's FUSE mount) may take its
// time or never answer; on the bus thread that would freeze the daemon for
// everyone. `done` runs on the bus thread with the folder or the error to
// reply with; the owner destroys the preparation afterwards (joining its
// finished thread).
class DirectoryPreparation : public std::enable_shared_from_this<DirectoryPreparation> {
public:
    struct Outcome {
        std::optional<PreparedDirectory> directory;
        std::optional<Refusal> error;
    };
    using Done = std::function<void(Outcome)>;

    DirectoryPreparation(MainLoop& loop, engine::UniqueFd directory, std::string name, BusCredentials caller,
                         const engine::BenchmarkInfo& benchmark, engine::ParameterSet parameters, Done done);
    ~DirectoryPreparation();
    DirectoryPreparation(const DirectoryPreparation&) = delete;
    DirectoryPreparation& operator=(const DirectoryPreparation&) = delete;

    // Starts the thread; separate from the constructor so the thread can
    // hold a weak reference (the owner may be gone when it finishes).
    void start();

private:
    Outcome prepare();

    MainLoop& loop_;
    engine::UniqueFd directory_;
    std::string name_;
    BusCredentials caller_;
    const engine::BenchmarkInfo& benchmark_;
    engine::ParameterSet parameters_; // validated once, in read_start_request
    Done done_;
    std::thread thread_;
};

} // namespace diskbench::service
