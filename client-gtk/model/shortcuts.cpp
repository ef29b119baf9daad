// SPDX-License-Identifier: GPL-3.0-or-later
#include "shortcuts.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>


namespace diskbench::client {

namespace {

std::vector<ShortcutBinding> numbered_pages()
{
    // Detailed names with an int32 target: app.go-to-page(1) … (9).
    static const char* const actions[] = { "app.go-to-page(1)", "app.go-to-page(2)", "app.go-to-page(3)",
                                           "app.go-to-page(4)", "app.go-to-page(5)", "app.go-to-page(6)",
                                           "app.go-to-page(7)", "app.go-to-page(8)", "app.go-to-page(9)" };
    static const char* const accels[] = { "<Alt>1", "<Alt>2", "<Alt>3", "<Alt>4", "<Alt>5",
                                          "<Alt>6", "<Alt>7", "<Alt>8", "<Alt>9" };
    std::vector<ShortcutBinding> bindings;
    for (std::size_t i = 0; i < std::size(actions); ++i)
        bindings.push_back({ actions[i], { accels[i] } });
    return bindings;
}

} // namespace

const std::vector<Shortcut>& shortcut_table()
{
    // Keys as GNOME apps use them: F5 / Ctrl+Return start (Ctrl+Return is
    // what a form's default action takes in GNOME), Escape stops, Ctrl+Page
    // Down/Up and Alt+number switch pages as in tabbed apps, Ctrl+? shows
    // this list. Ctrl+C is left to copying text.
    // TRANSLATORS: section titles and rows of the keyboard shortcuts window
    static const std::vector<Shortcut> table = {
        { N_("Benchmark"), N_("Start the shown benchmark"), { { "app.start", { "F5", "<Control>Return" } } } },
        { N_("Benchmark"), N_("Stop the running benchmark"), { { "app.stop", { "Escape" } } } },
        { N_("Benchmark"), N_("Run a set of benchmarks"), { { "app.run-set-dialog", { "<Control><Shift>Return" } } } },
        { N_("Benchmark"), N_("Compare with an earlier result"), { { "app.compare", { "<Control>r" } } } },
        { N_("Benchmark"), N_("Export the graph"), { { "app.export-graph-dialog", { "<Control>e" } } } },
        { N_("Results"), N_("Open a result"), { { "app.open-result-dialog", { "<Control>o" } } } },
        { N_("Results"), N_("Save the result"), { { "app.save-result-dialog", { "<Control>s" } } } },
        { N_("Pages"), N_("Next page"), { { "app.next-page", { "<Control>Page_Down" } } } },
        { N_("Pages"), N_("Previous page"), { { "app.previous-page", { "<Control>Page_Up" } } } },
        { N_("Pages"), N_("Go to page 1 to 9"), numbered_pages(), "<Alt>1...<Alt>9" },
        { N_("General"), N_("Keyboard shortcuts"), { { "app.shortcuts", { "<Control>question" } } } },
        { N_("General"), N_("Quit"), { { "app.quit", { "<Control>q" } } } },
    };
    return table;
}

std::string shown_accelerators(const Shortcut& shortcut)
{
    if (!shortcut.shown.empty())
        return std::string(shortcut.shown);
    std::string text;
    for (const ShortcutBinding& binding : shortcut.bindings)
        for (const std::string_view accel : binding.accels)
            text += (text.empty() ? "" : " ") + std::string(accel);
    return text;
}

} // namespace diskbench::client
