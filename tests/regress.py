#!/usr/bin/env python3
"""GNU Go's regression suites replayed as plain `genmove` cases (tests/MEASUREMENTS.md,
"GNU Go's regression suites").

    tests/regress.py REGRESSION_DIR "ENGINE COMMAND" SUITE...     e.g.
    tests/regress.py gnugo-3.8/regression "target/release/tengen --threads 1 --time 2.4" 9x9 blunder

REGRESSION_DIR is the `regression` folder of a GNU Go source tree (Debian's `apt-get source
gnugo`, or the public git repository; the suites and their game records are GNU Go's, read
from there, not copied). A SUITE is a `.tst` file's name without the extension.

Each case of a suite that asks for a move (`reg_genmove`, `gg_genmove` or `genmove` with a
`#? [...]` answer) is set up afresh on the engine through plain GTP: `boardsize`,
`clear_board`, `komi`, the record's setup stones and moves up to the case's move number as
`play` (so an engine needs no `loadsgf`), the suite's own `play`/`komi`/`undo` lines since
the record was loaded, then `genmove COLOUR`. Its answer is judged by the case's pattern as GNU
Go's regression scripts judge it: a regular expression over the move (`[D4|E5]`), negated by
`!`; a trailing `*` marks a case GNU Go's authors expected GNU Go to fail, counted apart.
Cases of other commands (reading, owl, connection tests) are skipped: they are GNU Go's own
engine internals. One line per case goes to stderr, then the share solved per suite and in
all to stdout, with the mean wall time of a `genmove`. The engine's stderr is discarded.
"""

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score_leads import Gtp  # noqa: E402  (the GTP child process both scripts drive)

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
GENMOVE = re.compile(r"^(?:\d+\s+)?(reg_genmove|gg_genmove|genmove)\s+(\w+)\s*$", re.I)
NUMBERED = re.compile(r"^\d+\s+\S+")
EXPECTED = re.compile(r"^#\?\s*\[(.*)\](\*?)\s*$")


def sgf_nodes(text):
    """The main line's nodes of an SGF record (the first variation at every branch), each a
    dict of property lists."""

    def properties(i):
        """The properties of the node whose ';' is at i - 1, and the index after them."""
        node = {}
        while i < len(text):
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text) or not text[i].isalpha():
                return node, i
            j = i
            while j < len(text) and text[j].isalpha():
                j += 1
            name = re.sub(r"[a-z]", "", text[i:j])
            i = j
            while True:
                while i < len(text) and text[i].isspace():
                    i += 1
                if i >= len(text) or text[i] != "[":
                    break
                i += 1
                value = []
                while i < len(text) and text[i] != "]":
                    if text[i] == "\\":
                        i += 1
                    value.append(text[i])
                    i += 1
                node.setdefault(name, []).append("".join(value))
                i += 1
        return node, i

    def tree(i, main):
        """Reads the tree whose '(' is at i; appends its main line's nodes to `main` when
        `main` is a list. Returns the index after its ')'."""
        i += 1
        first_child = True
        while i < len(text):
            c = text[i]
            if c == ";":
                node, i = properties(i + 1)
                if main is not None:
                    main.append(node)
            elif c == "(":
                i = tree(i, main if first_child else None)
                first_child = False
            elif c == ")":
                return i + 1
            else:
                i += 1
        return i

    start = text.find("(")
    nodes = []
    if start >= 0:
        tree(start, nodes)
    return nodes


def vertex(size, sgf_point):
    if sgf_point == "" or (sgf_point == "tt" and size <= 19):
        return "pass"
    col, row = ord(sgf_point[0]) - 97, ord(sgf_point[1]) - 97
    return f"{COLUMNS[col]}{size - row}"


def record_commands(path, until):
    """GTP commands that set up `path`'s main line before move number `until` (an int), or
    before the first move at vertex `until` (a str), or to its end (None)."""
    nodes = sgf_nodes(Path(path).read_text(errors="replace"))
    root = nodes[0] if nodes else {}
    size = int(root.get("SZ", ["19"])[0].split(":")[0])
    komi = root.get("KM", ["0"])[0] or "0"
    commands = [f"boardsize {size}", "clear_board", f"komi {float(komi)}"]
    number = 1
    for node in nodes:
        for colour, key in (("b", "AB"), ("w", "AW")):
            for point in node.get(key, []):
                commands.append(f"play {colour} {vertex(size, point)}")
        for colour, key in (("b", "B"), ("w", "W")):
            if key in node:
                move = vertex(size, node[key][0])
                if isinstance(until, int) and number >= until:
                    return commands
                if isinstance(until, str) and move.upper() == until.upper():
                    return commands
                commands.append(f"play {colour} {move}")
                number += 1
    return commands


def cases(suite_path):
    """(case number, setup commands, colour, pattern, negated, expected failure) per case."""
    found = []
    loaded = None
    extra = []
    lines = suite_path.read_text(errors="replace").splitlines()
    for k, line in enumerate(lines):
        line = line.strip()
        words = line.split()
        if not words:
            continue
        if words[0] == "loadsgf":
            until = None
            if len(words) > 2:
                until = int(words[2]) if words[2].isdigit() else words[2]
            loaded = (suite_path.parent / words[1], until)
            extra = []
            continue
        if words[0] in ("play", "komi", "undo"):
            extra.append(line)
            continue
        m = GENMOVE.match(line)
        if m and loaded and k + 1 < len(lines):
            e = EXPECTED.match(lines[k + 1].strip())
            if e:
                pattern, failure = e[1], e[2] == "*"
                negated = pattern.startswith("!")
                found.append((f"{suite_path.stem}:{words[0]}", loaded, list(extra),
                              m[2].lower(), pattern.lstrip("!"), negated, failure))
    return found


def solved(answer, pattern, negated):
    hit = re.fullmatch(pattern, answer, re.I) is not None
    return hit != negated


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    regression, command, suites = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    engine = Gtp(command)
    total = [0, 0, 0, 0]  # cases, solved, expected failures, of those solved
    seconds = 0.0
    for suite in suites:
        counts = [0, 0, 0, 0]
        for name, (record, until), extra, colour, pattern, negated, failure in cases(
                regression / f"{suite}.tst"):
            for c in record_commands(record, until) + extra:
                try:
                    engine.ask(c)
                except RuntimeError:
                    pass  # a refused setup line (a record's odd move) leaves the case as it is
            start = time.monotonic()
            try:
                answer, ok = engine.ask(f"genmove {colour}")[0], True
            except RuntimeError as refusal:
                if engine.proc.poll() is not None:
                    sys.exit(f"the engine exited at {name}")
                answer, ok = str(refusal), False
            seconds += time.monotonic() - start
            good = ok and solved(answer, pattern, negated)
            counts[0] += 1
            counts[1] += good
            counts[2] += failure
            counts[3] += good and failure
            print(f"{name} {colour} {answer} [{'!' if negated else ''}{pattern}]"
                  f"{'*' if failure else ''} {'solved' if good else 'failed'}",
                  file=sys.stderr, flush=True)
        print(f"{suite}: {counts[1]} of {counts[0]} solved ({counts[3]} of the "
              f"{counts[2]} marked as GNU Go's expected failures)", flush=True)
        total = [t + c for t, c in zip(total, counts)]
    engine.close()
    print(f"all: {total[1]} of {total[0]} solved ({100 * total[1] / max(total[0], 1):.1f}%; "
          f"{total[3]} of the {total[2]} marked as GNU Go's expected failures); "
          f"{seconds / max(total[0], 1):.2f} s a genmove")


if __name__ == "__main__":
    main()
