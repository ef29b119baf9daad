// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <glib.h>
#include <sdbus-c++/IConnection.h>

#include <functional>
#include <memory>

namespace diskbench::client {

// Runs an sdbus-c++ connection on a GLib main context: a GSource that polls
// the connection's fd and wakes at sd-bus's own deadline (method call
// timeouts), then lets sdbus-c++ process everything pending. Every proxy
// callback and signal handler therefore runs on the GTK thread, and nothing
// ever blocks it. Detaches itself when destroyed; destroy it before the
// connection.
class BusSource {
public:
    // `on_broken` runs (once, on the loop) when the connection is lost.
    BusSource(sdbus::IConnection& connection, std::function<void()> on_broken, GMainContext* context = nullptr);
    ~BusSource();
    BusSource(const BusSource&) = delete;
    BusSource& operator=(const BusSource&) = delete;

    // True once sd-bus reported the connection broken (e.g. the bus went away).
    [[nodiscard]] bool broken() const noexcept;

private:
    std::unique_ptr<std::function<void()>> on_broken_;
    GSource* source_ = nullptr;
};

} // namespace diskbench::client
