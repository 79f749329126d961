#!/usr/bin/env python3
"""Checks the links of the project's Markdown documents.

Every link `[text](target)` outside code is checked: a relative target must name a file or
folder of the repository, and a `#fragment` must name a heading of the target document
(GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, `-1`, `-2` for
repeats) or an explicit `<a name=...>`/`id=...`. Web links (`http://`, `https://`,
`mailto:`) are counted, not fetched. Links inside fenced code, inline code and HTML
comments are not links.

    python3 tools/docs/check_links.py [FILE.md ...]    # default: README.md and docs/*.md
    python3 tools/docs/check_links.py --all            # every .md file git tracks

Exit status 1 if any link is broken, each one printed as FILE:LINE: TARGET (why).
"""

import os
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"|\sid=\"([^\"]+)\"")


def strip_comments(text):
    """Blanks out HTML comments, keeping the line count."""
    return re.sub(r"<!--.*?-->", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def lines_outside_code(text):
    """Yields (line number, line) for the lines outside fenced code, inline code blanked."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        yield number, re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts as its text
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "").lower()
    kept = []
    for ch in text:
        if ch in " -_" or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            kept.append("-" if ch == " " else ch)
    return "".join(kept)


_anchors = {}


def anchors(path):
    """The anchors a Markdown document offers."""
    if path not in _anchors:
        found = set()
        seen = {}
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
        fenced = False
        for line in text.split("\n"):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else "%s-%d" % (base, n))
            for a, b in EXPLICIT.findall(line):
                found.add(a or b)
        _anchors[path] = found
    return _anchors[path]


def check(md):
    """The broken links of one document, as (line, target, why)."""
    broken = []
    web = 0
    with open(md, encoding="utf-8") as f:
        text = strip_comments(f.read())
    for number, line in lines_outside_code(text):
        for m in LINK.finditer(line):
            target = m.group(3)
            if not target:
                broken.append((number, target, "empty target"))
                continue
            if re.match(r"^(https?:|mailto:)", target):
                web += 1
                continue
            path, _, fragment = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if not os.path.exists(dest):
                broken.append((number, target, "no such file"))
                continue
            if fragment:
                if not dest.endswith(".md"):
                    broken.append((number, target, "a fragment on a file that is not Markdown"))
                elif fragment not in anchors(dest):
                    broken.append((number, target, "no such heading in " + os.path.relpath(dest, ROOT)))
    return broken, web


def main(argv):
    if argv == ["--all"]:
        out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True)
        files = [os.path.join(ROOT, f) for f in out.stdout.split()]
    elif argv:
        if any(a.startswith("-") for a in argv):
            print(__doc__.strip(), file=sys.stderr)
            return 2
        files = [os.path.abspath(a) for a in argv]
    else:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    total_broken = 0
    total_web = 0
    for md in files:
        broken, web = check(md)
        total_web += web
        for number, target, why in broken:
            print("%s:%d: %s (%s)" % (os.path.relpath(md, ROOT), number, target, why))
        total_broken += len(broken)
    print("%d files, %d broken links, %d web links not fetched" % (len(files), total_broken, total_web),
          file=sys.stderr)
    return 1 if total_broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
