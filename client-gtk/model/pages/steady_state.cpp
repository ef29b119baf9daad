// SPDX-License-Identifier: GPL-3.0-or-later
// Steady state: IOPS per round with SNIA's measurement window drawn as a
// band around its mean, the rounds' p99 latency, and the preconditioning's
// MB/s over time (drawn while it runs). The views are named by their unit,
// short, as every page's are: the page's toolbar must fit a narrow window.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::vector<PageView> views()
{
    using enum ChartStyle;
    using enum AxisScale;
    return { page_view(N_("IOPS"), chart_spec(Line, Linear, Unit::Plain, Unit::Iops), "iops", false,
                       "iops-min", "iops-max"),
             page_view(N_("p99"), chart_spec(Line, Linear, Unit::Plain, Unit::Microseconds), "latency_p99"),
             page_view(N_("MB/s"), chart_spec(Line, Linear, Unit::Seconds, Unit::MegabytesPerSecond),
                       "precondition") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical)
{
    BenchmarkDescription d;
    const std::string where = shell_quoted(node);
    const std::int64_t size = integer_of(p, "size", 0);
    const std::int64_t block = block_or_logical(p, "block_size", 4096, logical);
    const std::int64_t depth = integer_of(p, "queue_depth", 32);
    const std::int64_t precondition = integer_of(p, "precondition_bytes", 0);
    const std::int64_t read_percent = integer_of(p, "read_percent", 0);
    const double round_s = number_of(p, "round_s", 10.0);
    const std::int64_t max_rounds = integer_of(p, "max_rounds", 25);
    const bool purge = boolean_of(p, "purge", true);
    const std::string over = size > 0 ? bytes_text(size) : std::string(_("the whole device"));
    const std::string written = precondition > 0 ? bytes_text(precondition) : std::string(_("twice that"));
    const std::string rounds = printf_text(
        _("then runs rounds of %.0f s of random %s requests (%lld %% reads) at queue depth %lld, each ending with a "
          "flush, until the last 5 rounds' IOPS stay within ±10 %% of their mean with a slope of at most 10 %% "
          "(SNIA's steady state), or %lld rounds."),
        round_s, bytes_text(block).c_str(), static_cast<long long>(read_percent), static_cast<long long>(depth),
        static_cast<long long>(max_rounds));
    d.what = purge
        ? printf_text(_("Erases data: discards %s, writes it sequentially in 128 KiB writes (%s) at queue depth %lld, "
                        "%s"),
                      over.c_str(), written.c_str(), static_cast<long long>(depth), rounds.c_str())
        : printf_text(_("Erases data: writes %s sequentially in 128 KiB writes (%s) at queue depth %lld, %s"),
                      over.c_str(), written.c_str(), static_cast<long long>(depth), rounds.c_str());
    const std::string length = size > 0 ? fmt::format(" --length {}", size) : "";
    if (purge)
        d.fio_commands.push_back(fmt::format("blkdiscard{} {}", length, where));
    const std::string range = size > 0 ? fio_size(size) : "100%";
    const std::string amount = precondition > 0 ? fmt::format("--io_size={}", fio_size(precondition)) : "--loops=2";
    d.fio_commands.push_back(fmt::format("fio --name=precondition --filename={} --rw=write --bs=128k --iodepth={} "
                                         "--size={} {} --direct=1 --ioengine=io_uring --end_fsync=1",
                                         where, depth, range, amount));
    // fio judges its steady state on one-second samples over the
    // duration (the last five rounds' time), not per round: close to ours,
    // not the same arithmetic.
    const std::string pattern = read_percent == 0 ? "--rw=randwrite"
        : read_percent == 100                     ? "--rw=randread"
                                                  : fmt::format("--rw=randrw --rwmixread={}", read_percent);
    d.fio_commands.push_back(fmt::format("fio --name=steady --filename={} {} --bs={} --iodepth={} --size={} "
                                         "--direct=1 --ioengine=io_uring --time_based --runtime={:.0f}ms "
                                         "--steadystate=iops:10% --steadystate_duration={:.0f}ms --norandommap "
                                         "--randrepeat=0 --write_iops_log=steady --log_avg_msec={:.0f}",
                                         where, pattern, fio_size(block), depth, range,
                                         round_s * static_cast<double>(max_rounds) * 1000, round_s * 5 * 1000,
                                         round_s * 1000));
    return d;
}

} // namespace

extern constinit const PageModel steady_state_page {
    .kind = contract::kinds::steady_state,
    .icon = "media-playlist-repeat-symbolic",
    .target = PageTarget::DeviceWrite,
    .views = views,
    .describe = describe,
    .expected_points = "max_rounds",
};

} // namespace diskbench::client
