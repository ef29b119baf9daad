// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_output.hpp"

namespace diskbench::contract {

std::string json_text(JsonBuilder* builder)
{
    GObjectPtr<JsonGenerator> generator(json_generator_new());
    JsonNode* root = json_builder_get_root(builder);
    json_generator_set_root(generator.get(), root);
    json_node_unref(root);
    json_generator_set_pretty(generator.get(), TRUE);
    std::unique_ptr<gchar, decltype(&g_free)> text(json_generator_to_data(generator.get(), nullptr), &g_free);
    return std::string(text.get()) + "\n";
}

} // namespace diskbench::contract
