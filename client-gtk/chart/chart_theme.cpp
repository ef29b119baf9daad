// SPDX-License-Identifier: GPL-3.0-or-later
// The charts' colours, from the GNOME HIG palette (the same blues, greens,
// purples, reds and orange as libadwaita's accent colours).
#include "chart.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

constexpr Rgba hex(unsigned rgb, double alpha = 1.0) noexcept
{
    return { ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0, alpha };
}

// sRGB channel to linear light, as WCAG 2 defines relative luminance.
double linear(double channel) noexcept
{
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

double relative_luminance(Rgba colour) noexcept
{
    return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue);
}

bool same(Rgba a, Rgba b) noexcept
{
    return a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha;
}

} // namespace

ChartTheme ChartTheme::light()
{
    ChartTheme theme;
    theme.background = hex(0xffffff);
    theme.foreground = hex(0x241f31);
    // Grid lines stay in the background: the foreground at low alpha.
    theme.grid = hex(0x241f31, 0.15);
    theme.reference = hex(0xe66100); // orange 5
    theme.overlays = { theme.reference, hex(0x865e3c), hex(0x3d3846), hex(0x0b7a75) }; // brown 4, dark 4, teal
    // The darker shades (blue 4, green 5, purple 4, red 4): all >= 3:1 on white.
    theme.current = { hex(0x1c71d8), hex(0x26a269), hex(0x813d9c), hex(0xc01c28) };
    theme.secondary = hex(0xe01b24); // red 3: 4.6:1 on white
    return theme;
}

ChartTheme ChartTheme::dark()
{
    ChartTheme theme;
    theme.background = hex(0x1e1e1e);
    theme.foreground = hex(0xffffff);
    theme.grid = hex(0xffffff, 0.15);
    theme.reference = hex(0xffa348); // orange 2
    theme.overlays = { theme.reference, hex(0xcdab8f), hex(0xf6f5f4), hex(0x3fd0c9) }; // brown 1, light 1, teal
    // The lighter shades (blue 2, green 2, purple 2, red 1): all >= 3:1 on #1e1e1e.
    theme.current = { hex(0x62a0ea), hex(0x57e389), hex(0xc061cb), hex(0xf66151) };
    theme.secondary = hex(0xed333b); // red 2: 4.1:1 on #1e1e1e
    return theme;
}

Rgba ChartTheme::current_colour(std::size_t index) const
{
    if (current.empty())
        return foreground;
    return current[index % current.size()];
}

Rgba ChartTheme::overlay_colour(std::size_t index) const
{
    if (overlays.empty())
        return reference;
    return overlays[index % overlays.size()];
}

bool ChartTheme::operator==(const ChartTheme& other) const noexcept
{
    return same(background, other.background) && same(foreground, other.foreground) && same(grid, other.grid)
        && same(reference, other.reference) && same(secondary, other.secondary) && font_size == other.font_size
        && std::equal(current.begin(), current.end(), other.current.begin(), other.current.end(), same)
        && std::equal(overlays.begin(), overlays.end(), other.overlays.begin(), other.overlays.end(), same);
}

double contrast_ratio(Rgba a, Rgba b) noexcept
{
    const double la = relative_luminance(a);
    const double lb = relative_luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace diskbench::client
