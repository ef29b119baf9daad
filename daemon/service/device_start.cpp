// SPDX-License-Identifier: GPL-3.0-or-later
// The start flow of a device benchmark: checks, polkit, then opening the
// device the caller named (and no other).
#include "../engine/base/errors.hpp"
#include "../system/device_identity.hpp"
#include "bus_errors.hpp"
#include "log.hpp"
#include "manager.hpp"
#include "start_request.hpp"
#include "write_safety.hpp"
#include "device_info.hpp"

#include <chrono>

#include <sys/stat.h>

namespace diskbench::service {

namespace {

constexpr const char* read_device_action = "org.diskbench.read-device";
constexpr const char* write_device_action = "org.diskbench.write-device";
constexpr const char* destroy_device_action = "org.diskbench.write-device-destroy";
constexpr int max_lock_retries = 50;
constexpr std::chrono::milliseconds lock_retry_delay { 20 };

// The target's facts without opening it: enough for the engine to check
// parameters against the device before anyone is authorized to touch it.
engine::Target unopened_target(const system::DeviceFacts& facts)
{
    engine::Target target;
    target.name = facts.node;
    target.size = facts.size - facts.size % facts.queue.logical_block_size;
    target.logical_block = facts.queue.logical_block_size;
    target.physical_block = facts.queue.physical_block_size;
    target.is_block_device = true;
    return target;
}

// Our facts come from udisks; the node is checked against the kernel before
// it is opened, so nothing but that block device is ever opened as root
// (not a file, not a FIFO that would block the open).
void check_node(const system::DeviceFacts& asked, const std::function<Refusal(const contract::Message&)>& replaced)
{
    struct stat st {};
    if (::lstat(asked.node.c_str(), &st) != 0 || !S_ISBLK(st.st_mode))
        throw replaced({ "error-reason-not-block" });
    if (st.st_rdev != asked.device_number)
        throw replaced({ "error-reason-other-device" });
}

} // namespace

void Manager::StartBenchmark(sdbus::Result<sdbus::ObjectPath>&& result, sdbus::ObjectPath device, std::string kind,
                             std::map<std::string, sdbus::Variant> options)
{
    touch();
    auto request = std::make_shared<StartRequest>();
    request->reply = std::move(result);
    try {
        // First, so every refusal below can carry its failure as data.
        request->call = HeldCall::current(getObject(), take_flag(options, contract::bus::failure_data_option));
        refuse_when_exiting();
        const DeviceObject* target_device = device_at(device);
        if (!target_device)
            throw make_error(ErrorCode::NotFound, { "error-no-device", { { "device", std::string(device) } } });
        request->device_path = device;
        // The caller asked for this device, not for whatever has its name
        // once polkit has answered (see start_authorized).
        request->device = target_device->facts();
        if (!read_start_request(*request, kind, options)
            || request->benchmark->target() == engine::TargetKind::Directory)
            throw make_error(ErrorCode::NotFound, { "error-no-device-kind", { { "kind", kind } } });
        const system::DeviceFacts& facts = request->device;
        engine::check_benchmark(*request->benchmark, unopened_target(facts), request->parameters);
        // A read kind that writes when asked to (writes_when: the
        // overview's write rate, the queue-depth sweep's writes): then it
        // is a write in every respect below.
        const bool writes = request->benchmark->target_for(request->parameters.values()) == engine::TargetKind::DeviceWrite;
        if (writes)
            check_writable(facts, request->parameters.values(), options_.system_places);
        if (const std::string busy = claims_.conflicting_job(facts); !busy.empty())
            throw busy_error("error-device-in-use-by", { "device", facts.node }, busy);

        log_debug("uid {} ({}) asks for {} on {}", request->uid, request->sender, kind, facts.node);
        // Erasing has an action of its own, so the dialog (and an admin's
        // rules) can tell it from a write that keeps the data.
        const char* action = !writes                        ? read_device_action
            : erases(request->parameters.values()) ? destroy_device_action
                                          : write_device_action;
        authorize(request, action, { { "device", device_label(facts) } }, &Manager::start_authorized);
    } catch (const std::exception& error) {
        refuse(request->reply, request->call, reply_error(error));
    }
}

void Manager::start_authorized(const std::shared_ptr<StartRequest>& request)
{
    const system::DeviceFacts& asked = request->device;
    // `why`: an error-reason-* failure, the refusal's {detail}.
    const auto replaced = [&asked](const contract::Message& why) {
        return make_error(ErrorCode::NotFound,
                          { "error-device-went-away", { { "device", asked.node }, { "detail", why } } });
    };
    try {
        // The world may have moved on while polkit was asked: a disk swapped
        // for another at the same node or object path, a loop device
        // re-attached to another file. Authorization was for the device the
        // caller named, so it must still be that one.
        DeviceObject* device = device_at(request->device_path);
        if (!device)
            throw replaced({ "error-reason-gone" });
        if (const auto change = system::identity_change(asked, device->facts()))
            throw replaced(*change);
        if (const std::string busy = claims_.conflicting_job(asked); !busy.empty())
            throw busy_error("error-device-in-use-by", { "device", asked.node }, busy);
        check_limits(request->uid); // other jobs may have started meanwhile
        const bool writes = request->benchmark->target_for(request->parameters.values()) == engine::TargetKind::DeviceWrite;
        if (writes)
            check_writable(device->facts(), request->parameters.values(), options_.system_places); // mounted meanwhile?

        JobSetup setup;
        setup.device_path = request->device_path;
        setup.target_name = asked.node;
        setup.device_info = device_info(asked);
        check_node(asked, replaced);
        // Opened by us from the node udisks reported, never from a caller's
        // path. For writes the open is exclusive (O_EXCL and the device's
        // lock): the kernel refuses a device someone mounted or claimed
        // since (DeviceBusy), and nobody can while the job holds it.
        try {
            // No patience in the engine: it would wait on the bus thread.
            setup.target = writes ? engine::open_target_for_write(asked.node, std::chrono::milliseconds { 0 })
                                  : engine::open_target_for_read(asked.node);
        } catch (const engine::DeviceBusyError&) {
            // udevd claims a device after every writer's close (EBUSY while
            // it re-reads the partition table, about 19 ms here), then
            // probes it holding its lock shared for some milliseconds (more
            // on a loaded machine): a write right after another finds it
            // busy or locked. Try again in 20 ms, up to a second, from the
            // loop (never waiting on the bus thread), each time through
            // every check above; a mounted device, a holder or a
            // partitioner's lock lasts longer, and the device is busy.
            if (request->lock_retries++ < max_lock_retries) {
                loop_.add_timer(lock_retry_delay, [this, request] { start_authorized(request); });
                return;
            }
            throw;
        }
        // What was opened is checked against the kernel itself: a block
        // device (a regular file has st_rdev 0), and the one asked for.
        struct stat st {};
        if (::fstat(setup.target.fd.get(), &st) != 0 || !S_ISBLK(st.st_mode) || st.st_rdev != asked.device_number)
            throw replaced({ "error-reason-other-device" });
        if (asked.queue.disk_sequence != 0
            && system::disk_sequence_of(setup.target.fd.get()) != std::optional(asked.queue.disk_sequence))
            throw replaced({ "error-reason-new-medium" });
        launch_job(request, std::move(setup), device);
    } catch (const std::exception& error) {
        refuse(request->reply, request->call, reply_error(error));
    }
}

} // namespace diskbench::service
