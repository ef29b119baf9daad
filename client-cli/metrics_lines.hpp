// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string_view>

// What the root publishing step lets through (metrics_publish.hpp): the
// staged file is written by the unprivileged _diskbench, so root must not
// write whatever bytes that user chose (a logrotate or cron stanza) nor let
// it forge other exporters' series (node_filesystem_avail_bytes). Only
// what diskbench itself writes (results/openmetrics.hpp) is accepted:
//  - samples of metrics named diskbench_*: NAME, optionally
//    {label="value",...} (label names [A-Za-z_][A-Za-z0-9_]*, none starting
//    with "__" and none twice; values escaped as OpenMetrics says: \\, \"
//    and \n, no bare quote, backslash or line feed), one space and a
//    number (decimal, or Inf/NaN spelled as OpenMetrics and Go allow),
//    optionally one space and a decimal timestamp;
//  - "# HELP NAME text" (text escaped the same way), "# TYPE NAME counter|
//    gauge|histogram|summary" (the types both OpenMetrics and the
//    Prometheus text format of node_exporter know) and "# UNIT NAME unit",
//    for diskbench_* names only;
//  - "# EOF" as the last line and only there.
// Every line ends with a line feed and is valid UTF-8 (no NUL); no blank
// lines, no other comments, no exemplars.
namespace diskbench::cli {

// 0 when every line of TEXT is one of those above, else the number
// (1-based) of the first line that is not.
std::size_t first_refused_metrics_line(std::string_view text);

} // namespace diskbench::cli
