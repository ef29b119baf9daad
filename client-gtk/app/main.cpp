// SPDX-License-Identifier: GPL-3.0-or-later
// diskbench: the Disk Benchmark app. Unprivileged by design: the root work
// happens in diskbenchd, which asks polkit; the app only talks to it over
// the system bus.
#include "application.hpp"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    std::setlocale(LC_ALL, "");
    // DISKBENCH_LOCALEDIR in the environment: the build tree's translations
    // (po/), so the GUI tests can run the app in Czech before installing.
    const char* localedir = std::getenv("DISKBENCH_LOCALEDIR");
    bindtextdomain(GETTEXT_PACKAGE, localedir && *localedir ? localedir : DISKBENCH_LOCALEDIR);
    bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
    textdomain(GETTEXT_PACKAGE);

    if (::geteuid() == 0) {
        // A GUI as root is a large attack surface for nothing: the daemon
        // does the privileged part and polkit decides who may.
        std::fprintf(stderr, "%s\n", _("Disk Benchmark does not run as root. Start it as your own user; "
                                       "it asks for permission when a benchmark needs it."));
        return 1;
    }
    diskbench::client::Application app;
    return app.run(argc, argv);
}
