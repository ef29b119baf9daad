// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bus_errors.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <memory>

namespace diskbench::service {

// The method call an asynchronous method is answering, held when the
// caller asked for its refusal to carry the failure as data (the call
// option "failure_data"): the error reply is then (s message, a{sv}
// failure) (sdbus_types/failure_data.hpp). D-Bus allows an error more
// arguments after its message and sd-bus (busctl) reads the message as
// before, but GDBus shows none for such a body, so only a caller that
// asks gets it. sdbus-c++ 1.2's Result::returnError() sends a name and a
// message only, so the reply is made here from the call itself.
class HeldCall {
public:
    HeldCall() = default;
    // The call `object` is dispatching now when `wanted` (the caller's
    // "failure_data" option); empty when not, or outside a method handler.
    static HeldCall current(const sdbus::IObject& object, bool wanted);

    // Sends `refusal` as the call's error reply, with its failure (or an
    // empty map) after the message. False when no call is held: then the
    // caller replies through its sdbus::Result.
    bool refuse(const Refusal& refusal) const;

private:
    std::shared_ptr<const sdbus::MethodCall> call_;
};

// Refuses through `call` where it is held, else through `result` (the
// English alone).
template <typename... Results>
void refuse(const sdbus::Result<Results...>& result, const HeldCall& call, const Refusal& refusal)
{
    if (!call.refuse(refusal))
        result.returnError(refusal);
}

} // namespace diskbench::service
