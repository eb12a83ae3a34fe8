#!/usr/bin/env python3
"""Score leads against a strong reference (tests/MEASUREMENTS.md, "Score leads").

    tests/score_leads.py positions OUT                 build the position sets into OUT/
    tests/score_leads.py measure OUT/positions.txt     ask tengen and KataGo, print the figures
    tests/score_leads.py prejudge N                    pre-judgement predictions on N openings
    tests/score_leads.py peer OUT/leads.tsv "ENGINE" COMMAND
                                                       a peer's estimate on measure's positions

`positions` plays its own games: tengen (3,000 playouts a move, one thread) against GNU Go
level 5 on 9x9 (komi 7) and 13x13 (komi 7.5), Chinese rules, records in OUT/g9 and OUT/g13;
and takes the professional games of Debian's `goban-original-games` (19x19, no handicap,
at least 150 moves), komi 7.5. It writes OUT/positions.txt, one line a position:
`SIZE KOMI RECORD MOVES` (the position after that many moves of the record's main line),
at four move numbers from the opening to the late middle game, two with Black to move and two
with White (an estimate that favours the side to move shows as a bias only when one side
moves in every position).

`measure` replays each position into both engines with `play` (Chinese rules, the line's
komi), asks tengen for `kata-analyze` with ownership at a fixed visit count (TENGEN_VISITS,
default by size) and KataGo for `kata-raw-nn 0` (its network alone: the whiteLead the
issue's reference is), and prints per board size the mean and median |difference| of
Black's lead, the bias (tengen − KataGo) and how often both put the same side ahead, for
each of tengen's estimates:

    root      rootInfo's scoreLead: the most visited move's median margin (the komi that
              makes the game even, as KataGo defines its lead); the measurement log's
              "root median" was the median over all playouts, rootInfo's lead until then
    best      the most visited move's scoreLead: the median margin through it
    rootmean  rootInfo's scoreMean: the mean margin over the root's playouts
    bestmean  the most visited move's scoreMean
    owned     the ownership map counted point by point, each point to the side that owns it
              in more than half the playouts (|own| < 0.3 neutral)

`prejudge` places N random four-stone 9x9 openings (White, Black, White, Black, off the
edge, none touching another, from a fixed seed) under pre-judgement rules, asks tengen for
`tengen-prejudge` (TENGEN_PLAYOUTS, default 5,000, one thread, seed 1) and KataGo's network
for its lead at komi 0 with White to move (Chinese rules: the board margin the prediction is of), and prints
the mean |difference| and the bias in Black's points, each opening's line first.

`peer` replays the positions of a `measure` run's leads.tsv into another GTP engine, asks it
COMMAND (Pachi's `score_est`: its ownership map counted; GNU Go's `estimate_score`) and prints
the same figures against the KataGo leads recorded there.

TENGEN (default target/release/tengen), KATAGO_BIN, KATAGO_MODEL, KATAGO_CFG (from the
referee kit's env.sh: ../shared/referee/katago-setup.sh). The line for every position
goes to OUT/leads.tsv, and both ownership maps with tengen's figures for every root move to
OUT/ownership.jsonl, for further study.
"""

import inspect
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TENGEN = os.environ.get("TENGEN", str(ROOT / "target/release/tengen"))
GNUGO = os.environ.get("GNUGO", "/usr/games/gnugo")
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    """A GTP engine as a child process; stderr discarded."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def ask(self, line):
        """The answer's lines (its '=' dropped); raises on '?'."""
        self.send(line)
        lines = []
        while True:
            text = self.proc.stdout.readline()
            if text == "":
                raise RuntimeError(f"engine closed on '{line}'")
            text = text.rstrip("\n")
            if text == "" and lines:
                break
            if text == "":
                continue
            lines.append(text)
        if lines[0].startswith("?"):
            raise RuntimeError(f"'{line}': {lines[0]}")
        lines[0] = lines[0][1:].strip()
        return lines

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def sgf_main_line(path):
    """(size, moves, handicap?) of a record's main line: moves as (colour, (col, row) or None)."""
    text = Path(path).read_text(errors="replace")
    size = int((re.search(r"SZ\[(\d+)\]", text) or [None, "19"])[1])
    setup = bool(re.search(r"\bA[BW](\[[a-s]{2}\])+", text))
    # The main line: the first variation at every branch. Records here have none beyond
    # the main line, but cut at the first '(' after the root anyway.
    body = text[text.find(";") :]
    # A '(' inside a property value (a player's name, a comment) opens no variation.
    inside, escaped = False, False
    for at, char in enumerate(body):
        if escaped:
            escaped = False
        elif inside:
            escaped = char == "\\"
            inside = char != "]"
        elif char == "[":
            inside = True
        elif char == "(":
            body = body[:at]
            break
    moves = []
    for colour, point in re.findall(r";\s*([BW])\[([a-z]{0,2})\]", body):
        if point == "" or (point == "tt" and size <= 19):
            moves.append((colour, None))
        else:
            moves.append((colour, (ord(point[0]) - 97, ord(point[1]) - 97)))
    return size, moves, setup


def vertex(size, point):
    if point is None:
        return "pass"
    col, row = point
    return f"{COLUMNS[col]}{size - row}"


def positions(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    gnugo = f"{GNUGO} --mode gtp --chinese-rules --level 5"
    black = f"{TENGEN} --threads 1 --playouts 3000"
    for size, komi, games in ((9, "7", 20), (13, "7.5", 10)):
        records = out / f"g{size}"
        if not records.exists():
            subprocess.run(
                [TENGEN, "match", "--black", black, "--white", gnugo, "--games", str(games),
                 "--size", str(size), "--komi", komi, "--rules", "chinese",
                 "--sgf-dir", str(records)],
                check=True,
            )
    lines = []
    for size, komi, steps in ((9, "7", (12, 19, 26, 33)), (13, "7.5", (30, 55, 80, 105))):
        for record in sorted((out / f"g{size}").glob("*.sgf")):
            _, moves, _ = sgf_main_line(record)
            lines += [f"{size} {komi} {record} {n}" for n in steps if n < len(moves) - 4]
    professional = sorted(Path("/usr/share/goban").glob("*.sgf"))
    for record in professional[::4]:
        size, moves, setup = sgf_main_line(record)
        if size != 19 or setup or len(moves) < 150:
            continue
        lines += [f"19 7.5 {record} {n}" for n in (60, 91, 120, 151) if n < len(moves) - 4]
    (out / "positions.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} positions in {out / 'positions.txt'}")


def replay(engine, size, komi, moves):
    engine.ask(f"boardsize {size}")
    engine.ask("clear_board")
    engine.ask(f"komi {komi}")
    for colour, point in moves:
        engine.ask(f"play {colour} {vertex(size, point)}")


def analysis_line(engine, command):
    """The one line of a `kata-analyze` at interval 0 that ends by its visit limit: it comes
    when the search stops, and an empty line then closes the answer."""
    engine.send(command)
    while True:
        text = engine.proc.stdout.readline()
        if text == "":
            raise RuntimeError("tengen closed during kata-analyze")
        text = text.strip()
        if text.startswith("?"):
            raise RuntimeError(f"'{command}': {text}")
        if text.startswith("info"):
            engine.send("")
            while engine.proc.stdout.readline().strip() != "":
                pass
            return text


def tengen_estimates(engine, size, komi, moves):
    """Black's lead by each of tengen's estimates, and Black's ownership map."""
    replay(engine, size, komi, moves)
    black = not moves or moves[-1][0] == "W"
    sign = 1.0 if black else -1.0
    line = analysis_line(engine, "kata-analyze interval 0 ownership true rootInfo true")
    infos = [part for part in line.split("info move ")[1:]]
    best = float(re.search(r"scoreLead (\S+)", infos[0])[1])
    root = float(re.search(r"rootInfo .*?scoreLead (\S+)", line)[1])
    best_mean = float(re.search(r"scoreMean (\S+)", infos[0])[1])
    root_mean = float(re.search(r"rootInfo .*?scoreMean (\S+)", line)[1])
    owned = [float(x) for x in line.split(" ownership ")[1].split()[: size * size]]
    owned_black = [sign * o for o in owned]
    count = sum(1 if o >= 0.3 else -1 if o <= -0.3 else 0 for o in owned_black)
    # Every root move's figures (Black's lead), for estimates made of several moves.
    per_move = []
    for info in infos:
        number = lambda key: float(re.search(rf"\b{key} (\S+)", info)[1])
        per_move.append({"move": info.split()[0], "visits": int(number("visits")),
                         "winrate": number("winrate"), "lead": sign * number("scoreLead"),
                         "mean": sign * number("scoreMean")})
    return {
        "root": sign * root,
        "best": sign * best,
        "rootmean": sign * root_mean,
        "bestmean": sign * best_mean,
        "owned": count - float(komi),
    }, owned_black, per_move


def katago_lead(engine, size, komi, moves):
    """Black's lead by KataGo's network alone, and its ownership map (Black's)."""
    replay(engine, size, komi, moves)
    lines = engine.ask("kata-raw-nn 0")
    text = " ".join(lines)
    at = lines.index("whiteOwnership") + 1
    owned = [-float(x) for row in lines[at : at + size] for x in row.split()]
    return -float(re.search(r"whiteLead (\S+)", text)[1]), owned


ESTIMATES = ("root", "best", "rootmean", "bestmean", "owned")
DEFAULT_VISITS = {9: 5000, 13: 5000, 19: 10000}


def measure(listing):
    out = Path(listing).parent
    rows = []
    entries = [l.split() for l in Path(listing).read_text().splitlines() if l.strip()]
    sizes = sorted({int(e[0]) for e in entries})
    kata = Gtp(f"{os.environ['KATAGO_BIN']} gtp -model {os.environ['KATAGO_MODEL']} "
               f"-config {os.environ['KATAGO_CFG']}")
    kata.ask("kata-set-rules chinese")
    with open(out / "leads.tsv", "w") as tsv, open(out / "ownership.jsonl", "w") as maps:
        tsv.write("size\tkomi\trecord\tmoves\tkatago\t" + "\t".join(ESTIMATES) + "\n")
        for size in sizes:
            visits = int(os.environ.get("TENGEN_VISITS", DEFAULT_VISITS[size]))
            tengen = Gtp(f"{TENGEN} --threads 1 --seed 1 --analysis-visits {visits}")
            tengen.ask("kata-set-rules chinese")
            for e in (e for e in entries if int(e[0]) == size):
                komi, record, n = e[1], e[2], int(e[3])
                _, moves, _ = sgf_main_line(record)
                moves = moves[:n]
                ours, our_map, per_move = tengen_estimates(tengen, size, komi, moves)
                theirs, their_map = katago_lead(kata, size, komi, moves)
                maps.write(json.dumps({"size": size, "komi": float(komi), "record": record,
                                       "moves": n, "katago": theirs, "tengen": ours,
                                       "katago_ownership": their_map,
                                       "tengen_ownership": our_map,
                                       "tengen_moves": per_move}) + "\n")
                rows.append((size, theirs, ours))
                tsv.write(f"{size}\t{komi}\t{record}\t{n}\t{theirs:.2f}\t"
                          + "\t".join(f"{ours[k]:.2f}" for k in ESTIMATES) + "\n")
                tsv.flush()
            tengen.close()
    kata.close()
    print("size positions estimate  mean|d| median|d|  bias  same side")
    for size in sizes:
        mine = [r for r in rows if r[0] == size]
        for k in ESTIMATES:
            d = [r[2][k] - r[1] for r in mine]
            same = sum(1 for r in mine if (r[2][k] > 0) == (r[1] > 0))
            print(f"{size:>4} {len(mine):>9} {k:>8} {statistics.mean(abs(x) for x in d):>8.2f} "
                  f"{statistics.median(abs(x) for x in d):>9.2f} {statistics.mean(d):>5.2f} "
                  f"{same:>4} of {len(mine)}")


def score_points(text):
    """Black's points from a GTP score ('B+3.5', 'W+2', '0')."""
    if text == "0":
        return 0.0
    value = float(text[2:])
    return value if text[0] == "B" else -value


def openings(count, size=9, seed=1):
    """`count` openings of four stones, each off the first line and touching no other."""
    import random

    rng = random.Random(seed)
    inner = [(c, r) for c in range(1, size - 1) for r in range(1, size - 1)]
    found = []
    while len(found) < count:
        stones = []
        for point in rng.sample(inner, len(inner)):
            if all(abs(point[0] - c) + abs(point[1] - r) > 1 for c, r in stones):
                stones.append(point)
            if len(stones) == 4:
                break
        found.append([(colour, p) for colour, p in zip("WBWB", stones)])
    return found


def prejudge(count):
    kata = Gtp(f"{os.environ['KATAGO_BIN']} gtp -model {os.environ['KATAGO_MODEL']} "
               f"-config {os.environ['KATAGO_CFG']}")
    kata.ask("kata-set-rules chinese")
    playouts = int(os.environ.get("TENGEN_PLAYOUTS", "5000"))
    tengen = Gtp(f"{TENGEN} --threads 1 --seed 1 --playouts {playouts}")
    diffs = []
    for moves in openings(count):
        tengen.ask("boardsize 9")
        tengen.ask("tengen-rules prejudgement")
        tengen.ask("clear_board")
        for colour, point in moves:
            tengen.ask(f"play {colour} {vertex(9, point)}")
        ours = score_points(tengen.ask("tengen-prejudge")[0])
        theirs, _ = katago_lead(kata, 9, "0", moves)
        diffs.append(ours - theirs)
        shown = " ".join(f"{c}{vertex(9, p)}" for c, p in moves)
        print(f"{shown}: tengen {ours:+.1f}  KataGo {theirs:+.2f}", flush=True)
    tengen.close()
    kata.close()
    print(f"{len(diffs)} openings: mean |d| {statistics.mean(abs(d) for d in diffs):.2f}, "
          f"median |d| {statistics.median(abs(d) for d in diffs):.2f}, "
          f"bias {statistics.mean(diffs):+.2f} (Black's points, tengen - KataGo)")


def peer(leads, engine, command):
    rows = [l.split("\t") for l in Path(leads).read_text().splitlines()[1:] if l.strip()]
    other = Gtp(engine)
    found = []
    for size, komi, record, n, katago, *_ in rows:
        _, moves, _ = sgf_main_line(record)
        replay(other, int(size), komi, moves[: int(n)])
        answer = other.ask(command)[0].split()[0]
        found.append((int(size), float(katago), score_points(answer)))
    other.close()
    print(f"size positions  mean|d| median|d|  bias  same side  ({command}, Black's points)")
    for size in sorted({f[0] for f in found}):
        mine = [f for f in found if f[0] == size]
        d = [theirs - katago for _, katago, theirs in mine]
        same = sum(1 for _, katago, theirs in mine if (theirs > 0) == (katago > 0))
        print(f"{size:>4} {len(mine):>9} {statistics.mean(abs(x) for x in d):>8.2f} "
              f"{statistics.median(abs(x) for x in d):>9.2f} {statistics.mean(d):>5.2f} "
              f"{same:>4} of {len(mine)}")


def run_mode(modes, doc):
    """Runs `MODE ARG...` from the command line by `modes` (name to a function of the ARGs), or
    exits with `doc`."""
    mode = modes.get(sys.argv[1]) if len(sys.argv) >= 3 else None
    try:
        inspect.signature(mode).bind(*sys.argv[2:])
    except TypeError:
        sys.exit(doc)
    mode(*sys.argv[2:])


def main():
    run_mode({"positions": positions, "measure": measure,
              "prejudge": lambda n: prejudge(int(n)), "peer": peer}, __doc__)


if __name__ == "__main__":
    main()
