// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The translations in the source tree's po/ files (DISKBENCH_SOURCE_ROOT),
// read without gettext: the tests check what translators wrote.

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <string>

namespace diskbench::testing {

// A .po file's translations, msgid to msgstr (wrapped or not: a line of
// just a string continues the one before); fuzzy entries left out, as
// msgfmt leaves them out. Plural entries are left out too.
inline std::map<std::string, std::string> po_translations(const std::string& language)
{
    std::ifstream in(std::string(DISKBENCH_SOURCE_ROOT) + "/po/" + language + ".po");
    REQUIRE(in);
    const auto unquote = [](const std::string& line, std::size_t from) {
        std::string text;
        for (std::size_t i = line.find('"', from) + 1; i + 1 < line.size(); ++i) {
            if (line[i] == '\\' && i + 2 < line.size()) {
                const char next = line[++i];
                text += next == 'n' ? '\n' : next == 't' ? '\t' : next;
            } else {
                text += line[i];
            }
        }
        return text;
    };
    std::map<std::string, std::string> translations;
    std::string line, id, str;
    enum class In { Nothing, Id, Str } in_part = In::Nothing;
    bool fuzzy = false;
    const auto finish = [&] {
        if (in_part == In::Str && !fuzzy)
            translations[id] = str;
        if (in_part == In::Str)
            fuzzy = false;
        in_part = In::Nothing;
    };
    while (std::getline(in, line)) {
        if (line.starts_with("\"")) {
            (in_part == In::Id ? id : str) += in_part == In::Nothing ? "" : unquote(line, 0);
            continue;
        }
        finish();
        if (line.empty())
            fuzzy = false; // entries end at a blank line, plural ones too
        else if (line.starts_with("#, ") && line.find("fuzzy") != std::string::npos)
            fuzzy = true;
        else if (line.starts_with("msgid ")) {
            id = unquote(line, 5);
            in_part = In::Id;
        } else if (line.starts_with("msgstr ")) {
            str = unquote(line, 6);
            in_part = In::Str;
        }
    }
    finish();
    return translations;
}

} // namespace diskbench::testing
