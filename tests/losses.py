#!/usr/bin/env python3
"""Where a match's lost games fell (tests/MEASUREMENTS.md, "where the losses fell").

    tests/losses.py NAME SGF...
    tests/losses.py --phases NAME SGF...

For every record (the match tool's `--sgf-dir`) that the player whose `PB`/`PW` starts with
NAME lost, KataGo's network (`kata-raw-nn 0`, Chinese rules, the record's komi) judges every
position; the moves of NAME's side that lost the most of its lead (TOP, default 2) are then
searched by KataGo at VISITS (default 400, `kata-search_analyze`), and one line a move says
what was played and KataGo's first moves with their visits, the mover's win chance and score.
The game's curve of Black's chance (every fourth position) shows where it turned.

With --phases, every record (won or lost) is judged position by position the same way, and the
points of lead each side's moves gave away are summed by stage of the game (four stages of
STAGE moves, default 50, then the rest: moves 1–50, …, 201 on; STAGE=10 suits 9×9 games):
NAME's moves against its opponent's, both judged by the same network, so that its own
misjudgements weigh on both sides alike. With OPEN=1 only the moves made while the game was
open count (the mover's chance before the move between 0.1 and 0.9): a decided game's slack
moves change no result.

KATAGO_BIN, KATAGO_MODEL, KATAGO_CFG from the referee kit's env.sh
(../shared/referee/katago-setup.sh).
"""

import os
import re
import sys

from score_leads import Gtp, sgf_main_line, vertex


def katago(visits):
    kata = Gtp(f"{os.environ['KATAGO_BIN']} gtp -model {os.environ['KATAGO_MODEL']} "
               f"-config {os.environ['KATAGO_CFG']} -override-config maxVisits={visits}")
    kata.ask("kata-set-rules chinese")
    return kata


def judged(kata):
    """Black's win chance and lead by the network alone."""
    text = " ".join(kata.ask("kata-raw-nn 0"))
    win = 1 - float(re.search(r"whiteWin (\S+)", text)[1])
    return win, -float(re.search(r"whiteLead (\S+)", text)[1])


def searched(kata, color):
    """KataGo's first four moves: (move, visits, the mover's win chance, its score)."""
    kata.send(f"kata-search_analyze {color}")
    lines = []
    while True:
        line = kata.proc.stdout.readline()
        if line == "":
            raise RuntimeError("KataGo closed")
        if line.strip() == "" and lines:
            break
        if line.strip():
            lines.append(line.strip())
    text = " ".join(lines)
    found = re.findall(r"move (\S+) visits (\d+) edgeVisits \d+ utility \S+ winrate (\S+) "
                       r"scoreMean (\S+)", text)
    return [(m, int(v), float(w), float(s)) for m, v, w, s in found[:4]]


def prop(text, key, default):
    """A record's root property (the first `KEY[...]` in it), or `default`."""
    found = re.search(key + r"\[([^\]]*)\]", text)
    return found[1] if found else default


def judged_line(kata, size, komi, moves):
    """The network's judgement of every position of a main line, the empty board's first."""
    kata.ask(f"boardsize {size}")
    kata.ask("clear_board")
    kata.ask(f"komi {komi}")
    values = [judged(kata)]
    for colour, point in moves:
        kata.ask(f"play {colour} {vertex(size, point)}")
        values.append(judged(kata))
    return values


def study(name, *records):
    top = int(os.environ.get("TOP", "2"))
    kata = katago(int(os.environ.get("VISITS", "400")))
    for path in records:
        text = open(path, errors="replace").read()
        black = prop(text, "PB", "")
        result = prop(text, "RE", "")
        komi = prop(text, "KM", "7.5")
        side = "B" if black.startswith(name) else "W"
        if result[:1] not in ("B", "W") or result.startswith(side):
            continue
        size, moves, _ = sgf_main_line(path)
        values = judged_line(kata, size, komi, moves)
        # The points of lead each of the side's moves gave away, by the network.
        sign = 1 if side == "B" else -1
        lost = sorted(((sign * (values[i][1] - values[i + 1][1]), i + 1)
                       for i, (colour, _) in enumerate(moves) if colour == side), reverse=True)
        curve = " ".join(f"{v[0]:.2f}" for v in values[::4])
        print(f"{path}: {name} {side}, lost {result}, {len(moves)} moves; Black's chance: {curve}")
        for points, n in lost[:top]:
            kata.ask(f"loadsgf {path} {n}")
            best = searched(kata, side)
            listed = ", ".join(f"{m} {v} visits {w:.2f} {s:+.1f}" for m, v, w, s in best)
            print(f"  move {n}: {vertex(size, moves[n - 1][1])}, {points:.1f} points lost; "
                  f"KataGo: {listed}", flush=True)
    kata.close()


def stages():
    """(first, last) move numbers of the stages: four of STAGE moves, then the rest."""
    length = int(os.environ.get("STAGE", "50"))
    return [(1 + k * length, (k + 1) * length) for k in range(4)] + [(1 + 4 * length, None)]


def phases(name, *records):
    kata = katago(1)
    parts = stages()
    open_only = os.environ.get("OPEN") == "1"
    # (NAME's side?, stage) -> [moves, points given away]
    sums = {(mine, first): [0, 0.0] for mine in (True, False) for first, _ in parts}
    for path in records:
        text = open(path, errors="replace").read()
        black = prop(text, "PB", "")
        komi = prop(text, "KM", "7.5")
        size, moves, _ = sgf_main_line(path)
        values = judged_line(kata, size, komi, moves)
        for n, (colour, _) in enumerate(moves, 1):
            (chance, before), (_, after) = values[n - 1], values[n]
            if open_only and not 0.1 <= (chance if colour == "B" else 1 - chance) <= 0.9:
                continue
            lost = (before - after) if colour == "B" else (after - before)
            mine = black.startswith(name) == (colour == "B")
            first = max(f for f, _ in parts if f <= n)
            sums[(mine, first)][0] += 1
            sums[(mine, first)][1] += lost
        print(f"{path}: {len(moves)} moves judged", file=sys.stderr, flush=True)
    kata.close()
    print(f"{len(records)} records; points given away a move (moves judged, their sum)")
    for first, last in parts:
        cells = []
        for mine in (True, False):
            count, lost = sums[(mine, first)]
            if count:
                cells.append(f"{name if mine else 'opponent'} {lost / count:.2f} ({count}, {lost:.0f})")
        if cells:
            print(f"moves {first}-{last or ''}: " + "; ".join(cells))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--phases":
        phases(sys.argv[2], *sys.argv[3:])
    elif len(sys.argv) >= 3 and not sys.argv[1].startswith("-"):
        study(sys.argv[1], *sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
