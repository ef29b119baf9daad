// SPDX-License-Identifier: GPL-3.0-or-later
#include "text_agent.hpp"

// libpolkit-agent-1 asks for this acknowledgement; the text listener and
// the register call are what pkexec and pkttyagent use, stable for years.
#define POLKIT_AGENT_I_KNOW_API_IS_SUBJECT_TO_CHANGE
#include <polkitagent/polkitagent.h>

#include <unistd.h>

namespace diskbench::cli {

std::unique_ptr<TextAgent> TextAgent::start(std::string& error)
{
    GError* failure = nullptr;
    PolkitAgentListener* listener = polkit_agent_text_listener_new(nullptr, &failure);
    if (!listener) {
        error = failure->message;
        g_error_free(failure);
        return nullptr;
    }
    // Our process as the agent's scope (pkexec's choice): no session is
    // needed, and only checks of this process (or its bus name) come here.
    PolkitSubject* subject = polkit_unix_process_new_for_owner(getpid(), 0, getuid());
    // In its own thread: the prompt reads the terminal while our loop keeps
    // serving the bus, and a pending StartBenchmark reply is not blocked.
    gpointer handle = polkit_agent_listener_register(listener, POLKIT_AGENT_REGISTER_FLAGS_RUN_IN_THREAD, subject,
                                                     nullptr, nullptr, &failure);
    g_object_unref(subject);
    if (!handle) {
        error = failure->message;
        g_error_free(failure);
        g_object_unref(listener);
        return nullptr;
    }
    return std::make_unique<TextAgent>(Key {}, listener, handle);
}

TextAgent::~TextAgent()
{
    polkit_agent_listener_unregister(handle_);
    g_object_unref(listener_);
}

} // namespace diskbench::cli
