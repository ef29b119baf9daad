// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the two halves of DaemonClient share (daemon_client.cpp: the
// daemon, its devices and benchmark kinds; daemon_client_jobs.cpp: jobs,
// their samples, starting and cancelling): the proxy of the root object,
// the names and limits of the calls, and its private member templates.
// Not for other files.

#include "bus/daemon_client.hpp"

#include "contract/bus_names.hpp"
#include "diskbench-proxy.h"
#include "sdbus_types/failure_data.hpp"
#include "sdbus_types/manager_lists.hpp"

#include <glib.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string_view>

namespace diskbench::client {

namespace bus = contract::bus;
using ManagerInterface = org::diskbench::DiskBench1::Manager_proxy;

// The contract's names are the XML's (the proxies are generated from it).
static_assert(std::string_view(ManagerInterface::INTERFACE_NAME) == bus::manager_interface);
static_assert(std::string_view(org::diskbench::DiskBench1::Device_proxy::INTERFACE_NAME) == bus::device_interface);
static_assert(std::string_view(org::diskbench::DiskBench1::Job_proxy::INTERFACE_NAME) == bus::job_interface);

// Long enough for someone to type a password into polkit's dialog, and
// longer than diskbenchd waits for polkit (5 minutes): its answer, which
// says what happened, should end the call, not our own timeout.
inline constexpr auto interactive_timeout = std::chrono::minutes(6);
// The most samples one GetSampleRange reply carries (the daemon's cap).
inline constexpr std::uint32_t sample_page = 262144;

inline CallError call_error(const sdbus::Error& error)
{
    return { error.getName(), error.getMessage(), std::nullopt };
}

// A refusal with, from a daemon of API 0.16 on, its failure as data: the
// a{sv} after the error's message (sdbus_types/failure_data.hpp). An error
// without it (an older daemon, the bus's own: NoReply, ServiceUnknown) or
// with a body of another shape has the English alone.
inline CallError call_error(sdbus::MethodReply& reply, const sdbus::Error& error)
{
    CallError refusal = call_error(error);
    try {
        std::string message;
        reply >> message;
        std::string type, contents;
        reply.peekType(type, contents);
        if (type == "a" && contents == "{sv}") {
            sdbus_types::FailureData data;
            reply >> data;
            refusal.failure = sdbus_types::failure_report(data);
        }
    } catch (const sdbus::Error&) {
    }
    return refusal;
}

// The root object's Manager interface, generated from the same XML as the
// daemon's adaptors. ListBenchmarks, ListParameterChoices and
// ListParameterRanges are annotated org.freedesktop.DBus.Method.Async
// (client): the generated proxy sends them asynchronously (the reply comes
// on the GLib main loop through BusSource) and hands the typed reply to the
// callbacks below, so their signatures are the XML's. Its ObjectManager
// signals are taken by DaemonClient's own matches, which check the sender
// first.
class DaemonClient::RootProxy final : public sdbus::ProxyInterfaces<ManagerInterface> {
public:
    RootProxy(sdbus::IConnection& connection, DaemonClient& client)
        : ProxyInterfaces(connection, bus::name, bus::root_path)
        , client_(client)
    {
        registerProxy();
    }
    ~RootProxy() { unregisterProxy(); }
    sdbus::IProxy& proxy() { return getProxy(); }

private:
    void onListBenchmarksReply(const sdbus_types::BenchmarkList& benchmarks, const sdbus::Error* error) override
    {
        if (error)
            g_message("cannot list benchmarks: %s", error->what());
        else
            client_.benchmarks_listed(benchmarks);
    }
    void onListParameterChoicesReply(const sdbus_types::ChoiceList& choices, const sdbus::Error* error) override
    {
        if (error) // a daemon before 0.4: every parameter keeps its plain editor
            g_message("no parameter choices: %s", error->what());
        else
            client_.parameter_choices_listed(choices);
    }
    void onListParameterRangesReply(const sdbus_types::RangeList& ranges, const sdbus::Error* error) override
    {
        if (error) // a daemon before 0.5: values are checked when a run starts
            g_message("no parameter ranges: %s", error->what());
        else
            client_.parameter_ranges_listed(ranges);
    }

    DaemonClient& client_;
};

template <typename F> void DaemonClient::notify(F&& call)
{
    // Copy: an observer may remove itself from inside the callback.
    const std::vector<Observer*> observers = observers_;
    for (Observer* observer : observers)
        if (std::find(observers_.begin(), observers_.end(), observer) != observers_.end())
            call(*observer);
}

template <typename F> void DaemonClient::guarded(const char* what, F&& body)
{
    // Nothing may unwind into sd-bus: it would leave its connection stuck
    // on the message (every later call fails with EBUSY).
    try {
        body();
    } catch (const std::exception& error) {
        g_warning("ignored a malformed message (%s): %s", what, error.what());
    }
}

} // namespace diskbench::client
