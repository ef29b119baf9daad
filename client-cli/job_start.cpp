// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_start.hpp"

namespace diskbench::cli {

void start_job(StartWait& wait, const std::string& kind, const Target& target, const client::SavedValueMap& options)
{
    auto on_reply = [&wait](std::variant<std::string, client::CallError> answer) {
        wait.reply = std::move(answer);
        wait.session->quit();
    };
    DaemonClient& client = wait.session->client();
    if (target.folder)
        client.start_filesystem_benchmark(target.folder.get(), kind, options, on_reply);
    else
        client.start_benchmark(target.device_path, kind, options, on_reply);
    wait.interrupted = !wait.session->run_until([&wait] { return wait.reply.has_value(); });
}

} // namespace diskbench::cli
