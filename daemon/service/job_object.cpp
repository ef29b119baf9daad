// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_object.hpp"

#include "../engine/errors.hpp"
#include "errors.hpp"
#include "log.hpp"
#include "withdraw_object.hpp"

#include <chrono>

namespace diskbench::service {

namespace {
std::uint64_t microseconds_since_epoch()
{
    using namespace std::chrono;
    return static_cast<std::uint64_t>(duration_cast<microseconds>(system_clock::now().time_since_epoch()).count());
}
} // namespace

JobObject::JobObject(sdbus::IConnection& connection, MainLoop& loop, std::string object_path, JobSetup setup,
                     CancelPermission cancel_permission, std::function<void(JobObject&)> ended)
    : AdaptorInterfaces(connection, std::move(object_path))
    , loop_(loop)
    , setup_(std::move(setup))
    , cancel_permission_(std::move(cancel_permission))
    , ended_(std::move(ended))
    , started_at_(microseconds_since_epoch())
{
    registerAdaptor();
    emitInterfacesAddedSignal({ interface_name });
}

JobObject::~JobObject()
{
    cancel_.cancel();
    if (thread_.joinable())
        thread_.join();
    withdraw_object(getObject(), interface_name);
}

void JobObject::start()
{
    thread_ = std::thread([this, weak = weak_from_this()] {
        auto outcome = std::make_shared<Outcome>(run_engine());
        loop_.post([weak, outcome] {
            if (auto self = weak.lock())
                self->finish(std::move(*outcome));
        });
    });
}

JobObject::Outcome JobObject::run_engine()
{
    Outcome outcome;
    try {
        if (setup_.scope)
            outcome.result = engine::run_directory_benchmark(*setup_.benchmark, *setup_.scope, setup_.options, &sink_,
                                                             cancel_);
        else
            outcome.result = engine::run_benchmark(*setup_.benchmark, setup_.target, setup_.options, &sink_, cancel_);
    } catch (const std::exception& error) {
        outcome.error = std::string(error_name(error_code_of(error))) + ": " + error.what();
    }
    // The scratch folder goes here, on this thread, not on the bus thread:
    // removing many files can take a while, and "ended" should mean "gone".
    setup_.scope.reset();
    return outcome;
}

void JobObject::flush()
{
    JobSink::Batch batch = sink_.take_batch();
    std::vector<std::string> changed;
    if (batch.series_changed)
        changed.emplace_back("Series");
    if (!batch.samples.empty())
        changed.emplace_back("SampleCount");
    if (batch.progress_changed)
        changed.emplace_back("Progress");
    // Series first: a Samples signal never names a series the client has not seen.
    if (!changed.empty())
        emitPropertiesChangedSignal(interface_name, changed);
    if (!batch.samples.empty())
        emitSamples(batch.first_index, batch.samples);
}

void JobObject::finish(Outcome outcome)
{
    if (thread_.joinable())
        thread_.join();
    result_ = std::move(outcome.result);
    error_ = std::move(outcome.error);
    if (!error_.empty())
        state_ = "failed";
    else if (result_.cancelled)
        state_ = "cancelled";
    else
        state_ = "finished";
    finished_at_ = microseconds_since_epoch();
    flush();
    emitPropertiesChangedSignal(interface_name,
                                { "State", "Progress", "Backend", "Summary", "Warnings", "Notes", "Error", "FinishedAt" });
    emitCompleted(state_, variants_from_values(result_.summary), error_);
    log_info("{} {} on {} ended: {}{}", getObjectPath(), setup_.benchmark->kind, setup_.target_name, state_,
             error_.empty() ? "" : " (" + error_ + ")");
    setup_.target.fd.reset(); // the device is not ours any more
    if (ended_)
        ended_(*this);
}

void JobObject::Cancel(sdbus::Result<>&& result, std::map<std::string, sdbus::Variant> options)
{
    const sdbus::Message* message = getObject().getCurrentlyProcessedMessage();
    bool allow_interaction = true;
    for (const auto& [key, value] : options) {
        if (key != "auth.no_user_interaction" || !value.containsValueOfType<bool>()) {
            result.returnError(make_error(ErrorCode::InvalidArgument, key + ": unknown option or wrong type"));
            return;
        }
        allow_interaction = !value.get<bool>();
    }
    if (ended()) {
        result.returnError(make_error(ErrorCode::Failed, "the job has already ended (" + state_ + ")"));
        return;
    }
    if (message->getCredsUid() == setup_.owner_uid) {
        cancel();
        result.returnResults();
        return;
    }
    // std::function needs a copyable callable; sdbus::Result is move-only.
    auto reply = std::make_shared<sdbus::Result<>>(std::move(result));
    cancel_permission_(message->getSender(), allow_interaction,
                       [weak = weak_from_this(), reply](std::optional<sdbus::Error> refusal) {
                           if (refusal) {
                               reply->returnError(*refusal);
                               return;
                           }
                           if (auto self = weak.lock())
                               self->cancel();
                           reply->returnResults();
                       });
}

std::tuple<uint64_t, std::vector<Sample>> JobObject::GetSamples(const uint64_t& from_index)
{
    std::vector<Sample> samples;
    if (!sink_.published_from(from_index, samples))
        throw make_error(ErrorCode::InvalidArgument,
                         "from_index: " + std::to_string(from_index) + " is past SampleCount ("
                             + std::to_string(sink_.published()) + ")");
    return { from_index + samples.size(), std::move(samples) };
}

} // namespace diskbench::service
