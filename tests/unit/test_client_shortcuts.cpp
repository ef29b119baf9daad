// SPDX-License-Identifier: GPL-3.0-or-later
// The keyboard shortcuts table: the keys GNOME apps use, no key twice,
// Ctrl+C left alone, and the shortcuts window's .ui file showing the same rows.
#include "model/shortcuts.hpp"

#include <catch2/catch.hpp>
#include <glib.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <set>

using namespace diskbench::client;

namespace {

// action -> its accelerators, as the app sets them.
std::map<std::string, std::vector<std::string>> accels_by_action()
{
    std::map<std::string, std::vector<std::string>> accels;
    for (const Shortcut& shortcut : shortcut_table())
        for (const ShortcutBinding& binding : shortcut.bindings)
            for (const std::string_view accel : binding.accels)
                accels[std::string(binding.action)].emplace_back(accel);
    return accels;
}

bool bound(const std::string& action, const std::string& accel)
{
    const auto accels = accels_by_action();
    const auto found = accels.find(action);
    return found != accels.end()
        && std::find(found->second.begin(), found->second.end(), accel) != found->second.end();
}

std::string lower(std::string_view text)
{
    std::string result(text);
    for (char& c : result)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return result;
}

} // namespace

TEST_CASE("shortcuts: the keys of GNOME apps reach the app's actions", "[client-model]")
{
    CHECK(bound("app.start", "F5"));
    CHECK(bound("app.start", "<Control>Return"));
    CHECK(bound("app.stop", "Escape"));
    CHECK(bound("app.export-graph-dialog", "<Control>e"));
    CHECK(bound("app.compare", "<Control>r"));
    CHECK(bound("app.run-set-dialog", "<Control><Shift>Return"));
    CHECK(bound("app.next-page", "<Control>Page_Down"));
    CHECK(bound("app.previous-page", "<Control>Page_Up"));
    CHECK(bound("app.shortcuts", "<Control>question"));
    CHECK(bound("app.open-result-dialog", "<Control>o"));
    CHECK(bound("app.save-result-dialog", "<Control>s"));
    CHECK(bound("app.quit", "<Control>q"));
    for (int n = 1; n <= 9; ++n) {
        INFO(n);
        CHECK(bound("app.go-to-page(" + std::to_string(n) + ")", "<Alt>" + std::to_string(n)));
    }
}

TEST_CASE("shortcuts: no key does two things, Ctrl+C stays for copying", "[client-model]")
{
    std::set<std::string> seen;
    std::size_t count = 0;
    for (const auto& [action, accels] : accels_by_action())
        for (const std::string& accel : accels) {
            INFO(action << " " << accel);
            CHECK(seen.insert(lower(accel)).second);
            ++count;
        }
    CHECK(count == 21); // 12 keys + Alt+1…9
    CHECK_FALSE(seen.count("<control>c"));
}

TEST_CASE("shortcuts: every row has a section, a title and keys to show", "[client-model]")
{
    for (const Shortcut& shortcut : shortcut_table()) {
        INFO(shortcut.title);
        CHECK(shortcut.section);
        CHECK(shortcut.title);
        CHECK_FALSE(shortcut.bindings.empty());
        CHECK_FALSE(shown_accelerators(shortcut).empty());
    }
    const auto start = std::find_if(shortcut_table().begin(), shortcut_table().end(),
                                    [](const Shortcut& s) { return s.bindings[0].action == "app.start"; });
    REQUIRE(start != shortcut_table().end());
    CHECK(shown_accelerators(*start) == "F5 <Control>Return");
}

namespace {

// What client-gtk/ui/shortcuts-window.ui declares, read with GMarkup (what
// GtkBuilder parses with): each row's group title, title and accelerator,
// in order, and whether every title is marked for translation.
struct DeclaredRow {
    std::string section, title, accelerator;
};

struct DeclaredWindow {
    std::vector<DeclaredRow> rows;
    std::string window_title;
    bool every_title_translatable = true;
};

struct UiReader {
    DeclaredWindow window;
    std::vector<std::string> classes; // the enclosing objects' classes
    std::string group_title;
    std::string property;             // the property being read, "" outside one
    std::string text;
};

void on_start(GMarkupParseContext*, const gchar* element, const gchar** names, const gchar** values, gpointer data,
              GError**)
{
    auto& reader = *static_cast<UiReader*>(data);
    std::map<std::string, std::string> attributes;
    for (int i = 0; names[i]; ++i)
        attributes[names[i]] = values[i];
    if (std::string(element) == "object") {
        reader.classes.push_back(attributes["class"]);
        if (reader.classes.back() == "GtkShortcutsShortcut")
            reader.window.rows.push_back({ reader.group_title, {}, {} });
    } else if (std::string(element) == "property") {
        reader.property = attributes["name"];
        reader.text.clear();
        if (reader.property == "title" && attributes["translatable"] != "yes")
            reader.window.every_title_translatable = false;
    }
}

void on_text(GMarkupParseContext*, const gchar* text, gsize length, gpointer data, GError**)
{
    auto& reader = *static_cast<UiReader*>(data);
    if (!reader.property.empty())
        reader.text.append(text, length);
}

void on_end(GMarkupParseContext*, const gchar* element, gpointer data, GError**)
{
    auto& reader = *static_cast<UiReader*>(data);
    if (std::string(element) == "object") {
        reader.classes.pop_back();
        return;
    }
    if (std::string(element) != "property" || reader.classes.empty())
        return;
    const std::string& owner = reader.classes.back();
    if (owner == "GtkShortcutsWindow" && reader.property == "title")
        reader.window.window_title = reader.text;
    else if (owner == "GtkShortcutsGroup" && reader.property == "title")
        reader.group_title = reader.text;
    else if (owner == "GtkShortcutsShortcut" && reader.property == "title")
        reader.window.rows.back().title = reader.text;
    else if (owner == "GtkShortcutsShortcut" && reader.property == "accelerator")
        reader.window.rows.back().accelerator = reader.text;
    reader.property.clear();
}

DeclaredWindow declared_window()
{
    gchar* contents = nullptr;
    gsize length = 0;
    GError* error = nullptr;
    const std::string path = std::string(DISKBENCH_SOURCE_ROOT) + "/client-gtk/ui/shortcuts-window.ui";
    REQUIRE(g_file_get_contents(path.c_str(), &contents, &length, &error));
    const std::unique_ptr<gchar, decltype(&g_free)> owned(contents, g_free);
    UiReader reader;
    GMarkupParser parser { on_start, on_end, on_text, nullptr, nullptr };
    GMarkupParseContext* context = g_markup_parse_context_new(&parser, GMarkupParseFlags {}, &reader, nullptr);
    const bool parsed = g_markup_parse_context_parse(context, contents, static_cast<gssize>(length), &error)
        && g_markup_parse_context_end_parse(context, &error);
    g_markup_parse_context_free(context);
    INFO((error ? error->message : ""));
    g_clear_error(&error);
    REQUIRE(parsed);
    return reader.window;
}

} // namespace

TEST_CASE("shortcuts: the window's .ui file lists the table's rows, in its order, with its keys", "[client-model]")
{
    const DeclaredWindow window = declared_window();
    CHECK(window.window_title == "Keyboard Shortcuts");
    CHECK(window.every_title_translatable);
    REQUIRE(window.rows.size() == shortcut_table().size());
    for (std::size_t i = 0; i < window.rows.size(); ++i) {
        const Shortcut& shortcut = shortcut_table()[i];
        INFO(shortcut.title);
        CHECK(window.rows[i].section == shortcut.section);
        CHECK(window.rows[i].title == shortcut.title);
        CHECK(window.rows[i].accelerator == shown_accelerators(shortcut));
    }
    // The range row as GtkShortcutsShortcut writes a range.
    CHECK(std::any_of(window.rows.begin(), window.rows.end(),
                      [](const DeclaredRow& row) { return row.accelerator == "<Alt>1...<Alt>9"; }));
}
