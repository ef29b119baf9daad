#!/usr/bin/python3
"""Checks the app's icons (SVG, already well-formed by xmllint):

- the full-colour icon has a 128x128 canvas (GNOME's app icon grid);
- the symbolic icon has a 16x16 canvas and is drawn in exactly one colour,
  #2e3436, with filled shapes only: no strokes, gradients, patterns,
  embedded images or a second colour, which GTK could not recolour to the
  theme's foreground;
- neither has text (fonts differ between machines; app icons have none).

Usage: check_icons.py APP_ICON_SVG SYMBOLIC_ICON_SVG
"""
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
SYMBOLIC_COLOUR = "#2e3436"
COLOUR_PROPERTIES = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
SHAPES = ("path", "rect", "circle", "ellipse", "polygon", "polyline", "line")
FORBIDDEN_IN_SYMBOLIC = ("linearGradient", "radialGradient", "pattern", "image", "filter", "mask")


def local(tag):
    return tag.rsplit("}", 1)[-1]


def properties(element):
    """The presentation attributes and style="" declarations of an element."""
    props = {k: v.strip() for k, v in element.attrib.items() if "}" not in k}
    for decl in element.get("style", "").split(";"):
        if ":" in decl:
            name, value = decl.split(":", 1)
            props[name.strip()] = value.strip()
    return props


def check_canvas(root, size, name, errors):
    if root.tag != SVG + "svg":
        errors.append(f"{name}: the root is not an SVG <svg> element")
        return
    viewbox = [float(v) for v in re.split(r"[\s,]+", root.get("viewBox", "").strip()) if v]
    if viewbox != [0, 0, size, size]:
        errors.append(f"{name}: viewBox is {root.get('viewBox')!r}, expected '0 0 {size} {size}'")
    for dim in ("width", "height"):
        if root.get(dim) not in (None, str(size), f"{size}px"):
            errors.append(f"{name}: {dim} is {root.get(dim)!r}, expected {size}")


def check_no_text(root, name, errors):
    for element in root.iter():
        if local(element.tag) in ("text", "tspan", "textPath"):
            errors.append(f"{name}: has <{local(element.tag)}>; icons carry no text")


def check_symbolic(root, name, errors):
    colours = set()
    shapes = 0
    for element in root.iter():
        tag = local(element.tag)
        if tag in FORBIDDEN_IN_SYMBOLIC:
            errors.append(f"{name}: has <{tag}>; a symbolic icon is one flat colour")
        if tag in SHAPES:
            shapes += 1
        props = properties(element)
        stroke = props.get("stroke", "none")
        if stroke != "none":
            errors.append(f"{name}: <{tag}> has stroke={stroke!r}; draw symbolic shapes as fills")
        for prop in COLOUR_PROPERTIES:
            value = props.get(prop)
            if value is None or value == "none" or prop == "stroke":
                continue
            colours.add(value.lower())
    if shapes == 0:
        errors.append(f"{name}: draws no shapes")
    if colours != {SYMBOLIC_COLOUR}:
        errors.append(f"{name}: uses the colours {sorted(colours)}, expected only {SYMBOLIC_COLOUR} "
                      "(set on every shape, not inherited black)")
    # A shape whose fill is not set on it or on a group around it is black.
    def walk(element, fill):
        if local(element.tag) in ("defs", "clipPath", "mask", "symbol"):
            return  # not drawn as such
        fill = properties(element).get("fill", fill)
        if local(element.tag) in SHAPES and fill is None:
            errors.append(f"{name}: a <{local(element.tag)}> has no fill (it would be black)")
        for child in element:
            walk(child, fill)
    walk(root, None)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    app_icon, symbolic_icon = sys.argv[1:]
    errors = []
    app_root = ET.parse(app_icon).getroot()
    check_canvas(app_root, 128, app_icon, errors)
    check_no_text(app_root, app_icon, errors)
    symbolic_root = ET.parse(symbolic_icon).getroot()
    check_canvas(symbolic_root, 16, symbolic_icon, errors)
    check_no_text(symbolic_root, symbolic_icon, errors)
    check_symbolic(symbolic_root, symbolic_icon, errors)
    for e in errors:
        print("FAIL: " + e)
    if errors:
        return 1
    print(f"OK: app icon 128x128; symbolic icon 16x16 in {SYMBOLIC_COLOUR} only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
