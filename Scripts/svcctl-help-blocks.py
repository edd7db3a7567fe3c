#!/usr/bin/env python3
"""Rewrites the verbatim `--help` blocks of Docs/SVCCTL.md from an svcctl binary, or checks them.

    swift build --product svcctl
    python3 Scripts/svcctl-help-blocks.py                          # .build/debug/svcctl
    python3 Scripts/svcctl-help-blocks.py .build/release/svcctl
    python3 Scripts/svcctl-help-blocks.py --check                  # exit 1 if a block differs

Under every heading that contains "`svcctl COMMAND --help`" (or "`svcctl --help`" for the root
command) the first fenced block before the next heading is replaced by what
`svcctl COMMAND --help` prints, trailing newlines removed (a heading without a block gets one).
Nothing else in the document changes: the option tables are written by hand.

svcctl is run with COLUMNS=80, the width swift-argument-parser also uses when stdout is a pipe
and COLUMNS is unset; Tests/IntegrationTests/SvcctlReferenceTests.swift runs it the same way and
compares its output with these blocks. Every subcommand that `svcctl --help` lists must have such
a heading; a missing one is reported (exit 1), not invented.

Exit status: 0 written (or, with --check, equal); 1 a block differs (--check) or is missing;
2 svcctl or the document could not be used.
"""

import argparse
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADING = re.compile(r"^(#+)\s")
HELP_HEADING = re.compile(r"`svcctl(?: ([a-z][a-z0-9-]*))? --help`")
FENCE = "```"


class Fail(Exception):
    pass


def run_help(svcctl, command):
    """`svcctl [COMMAND] --help` at 80 columns, without its trailing newlines."""
    environment = dict(os.environ, COLUMNS="80")
    arguments = [svcctl] + ([command] if command else []) + ["--help"]
    try:
        done = subprocess.run(arguments, capture_output=True, text=True, env=environment, timeout=60)
    except OSError as error:
        raise Fail(f"cannot run {svcctl}: {error}")
    if done.returncode != 0:
        raise Fail(f"{' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout.rstrip("\n")


def subcommands(root_help):
    """The names the SUBCOMMANDS section of `svcctl --help` lists, in order."""
    names, inside = [], False
    for line in root_help.split("\n"):
        if line == "SUBCOMMANDS:":
            inside = True
        elif inside:
            if not line.strip():
                break
            if line.startswith("  ") and not line.startswith("   "):
                names.append(line.split()[0])
    return names


def help_blocks(lines):
    """(command, heading index, block) for each help heading outside code blocks, where command is
    "" for the root and block is (opening fence index, closing fence index) or None."""
    headings, fences, inside = [], [], None
    for index, line in enumerate(lines):
        if line.startswith(FENCE):
            if inside is None:
                inside = index
            else:
                fences.append((inside, index))
                inside = None
        elif inside is None and HEADING.match(line):
            headings.append(index)
    if inside is not None:
        raise Fail(f"the code block opened on line {inside + 1} is never closed")
    found = []
    for position, heading in enumerate(headings):
        match = HELP_HEADING.search(lines[heading])
        if not match:
            continue
        end = headings[position + 1] if position + 1 < len(headings) else len(lines)
        block = next((fence for fence in fences if heading < fence[0] < end), None)
        found.append((match.group(1) or "", heading, block))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("svcctl", nargs="?", default=os.path.join(REPO, ".build", "debug", "svcctl"),
                        help="the svcctl binary (default: .build/debug/svcctl)")
    parser.add_argument("--doc", default=os.path.join(REPO, "Docs", "SVCCTL.md"), help="the document (default: Docs/SVCCTL.md)")
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting; exit 1 on a difference")
    args = parser.parse_args()

    if not os.access(args.svcctl, os.X_OK):
        raise Fail(f"{args.svcctl} is not an executable; build it: swift build --product svcctl")
    try:
        with open(args.doc, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise Fail(f"cannot read {args.doc}: {error}")
    lines = text.split("\n")

    blocks = help_blocks(lines)
    documented = {command for command, _, _ in blocks}
    missing = [name for name in subcommands(run_help(args.svcctl, "")) if name not in documented]

    differing = []
    # From the end, so that the indices of the blocks still to rewrite stay valid.
    for command, heading, block in reversed(blocks):
        fresh = ["```text"] + run_help(args.svcctl, command).split("\n") + [FENCE]
        label = f"svcctl {command} --help" if command else "svcctl --help"
        if block is None:
            differing.append(f"{label}: no block")
            lines[heading + 1:heading + 1] = [""] + fresh
        else:
            opening, closing = block
            if lines[opening + 1:closing] != fresh[1:-1]:
                differing.append(f"{label}: differs")
            lines[opening:closing + 1] = fresh

    for message in reversed(differing):
        print(message if args.check else f"{message}: rewritten", file=sys.stderr)
    for name in missing:
        print(f"svcctl {name}: no heading with `svcctl {name} --help` in {os.path.relpath(args.doc)}", file=sys.stderr)
    if args.check:
        return 1 if differing or missing else 0
    updated = "\n".join(lines)
    if updated != text:
        with open(args.doc, "w", encoding="utf-8") as file:
            file.write(updated)
    return 1 if missing else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Fail as error:
        print(f"svcctl-help-blocks: {error}", file=sys.stderr)
        sys.exit(2)
