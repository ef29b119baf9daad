// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_output.hpp"

#include <fmt/format.h>

namespace diskbench::contract {

std::string json_text(JsonBuilder* builder)
{
    GObjectPtr<JsonGenerator> generator(json_generator_new());
    JsonNode* root = json_builder_get_root(builder);
    json_generator_set_root(generator.get(), root);
    json_node_unref(root);
    json_generator_set_pretty(generator.get(), TRUE);
    std::unique_ptr<gchar, decltype(&g_free)> text(json_generator_to_data(generator.get(), nullptr), &g_free);
    // json-glib writes C0 controls and DEL as \u00XX but the C1 controls
    // (U+0080..U+009F; U+009B is a terminal's CSI) as they are: written as
    // \u escapes too, the same JSON, so printing it cannot drive a terminal.
    // Outside strings JSON text is ASCII, so these only occur in strings.
    std::string out;
    for (const char* c = text.get(); *c; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        const auto next = static_cast<unsigned char>(c[1]);
        if (byte == 0xC2 && next >= 0x80 && next <= 0x9F) {
            out += fmt::format("\\u{:04x}", next);
            ++c;
        } else {
            out += *c;
        }
    }
    return out + "\n";
}

} // namespace diskbench::contract
