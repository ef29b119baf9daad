// SPDX-License-Identifier: GPL-3.0-or-later
#include "text_agent.hpp"

#include "exit_codes.hpp"

// libpolkit-agent-1 asks for this acknowledgement; the text listener and
// the register call are what pkexec and pkttyagent use, stable for years.
#define POLKIT_AGENT_I_KNOW_API_IS_SUBJECT_TO_CHANGE
#include <polkitagent/polkitagent.h>

#include <glib/gi18n-lib.h>

#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace diskbench::cli {

namespace {

// PolkitAgentTextListener answers end of input at its password prompt
// (Ctrl-D) with g_error(), which would kill us with SIGTRAP (pkexec dies
// the same way). It means the user dismissed the prompt: say so and exit
// with the Dismissed status instead. Every other fatal error goes on to
// GLib's default handler (and aborts as before).
void on_fatal_log(const gchar* domain, GLogLevelFlags level, const gchar* message, gpointer data)
{
    if (message && std::strstr(message, "EOF while reading from controlling terminal")) {
        std::fprintf(stderr, "\ndiskbenchctl: %s\n", _("The password prompt was dismissed."));
        _exit(exit_dismissed);
    }
    g_log_default_handler(domain, level, message, data);
}

} // namespace

std::unique_ptr<TextAgent> TextAgent::start(std::string& error)
{
    // libpolkit-agent-1 logs without a domain.
    g_log_set_handler(nullptr, static_cast<GLogLevelFlags>(G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL), on_fatal_log, nullptr);
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
