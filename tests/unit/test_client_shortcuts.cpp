// SPDX-License-Identifier: GPL-3.0-or-later
// The keyboard shortcuts table: the keys GNOME apps use, no key twice,
// Ctrl+C left alone, and the shortcuts window's XML made from it.
#include "model/shortcuts.hpp"

#include <catch2/catch.hpp>
#include <glib.h>

#include <algorithm>
#include <cctype>
#include <map>
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

TEST_CASE("shortcuts: the window's XML is well-formed and lists every row once", "[client-model]")
{
    const std::string ui = shortcuts_window_ui();
    // GMarkup is what GtkBuilder parses with.
    GMarkupParser parser {};
    GMarkupParseContext* context = g_markup_parse_context_new(&parser, GMarkupParseFlags {}, nullptr, nullptr);
    GError* error = nullptr;
    const bool parsed = g_markup_parse_context_parse(context, ui.c_str(), static_cast<gssize>(ui.size()), &error)
        && g_markup_parse_context_end_parse(context, &error);
    g_markup_parse_context_free(context);
    INFO((error ? error->message : ""));
    g_clear_error(&error);
    REQUIRE(parsed);

    std::size_t rows = 0;
    for (std::size_t at = ui.find("GtkShortcutsShortcut"); at != std::string::npos;
         at = ui.find("GtkShortcutsShortcut", at + 1))
        ++rows;
    CHECK(rows == shortcut_table().size());
    std::set<std::string_view> sections;
    for (const Shortcut& shortcut : shortcut_table()) {
        INFO(shortcut.title);
        CHECK(ui.find(std::string(">") + shortcut.title + "<") != std::string::npos);
        sections.insert(shortcut.section);
    }
    std::size_t groups = 0;
    for (std::size_t at = ui.find("GtkShortcutsGroup"); at != std::string::npos; at = ui.find("GtkShortcutsGroup", at + 1))
        ++groups;
    // Each section one group: the table keeps a section's rows together.
    CHECK(groups == sections.size());
    // The range row is escaped: "<Alt>1...<Alt>9" as &lt;Alt&gt;1...
    CHECK(ui.find("&lt;Alt&gt;1...&lt;Alt&gt;9") != std::string::npos);
}
