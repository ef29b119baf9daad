// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_object.hpp"

#include "../engine/base/errors.hpp"
#include "bus_errors.hpp"
#include "contract/kinds/common_keys.hpp"
#include "refusal_reply.hpp"
#include "sdbus_types/failure_data.hpp"
#include "log.hpp"
#include "withdraw_object.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace diskbench::service {

namespace common_keys = contract::kinds::keys::common;

namespace {
// A folder job fetched by many of its owner's connections: each gets every
// Samples signal, so they are capped.
constexpr std::size_t max_subscribers = 16;

std::uint64_t microseconds_since_epoch()
{
    using namespace std::chrono;
    return static_cast<std::uint64_t>(duration_cast<microseconds>(system_clock::now().time_since_epoch()).count());
}
} // namespace

JobObject::JobObject(sdbus::IConnection& connection, MainLoop& loop, std::string object_path, JobSetup setup,
                     CancelPermission cancel_permission, Events events)
    : AdaptorInterfaces(connection, std::move(object_path))
    , loop_(loop)
    , setup_(std::move(setup))
    , cancel_permission_(std::move(cancel_permission))
    , events_(std::move(events))
    , run_(std::make_shared<EngineRun>(*setup_.benchmark, setup_.parameters, std::move(setup_.target),
                                       std::move(setup_.scope), std::move(setup_.budget)))
    , sink_(run_->sink())
    , private_samples_(run_->in_folder())
    , started_at_(microseconds_since_epoch())
{
    if (private_samples_)
        subscribers_.insert(setup_.owner_bus_name);
    registerAdaptor();
    emitInterfacesAddedSignal({ interface_name });
}

JobObject::~JobObject()
{
    // Shutting down, or an ended job going: a run still going is cancelled
    // and given the same grace as Cancel, never waited for without bound
    // (an abandoned one is not waited for at all).
    run_->cancel();
    if (!run_->wait_returned(ended() ? std::chrono::milliseconds(0) : answer_grace))
        run_->abandon();
    withdraw_object(getObject(), interface_name);
}

void JobObject::start()
{
    run_started_ = std::chrono::steady_clock::now();
    run_->start([weak = weak_from_this(), &loop = loop_, returned = events_.run_returned,
                 path = getObjectPath()](std::shared_ptr<EngineOutcome> outcome) {
        loop.post([weak, outcome = std::move(outcome), returned, path] {
            if (auto self = weak.lock())
                self->finish(std::move(*outcome));
            if (returned)
                returned(path);
        });
    });
    // The temperature at the start, before the run has warmed the drive.
    sample_temperature();
}

void JobObject::sample_temperature()
{
    if (!setup_.temperature || ended())
        return;
    const auto now = std::chrono::steady_clock::now();
    if (!temperature_read_at_ || now - *temperature_read_at_ >= temperature_period) {
        temperature_read_at_ = now;
        const system::TemperatureReading reading = setup_.temperature();
        if (reading.known()) {
            if (temperature_source_.empty()) {
                temperature_source_ = reading.source;
                temperature_start_ = reading.celsius;
                temperature_max_ = reading.celsius;
            }
            temperature_max_ = std::max(temperature_max_, reading.celsius);
            temperature_warning_ = reading.max_celsius;
            heat_.push_back({ sink_.progress(), reading.celsius });
            temperature_pending_.push_back(
                { std::chrono::duration<double>(now - run_started_).count(), reading.celsius });
        }
    }
    if (!temperature_declared_ && !temperature_pending_.empty() && sink_.series_count() > 0) {
        temperature_declared_ = true;
        temperature_series_ = sink_.add_daemon_series({ "temperature", "s", "°C", engine::SeriesStyle::Line });
    }
    if (!temperature_declared_)
        return;
    if (temperature_series_)
        for (const engine::SeriesPoint& point : temperature_pending_)
            sink_.add_daemon_point(*temperature_series_, point);
    temperature_pending_.clear();
}

void JobObject::summarize_temperature()
{
    engine::value_at(result_.summary, common_keys::temperature_source) = temperature_source_;
    if (temperature_source_.empty()) {
        engine::add_note(result_, { "no-temperature", {} });
        return;
    }
    engine::value_at(result_.summary, common_keys::temperature_start_c) = temperature_start_;
    engine::value_at(result_.summary, common_keys::temperature_max_c) = temperature_max_;
    // The drive's own threshold, so a fleet can alert on "over its limit"
    // rather than on one number for every model.
    if (temperature_warning_ > 0)
        engine::value_at(result_.summary, common_keys::temperature_limit_c) = temperature_warning_;
    judge_speed_drop(result_, heat_, temperature_warning_);
}

void JobObject::cancel()
{
    run_->cancel();
    if (ended() || cancel_timer_set_)
        return;
    cancel_timer_set_ = true;
    loop_.add_timer(answer_grace, [weak = weak_from_this()] {
        if (auto self = weak.lock(); self && !self->ended() && !self->run_->returned())
            self->end_without_run();
    });
}

void JobObject::end_without_run()
{
    run_->abandon();
    EngineOutcome outcome;
    outcome.result.cancelled = true;
    const auto grace_s = std::chrono::duration<double>(answer_grace).count();
    engine::add_warning(outcome.result, { private_samples_ ? "cancel-unanswered-folder" : "cancel-unanswered-device",
                                          { { "seconds", grace_s } } });
    log_warning("{}: {} did not answer within {:.2f} s of the cancel; ending the job without its thread",
                getObjectPath(), setup_.target_name, grace_s);
    finish(std::move(outcome));
}

void JobObject::flush()
{
    sample_temperature();
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
        emit_samples(batch);
}

void JobObject::emit_samples(const JobSink::Batch& batch)
{
    if (!private_samples_) {
        emitSamples(batch.first_index, batch.samples);
        return;
    }
    for (const std::string& subscriber : subscribers_) {
        auto signal = getObject().createSignal(interface_name, "Samples");
        signal.setDestination(subscriber);
        signal << batch.first_index << batch.samples;
        signal.send();
    }
}

void JobObject::emit_completed()
{
    const auto summary = variants_from_values(result_.summary);
    if (!private_samples_) {
        emitCompleted(state_, summary, Error());
        return;
    }
    for (const std::string& subscriber : subscribers_) {
        auto signal = getObject().createSignal(interface_name, "Completed");
        signal.setDestination(subscriber);
        signal << state_ << summary << error_text(error_message_);
        signal.send();
    }
}

namespace {

// `text` with every mention of the folder `name` said as the catalogue's
// English "the folder".
std::string said_without_folder(std::string text, const std::string& name)
{
    static const std::string folder = contract::failure_english({ "error-the-folder" });
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + folder.size()))
        text.replace(at, name.size(), folder);
    return text;
}

// `failure` with every mention of the folder `name` said as "the folder":
// an argument that is the folder becomes the catalogue's "the folder" (a
// client translates it); one that only contains it (a path beneath it) has
// it replaced by the English, as public_error_message() does.
contract::Message without_folder(const contract::Message& failure, const std::string& name)
{
    static const contract::Message the_folder { "error-the-folder" };
    contract::Message shown { failure.id, {} };
    for (const contract::MessageArg& arg : failure.args) {
        const auto* text = std::get_if<std::string>(&arg.value);
        if (arg.failure)
            shown.args.emplace_back(arg.name, without_folder(*arg.failure, name));
        else if (text && *text == name)
            shown.args.emplace_back(arg.name, the_folder);
        else if (text && text->find(name) != std::string::npos)
            shown.args.emplace_back(arg.name, said_without_folder(*text, name));
        else
            shown.args.push_back(arg);
    }
    return shown;
}

} // namespace

bool JobObject::names_private_folder() const noexcept
{
    // "/" (root's benchmark of the root folder) is no secret, and replacing
    // every slash would garble the text.
    return private_samples_ && setup_.target_name.size() >= 2;
}

std::string JobObject::public_error_message() const
{
    if (!names_private_folder())
        return error_message_;
    // Every engine error about a folder names it as the caller did
    // (target_name); nothing else in them is private.
    return said_without_folder(error_message_, setup_.target_name);
}

std::map<std::string, sdbus::Variant> JobObject::Failure()
{
    if (!failure_)
        return {};
    if (!names_private_folder())
        return sdbus_types::failure_data(*failure_);
    return sdbus_types::failure_data({ without_folder(failure_->failure, setup_.target_name), failure_->parameter });
}

std::string JobObject::GetErrorMessage()
{
    if (private_samples_ && !caller_may_read_private())
        throw make_error(ErrorCode::NotAuthorized, { "error-folder-error-private" });
    return error_message_;
}

void JobObject::finish(EngineOutcome outcome)
{
    if (ended())
        return; // a run that came back after the job ended without it
    // The thread has handed its outcome over and only has to leave.
    if (run_->returned() && !run_->wait_returned(answer_grace))
        run_->abandon();
    result_ = std::move(outcome.result);
    error_name_ = std::move(outcome.error_name);
    error_message_ = std::move(outcome.error_message);
    failure_ = std::move(outcome.failure);
    if (!error_name_.empty())
        state_ = contract::job_states::failed;
    else if (result_.cancelled)
        state_ = contract::job_states::cancelled;
    else
        state_ = contract::job_states::finished;
    finished_at_ = microseconds_since_epoch();
    // A job that ended without its run has no summary to add to (Cancel).
    if (run_->returned())
        summarize_temperature();
    if (const auto dropped = sink_.dropped_samples(); dropped > 0)
        engine::add_warning(result_, { "samples-dropped", { { "dropped", dropped }, { "kept", JobSink::max_samples } } });
    if (const auto dropped = sink_.dropped_series(); dropped > 0)
        engine::add_warning(result_, { "series-dropped", { { "dropped", dropped }, { "kept", JobSink::max_series } } });
    // Every sample goes out before Completed, in batches a message can hold.
    do
        flush();
    while (sink_.unpublished());
    emitPropertiesChangedSignal(interface_name, { "State", "Progress", "Backend", "Summary", "Warnings", "Notes", "WarningMessages", "NoteMessages",
                                                  "Error", "ErrorName", "ErrorMessage", "Failure", "FinishedAt" });
    emit_completed();
    log_info("{} {} on {} ended: {}{}", getObjectPath(), setup_.benchmark->kind, setup_.target_name, state_,
             error_name_.empty() ? "" : " (" + error_text(error_message_) + ")");
    if (events_.ended)
        events_.ended(*this);
}

void JobObject::Cancel(sdbus::Result<>&& result, std::map<std::string, sdbus::Variant> options)
{
    const sdbus::Message* message = getObject().getCurrentlyProcessedMessage();
    const auto wanted = options.find(contract::bus::failure_data_option);
    const HeldCall call = HeldCall::current(
        getObject(), wanted != options.end() && wanted->second.containsValueOfType<bool>() && wanted->second.get<bool>());
    bool allow_interaction = true;
    for (const auto& [key, value] : options) {
        if (key == contract::bus::failure_data_option && value.containsValueOfType<bool>())
            continue;
        if (key != "auth.no_user_interaction" || !value.containsValueOfType<bool>()) {
            refuse(result, call, make_error(ErrorCode::InvalidArgument, key, { "error-unknown-option" }));
            return;
        }
        allow_interaction = !value.get<bool>();
    }
    // Cancelling what has ended changes nothing and is no error, for
    // anyone: a client racing the end of a job needs no special case.
    if (ended()) {
        result.returnResults();
        return;
    }
    if (message->getCredsUid() == setup_.owner_uid) {
        cancel();
        result.returnResults();
        return;
    }
    // std::function needs a copyable callable; sdbus::Result is move-only.
    auto reply = std::make_shared<sdbus::Result<>>(std::move(result));
    try {
        cancel_permission_(message->getSender(), message->getCredsUid(), allow_interaction,
                           [weak = weak_from_this(), reply, call](std::optional<Refusal> refusal) {
                               if (refusal) {
                                   refuse(*reply, call, *refusal);
                                   return;
                               }
                               if (auto self = weak.lock())
                                   self->cancel();
                               reply->returnResults();
                           });
    } catch (const std::exception& error) { // LimitsExceeded: too many of the caller's questions wait
        refuse(*reply, call, reply_error(error));
    }
}

bool JobObject::caller_may_read_private()
{
    const sdbus::Message* message = getObject().getCurrentlyProcessedMessage();
    const uid_t uid = message->getCredsUid();
    return uid == setup_.owner_uid || uid == 0;
}

std::string JobObject::GetTarget()
{
    if (private_samples_ && !caller_may_read_private())
        throw make_error(ErrorCode::NotAuthorized, { "error-folder-private" });
    return setup_.target_name;
}

void JobObject::check_may_read_samples()
{
    if (!private_samples_)
        return;
    if (!caller_may_read_private())
        throw make_error(ErrorCode::NotAuthorized, { "error-samples-private" });
    // The caller follows the job from now on (the app after a restart, a
    // second window): it gets the Samples signals too.
    const std::string sender = getObject().getCurrentlyProcessedMessage()->getSender();
    if (!ended() && subscribers_.size() < max_subscribers)
        subscribers_.insert(sender);
}

std::tuple<uint64_t, std::vector<Sample>> JobObject::GetSamples(const uint64_t& from_index)
{
    return GetSampleRange(from_index, 0);
}

std::tuple<uint64_t, std::vector<Sample>> JobObject::GetSampleRange(const uint64_t& from_index,
                                                                    const uint32_t& max_count)
{
    check_may_read_samples();
    std::vector<Sample> samples;
    if (!sink_.published_from(from_index, max_count == 0 ? JobSink::max_per_message : max_count, samples))
        throw make_error(ErrorCode::InvalidArgument, "from_index",
                         { "error-past-sample-count", { { "index", from_index }, { "count", sink_.published() } } });
    return { from_index + samples.size(), std::move(samples) };
}

} // namespace diskbench::service
