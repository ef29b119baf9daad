#!/usr/bin/python3
"""Checks the built AppStream metainfo of the app beyond what appstreamcli
validates: its id and launchable match the app id and the desktop file, the
newest release is the project's version, and every translatable element
(name, summary, the paragraphs and list items of the description, the
developer name, screenshot captions) has a translation for every language of
po/LINGUAS (so the po/ merge worked).

Usage: check_metainfo.py BUILT_METAINFO LINGUAS APP_ID PROJECT_VERSION SOURCE_ROOT
"""
import os
import sys
import xml.etree.ElementTree as ET

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def read_linguas(path):
    langs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                langs += line.split()
    return langs


def text_of(element):
    return " ".join("".join(element.itertext()).split())


def check_translated(parent, tag, langs, where, errors):
    """Each untranslated <tag> child of parent must be followed by one per language."""
    children = list(parent)
    count = 0
    for i, child in enumerate(children):
        if child.tag != tag or child.get(XML_LANG) is not None:
            continue
        count += 1
        source = text_of(child)
        translations = {}
        for sibling in children[i + 1:]:
            if sibling.tag != tag or sibling.get(XML_LANG) is None:
                break
            translations[sibling.get(XML_LANG)] = text_of(sibling)
        for lang in langs:
            text = translations.get(lang)
            if not text:
                errors.append(f"{where}<{tag}> '{source[:50]}' has no '{lang}' translation")
            elif text == source:
                errors.append(f"{where}<{tag}> '{source[:50]}' '{lang}' translation equals the English text")
    return count


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    metainfo, linguas, app_id, version, source_root = sys.argv[1:]
    langs = read_linguas(linguas)
    errors = []
    root = ET.parse(metainfo).getroot()

    if root.tag != "component" or root.get("type") != "desktop-application":
        errors.append("root is not <component type=\"desktop-application\">")
    if root.findtext("id") != app_id:
        errors.append(f"<id> is {root.findtext('id')!r}, expected {app_id!r}")
    launchable = root.find("launchable[@type='desktop-id']")
    if launchable is None or launchable.text != app_id + ".desktop":
        errors.append(f"<launchable type=\"desktop-id\"> is not {app_id}.desktop")

    releases = root.findall("releases/release")
    if not releases:
        errors.append("no <releases><release>")
    elif releases[0].get("version") != version:
        errors.append(f"the newest <release> is {releases[0].get('version')!r}, "
                      f"but the project's version is {version!r}: add a release entry")

    count = 0
    count += check_translated(root, "name", langs, "", errors)
    count += check_translated(root, "summary", langs, "", errors)
    count += check_translated(root, "developer_name", langs, "", errors)
    description = root.find("description")
    if description is None:
        errors.append("no <description>")
    else:
        count += check_translated(description, "p", langs, "<description>", errors)
        for ul in description.findall("ul") + description.findall("ol"):
            count += check_translated(ul, "li", langs, "<description>", errors)
    screenshots = root.findall("screenshots/screenshot")
    if not screenshots:
        errors.append("no <screenshots><screenshot>")
    for screenshot in screenshots:
        count += check_translated(screenshot, "caption", langs, "<screenshot>", errors)
        # The image is served from the repository: the file must be in it,
        # under the path after the branch name in the URL.
        url = (screenshot.findtext("image") or "").strip()
        marker = "/main/"
        if marker not in url:
            errors.append(f"screenshot URL {url!r} does not point into the repository's main branch")
            continue
        image = os.path.join(source_root, url.split(marker, 1)[1])
        if not os.path.isfile(image):
            errors.append(f"the screenshot {url} is not in the source tree ({image})")
        else:
            with open(image, "rb") as f:
                if f.read(8) != b"\x89PNG\r\n\x1a\n":
                    errors.append(f"{image} is not a PNG")

    for e in errors:
        print("FAIL: " + e)
    if errors:
        return 1
    print(f"OK: {app_id}, release {version}, {count} texts translated into {', '.join(langs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
