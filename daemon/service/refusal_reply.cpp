// SPDX-License-Identifier: GPL-3.0-or-later
#include "refusal_reply.hpp"

#include "sdbus_types/failure_data.hpp"

namespace diskbench::service {

namespace {

// A MethodCall made from the Message sdbus-c++ is dispatching. Message's
// raw handle is protected; a pointer to it formed through a class derived
// from Message is C++'s sanctioned way to read it, and the constructor
// taking it adds a reference of its own, so this copy outlives the
// dispatch (the answer comes after polkit has).
class CallCopy : public sdbus::MethodCall {
public:
    explicit CallCopy(const sdbus::Message& message)
        : sdbus::MethodCall(message.*(&CallCopy::msg_), message.*(&CallCopy::sdbus_))
    {
    }
};

} // namespace

HeldCall HeldCall::current(const sdbus::IObject& object, bool wanted)
{
    HeldCall held;
    if (!wanted)
        return held;
    if (const sdbus::Message* message = object.getCurrentlyProcessedMessage())
        held.call_ = std::make_shared<const CallCopy>(*message);
    return held;
}

bool HeldCall::refuse(const Refusal& refusal) const
{
    if (!call_ || !call_->isValid())
        return false;
    auto reply = call_->createErrorReply(refusal);
    const sdbus_types::FailureData data
        = refusal.report() ? sdbus_types::failure_data(*refusal.report()) : sdbus_types::FailureData {};
    reply << data;
    reply.send();
    return true;
}

} // namespace diskbench::service
