#!/usr/bin/env python3
"""Checks the relative links of README.md and Docs/**/*.md: every linked file exists, and every
`#anchor` names a heading of its target file as GitHub spells the heading's anchor.

    python3 Scripts/check-doc-links.py [FILE.md ...]

Without arguments it checks README.md and every Markdown file under Docs/. Prints one line per
broken link (file:line: the link and why) and exits 1 if there is any, 0 otherwise. Links to
other schemes (http:, https:, mailto:, file:) are not followed.
"""
import os
import re
import sys
import unicodedata

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) and ![alt](target); the target ends at the first unescaped ")" or a space
# before a title. Inline code spans are blanked first, so `a](b)` inside code is not a link.
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def slug(heading):
    """GitHub's anchor for a heading (github-slugger): the rendered text, lower-cased, with
    punctuation and symbols removed (letters, digits, marks, '-' and '_' stay) and each space
    turned into '-'."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", heading)       # images: their alt text
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)           # links: their text
    text = re.sub(r"<[^>]+>", "", text)                             # inline HTML tags
    text = text.replace("`", "")
    out = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char in "-_ " or category[0] in "LNM":
            out.append("-" if char == " " else char)
    return "".join(out)


def anchors(path, cache={}):
    """The anchors a Markdown file defines: its headings' (numbered -1, -2, … when repeated, as
    GitHub does) and explicit <a name/id> ones."""
    if path in cache:
        return cache[path]
    found, counts = set(), {}
    for _, line in prose_lines(path):
        found.update(HTML_ANCHOR.findall(line))
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = counts.get(base, 0)
            counts[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    cache[path] = found
    return found


def prose_lines(path):
    """(line number, line) of every line outside fenced code blocks."""
    fence = None
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            marker = FENCE.match(line)
            if marker:
                if fence is None:
                    fence = marker.group(1)[0]
                elif marker.group(1)[0] == fence:
                    fence = None
                continue
            if fence is None:
                yield number, line


def links(path):
    """(line number, target) of every link outside fenced code blocks and code spans."""
    for number, line in prose_lines(path):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            yield number, target


def check(path):
    problems = []
    for number, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue
        file_part, _, anchor = target.partition("#")
        target_path = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        where = f"{os.path.relpath(path, REPO)}:{number}: ({target})"
        if not os.path.realpath(target_path).startswith(REPO + os.sep) and os.path.realpath(target_path) != REPO:
            problems.append(f"{where} points outside the repository")
            continue
        if not os.path.exists(target_path):
            problems.append(f"{where} no such file: {os.path.relpath(target_path, REPO)}")
            continue
        if anchor:
            if not target_path.endswith(".md"):
                continue
            if anchor not in anchors(target_path):
                problems.append(f"{where} no heading with the anchor #{anchor} in {os.path.relpath(target_path, REPO)}")
    return problems


def main(arguments):
    files = arguments or [os.path.join(REPO, "README.md")] + sorted(
        os.path.join(root, name)
        for root, _, names in os.walk(os.path.join(REPO, "Docs"))
        for name in names if name.endswith(".md"))
    problems = [problem for path in files for problem in check(os.path.abspath(path))]
    for problem in problems:
        print(problem)
    print(f"{len(files)} files, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
