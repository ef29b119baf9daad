// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <glib-object.h>

#include <utility>

namespace diskbench::client {

// Owns one reference to a GObject (widgets included: construct with
// take_floating() for a new widget, so the reference is ours until we drop it).
template <typename T> class Ref {
public:
    Ref() = default;
    static Ref adopt(T* object) { return Ref(object); }
    static Ref take_floating(T* object) { return Ref(static_cast<T*>(g_object_ref_sink(object))); }
    static Ref add(T* object) { return Ref(object ? static_cast<T*>(g_object_ref(object)) : nullptr); }
    Ref(const Ref&) = delete;
    Ref& operator=(const Ref&) = delete;
    Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
    Ref& operator=(Ref&& other) noexcept
    {
        if (this != &other) {
            reset();
            object_ = std::exchange(other.object_, nullptr);
        }
        return *this;
    }
    ~Ref() { reset(); }
    void reset()
    {
        if (object_)
            g_object_unref(std::exchange(object_, nullptr));
    }
    [[nodiscard]] T* get() const noexcept { return object_; }
    explicit operator bool() const noexcept { return object_ != nullptr; }

private:
    explicit Ref(T* object) : object_(object) {}
    T* object_ = nullptr;
};

} // namespace diskbench::client
