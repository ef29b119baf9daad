// SPDX-License-Identifier: GPL-3.0-or-later
// Results as Prometheus metrics (libdiskbench-client/results/openmetrics):
// label escaping, units, which result is exported, the check counts. The
// text is also checked by Prometheus' own promtool on results of real runs
// (tests/data/check_openmetrics.py).
#include "results/openmetrics.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <sstream>

using namespace diskbench::client;
using diskbench::contract::Message;

namespace {

SavedResult profile_result(const std::string& model, std::int64_t finished_s)
{
    SavedResult result;
    result.kind = "profile";
    result.state = "finished";
    result.started_at_us = (finished_s - 12) * 1'000'000;
    result.finished_at_us = finished_s * 1'000'000;
    result.device_info = { { "node", std::string("/dev/sda") },
                           { "model", model },
                           { "serial", std::string("S3Z1NB0K") },
                           { "by_id", std::string("ata-Samsung_SSD_860_S3Z1NB0K") },
                           { "link", std::string("SATA 6.0 Gb/s") },
                           { "stack_line", std::string("sda, SATA 6.0 Gb/s") } };
    result.summary = { { "tests", std::string("SEQ1M Q8T1") },
                       { "seq1m_q8t1.throughput_mb_s", 523.5 },
                       { "seq1m_q8t1.iops", 499.25 },
                       { "seq1m_q8t1.latency_p50_us", std::int64_t { 2000 } },
                       { "seq1m_q8t1.latency_p99_us", 4500.0 },
                       { "seq1m_q8t1.latency_p99_9_us", 9000.0 },
                       { "seq1m_q8t1.latency_mean_us", 2100.0 },
                       { "seq1m_q8t1.throughput_mb_s_cv_percent", 2.5 },
                       { "temperature_max_c", 41.0 } };
    result.warning_messages = { Message { "foreign-io", {} }, Message { "passes-varied", {} },
                                Message { "loop-backing-cached", {} } };
    return result;
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

bool has_line(const std::string& text, const std::string& line)
{
    const auto lines = lines_of(text);
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

const std::string device_labels
    = R"(device="ata-Samsung_SSD_860_S3Z1NB0K",model="Samsung SSD 860",serial="S3Z1NB0K",kind="profile")";

} // namespace

TEST_CASE("label values escape backslash, quote and newline, and stay UTF-8", "[openmetrics]")
{
    CHECK(escape_label_value("plain") == "plain");
    CHECK(escape_label_value(R"(a "quoted" \ model)") == R"(a \"quoted\" \\ model)");
    CHECK(escape_label_value("two\nlines") == R"(two\nlines)");
    CHECK(escape_label_value("Диск ЁЖ 日本") == "Диск ЁЖ 日本");
    // Firmware strings are bytes: what is not UTF-8 becomes U+FFFD.
    CHECK(escape_label_value(std::string("bad\xff") + "byte") == "bad\xEF\xBF\xBD" "byte");
}

TEST_CASE("a profile result becomes families in base units with test and op labels", "[openmetrics]")
{
    const std::string text = openmetrics_text({ profile_result("Samsung SSD 860", 1'800'000'000) });
    const std::string test = device_labels + R"(,test="SEQ1M Q8T1",op="read")";
    CHECK(has_line(text, "diskbench_run_timestamp_seconds{" + device_labels + "} 1800000000"));
    CHECK(has_line(text, "diskbench_run_duration_seconds{" + device_labels + "} 12"));
    CHECK(has_line(text, "diskbench_throughput_bytes_per_second{" + test + "} 523500000"));
    CHECK(has_line(text, "diskbench_iops{" + test + "} 499.25"));
    CHECK(has_line(text, "diskbench_latency_seconds{" + test + R"(,quantile="0.5"} 0.002)"));
    CHECK(has_line(text, "diskbench_latency_seconds{" + test + R"(,quantile="0.99"} 0.0045)"));
    CHECK(has_line(text, "diskbench_latency_seconds{" + test + R"(,quantile="0.999"} 0.009)"));
    CHECK(has_line(text, "diskbench_latency_mean_seconds{" + test + "} 0.0021"));
    CHECK(has_line(text, "diskbench_pass_cv_ratio{" + test + R"(,figure="throughput_mb_s"} 0.025)"));
    CHECK(has_line(text, "diskbench_drive_temperature_celsius{" + device_labels + "} 41"));
    CHECK(has_line(text, "diskbench_check_warnings{" + device_labels + R"(,check="foreign_io"} 1)"));
    CHECK(has_line(text, "diskbench_check_warnings{" + device_labels + R"(,check="spread"} 1)"));
    CHECK(has_line(text, "diskbench_check_warnings{" + device_labels + R"(,check="cache"} 1)"));
    CHECK(has_line(text, "diskbench_check_warnings{" + device_labels + R"(,check="temperature"} 0)"));
    CHECK(has_line(text, "diskbench_device_info{" + device_labels
                             + R"(,link="SATA 6.0 Gb/s",stack="sda, SATA 6.0 Gb/s"} 1)"));
    CHECK(has_line(text, "# TYPE diskbench_latency_seconds summary"));
    CHECK(has_line(text, "# UNIT diskbench_throughput_bytes_per_second bytes_per_second"));
    CHECK(text.ends_with("\n# EOF\n"));

    // Every family's metadata once, before its samples; every sample line
    // well formed (name, labels of escaped values, a number).
    const std::regex sample(R"re(^([a-z_]+)\{([a-z_]+="([^"\\]|\\[\\"n])*"(,[a-z_]+="([^"\\]|\\[\\"n])*")*)\} [-+0-9.eE]+(Inf|NaN)?$)re");
    std::vector<std::string> typed;
    for (const auto& line : lines_of(text)) {
        if (line.starts_with("# TYPE ")) {
            const std::string family = line.substr(7, line.find(' ', 7) - 7);
            CHECK(std::count(typed.begin(), typed.end(), family) == 0);
            typed.push_back(family);
        } else if (!line.starts_with("# ")) {
            INFO(line);
            std::smatch m;
            REQUIRE(std::regex_match(line, m, sample));
            REQUIRE(!typed.empty());
            CHECK(m[1].str().starts_with(typed.back()));
        }
    }
}

TEST_CASE("model names with quotes, backslashes, newlines and Cyrillic are escaped in every label", "[openmetrics]")
{
    const std::string text = openmetrics_text({ profile_result("Vendor \"X\" \\ SSD\nЖ", 1'800'000'000) });
    CHECK(text.find(R"(model="Vendor \"X\" \\ SSD\nЖ")") != std::string::npos);
    for (const auto& line : lines_of(text))
        CHECK(line.find("SSD\n") == std::string::npos);
    CHECK(lines_of(text).size() == lines_of(openmetrics_text({ profile_result("plain", 1'800'000'000) })).size());
}

TEST_CASE("control characters of a hostile result become \\xNN text in every label, raw in none",
          "[openmetrics]")
{
    // A result file's escape sequences: the window's title (OSC ... BEL),
    // clear screen, a line of its own, a C1 CSI (U+009B), DEL, a tab and CR.
    const std::string evil = "\x1b]0;owned\x07\x1b[2J\nverified OK \u009b31m\x7f\t\r";
    CHECK(escape_label_value(evil)
          == R"(\\x1b]0;owned\\x07\\x1b[2J\nverified OK \\xc2\\x9b31m\\x7f\\x09\\x0d)");
    // U+00A0 and later are text, not controls.
    CHECK(escape_label_value("\u00a0\u00e9") == "\u00a0\u00e9");
    SavedResult result = profile_result("USB disk" + evil, 1'800'000'000);
    result.kind = "profile" + evil;
    result.device_info["serial"] = std::string("S1") + evil;
    result.device_info["by_id"] = std::string("usb-") + evil;
    result.device_info["stack_line"] = std::string("sda") + evil;
    const std::string text = openmetrics_text({ result });
    CHECK(text.find(R"(model="USB disk\\x1b]0;owned\\x07\\x1b[2J\nverified OK \\xc2\\x9b31m\\x7f\\x09\\x0d")")
          != std::string::npos);
    CHECK(text.find("diskbench_throughput_bytes_per_second{") != std::string::npos);
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        CHECK(((byte >= 0x20 && byte != 0x7F) || c == '\n'));
    }
    CHECK(text.find("\xC2\x9B") == std::string::npos);
    for (const auto& line : lines_of(text))
        CHECK_FALSE(line.starts_with("verified OK"));
}

TEST_CASE("one series per device and kind: the newest finished run", "[openmetrics]")
{
    SavedResult old_run = profile_result("Samsung SSD 860", 1'700'000'000);
    old_run.summary["seq1m_q8t1.throughput_mb_s"] = 100.0;
    SavedResult cancelled = profile_result("Samsung SSD 860", 1'900'000'000);
    cancelled.state = "cancelled";
    cancelled.summary["seq1m_q8t1.throughput_mb_s"] = 1.0;
    const std::string text = openmetrics_text({ old_run, profile_result("Samsung SSD 860", 1'800'000'000), cancelled });
    const std::string test = device_labels + R"(,test="SEQ1M Q8T1",op="read")";
    CHECK(has_line(text, "diskbench_throughput_bytes_per_second{" + test + "} 523500000"));
    CHECK(has_line(text, "diskbench_run_timestamp_seconds{" + device_labels + "} 1800000000"));
    const auto lines = lines_of(text);
    CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
              return l.starts_with("diskbench_throughput_bytes_per_second{");
          }) == 1);

    // Nothing finished: only the end marker.
    CHECK(openmetrics_text({ cancelled }) == "# EOF\n");
}

TEST_CASE("the device label is the by-id name, else the WWN, else the node's name", "[openmetrics]")
{
    SavedResult result = profile_result("m", 1);
    CHECK(metrics_device_label(result) == "ata-Samsung_SSD_860_S3Z1NB0K");
    result.device_info["by_id"] = std::string();
    result.device_info["wwn"] = std::string("0x5002538e40a1b2c3");
    CHECK(metrics_device_label(result) == "wwn-0x5002538e40a1b2c3");
    result.device_info.erase("wwn");
    result.device_info["node"] = std::string("/dev/loop3");
    CHECK(metrics_device_label(result) == "loop3");
}

TEST_CASE("file-rw's read and write figures get their op; a raw write kind is a write", "[openmetrics]")
{
    SavedResult files = profile_result("m", 1'800'000'000);
    files.kind = "file-rw";
    files.summary = { { "read_mb_s", 200.0 }, { "write_mb_s", 150.0 }, { "read_min_mb_s", 1.0 },
                      { "write_latency_p99_us", 800.0 } };
    std::string text = openmetrics_text({ files });
    CHECK(text.find(R"(kind="file-rw",test="",op="read"} 200000000)") != std::string::npos);
    CHECK(text.find(R"(kind="file-rw",test="",op="write"} 150000000)") != std::string::npos);
    CHECK(text.find(R"(kind="file-rw",test="",op="write",quantile="0.99"} 0.0008)") != std::string::npos);
    CHECK(text.find("1000000") == std::string::npos); // read_min_mb_s is no family

    SavedResult write = profile_result("m", 1'800'000'000);
    write.kind = "device-write";
    write.summary = { { "seq1m_q8t1.throughput_mb_s", 300.0 } };
    text = openmetrics_text({ write });
    CHECK(text.find(R"(kind="device-write",test="SEQ1M Q8T1",op="write"} 300000000)") != std::string::npos);
}

TEST_CASE("the drive's own temperature limit is exported only where its sensor has one", "[openmetrics]")
{
    SavedResult result = profile_result("Samsung SSD 860", 1'800'000'000);
    CHECK(openmetrics_text({ result }).find("diskbench_drive_temperature_limit_celsius") == std::string::npos);
    result.summary["temperature_limit_c"] = 70.0;
    CHECK(has_line(openmetrics_text({ result }),
                   "diskbench_drive_temperature_limit_celsius{" + device_labels + "} 70"));
}

TEST_CASE("a scheduled run adds its end, the quiet rule's readings and the skipped devices", "[openmetrics]")
{
    ScheduledRun run;
    run.ended_at = 1'800'000'100;
    run.devices = {
        { "ata-Samsung_SSD_860_S3Z1NB0K", "Samsung SSD 860", "S3Z1NB0K", 0.25, "busy" },
        { "nvme-Fast_\"1\"", "Fast \"1\"", "N1", 0.0, "" },
        { "loop7", "", "", std::nullopt, "failed" },
    };
    const std::string text = openmetrics_text({ profile_result("Samsung SSD 860", 1'800'000'000) }, &run);
    CHECK(has_line(text, "diskbench_scheduled_last_run_timestamp_seconds 1800000100"));
    CHECK(has_line(text, R"(diskbench_scheduled_busy_ratio{device="ata-Samsung_SSD_860_S3Z1NB0K",model="Samsung SSD 860",serial="S3Z1NB0K"} 0.25)"));
    CHECK(has_line(text, R"(diskbench_scheduled_busy_ratio{device="nvme-Fast_\"1\"",model="Fast \"1\"",serial="N1"} 0)"));
    CHECK(has_line(text, R"(diskbench_scheduled_skipped{device="ata-Samsung_SSD_860_S3Z1NB0K",model="Samsung SSD 860",serial="S3Z1NB0K",reason="busy"} 1)"));
    CHECK(has_line(text, R"(diskbench_scheduled_skipped{device="loop7",model="",serial="",reason="failed"} 1)"));
    // A measured device has no skip line, and one read no busy figure.
    CHECK(text.find(R"(diskbench_scheduled_skipped{device="nvme-Fast)") == std::string::npos);
    CHECK(text.find(R"(diskbench_scheduled_busy_ratio{device="loop7")") == std::string::npos);
    CHECK(has_line(text, "# TYPE diskbench_scheduled_skipped gauge"));
    CHECK(text.ends_with("\n# EOF\n"));
    // Without a scheduled run, none of its families.
    CHECK(openmetrics_text({}).find("diskbench_scheduled") == std::string::npos);
}
