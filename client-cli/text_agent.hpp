// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <glib.h>

#include <memory>
#include <string>

namespace diskbench::cli {

// polkit's text authentication agent (libpolkit-agent-1's
// PolkitAgentTextListener) registered for this process only, as pkexec
// does: while it lives, a polkit check that needs a password asks for it on
// the controlling terminal. polkitd finds it for the daemon's check of our
// bus name through our process. Unregistered on destruction.
class TextAgent {
public:
    // Registers the agent; on failure (no controlling terminal, no
    // polkitd, another agent for us) nothing is registered and `error` says why.
    static std::unique_ptr<TextAgent> start(std::string& error);
private:
    struct Key {
        explicit Key() = default;
    }; // only start() can name it, so only start() makes agents

public:
    TextAgent(Key, gpointer listener, gpointer handle) : listener_(listener), handle_(handle) {}
    ~TextAgent();
    TextAgent(const TextAgent&) = delete;
    TextAgent& operator=(const TextAgent&) = delete;

private:
    gpointer listener_; // PolkitAgentListener*
    gpointer handle_;   // polkit_agent_listener_register()'s handle
};

} // namespace diskbench::cli
