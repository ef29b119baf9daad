// SPDX-License-Identifier: GPL-3.0-or-later
#include "text_table.hpp"
#include "text/terminal_text.hpp"

#include <glib.h>

#include <algorithm>

namespace diskbench::cli {

std::size_t display_width(const std::string& text)
{
    if (!g_utf8_validate(text.data(), static_cast<gssize>(text.size()), nullptr))
        return text.size();
    return static_cast<std::size_t>(g_utf8_strlen(text.data(), static_cast<gssize>(text.size())));
}

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align)
    : headers_(std::move(headers))
    , align_(std::move(align))
{
    align_.resize(headers_.size(), Align::Left);
}

void TextTable::add_row(std::vector<std::string> cells)
{
    cells.resize(headers_.size());
    // Cells hold what the daemon, udisks (a device's model and serial) and
    // result files say: escaped before they are measured and shown.
    for (std::string& cell : cells)
        cell = client::terminal_text(cell);
    rows_.push_back(std::move(cells));
}

std::string TextTable::render() const
{
    std::vector<std::size_t> widths(headers_.size(), 0);
    auto measure = [&](const std::vector<std::string>& row) {
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], display_width(row[i]));
    };
    measure(headers_);
    for (const auto& row : rows_)
        measure(row);

    std::string out;
    auto line = [&](const std::vector<std::string>& row) {
        std::string text;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string padding(widths[i] - display_width(row[i]), ' ');
            if (i)
                text += "  ";
            text += align_[i] == Align::Right ? padding + row[i] : row[i] + padding;
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out += text + "\n";
    };
    line(headers_);
    for (const auto& row : rows_)
        line(row);
    return out;
}

} // namespace diskbench::cli
