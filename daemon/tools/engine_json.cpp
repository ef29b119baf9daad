// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_json.hpp"

#include "contract/job_states.hpp"
#include "contract/json_output.hpp"

#include <chrono>
#include <limits>

namespace diskbench::tools {

namespace {

// JSON numbers are read back as int64 or double; unsigned values past
// INT64_MAX (only seeds can be that large) become doubles.
contract::SavedValue saved_value(const engine::Value& value)
{
    return std::visit(
        [](const auto& v) -> contract::SavedValue {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::uint64_t>) {
                if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                    return static_cast<double>(v);
                return static_cast<std::int64_t>(v);
            } else {
                return v;
            }
        },
        value);
}

contract::SavedValueMap saved_map(const engine::ValueMap& values)
{
    contract::SavedValueMap map;
    for (const auto& [key, value] : values)
        map.emplace(key, saved_value(value));
    return map;
}

std::int64_t microseconds(std::chrono::system_clock::time_point when)
{
    return std::chrono::duration_cast<std::chrono::microseconds>(when.time_since_epoch()).count();
}

void add_value(JsonBuilder* builder, const engine::Value& value)
{
    std::visit(
        [builder](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                json_builder_add_boolean_value(builder, v);
            else if constexpr (std::is_same_v<T, std::string>)
                json_builder_add_string_value(builder, v.c_str());
            else if constexpr (std::is_same_v<T, double>)
                json_builder_add_double_value(builder, v);
            else
                json_builder_add_int_value(builder, std::get<std::int64_t>(saved_value(v)));
        },
        value);
}

} // namespace

contract::SavedResult saved_from_engine(const engine::Result& result)
{
    contract::SavedResult saved;
    saved.kind = result.kind;
    saved.state = result.cancelled ? contract::job_states::cancelled : contract::job_states::finished;
    saved.backend = result.backend;
    saved.started_at_us = microseconds(result.started);
    saved.finished_at_us = microseconds(result.finished);
    saved.parameters = saved_map(result.parameters);
    saved.summary = saved_map(result.summary);
    saved.device_info = {
        { "node", result.target_name },
        { "size", saved_value(result.target_size) },
        { "logical_block_size", std::int64_t { result.logical_block } },
        { "physical_block_size", std::int64_t { result.physical_block } },
    };
    saved.warnings = result.warnings;
    saved.notes = result.notes;
    saved.warning_messages = result.warning_messages;
    saved.note_messages = result.note_messages;
    for (const auto& series : result.series) {
        contract::SavedSeries copy { series.info.name, series.info.x_unit, series.info.y_unit,
                                   std::string(engine::style_name(series.info.style)), {} };
        copy.points.reserve(series.points.size());
        for (const auto& point : series.points)
            copy.points.push_back({ point.x, point.y });
        saved.series.push_back(std::move(copy));
    }
    return saved;
}

std::string benchmarks_to_json(std::span<const engine::BenchmarkInfo> benchmarks)
{
    contract::GObjectPtr<JsonBuilder> owner(json_builder_new());
    JsonBuilder* builder = owner.get();
    json_builder_begin_array(builder);
    for (const auto& info : benchmarks) {
        json_builder_begin_object(builder);
        json_builder_set_member_name(builder, "kind");
        json_builder_add_string_value(builder, std::string(info.kind).c_str());
        json_builder_set_member_name(builder, "title");
        json_builder_add_string_value(builder, std::string(info.title).c_str());
        json_builder_set_member_name(builder, "description");
        json_builder_add_string_value(builder, std::string(info.description).c_str());
        json_builder_set_member_name(builder, "target");
        json_builder_add_string_value(builder, info.target() == engine::TargetKind::Directory     ? "directory"
                                               : info.target() == engine::TargetKind::DeviceWrite ? "device-write"
                                                                                                  : "device");
        json_builder_set_member_name(builder, "parameters");
        json_builder_begin_array(builder);
        for (const auto& spec : info.params) {
            json_builder_begin_object(builder);
            json_builder_set_member_name(builder, "key");
            json_builder_add_string_value(builder, std::string(spec.key).c_str());
            json_builder_set_member_name(builder, "type");
            json_builder_add_string_value(builder, std::string(engine::type_name(spec.type)).c_str());
            json_builder_set_member_name(builder, "description");
            json_builder_add_string_value(builder, std::string(spec.description).c_str());
            json_builder_set_member_name(builder, "default");
            add_value(builder, spec.default_value);
            json_builder_end_object(builder);
        }
        json_builder_end_array(builder);
        json_builder_end_object(builder);
    }
    json_builder_end_array(builder);
    return contract::json_text(builder);
}

} // namespace diskbench::tools
