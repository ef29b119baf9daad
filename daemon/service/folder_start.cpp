// SPDX-License-Identifier: GPL-3.0-or-later
// The start flow of a folder benchmark: polkit, then the folder prepared
// off the bus thread with the caller's credentials, then the job.
#include "caller_credentials.hpp"
#include "device_info.hpp"
#include "contract/display_text.hpp"
#include "bus_errors.hpp"
#include "log.hpp"
#include "manager.hpp"
#include "start_request.hpp"

#include <unistd.h>

namespace diskbench::service {

namespace {

constexpr const char* filesystem_action = "org.diskbench.benchmark-filesystem";

// The folder behind a caller's fd, as this process sees it: for logs,
// polkit's dialog and the Job's Target, never to open anything by. Made
// fit for D-Bus strings (contract/display_text.hpp): the name may be any bytes.
std::string folder_name(int fd)
{
    std::string link = "/proc/self/fd/" + std::to_string(fd);
    std::string name(4096, '\0');
    const ssize_t length = ::readlink(link.c_str(), name.data(), name.size());
    if (length <= 0 || static_cast<std::size_t>(length) >= name.size())
        return "(a folder)";
    name.resize(static_cast<std::size_t>(length));
    return contract::display_text(name);
}

} // namespace

void Manager::StartFilesystemBenchmark(sdbus::Result<sdbus::ObjectPath>&& result, sdbus::UnixFd directory,
                                       std::string kind, std::map<std::string, sdbus::Variant> options)
{
    touch();
    auto request = std::make_shared<StartRequest>();
    request->reply = std::move(result);
    try {
        // First, so every refusal below can carry its failure as data.
        request->call = HeldCall::current(getObject(), take_flag(options, contract::bus::failure_data_option));
        refuse_when_exiting();
        // sdbus-c++ gave us our own duplicate of the caller's fd.
        request->directory = engine::UniqueFd(directory.release());
        if (!read_start_request(*request, kind, options)
            || request->benchmark->target() != engine::TargetKind::Directory)
            throw make_error(ErrorCode::NotFound, { "error-no-folder-kind", { { "kind", kind } } });
        request->directory_name = folder_name(request->directory.get());

        log_debug("uid {} ({}) asks for {} in {}", request->uid, request->sender, kind, request->directory_name);
        authorize(request, filesystem_action, { { "directory", request->directory_name } },
                  &Manager::prepare_directory);
    } catch (const std::exception& error) {
        refuse(request->reply, request->call, reply_error(error));
    }
}

void Manager::prepare_directory(const std::shared_ptr<StartRequest>& request)
{
    try {
        check_limits(request->uid); // counts the folders being prepared too
        BusCredentials caller = bus_credentials(*bus_driver_, request->sender, request->uid);
        const std::uint64_t id = next_preparation_++;
        auto preparation = std::make_shared<DirectoryPreparation>(
            loop_, std::move(request->directory), request->directory_name, std::move(caller), *request->benchmark,
            request->parameters, [this, id, request](DirectoryPreparation::Outcome outcome) {
                preparations_.erase(id); // its thread has finished: the join is quick
                touch();
                if (outcome.error) {
                    refuse(request->reply, request->call, *outcome.error);
                    return;
                }
                start_in_directory(request, std::move(*outcome.directory));
            });
        preparations_.emplace(id, Preparation { request->uid, preparation });
        try {
            preparation->start();
        } catch (...) {
            preparations_.erase(id); // or the daemon would never be idle again
            throw;
        }
    } catch (const std::exception& error) {
        refuse(request->reply, request->call, reply_error(error));
    }
}

void Manager::start_in_directory(const std::shared_ptr<StartRequest>& request, PreparedDirectory prepared)
{
    try {
        // Checked again now that the folder is ready: while it was prepared
        // (which may take long: leftovers to remove, a slow filesystem),
        // other jobs of the user may have got stuck or the daemon may have
        // reached a cap. This preparation no longer counts (it was erased
        // before this runs), so the check is for exactly this one job.
        check_limits(request->uid);
        JobSetup setup;
        const std::string device_path = device_path_with_number(prepared.device_number);
        DeviceObject* device = device_at(device_path);
        if (device) {
            // Writing files while another job reads the same disk would
            // measure neither.
            if (const std::string busy = claims_.conflicting_job(device->facts()); !busy.empty())
                throw busy_error("error-device-in-use-by", { "device", device->facts().node }, busy);
            setup.device_path = device_path;
            setup.device_info = device_info(device->facts());
        } else {
            if (const std::string busy = claims_.filesystem_job(prepared.device_number); !busy.empty())
                throw busy_error("error-filesystem-in-use-by", { "folder", request->directory_name }, busy);
            setup.device_path = "/";
            setup.device_info = system_info();
        }
        setup.device_info["filesystem_type"] = sdbus::Variant(prepared.facts.type);
        setup.device_info["filesystem_free"] = sdbus::Variant(prepared.facts.available_bytes);
        setup.target_name = request->directory_name;
        setup.scope = std::move(prepared.scope);
        launch_job(request, std::move(setup), device, device ? 0 : prepared.device_number);
    } catch (const std::exception& error) {
        // The scope removes its scratch folder as it goes: not here.
        disposal_.dispose(request->uid, std::move(prepared.scope));
        refuse(request->reply, request->call, reply_error(error));
    }
}

} // namespace diskbench::service
