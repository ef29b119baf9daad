// SPDX-License-Identifier: GPL-3.0-or-later
#include "result_file.hpp"

#include "byte_size.hpp"
#include "json_output.hpp"

#include <glib/gi18n-lib.h>

#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace diskbench::contract {

namespace {

bool points_equal(const std::vector<SeriesPoint>& a, const std::vector<SeriesPoint>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].x != b[i].x || a[i].y != b[i].y)
            return false;
    return true;
}

void add_map(JsonBuilder* builder, const char* name, const SavedValueMap& map)
{
    json_builder_set_member_name(builder, name);
    json_builder_begin_object(builder);
    for (const auto& [key, value] : map) {
        json_builder_set_member_name(builder, key.c_str());
        std::visit(
            [builder](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, bool>)
                    json_builder_add_boolean_value(builder, v);
                else if constexpr (std::is_same_v<T, std::int64_t>)
                    json_builder_add_int_value(builder, v);
                else if constexpr (std::is_same_v<T, double>)
                    json_builder_add_double_value(builder, v);
                else
                    json_builder_add_string_value(builder, v.c_str());
            },
            value);
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

// [{"id": "...", "args": {"name": value}}]
void add_messages(JsonBuilder* builder, const char* name, const std::vector<Message>& messages)
{
    json_builder_set_member_name(builder, name);
    json_builder_begin_array(builder);
    for (const Message& message : messages) {
        json_builder_begin_object(builder);
        json_builder_set_member_name(builder, "id");
        json_builder_add_string_value(builder, message.id.c_str());
        json_builder_set_member_name(builder, "args");
        json_builder_begin_object(builder);
        for (const MessageArg& arg : message.args) {
            json_builder_set_member_name(builder, arg.name.c_str());
            std::visit(
                [builder](const auto& v) {
                    using T = std::decay_t<decltype(v)>;
                    if constexpr (std::is_same_v<T, std::int64_t>)
                        json_builder_add_int_value(builder, v);
                    else if constexpr (std::is_same_v<T, double>)
                        json_builder_add_double_value(builder, v);
                    else
                        json_builder_add_string_value(builder, v.c_str());
                },
                arg.value);
        }
        json_builder_end_object(builder);
        json_builder_end_object(builder);
    }
    json_builder_end_array(builder);
}

void add_string(JsonBuilder* builder, const char* name, const std::string& value)
{
    json_builder_set_member_name(builder, name);
    json_builder_add_string_value(builder, value.c_str());
}

// Reading: every accessor checks the type and throws a message on a
// mismatch, so a hand-edited or truncated file is a clear "corrupt", never a
// crash or a silently wrong graph. Translated messages carry no format
// placeholders: a translator's typo must not be able to throw.
struct Corrupt {
    std::string what;
};

JsonObject* object_member(JsonObject* object, const char* name)
{
    JsonNode* node = json_object_get_member(object, name);
    if (!node || !JSON_NODE_HOLDS_OBJECT(node))
        throw Corrupt { fmt::format("\"{}\" is missing or not an object", name) };
    return json_node_get_object(node);
}

JsonArray* array_member(JsonObject* object, const char* name)
{
    JsonNode* node = json_object_get_member(object, name);
    if (!node || !JSON_NODE_HOLDS_ARRAY(node))
        throw Corrupt { fmt::format("\"{}\" is missing or not a list", name) };
    return json_node_get_array(node);
}

std::string string_member(JsonObject* object, const char* name)
{
    JsonNode* node = json_object_get_member(object, name);
    if (!node || json_node_get_value_type(node) != G_TYPE_STRING)
        throw Corrupt { fmt::format("\"{}\" is missing or not text", name) };
    return json_node_get_string(node);
}

std::int64_t int_member(JsonObject* object, const char* name)
{
    JsonNode* node = json_object_get_member(object, name);
    if (!node || json_node_get_value_type(node) != G_TYPE_INT64)
        throw Corrupt { fmt::format("\"{}\" is missing or not a whole number", name) };
    return json_node_get_int(node);
}

double number(JsonNode* node, const char* what)
{
    if (!node || !JSON_NODE_HOLDS_VALUE(node))
        throw Corrupt { fmt::format("{} is not a number", what) };
    const GType type = json_node_get_value_type(node);
    if (type == G_TYPE_DOUBLE)
        return json_node_get_double(node);
    if (type == G_TYPE_INT64)
        return static_cast<double>(json_node_get_int(node));
    throw Corrupt { fmt::format("{} is not a number", what) };
}

SavedValueMap map_member(JsonObject* object, const char* name)
{
    SavedValueMap map;
    JsonObject* members = object_member(object, name);
    GList* names = json_object_get_members(members);
    for (GList* item = names; item; item = item->next) {
        const char* key = static_cast<const char*>(item->data);
        JsonNode* node = json_object_get_member(members, key);
        const GType type = JSON_NODE_HOLDS_VALUE(node) ? json_node_get_value_type(node) : G_TYPE_INVALID;
        if (type == G_TYPE_BOOLEAN)
            map[key] = static_cast<bool>(json_node_get_boolean(node));
        else if (type == G_TYPE_INT64)
            map[key] = static_cast<std::int64_t>(json_node_get_int(node));
        else if (type == G_TYPE_DOUBLE)
            map[key] = json_node_get_double(node);
        else if (type == G_TYPE_STRING)
            map[key] = std::string(json_node_get_string(node));
        else {
            g_list_free(names);
            throw Corrupt { fmt::format("\"{}.{}\" is not a boolean, number or text", name, key) };
        }
    }
    g_list_free(names);
    return map;
}

std::vector<std::string> strings_member(JsonObject* object, const char* name)
{
    std::vector<std::string> strings;
    JsonArray* array = array_member(object, name);
    for (guint i = 0; i < json_array_get_length(array); ++i) {
        JsonNode* node = json_array_get_element(array, i);
        if (!JSON_NODE_HOLDS_VALUE(node) || json_node_get_value_type(node) != G_TYPE_STRING)
            throw Corrupt { fmt::format("\"{}\" holds something that is not text", name) };
        strings.emplace_back(json_node_get_string(node));
    }
    return strings;
}

// Optional (files before API 0.5 have none).
std::vector<Message> messages_member(JsonObject* object, const char* name)
{
    std::vector<Message> messages;
    if (!json_object_has_member(object, name))
        return messages;
    JsonArray* array = array_member(object, name);
    for (guint i = 0; i < json_array_get_length(array); ++i) {
        JsonNode* node = json_array_get_element(array, i);
        if (!JSON_NODE_HOLDS_OBJECT(node))
            throw Corrupt { fmt::format("\"{}\" holds something that is not an object", name) };
        JsonObject* entry = json_node_get_object(node);
        Message message { string_member(entry, "id"), {} };
        for (const auto& [key, value] : map_member(entry, "args")) {
            if (const auto* integer = std::get_if<std::int64_t>(&value))
                message.args.emplace_back(key, *integer);
            else if (const auto* real = std::get_if<double>(&value))
                message.args.emplace_back(key, *real);
            else if (const auto* text = std::get_if<std::string>(&value))
                message.args.emplace_back(key, *text);
            else
                throw Corrupt { fmt::format("\"{}\" has an argument that is neither a number nor text", name) };
        }
        messages.push_back(std::move(message));
    }
    return messages;
}

SavedSeries series_from(JsonNode* node)
{
    if (!JSON_NODE_HOLDS_OBJECT(node))
        throw Corrupt { "a series is not an object" };
    JsonObject* object = json_node_get_object(node);
    SavedSeries series { string_member(object, "name"), string_member(object, "x_unit"),
                         string_member(object, "y_unit"), string_member(object, "style"), {} };
    JsonArray* points = array_member(object, "points");
    const guint count = json_array_get_length(points);
    series.points.reserve(count);
    for (guint i = 0; i < count; ++i) {
        JsonNode* pair = json_array_get_element(points, i);
        if (!JSON_NODE_HOLDS_ARRAY(pair) || json_array_get_length(json_node_get_array(pair)) != 2)
            throw Corrupt { fmt::format("point {} of series \"{}\" is not an [x, y] pair", i, series.name) };
        JsonArray* xy = json_node_get_array(pair);
        series.points.push_back({ number(json_array_get_element(xy, 0), "an x value"),
                                  number(json_array_get_element(xy, 1), "a y value") });
    }
    return series;
}

} // namespace

bool SavedResult::operator==(const SavedResult& other) const
{
    if (kind != other.kind || state != other.state || backend != other.backend || target_kind != other.target_kind
        || target != other.target || started_at_us != other.started_at_us
        || finished_at_us != other.finished_at_us || parameters != other.parameters || summary != other.summary
        || device_info != other.device_info || warnings != other.warnings || notes != other.notes
        || warning_messages != other.warning_messages || note_messages != other.note_messages
        || series.size() != other.series.size() || members != other.members)
        return false;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const SavedSeries& a = series[i];
        const SavedSeries& b = other.series[i];
        if (a.name != b.name || a.x_unit != b.x_unit || a.y_unit != b.y_unit || a.style != b.style
            || !points_equal(a.points, b.points))
            return false;
    }
    return true;
}

std::string SavedResult::folder_name() const
{
    if (target_kind != "directory")
        return {};
    const std::unique_ptr<gchar, decltype(&g_free)> base(g_path_get_basename(target.empty() ? "." : target.c_str()),
                                                        g_free);
    return base.get();
}

namespace {

// A result's members (everything but the schema version), so a set's
// members are written exactly as a result of their own is.
void add_result_fields(JsonBuilder* builder, const SavedResult& result)
{
    add_string(builder, "kind", result.kind);
    add_string(builder, "state", result.state);
    add_string(builder, "backend", result.backend);
    add_string(builder, "target_kind", result.target_kind);
    add_string(builder, "target", result.target);
    json_builder_set_member_name(builder, "started_at_us");
    json_builder_add_int_value(builder, result.started_at_us);
    json_builder_set_member_name(builder, "finished_at_us");
    json_builder_add_int_value(builder, result.finished_at_us);
    add_map(builder, "parameters", result.parameters);
    add_map(builder, "summary", result.summary);
    add_map(builder, "device_info", result.device_info);
    add_strings(builder, "warnings", result.warnings);
    add_strings(builder, "notes", result.notes);
    add_messages(builder, "warning_messages", result.warning_messages);
    add_messages(builder, "note_messages", result.note_messages);
    json_builder_set_member_name(builder, "series");
    json_builder_begin_array(builder);
    for (const auto& series : result.series) {
        json_builder_begin_object(builder);
        add_string(builder, "name", series.name);
        add_string(builder, "x_unit", series.x_unit);
        add_string(builder, "y_unit", series.y_unit);
        add_string(builder, "style", series.style);
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
    // Only a set has members; other results keep the layout they had.
    if (!result.members.empty()) {
        json_builder_set_member_name(builder, "members");
        json_builder_begin_array(builder);
        for (const SavedResult& member : result.members) {
            json_builder_begin_object(builder);
            add_result_fields(builder, member);
            json_builder_end_object(builder);
        }
        json_builder_end_array(builder);
    }
}

} // namespace

std::string result_to_json(const SavedResult& result)
{
    GObjectPtr<JsonBuilder> owner(json_builder_new());
    JsonBuilder* builder = owner.get();
    json_builder_begin_object(builder);
    json_builder_set_member_name(builder, "schema_version");
    json_builder_add_int_value(builder, result_schema_version);
    add_result_fields(builder, result);
    json_builder_end_object(builder);
    return json_text(builder);
}

namespace {

// The deepest nesting of arrays and objects in JSON text, counted without
// parsing (brackets inside strings do not count); stops past `limit`.
std::size_t nesting_depth(std::string_view text, std::size_t limit)
{
    std::size_t depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit)
                break;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

LoadError too_large()
{
    return { LoadError::Kind::Unreadable,
             fmt::format(fmt::runtime(_("This file is too large to be a result file (more than {})")),
                         byte_size_text(max_result_file_bytes)) };
}

} // namespace

namespace {

// Reads one result (a set's member: without members of its own).
SavedResult result_from_object(JsonObject* object, bool may_have_members)
{
    SavedResult result;
    result.kind = string_member(object, "kind");
    result.state = string_member(object, "state");
    result.backend = string_member(object, "backend");
    // Added in 0.2 without a new schema version: older files have
    // neither and are device results.
    if (json_object_has_member(object, "target_kind")) {
        result.target_kind = string_member(object, "target_kind");
        if (result.target_kind != "device" && result.target_kind != "directory")
            throw Corrupt { "\"target_kind\" is neither \"device\" nor \"directory\"" };
    }
    if (json_object_has_member(object, "target"))
        result.target = string_member(object, "target");
    result.started_at_us = int_member(object, "started_at_us");
    result.finished_at_us = int_member(object, "finished_at_us");
    result.parameters = map_member(object, "parameters");
    result.summary = map_member(object, "summary");
    result.device_info = map_member(object, "device_info");
    result.warnings = strings_member(object, "warnings");
    result.notes = strings_member(object, "notes");
    result.warning_messages = messages_member(object, "warning_messages");
    result.note_messages = messages_member(object, "note_messages");
    JsonArray* series = array_member(object, "series");
    for (guint i = 0; i < json_array_get_length(series); ++i)
        result.series.push_back(series_from(json_array_get_element(series, i)));
    if (json_object_has_member(object, "members")) {
        // One level: a set holds runs, not sets.
        if (!may_have_members)
            throw Corrupt { "a member of a set has members of its own" };
        JsonArray* members = array_member(object, "members");
        for (guint i = 0; i < json_array_get_length(members); ++i) {
            JsonNode* node = json_array_get_element(members, i);
            if (!JSON_NODE_HOLDS_OBJECT(node))
                throw Corrupt { "a member of the set is not an object" };
            result.members.push_back(result_from_object(json_node_get_object(node), false));
        }
    }
    return result;
}

} // namespace

std::variant<SavedResult, LoadError> result_from_json(std::string_view text)
{
    if (text.size() > max_result_file_bytes)
        return too_large();
    if (nesting_depth(text, max_result_nesting) > max_result_nesting)
        return LoadError { LoadError::Kind::Corrupt,
                           fmt::format(fmt::runtime(_("This is not a result file: nested more than {} levels deep")),
                                       max_result_nesting) };
    GObjectPtr<JsonParser> parser(json_parser_new());
    GError* error = nullptr;
    if (!json_parser_load_from_data(parser.get(), text.data(), static_cast<gssize>(text.size()), &error)) {
        LoadError failure { LoadError::Kind::Corrupt,
                            std::string(_("This is not a result file")) + ": " + (error ? error->message : "") };
        g_clear_error(&error);
        return failure;
    }
    JsonNode* root = json_parser_get_root(parser.get());
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return LoadError { LoadError::Kind::Corrupt, _("This is not a result file") };
    JsonObject* object = json_node_get_object(root);
    try {
        const std::int64_t version = int_member(object, "schema_version");
        if (version > result_schema_version)
            return LoadError { LoadError::Kind::NewerSchema,
                               _("This result was saved by a newer version of Disk Benchmark; update to open it") };
        if (version < result_schema_version)
            return LoadError { LoadError::Kind::OlderSchema,
                               _("This result file is from an old version that can no longer be read") };
        return result_from_object(object, true);
    } catch (const Corrupt& corrupt) {
        return LoadError { LoadError::Kind::Corrupt,
                           std::string(_("This result file is damaged")) + ": " + corrupt.what };
    }
}

namespace {

// Closes a descriptor when it goes out of scope.
struct FileDescriptor {
    int fd;
    explicit FileDescriptor(int value) noexcept : fd(value) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace

std::variant<SavedResult, LoadError> result_from_file(const std::string& path)
{
    const auto unreadable = [](int error) { return LoadError { LoadError::Kind::Unreadable, g_strerror(error) }; };
    // O_NONBLOCK: opening a FIFO planted under a result's name returns at
    // once (and is refused below) instead of waiting for a writer.
    const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (file.fd < 0)
        return unreadable(errno);
    struct stat status {};
    if (::fstat(file.fd, &status) != 0)
        return unreadable(errno);
    if (!S_ISREG(status.st_mode))
        return LoadError { LoadError::Kind::Unreadable, _("not a regular file") };
    if (static_cast<std::uint64_t>(status.st_size) > max_result_file_bytes)
        return too_large();
    // Read to the end, but never more than the limit (the file may grow).
    std::string text;
    std::vector<char> buffer(65536);
    for (;;) {
        const ssize_t got = ::read(file.fd, buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return unreadable(errno);
        if (got == 0)
            break;
        text.append(buffer.data(), static_cast<std::size_t>(got));
        if (text.size() > max_result_file_bytes)
            return too_large();
    }
    return result_from_json(text);
}

} // namespace diskbench::contract
