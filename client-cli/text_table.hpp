// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace diskbench::cli {

// A plain-text table for the terminal: a header row and columns padded to
// their widest cell (counted in characters, not bytes: "µs", "·"), two
// spaces apart. Right-aligned columns are for numbers.
class TextTable {
public:
    enum class Align { Left, Right };

    explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {});

    // A row with fewer cells than columns is padded with empty cells;
    // extra cells are an error in the caller, and are dropped.
    void add_row(std::vector<std::string> cells);
    [[nodiscard]] bool empty() const noexcept { return rows_.empty(); }

    // Every line ends in '\n'; no trailing blanks.
    [[nodiscard]] std::string render() const;

private:
    std::vector<std::string> headers_;
    std::vector<Align> align_;
    std::vector<std::vector<std::string>> rows_;
};

// Characters (UTF-8 code points) in `text`; invalid UTF-8 counts bytes.
std::size_t display_width(const std::string& text);

} // namespace diskbench::cli
