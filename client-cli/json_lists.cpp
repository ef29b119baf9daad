// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_lists.hpp"

#include "parameter_values.hpp"
#include "result_text.hpp"

#include "contract/json_output.hpp"

#include <set>

namespace diskbench::cli {

namespace {

using contract::GObjectPtr;

class Builder {
public:
    Builder() : builder_(json_builder_new()) {}
    JsonBuilder* get() const { return builder_.get(); }
    std::string text() { return contract::json_text(builder_.get()); }

    void member(const char* name, const std::string& value)
    {
        json_builder_set_member_name(get(), name);
        json_builder_add_string_value(get(), value.c_str());
    }
    void member(const char* name, const char* value) { member(name, std::string(value)); }
    void member(const char* name, std::int64_t value)
    {
        json_builder_set_member_name(get(), name);
        json_builder_add_int_value(get(), value);
    }
    void member(const char* name, bool value)
    {
        json_builder_set_member_name(get(), name);
        json_builder_add_boolean_value(get(), value);
    }
    void member(const char* name, double value)
    {
        json_builder_set_member_name(get(), name);
        json_builder_add_double_value(get(), value);
    }
    void value(const client::SavedValue& value)
    {
        std::visit(
            [this](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, bool>)
                    json_builder_add_boolean_value(get(), v);
                else if constexpr (std::is_same_v<T, std::int64_t>)
                    json_builder_add_int_value(get(), v);
                else if constexpr (std::is_same_v<T, double>)
                    json_builder_add_double_value(get(), v);
                else
                    json_builder_add_string_value(get(), v.c_str());
            },
            value);
    }
    void map(const char* name, const client::SavedValueMap& values)
    {
        json_builder_set_member_name(get(), name);
        json_builder_begin_object(get());
        for (const auto& [key, v] : values) {
            json_builder_set_member_name(get(), key.c_str());
            value(v);
        }
        json_builder_end_object(get());
    }
    void strings(const char* name, const std::vector<std::string>& values)
    {
        json_builder_set_member_name(get(), name);
        json_builder_begin_array(get());
        for (const std::string& v : values)
            json_builder_add_string_value(get(), v.c_str());
        json_builder_end_array(get());
    }

private:
    GObjectPtr<JsonBuilder> builder_;
};

} // namespace

std::string devices_json(const std::vector<client::DeviceEntry>& devices)
{
    Builder b;
    json_builder_begin_array(b.get());
    for (const client::DeviceEntry& d : devices) {
        json_builder_begin_object(b.get());
        b.member("object", d.path);
        b.member("node", d.node);
        b.member("name", d.name);
        b.member("kind", d.kind);
        b.member("model", d.model);
        b.member("vendor", d.vendor);
        b.member("serial", d.serial);
        b.member("by_id", d.by_id);
        b.member("size", static_cast<std::int64_t>(d.size));
        b.member("logical_block_size", static_cast<std::int64_t>(d.logical_block_size));
        b.member("physical_block_size", static_cast<std::int64_t>(d.physical_block_size));
        b.member("rotational", d.rotational);
        b.member("removable", d.removable);
        b.member("connection_bus", d.connection_bus);
        b.member("link", d.link);
        b.member("link_limit_mb_s", d.link_limit_mb_s);
        json_builder_set_member_name(b.get(), "stack");
        json_builder_begin_array(b.get());
        for (const std::string& layer : d.stack)
            json_builder_add_string_value(b.get(), layer.c_str());
        json_builder_end_array(b.get());
        b.member("write_cache", d.write_cache);
        b.member("temperature", d.temperature);
        b.member("temperature_source", d.temperature_source);
        b.map("health", d.health);
        b.member("mounted", d.mounted);
        b.member("in_use", d.in_use);
        b.member("system_disk", d.system_disk);
        b.member("job", d.job);
        json_builder_end_object(b.get());
    }
    json_builder_end_array(b.get());
    return b.text();
}

std::string benchmarks_json(const std::vector<client::BenchmarkInfo>& benchmarks)
{
    Builder b;
    json_builder_begin_array(b.get());
    for (const client::BenchmarkInfo& info : benchmarks) {
        json_builder_begin_object(b.get());
        b.member("kind", info.kind);
        b.member("target", info.target);
        b.member("title", info.title);
        b.member("description", info.description);
        json_builder_set_member_name(b.get(), "parameters");
        json_builder_begin_array(b.get());
        for (const client::ParameterInfo& p : info.parameters) {
            json_builder_begin_object(b.get());
            b.member("key", p.key);
            b.member("type", p.type);
            b.member("description", p.description);
            json_builder_set_member_name(b.get(), "default");
            b.value(p.default_value);
            const std::vector<std::string> choices = parameter_choices(p);
            if (!choices.empty())
                b.strings("choices", choices);
            json_builder_end_object(b.get());
        }
        json_builder_end_array(b.get());
        json_builder_end_object(b.get());
    }
    json_builder_end_array(b.get());
    return b.text();
}

std::string jobs_json(const std::vector<client::JobEntry>& jobs)
{
    Builder b;
    json_builder_begin_array(b.get());
    for (const client::JobEntry& job : jobs) {
        json_builder_begin_object(b.get());
        b.member("job", job.path);
        b.member("kind", job.kind);
        b.member("device", job.device);
        b.member("target", job.target);
        b.member("state", job.state);
        b.member("progress", job.progress);
        b.member("owner", static_cast<std::int64_t>(job.owner));
        b.member("started_at_us", static_cast<std::int64_t>(job.started_at_us));
        b.member("finished_at_us", static_cast<std::int64_t>(job.finished_at_us));
        b.member("error_name", job.error_name);
        json_builder_end_object(b.get());
    }
    json_builder_end_array(b.get());
    return b.text();
}

std::string history_json(const std::vector<std::pair<std::string, const client::SavedResult*>>& results)
{
    Builder b;
    json_builder_begin_array(b.get());
    for (const auto& [file, result] : results) {
        json_builder_begin_object(b.get());
        b.member("file", file);
        b.member("kind", result->kind);
        b.member("state", result->state);
        b.member("target_kind", result->target_kind);
        b.member("target", result->target);
        b.member("started_at_us", result->started_at_us);
        b.map("device_info", result->device_info);
        b.map("summary", result->summary);
        json_builder_end_object(b.get());
    }
    json_builder_end_array(b.get());
    return b.text();
}

namespace {

void add_comparison(Builder& b, const client::SavedResult& a, const client::SavedResult& b_result);

} // namespace

std::string comparison_json(const client::SavedResult& a, const client::SavedResult& b_result)
{
    Builder b;
    if (a.members.empty() && b_result.members.empty()) {
        add_comparison(b, a, b_result);
        return b.text();
    }
    // A set: its runs compared with the other side's runs of the same kind,
    // under "runs" by kind.
    json_builder_begin_object(b.get());
    b.member("a_kind", a.kind);
    b.member("b_kind", b_result.kind);
    json_builder_set_member_name(b.get(), "runs");
    json_builder_begin_object(b.get());
    for (const auto& [run_a, run_b] : paired_runs(a, b_result)) {
        json_builder_set_member_name(b.get(), run_a->kind.c_str());
        add_comparison(b, *run_a, *run_b);
    }
    json_builder_end_object(b.get());
    json_builder_end_object(b.get());
    return b.text();
}

namespace {

void add_comparison(Builder& b, const client::SavedResult& a, const client::SavedResult& b_result)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : a.summary)
        keys.insert(key);
    for (const auto& [key, value] : b_result.summary)
        keys.insert(key);
    json_builder_begin_object(b.get());
    b.member("a_kind", a.kind);
    b.member("b_kind", b_result.kind);
    json_builder_set_member_name(b.get(), "summary");
    json_builder_begin_object(b.get());
    for (const std::string& key : keys) {
        json_builder_set_member_name(b.get(), key.c_str());
        json_builder_begin_array(b.get());
        for (const client::SavedResult* side : { &a, &b_result }) {
            if (const auto found = side->summary.find(key); found != side->summary.end())
                b.value(found->second);
            else
                json_builder_add_null_value(b.get());
        }
        json_builder_end_array(b.get());
    }
    json_builder_end_object(b.get());
    json_builder_end_object(b.get());
}

} // namespace

} // namespace diskbench::cli
