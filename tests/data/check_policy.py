#!/usr/bin/python3
"""Checks the polkit actions: the built org.diskbench.policy has exactly the
five actions of polkit-policy/README.md with the agreed defaults, every description and
message is translated into every language of po/LINGUAS, and every
translatable string of the source .policy.in carries a TRANSLATORS comment.

Usage: check_policy.py BUILT_POLICY SOURCE_POLICY_IN LINGUAS
"""
import sys
import xml.etree.ElementTree as ET

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
EXPECTED = {
    "org.diskbench.read-device": ("no", "no", "yes"),
    "org.diskbench.write-device": ("auth_admin", "auth_admin", "auth_admin"),
    "org.diskbench.write-device-destroy": ("auth_admin", "auth_admin", "auth_admin"),
    "org.diskbench.benchmark-filesystem": ("no", "no", "yes"),
    "org.diskbench.manage-jobs": ("auth_admin_keep", "auth_admin_keep", "auth_admin_keep"),
}


def read_linguas(path):
    langs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                langs += line.split()
    return langs


def check_built(path, langs, errors):
    root = ET.parse(path).getroot()
    if root.tag != "policyconfig":
        errors.append(f"root element is <{root.tag}>, not <policyconfig>")
    if root.findtext("vendor") != "diskbench":
        errors.append("<vendor> is not 'diskbench'")
    actions = {a.get("id"): a for a in root.findall("action")}
    if set(actions) != set(EXPECTED):
        errors.append(f"actions are {sorted(actions)}, expected {sorted(EXPECTED)}")
    for action_id, want in EXPECTED.items():
        action = actions.get(action_id)
        if action is None:
            continue
        got = tuple((action.findtext(f"defaults/{k}") or "").strip()
                    for k in ("allow_any", "allow_inactive", "allow_active"))
        if got != want:
            errors.append(f"{action_id}: defaults (any, inactive, active) are {got}, expected {want}")
        for tag in ("description", "message"):
            elements = action.findall(tag)
            untranslated = [e for e in elements if e.get(XML_LANG) is None]
            if len(untranslated) != 1 or not (untranslated[0].text or "").strip():
                errors.append(f"{action_id}: needs exactly one non-empty untranslated <{tag}>")
                continue
            source = untranslated[0].text.strip()
            translated = {e.get(XML_LANG): (e.text or "").strip() for e in elements if e.get(XML_LANG)}
            for lang in langs:
                text = translated.get(lang)
                if not text:
                    errors.append(f"{action_id}: <{tag}> '{source}' has no '{lang}' translation")
                elif text == source:
                    errors.append(f"{action_id}: <{tag}> '{lang}' translation equals the English text")
        print(f"{action_id}: defaults {got}, "
              f"{len(action.findall('description')) - 1} + {len(action.findall('message')) - 1} translations")


def check_source(path, errors):
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    root = ET.parse(path, parser).getroot()
    for action in root.findall("action"):
        previous = None
        for child in action:
            if child.tag in ("description", "message"):
                comment = previous.text if previous is not None and previous.tag is ET.Comment else ""
                if "TRANSLATORS:" not in comment:
                    errors.append(f"{path}: {action.get('id')}: <{child.tag}> has no "
                                  "<!-- TRANSLATORS: ... --> comment right before it")
            previous = child


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    built, source, linguas = sys.argv[1:]
    langs = read_linguas(linguas)
    errors = []
    check_built(built, langs, errors)
    check_source(source, errors)
    for e in errors:
        print("FAIL: " + e)
    if errors:
        return 1
    print(f"OK: {len(EXPECTED)} actions, translated into {', '.join(langs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
