// SPDX-License-Identifier: GPL-3.0-or-later
#include "directory_preparation.hpp"

#include "../engine/base/errors.hpp"
#include "bus_errors.hpp"

#include <sys/stat.h>

namespace diskbench::service {

DirectoryPreparation::DirectoryPreparation(MainLoop& loop, engine::UniqueFd directory, std::string name,
                                           BusCredentials caller, const engine::BenchmarkInfo& benchmark,
                                           engine::ParameterSet parameters, Done done)
    : loop_(loop)
    , directory_(std::move(directory))
    , name_(std::move(name))
    , caller_(std::move(caller))
    , benchmark_(benchmark)
    , parameters_(std::move(parameters))
    , done_(std::move(done))
{
}

DirectoryPreparation::~DirectoryPreparation()
{
    if (thread_.joinable())
        thread_.join();
}

void DirectoryPreparation::start()
{
    thread_ = std::thread([this, weak = weak_from_this()] {
        auto outcome = std::make_shared<Outcome>(prepare());
        loop_.post([weak, outcome] {
            if (auto self = weak.lock()) {
                // The owner destroys the preparation from `done`; nothing of
                // it may be touched after.
                Done done = std::move(self->done_);
                self.reset();
                done(std::move(*outcome));
            }
        });
    });
}

DirectoryPreparation::Outcome DirectoryPreparation::prepare()
{
    Outcome outcome;
    try {
        // fstat and fstatfs of an fd the caller opened and handed over read
        // nothing the caller could not read, so they need no credentials.
        struct stat st {};
        if (::fstat(directory_.get(), &st) != 0)
            throw engine::IoError(engine::Failure { "error-folder-unstatable", { { "target", name_ } } }, errno);
        if (!S_ISDIR(st.st_mode))
            throw engine::TargetError(engine::Failure { "error-not-a-folder", { { "target", name_ } } });
        PreparedDirectory prepared;
        prepared.device_number = st.st_dev;
        prepared.facts = engine::filesystem_facts(directory_.get());
        if (prepared.facts.pseudo)
            throw engine::TargetError(engine::Failure { "error-folder-kernel-interface",
                                                        { { "target", name_ }, { "filesystem", prepared.facts.type } } });
        engine::check_directory_benchmark(benchmark_, prepared.facts, parameters_);
        prepared.scope
            = std::make_unique<engine::FilesystemScope>(std::move(directory_), name_, with_primary_group(caller_));
        outcome.directory = std::move(prepared);
    } catch (const engine::TargetError& error) {
        // The folder as the parameter it is about: "directory: " before the failure's English.
        if (const engine::Failure* failure = error.failure())
            outcome.error = make_error(ErrorCode::InvalidArgument, "directory", *failure);
        else
            outcome.error = Refusal(sdbus::Error(std::string(error_name(ErrorCode::InvalidArgument)),
                                                 std::string("directory: ") + error.what()));
    } catch (const std::exception& error) {
        outcome.error = reply_error(error);
    }
    return outcome;
}

} // namespace diskbench::service
