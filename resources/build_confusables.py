"""Regenerates `resources/unicode/confusables.json`, the look-alike letters Doppel folds back.

The data is Unicode's: the confusables of Unicode Technical Standard #39
(https://www.unicode.org/reports/tr39/, `confusables.txt`) and the script of every character
(`Scripts.txt`), as the package `confusable-homoglyphs` (MIT) ships them in JSON
(`confusables.json`, `categories.json`). This script keeps the small part Doppel needs and
writes it in a form it reads quickly:

- `classes`: every set of letters TR39 calls confusable with each other (one "skeleton": `a`,
  Cyrillic `а`, Greek `α`, ...), restricted to single letters (Unicode category L) of the
  scripts students use to imitate alphabets (`SOURCE_SCRIPTS`), and only where the set holds
  letters of two scripts at least, one of them an alphabet Doppel folds into (`HOST_SCRIPTS`).
  Each class is one string, its letters in code point order.
- `scripts`: for each of those scripts, the code point ranges Scripts.txt assigns to it, so
  a word's letters can be told apart by script.

core/documents/disguise.py reads it; which letters it folds, and when, is decided there (the
rules are in docs/formats.md, "Normalisation"). Run it after upgrading the package (a
development dependency, in the `test` extra; not needed at run time):

    .venv/bin/python resources/build_confusables.py

Output is deterministic (sorted, LF, UTF-8): running it twice gives the same bytes, and
tests/core/test_disguise.py checks that the shipped file equals what this script derives.
"""

from __future__ import annotations

import json
from importlib import metadata, resources
from pathlib import Path

OUT = Path(__file__).resolve().parent / "unicode" / "confusables.json"
PACKAGE = "confusable-homoglyphs"
PINNED = "3.3.1"

#: the alphabets a disguised letter is folded back into
HOST_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN")
#: scripts whose letters stand in for those alphabets' letters: alphabets written with spaces
#: between words, where a foreign letter inside a word is out of place. Left out: the scripts
#: written without spaces or in which other scripts' words are embedded (Han, Hangul, kana,
#: the Indic and South-East Asian scripts) and right-to-left ones (their letters would reorder
#: a left-to-right word on screen, so they cannot pass for its letters).
SOURCE_SCRIPTS = (
    *HOST_SCRIPTS,
    "AHOM",
    "BAMUM",
    "CANADIAN_ABORIGINAL",
    "CARIAN",
    "CHEROKEE",
    "COPTIC",
    "DESERET",
    "ELBASAN",
    "ETHIOPIC",
    "GEORGIAN",
    "LISU",
    "LYCIAN",
    "MIAO",
    "OLD_ITALIC",
    "OSAGE",
    "RUNIC",
    "TIFINAGH",
    "WARANG_CITI",
)


def _package_json(name: str) -> object:
    text = resources.files("confusable_homoglyphs").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def script_name(alias: str) -> str:
    """Scripts.txt's alias as Doppel spells a script: "CANADIAN_ABORIGINAL" -> "Canadian
    Aboriginal"."""
    return alias.replace("_", " ").title()


def derive() -> dict[str, object]:
    """The table, from the installed package's data."""
    categories = _package_json("categories.json")
    confusables = _package_json("confusables.json")
    assert isinstance(categories, dict) and isinstance(confusables, dict)
    aliases: list[str] = categories["iso_15924_aliases"]
    general: list[str] = categories["categories"]
    ranges: list[list[int]] = categories["code_points_ranges"]  # first, last, alias, category

    def lookup(code: int) -> tuple[str, str]:
        low, high = 0, len(ranges) - 1
        while low <= high:
            middle = (low + high) // 2
            first, last, alias, category = ranges[middle]
            if code < first:
                high = middle - 1
            elif code > last:
                low = middle + 1
            else:
                return aliases[alias], general[category]
        return "UNKNOWN", "Cn"

    # TR39 maps each confusable character to a prototype; the package stores every mapping in
    # both directions, so the classes are the connected parts of that graph
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def clean(entry: str) -> str:  # the package wraps right-to-left characters in LRM marks
        return entry.replace("\u200e", "")

    for key, entries in confusables.items():
        for entry in entries:
            a, b = root(clean(key)), root(clean(entry["c"]))
            if a != b:
                parent[max(a, b)] = min(a, b)
    members: dict[str, list[str]] = {}
    for character in list(parent):
        members.setdefault(root(character), []).append(character)

    def kept(character: str) -> str | None:
        if len(character) != 1:
            return None
        alias, category = lookup(ord(character))
        return alias if category.startswith("L") and alias in SOURCE_SCRIPTS else None

    classes: list[str] = []
    used: set[str] = set()
    for group in members.values():
        letters = sorted(c for c in group if kept(c))
        scripts = {kept(c) for c in letters}
        if len(scripts) >= 2 and scripts & set(HOST_SCRIPTS):
            classes.append("".join(letters))
            used |= {str(s) for s in scripts}
    classes.sort()

    script_ranges: dict[str, list[list[int]]] = {}
    for first, last, alias, _ in ranges:
        name = aliases[alias]
        if name not in used:
            continue
        spans = script_ranges.setdefault(script_name(name), [])
        if spans and spans[-1][1] + 1 == first:
            spans[-1][1] = last
        else:
            spans.append([first, last])
    return {
        "about": (
            "Look-alike letters (Unicode TR39 confusables) and their scripts (Unicode "
            "Scripts.txt), from the package confusable-homoglyphs (MIT); written by "
            "resources/build_confusables.py, read by core/documents/disguise.py"
        ),
        "package": f"{PACKAGE} {metadata.version(PACKAGE)}",
        "classes": classes,
        "scripts": dict(sorted(script_ranges.items())),
    }


def render(table: dict[str, object]) -> str:
    """The file's text: one class or script per line, so a diff shows what changed."""
    lines = ["{"]
    lines.append(f'  "about": {json.dumps(table["about"])},')
    lines.append(f'  "package": {json.dumps(table["package"])},')
    lines.append('  "classes": [')
    classes = table["classes"]
    assert isinstance(classes, list)
    lines += [f"    {json.dumps(c, ensure_ascii=False)}," for c in classes]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("  ],")
    lines.append('  "scripts": {')
    scripts = table["scripts"]
    assert isinstance(scripts, dict)
    lines += [f"    {json.dumps(name)}: {json.dumps(spans)}," for name, spans in scripts.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    version = metadata.version(PACKAGE)
    if version != PINNED:
        raise SystemExit(f"{PACKAGE} {version} is installed; this script expects {PINNED}")
    OUT.parent.mkdir(exist_ok=True)
    text = render(derive())
    json.loads(text)  # it is valid JSON
    OUT.write_text(text, encoding="utf-8", newline="\n")
    print(f"written {OUT} ({len(text.encode('utf-8')):,} bytes)")


if __name__ == "__main__":
    main()
