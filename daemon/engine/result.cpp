// SPDX-License-Identifier: GPL-3.0-or-later
#include "result.hpp"

namespace diskbench::engine {

std::string_view style_name(SeriesStyle style) noexcept
{
    switch (style) {
    case SeriesStyle::Line:
        return "line";
    case SeriesStyle::Bar:
        return "bar";
    case SeriesStyle::Scatter:
        return "scatter";
    }
    return "line";
}

} // namespace diskbench::engine
