// SPDX-License-Identifier: GPL-3.0-or-later
// Thermal throttling against a cache cliff (service/speed_drop.hpp): first
// on made-up series, then on real sustained writes to a loop device whose
// "drive" is an NVMe hwmon tree this test builds in a temporary directory.
// That sysfs root is used only by tests (no drive here has a sensor: loop
// devices have none and the VM's own disk must not be touched). A helper
// thread reads the sensor through the daemon's own reader while the write
// runs, as the job does once a second, and halfway through starts competing
// writes from 8 threads (a real slowdown of the loop device, to about a
// third); on the hot drive it also
// raises temp1_input above temp1_max. The same drop is then throttling on
// the hot drive and a cache cliff on the cool one.
#include "benchmark.hpp"
#include "competing_io.hpp"
#include "io/target.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"
#include "service/speed_drop.hpp"
#include "system/drive_temperature.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>

using namespace diskbench;
using namespace diskbench::engine;
using namespace diskbench::service;
using namespace diskbench::testing;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

std::vector<SeriesPoint> speeds(std::initializer_list<double> values)
{
    std::vector<SeriesPoint> points;
    double x = 0;
    for (double value : values)
        points.push_back({ x += 1, value });
    return points;
}

void write(const fs::path& file, const std::string& text)
{
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << '\n';
}

// An NVMe controller with its hwmon, as the kernel lays it out (the
// nvme0n1 the daemon would look up), at 45 °C with a 70 °C warning.
fs::path fake_nvme_hwmon(const fs::path& root)
{
    const fs::path controller = root / "devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0";
    const fs::path disk = controller / "nvme0n1";
    fs::create_directories(disk);
    fs::create_directory_symlink("../../devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0", disk / "device");
    fs::create_directories(root / "block");
    fs::create_directory_symlink(disk, root / "block/nvme0n1");
    fs::create_directories(root / "class/nvme");
    fs::create_directory_symlink(controller, root / "class/nvme/nvme0");
    const fs::path hwmon = controller / "hwmon3";
    write(hwmon / "name", "nvme");
    write(hwmon / "temp1_input", "45000");
    write(hwmon / "temp1_max", "70000");
    return hwmon;
}

// Records what the run streams and where its Progress is.
class ProgressSink final : public SampleSink {
public:
    explicit ProgressSink(RecordingSink& record) : record_(record) {}
    void series_added(std::size_t index, const SeriesInfo& info) override { record_.series_added(index, info); }
    void point_added(std::size_t index, const SeriesPoint& point) override { record_.point_added(index, point); }
    void progress_changed(double value) override
    {
        progress = value;
        record_.progress_changed(value);
    }
    std::atomic<double> progress { 0 };

private:
    RecordingSink& record_;
};

} // namespace

TEST_CASE("speed drops on made-up series", "[speed-drop]")
{
    const auto fall = speeds({ 1000, 1010, 990, 1000, 400, 390, 410, 400, 405 });
    SECTION("hot at the drop: throttling")
    {
        const SpeedDrop drop = find_speed_drop(fall, { { 0.0, 50 }, { 0.5, 72 }, { 1.0, 74 } }, 70);
        REQUIRE(drop.found);
        CHECK(drop.percent == Approx(60.0));
        CHECK(drop.progress == Approx(0.5));
        CHECK(drop.celsius == 72);
        CHECK(drop.hot);
    }
    SECTION("cool at the drop")
    {
        const SpeedDrop drop = find_speed_drop(fall, { { 0.0, 40 }, { 0.5, 44 }, { 1.0, 45 } }, 70);
        REQUIRE(drop.found);
        CHECK_FALSE(drop.hot);
    }
    SECTION("no threshold from the drive: 70 °C is assumed")
    {
        CHECK(find_speed_drop(fall, { { 0.5, 71 } }, 0).hot);
        CHECK_FALSE(find_speed_drop(fall, { { 0.5, 69 } }, 0).hot);
    }
    SECTION("a dip that recovers, a small change, no readings: nothing")
    {
        CHECK_FALSE(find_speed_drop(speeds({ 1000, 1000, 1000, 400, 400, 400, 1000, 1000, 1000, 1000 }),
                                    { { 0.5, 80 } }, 70).found);
        CHECK_FALSE(find_speed_drop(speeds({ 1000, 1000, 1000, 900, 850, 800, 800 }), { { 0.5, 80 } }, 70).found);
        CHECK_FALSE(find_speed_drop(fall, {}, 70).found);
    }
}

TEST_CASE("a sustained write on the hot fake drive is throttling, on the cool one a cache cliff",
          "[speed-drop][loop]")
{
    const bool hot = GENERATE(true, false);
    INFO((hot ? "hot" : "cool") << " drive");
    // In memory: the machine's own disk (other tests, other programs) would
    // add drops of its own to the one this test plants.
    ScratchDir dir("/dev/shm");
    const fs::path hwmon = fake_nvme_hwmon(dir.path() / "sys");
    const system::TemperatureSensor sensor = system::find_hwmon_sensor("nvme0n1", dir.path() / "sys");
    REQUIRE(sensor.source == "nvme-hwmon");
    const auto backing = make_data_file(dir, "backing", 64 * MiB, 31);
    LoopDevice loop(backing);
    loop.wait_until_idle();

    RecordingSink record;
    ProgressSink sink(record);
    std::vector<HeatSample> heat;
    double warning_c = 0;
    std::atomic<bool> done { false };
    // The hot drive is hot for the whole run, the cool one never: which
    // reading lies nearest the drop is then no matter of timing (raised at
    // the drop, the nearest reading was still the cool one in some runs on
    // the sanitized build). That the heat is read at the drop's own time is
    // tested over D-Bus (test_drive_temperature.py, test_5).
    if (hot)
        write(hwmon / "temp1_input", "76000");
    std::thread helper([&] {
        std::optional<CompetingIo> competitor;
        while (!done) {
            const double progress = sink.progress;
            if (progress >= 0.5 && !competitor)
                competitor.emplace(loop.path(), 64 * MiB, true, 8);
            const system::TemperatureReading reading = system::read_hwmon_sensor(sensor);
            heat.push_back({ progress, reading.celsius });
            warning_c = reading.max_celsius;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    Result result;
    {
        const Target target = open_target_for_write(loop.path());
        CancelToken cancel;
        result = run_benchmark(*find_benchmark("sustained-write"), target,
                               validate_request(*find_benchmark("sustained-write"), { { "mode", std::string("destroy") }, { "confirm", std::string("test") },
                                 { "size", 32 * MiB }, { "block_size", MiB }, { "queue_depth", std::uint64_t { 2 } },
                                 { "duration_s", 4.0 }, { "window_s", 0.2 } }),
                               &sink, cancel);
    }
    done = true;
    helper.join();
    REQUIRE(warning_c == 70);

    judge_speed_drop(result, heat, warning_c);
    std::string speeds_text;
    for (const SeriesPoint& point : series_named(result, "throughput").points)
        speeds_text += std::to_string(static_cast<int>(point.y)) + " ";
    INFO("MB/s per window: " << speeds_text);
    std::string heat_text;
    for (const HeatSample& sample : heat)
        heat_text += std::to_string(sample.progress).substr(0, 4) + ":" + std::to_string(static_cast<int>(sample.celsius)) + " ";
    INFO("readings (progress:°C): " << heat_text);
    REQUIRE(result.summary.contains("speed_drop_cause"));
    CHECK(number(result, "speed_drop_percent") >= judged_drop_percent);
    if (hot) {
        CHECK(std::get<std::string>(result.summary.at("speed_drop_cause")) == "thermal-throttling");
        CHECK(number(result, "speed_drop_c") == 76);
        CHECK(mentions(result.warnings, "at 76 °C (warning threshold 70 °C): thermal throttling"));
        CHECK_FALSE(mentions(result.notes, "cache cliff"));
    } else {
        CHECK(std::get<std::string>(result.summary.at("speed_drop_cause")) == "cache");
        CHECK(number(result, "speed_drop_c") == 45);
        CHECK(mentions(result.notes, "at 45 °C (warning threshold 70 °C): the drive stayed cool, so a write cache"));
        CHECK_FALSE(mentions(result.warnings, "thermal throttling"));
    }
}
