// SPDX-License-Identifier: GPL-3.0-or-later
#include "result_json.hpp"

#include <json-glib/json-glib.h>

#include <chrono>
#include <memory>

namespace diskbench::tools {

namespace {

struct GObjectUnref {
    void operator()(gpointer object) const noexcept { g_object_unref(object); }
};
template <typename T>
using GObjectPtr = std::unique_ptr<T, GObjectUnref>;

struct GFree {
    void operator()(gchar* text) const noexcept { g_free(text); }
};

void add_value(JsonBuilder* builder, const engine::Value& value)
{
    std::visit(
        [builder](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                json_builder_add_boolean_value(builder, v);
            else if constexpr (std::is_same_v<T, std::int64_t>)
                json_builder_add_int_value(builder, v);
            else if constexpr (std::is_same_v<T, std::uint64_t>)
                json_builder_add_int_value(builder, static_cast<gint64>(v));
            else if constexpr (std::is_same_v<T, double>)
                json_builder_add_double_value(builder, v);
            else
                json_builder_add_string_value(builder, v.c_str());
        },
        value);
}

void add_map(JsonBuilder* builder, const char* name, const engine::ValueMap& map)
{
    json_builder_set_member_name(builder, name);
    json_builder_begin_object(builder);
    for (const auto& [key, value] : map) {
        json_builder_set_member_name(builder, key.c_str());
        add_value(builder, value);
    }
    json_builder_end_object(builder);
}

void add_strings(JsonBuilder* builder, const char* name, const std::vector<std::string>& strings)
{
    json_builder_set_member_name(builder, name);
    json_builder_begin_array(builder);
    for (const auto& text : strings)
        json_builder_add_string_value(builder, text.c_str());
    json_builder_end_array(builder);
}

double unix_seconds(std::chrono::system_clock::time_point when)
{
    return std::chrono::duration<double>(when.time_since_epoch()).count();
}

std::string to_text(JsonBuilder* builder)
{
    GObjectPtr<JsonGenerator> generator(json_generator_new());
    JsonNode* root = json_builder_get_root(builder);
    json_generator_set_root(generator.get(), root);
    json_node_unref(root);
    json_generator_set_pretty(generator.get(), TRUE);
    std::unique_ptr<gchar, GFree> text(json_generator_to_data(generator.get(), nullptr));
    return std::string(text.get()) + "\n";
}

} // namespace

std::string result_to_json(const engine::Result& result)
{
    GObjectPtr<JsonBuilder> owner(json_builder_new());
    JsonBuilder* builder = owner.get();
    json_builder_begin_object(builder);
    json_builder_set_member_name(builder, "kind");
    json_builder_add_string_value(builder, result.kind.c_str());
    json_builder_set_member_name(builder, "target");
    json_builder_begin_object(builder);
    json_builder_set_member_name(builder, "name");
    json_builder_add_string_value(builder, result.target_name.c_str());
    json_builder_set_member_name(builder, "size");
    json_builder_add_int_value(builder, static_cast<gint64>(result.target_size));
    json_builder_set_member_name(builder, "logical_block");
    json_builder_add_int_value(builder, result.logical_block);
    json_builder_set_member_name(builder, "physical_block");
    json_builder_add_int_value(builder, result.physical_block);
    json_builder_end_object(builder);
    json_builder_set_member_name(builder, "backend");
    json_builder_add_string_value(builder, result.backend.c_str());
    json_builder_set_member_name(builder, "started");
    json_builder_add_double_value(builder, unix_seconds(result.started));
    json_builder_set_member_name(builder, "finished");
    json_builder_add_double_value(builder, unix_seconds(result.finished));
    json_builder_set_member_name(builder, "cancelled");
    json_builder_add_boolean_value(builder, result.cancelled);
    add_map(builder, "parameters", result.parameters);
    add_map(builder, "summary", result.summary);
    add_strings(builder, "warnings", result.warnings);
    add_strings(builder, "notes", result.notes);

    json_builder_set_member_name(builder, "series");
    json_builder_begin_array(builder);
    for (const auto& series : result.series) {
        json_builder_begin_object(builder);
        json_builder_set_member_name(builder, "name");
        json_builder_add_string_value(builder, series.info.name.c_str());
        json_builder_set_member_name(builder, "x_unit");
        json_builder_add_string_value(builder, series.info.x_unit.c_str());
        json_builder_set_member_name(builder, "y_unit");
        json_builder_add_string_value(builder, series.info.y_unit.c_str());
        json_builder_set_member_name(builder, "style");
        json_builder_add_string_value(builder, std::string(engine::style_name(series.info.style)).c_str());
        json_builder_set_member_name(builder, "points");
        json_builder_begin_array(builder);
        for (const auto& point : series.points) {
            json_builder_begin_array(builder);
            json_builder_add_double_value(builder, point.x);
            json_builder_add_double_value(builder, point.y);
            json_builder_end_array(builder);
        }
        json_builder_end_array(builder);
        json_builder_end_object(builder);
    }
    json_builder_end_array(builder);
    json_builder_end_object(builder);
    return to_text(builder);
}

std::string benchmarks_to_json(std::span<const engine::BenchmarkInfo> benchmarks)
{
    GObjectPtr<JsonBuilder> owner(json_builder_new());
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
    return to_text(builder);
}

} // namespace diskbench::tools
