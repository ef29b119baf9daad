// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus/bus_source.hpp"

#include <poll.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>

namespace diskbench::client {

namespace {

struct SdbusSource {
    GSource base;
    sdbus::IConnection* connection;
    gpointer fd_tag;
    gint64 deadline_us; // CLOCK_MONOTONIC, as g_get_monotonic_time(); -1: none
    bool broken;
    std::function<void()>* on_broken;
};

// sd-bus refuses to work on a closed connection by throwing: stop polling
// and tell the owner, from the loop (never from inside sd-bus).
void mark_broken(GSource* source, SdbusSource* self, const char* why)
{
    if (self->broken)
        return;
    g_warning("the D-Bus connection is lost: %s", why);
    self->broken = true;
    if (self->fd_tag)
        g_source_remove_unix_fd(source, self->fd_tag);
    self->fd_tag = nullptr;
    if (self->on_broken && *self->on_broken)
        g_idle_add_full(G_PRIORITY_DEFAULT, [](gpointer callback) -> gboolean {
            (*static_cast<std::function<void()>*>(callback))();
            return G_SOURCE_REMOVE;
        }, self->on_broken, nullptr);
}

SdbusSource* as_sdbus(GSource* source)
{
    return reinterpret_cast<SdbusSource*>(source);
}

GIOCondition to_condition(short events)
{
    int condition = 0;
    if (events & POLLIN)
        condition |= G_IO_IN;
    if (events & POLLOUT)
        condition |= G_IO_OUT;
    return static_cast<GIOCondition>(condition | G_IO_HUP | G_IO_ERR);
}

// Asks sd-bus what to wait for now: its fd's events change (POLLOUT while a
// message is queued) and so does its next deadline.
gboolean prepare(GSource* source, gint* timeout_ms)
{
    SdbusSource* self = as_sdbus(source);
    *timeout_ms = -1;
    if (self->broken)
        return FALSE;
    sdbus::IConnection::PollData poll {};
    try {
        poll = self->connection->getEventLoopPollData();
    } catch (const std::exception& error) {
        mark_broken(source, self, error.what());
        return FALSE;
    }
    g_source_modify_unix_fd(source, self->fd_tag, to_condition(poll.events));
    self->deadline_us = -1;
    if (poll.timeout_usec != std::numeric_limits<std::uint64_t>::max()) {
        // Both clocks are CLOCK_MONOTONIC in microseconds.
        self->deadline_us = static_cast<gint64>(poll.timeout_usec);
        const gint64 left = self->deadline_us - g_get_monotonic_time();
        if (left <= 0)
            return TRUE;
        *timeout_ms = static_cast<gint>(std::min<gint64>((left + 999) / 1000, G_MAXINT));
    }
    return FALSE;
}

gboolean check(GSource* source)
{
    SdbusSource* self = as_sdbus(source);
    if (self->broken)
        return FALSE;
    if (g_source_query_unix_fd(source, self->fd_tag) != 0)
        return TRUE;
    return self->deadline_us >= 0 && g_get_monotonic_time() >= self->deadline_us;
}

gboolean dispatch(GSource* source, GSourceFunc, gpointer)
{
    SdbusSource* self = as_sdbus(source);
    if (self->broken)
        return G_SOURCE_CONTINUE;
    // processPendingRequest() handles one message per call. A bounded
    // number per iteration keeps a flood of signals from starving GTK: the
    // rest wait for the next iteration (sd-bus then asks for no timeout).
    try {
        for (int handled = 0; handled < 64 && self->connection->processPendingRequest(); ++handled) {
        }
    } catch (const std::exception& error) {
        // Handlers catch their own errors; what gets here is sd-bus failing
        // on the connection itself.
        mark_broken(source, self, error.what());
        return G_SOURCE_CONTINUE;
    }
    // A hung-up socket stays readable forever: stop polling it instead of
    // spinning.
    if (self->fd_tag && (g_source_query_unix_fd(source, self->fd_tag) & (G_IO_HUP | G_IO_ERR)))
        mark_broken(source, self, "the bus closed the connection");
    return G_SOURCE_CONTINUE;
}

GSourceFuncs sdbus_source_funcs = {prepare, check, dispatch, nullptr, nullptr, nullptr};

} // namespace

BusSource::BusSource(sdbus::IConnection& connection, std::function<void()> on_broken, GMainContext* context)
    : on_broken_(std::make_unique<std::function<void()>>(std::move(on_broken)))
{
    // Throws (before anything is allocated) when the connection is unusable.
    const sdbus::IConnection::PollData poll = connection.getEventLoopPollData();
    source_ = g_source_new(&sdbus_source_funcs, sizeof(SdbusSource));
    SdbusSource* self = as_sdbus(source_);
    self->connection = &connection;
    self->deadline_us = -1;
    self->broken = false;
    self->on_broken = on_broken_.get();
    self->fd_tag = g_source_add_unix_fd(source_, poll.fd, to_condition(poll.events));
    g_source_set_name(source_, "diskbench D-Bus");
    g_source_attach(source_, context);
}

BusSource::~BusSource()
{
    // A pending "broken" idle callback must not outlive the callback it calls.
    g_idle_remove_by_data(on_broken_.get());
    g_source_destroy(source_);
    g_source_unref(source_);
}

bool BusSource::broken() const noexcept
{
    return as_sdbus(source_)->broken;
}

} // namespace diskbench::client
