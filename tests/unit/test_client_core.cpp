// SPDX-License-Identifier: GPL-3.0-or-later
// The client's graph maths and result files (no window needed).
#include "types/result_types.hpp"
#include "chart/axis_ticks.hpp"
#include "chart/envelope.hpp"
#include "chart/series_painter.hpp"
#include "text/value_format.hpp"

#include <catch2/catch.hpp>

#include <clocale>
#include <cmath>

using namespace diskbench::client;

TEST_CASE("axis ticks are round 1-2-5 steps covering the range", "[client]")
{
    const AxisTicks ticks = nice_ticks(0, 97, 6);
    CHECK(ticks.step == 20);
    CHECK(ticks.values.front() == 0);
    CHECK(ticks.values.back() == 100);
    CHECK(ticks.values.size() <= 6);

    const AxisTicks small = nice_ticks(0.013, 0.048, 5);
    CHECK(small.step == Approx(0.01));
    CHECK(small.first <= 0.013);
    CHECK(small.last >= 0.048);

    for (double high : { 1.0, 7.3, 55.0, 1234.0, 98765.0 }) {
        const AxisTicks t = nice_ticks(0, high, 8);
        INFO(high << " step " << t.step);
        CHECK(t.values.size() <= 8);
        CHECK(t.last >= high);
        const double mantissa = t.step / std::pow(10.0, std::floor(std::log10(t.step)));
        CHECK((mantissa == Approx(1) || mantissa == Approx(2) || mantissa == Approx(5)));
    }
    // A flat range still gets an axis around it.
    CHECK(nice_ticks(5, 5, 5).values.size() >= 2);
    CHECK(nice_ticks(0, 0, 5).values.size() >= 2);
}

TEST_CASE("byte axes step in powers of two", "[client]")
{
    const AxisTicks ticks = byte_ticks(0, 64.0 * 1024 * 1024 * 1024, 9);
    CHECK(ticks.step == 8.0 * 1024 * 1024 * 1024);
    CHECK(ticks.values.size() == 9);
    CHECK(byte_ticks(0, 1000, 5).step == 256);
}

TEST_CASE("values are labelled with their units", "[client]")
{
    std::setlocale(LC_ALL, "C"); // untranslated labels
    CHECK(format_value(512, Unit::Bytes) == "512 B");
    CHECK(format_value(4096, Unit::Bytes) == "4 KiB");
    CHECK(format_value(1.5 * 1024 * 1024 * 1024, Unit::Bytes) == "1.5 GiB");
    CHECK(format_value(250, Unit::MegabytesPerSecond) == "250 MB/s");
    CHECK(format_value(2.5, Unit::MegabytesPerSecond, 0.5) == "2.5 MB/s");
    CHECK(format_value(12345, Unit::Iops) == "12.3k IOPS");
    CHECK(format_value(850, Unit::Iops) == "850 IOPS");
    CHECK(format_value(85, Unit::Microseconds) == "85 µs");
    CHECK(format_value(4200, Unit::Microseconds) == "4.2 ms");
    CHECK(format_value(1'200'000, Unit::Microseconds) == "1.20 s");
    CHECK(format_value(32, Unit::QueueDepth) == "QD 32");
    CHECK(unit_from_name("MB/s") == Unit::MegabytesPerSecond);
    CHECK(unit_from_name("us") == Unit::Microseconds);
    CHECK(unit_from_name("test") == Unit::Plain);
}

TEST_CASE("the envelope keeps every dip and spike of a million points", "[client]")
{
    std::vector<SeriesPoint> points;
    points.reserve(1'000'000);
    for (int i = 0; i < 1'000'000; ++i)
        points.push_back({ static_cast<double>(i), 100.0 + (i % 1000 == 500 ? -90.0 : 0.0) + (i == 777'777 ? 400 : 0) });
    const auto columns = envelope(points, 0, 999'999, 800);
    REQUIRE(columns.size() == 800);
    std::size_t total = 0;
    double lowest = 1e9;
    double highest = 0;
    for (const auto& column : columns) {
        total += column.count;
        CHECK(column.min <= column.mean);
        CHECK(column.mean <= column.max);
        lowest = std::min(lowest, column.min);
        highest = std::max(highest, column.max);
    }
    CHECK(total == points.size());
    CHECK(lowest == 10);   // the dips survive decimation
    CHECK(highest == 500); // and so does the one spike
    CHECK(envelope(points, 0, 0, 800).empty());
    CHECK(envelope(points, 0, 10, 0).empty());
}

namespace {
SavedResult sample_result()
{
    SavedResult result;
    result.kind = "seek";
    result.state = "finished";
    result.backend = "io_uring";
    result.started_at_us = 1'795'312'234'402'798;
    result.finished_at_us = 1'795'312'234'554'961;
    result.parameters = { { "count", std::int64_t { 1000 } }, { "backend", std::string("auto") },
                          { "aligned", true }, { "duration_s", 0.5 } };
    result.summary = { { "latency_p99_us", 155.135 }, { "reads", std::int64_t { 1000 } } };
    result.device_info = { { "model", std::string("Samsung SSD 860") }, { "rotational", false },
                           { "kernel", std::string("6.1.0-27-amd64") }, { "size", std::int64_t { 500107862016 } } };
    result.warnings = { "the target is a regular file" };
    result.notes = {};
    result.series = { { "latency", "B", "us", "scatter", { { 0, 73.25 }, { 1.44e7, 70.034 }, { 3.5, 1e-3 } } } };
    return result;
}
} // namespace

TEST_CASE("a result survives saving and loading unchanged", "[client]")
{
    const SavedResult original = sample_result();
    const std::string text = result_to_json(original);
    const auto loaded = result_from_json(text);
    REQUIRE(std::holds_alternative<SavedResult>(loaded));
    CHECK(std::get<SavedResult>(loaded) == original);
    CHECK(text.find("\"schema_version\" : 1") != std::string::npos);
}

TEST_CASE("bad result files are refused with a reason, never half-read", "[client]")
{
    std::setlocale(LC_ALL, "C");
    auto error_of = [](const std::string& text) {
        const auto loaded = result_from_json(text);
        REQUIRE(std::holds_alternative<LoadError>(loaded));
        return std::get<LoadError>(loaded);
    };
    CHECK(error_of("this is not json").kind == LoadError::Kind::Corrupt);
    CHECK(error_of("[1, 2]").kind == LoadError::Kind::Corrupt);
    CHECK(error_of("{}").kind == LoadError::Kind::Corrupt);

    std::string text = result_to_json(sample_result());
    CHECK(error_of(text.substr(0, text.size() / 2)).kind == LoadError::Kind::Corrupt); // truncated

    std::string newer = text;
    newer.replace(newer.find("\"schema_version\" : 1"), 20, "\"schema_version\" : 7");
    CHECK(error_of(newer).kind == LoadError::Kind::NewerSchema);
    std::string older = text;
    older.replace(older.find("\"schema_version\" : 1"), 20, "\"schema_version\" : 0");
    CHECK(error_of(older).kind == LoadError::Kind::OlderSchema);

    std::string wrong_point = text;
    wrong_point.replace(wrong_point.find("73.25"), 5, "\"oops\"");
    const LoadError point_error = error_of(wrong_point);
    CHECK(point_error.kind == LoadError::Kind::Corrupt);
    CHECK_THAT(point_error.message, Catch::Contains("damaged") && Catch::Contains("y value"));

    std::string wrong_kind = text;
    wrong_kind.replace(wrong_kind.find("\"kind\" : \"seek\""), 15, "\"kind\" : 42    ");
    CHECK(error_of(wrong_kind).kind == LoadError::Kind::Corrupt);
}

namespace {
// Alpha of the pixel at (x, y) of an ARGB32 image surface.
unsigned alpha_at(cairo_surface_t* surface, int x, int y)
{
    cairo_surface_flush(surface);
    const unsigned char* data = cairo_image_surface_get_data(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    const auto pixel = *reinterpret_cast<const std::uint32_t*>(data + y * stride + x * 4);
    return pixel >> 24;
}
} // namespace

TEST_CASE("a million-point series draws as a band that keeps its dips", "[client]")
{
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1000, 400);
    cairo_t* cr = cairo_create(surface);
    std::vector<SeriesPoint> points;
    for (int i = 0; i < 1'000'000; ++i)
        points.push_back({ static_cast<double>(i), i >= 600'000 && i < 600'050 ? 10.0 : 100.0 });
    const PlotArea area { 0, 0, 1000, 400, 0, 999'999, 0, 110 };
    paint_line_series(cr, area, points, { 0.2, 0.4, 0.8, 1 });

    // The mean line at y = 100 is drawn across the plot...
    const int line_y = static_cast<int>(area.to_y(100));
    CHECK(alpha_at(surface, 100, line_y) > 128);
    CHECK(alpha_at(surface, 900, line_y) > 128);
    // ...the 50-point dip at x = 600 000 (one pixel column) reaches down to
    // y = 10 in the band, although its column's mean hardly moves...
    const int dip_x = static_cast<int>(area.to_x(600'025));
    CHECK(alpha_at(surface, dip_x, static_cast<int>(area.to_y(12))) > 0);
    // ...and nothing is drawn where no value lies.
    CHECK(alpha_at(surface, 300, static_cast<int>(area.to_y(12))) == 0);
    CHECK(alpha_at(surface, 300, 2) == 0);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
}
