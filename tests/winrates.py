#!/usr/bin/env python3
"""Win rates against real outcomes (tests/MEASUREMENTS.md, "Win rates against real outcomes").

    tests/winrates.py positions OUT                 list the positions into OUT/positions.txt
    tests/winrates.py games OUT DIR N...            the same from the records in DIR, after N moves
    tests/winrates.py measure OUT/positions.txt     ask tengen and KataGo, print the figures
    tests/winrates.py table OUT/winrates.tsv        the figures again, from a measurement

`positions` takes the professional 19x19 games of Debian's `goban-original-games` that carry a
winner (RE[B+...] or RE[W+...]), no handicap, at least 120 moves, every fourth record; the
position after 50, 100 and 150 moves (where at least ten moves remain), each with the record's
komi (KM, 0 when absent) and winner. One line a position: `SIZE KOMI RECORD MOVES WINNER`.

`games` lists positions the same way from the records of another source: every record in DIR
that names a winner (no handicap), the position after each N where at least five moves remain,
at the record's komi. On 9x9 and 13x13 the records are tengen's self-play (`tengen match
... --sgf-dir DIR`; MEASUREMENTS gives the command): the chance a win rate speaks of is the
chance of winning between equal players.

`measure` replays each position into both engines (Chinese rules, the record's komi), asks
tengen for `kata-analyze` at a fixed visit count (TENGEN_VISITS, default 2000) and KataGo's
network for `kata-raw-nn 0` (whiteWin), and writes OUT/winrates.tsv: Black's win rate by
tengen's root (what rootInfo shows), by tengen's most visited move, and by the network, beside
the winner. Then, as `table` does, it prints for each estimate the reliability table (positions
grouped by the predicted win rate of the side to move, in tenths: how many, the mean
prediction, the share that won) and the Brier score, and fits a calibration of the root's win
rate, its logit times a factor, by least Brier score, with the fit's figures on the positions it
was not fitted on (twofold, by record). tengen shows its playouts' share calibrated so already
(`search::analysis::calibrated_winrate`, its logit times a factor by board size), and
logit factors multiply: the factor fitted here is the one to multiply that size's factor by (1:
the shown win rate is calibrated; the factors were fitted on builds that showed the share).

TENGEN (default target/release/tengen), KATAGO_BIN, KATAGO_MODEL, KATAGO_CFG (from the
referee kit's env.sh: ../shared/referee/katago-setup.sh).
"""

import math
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score_leads import Gtp, analysis_line, replay, run_mode, sgf_main_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TENGEN = os.environ.get("TENGEN", str(ROOT / "target/release/tengen"))


def positions(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    kept = []
    for record in sorted(Path("/usr/share/goban").iterdir()):
        text = record.read_text(errors="replace")
        winner = re.search(r"RE\[([BW])\+", text)
        if not winner or re.search(r"HA\[[1-9]", text):
            continue
        size, moves, setup = sgf_main_line(record)
        if size != 19 or setup or len(moves) < 120:
            continue
        kept.append((record, text, winner[1], moves))
    for record, text, winner, moves in kept[::4]:
        komi = re.search(r"KM\[([-0-9.]+)\]", text)
        komi = komi[1] if komi else "0"
        lines += [f"19 {komi} {record} {n} {winner}" for n in (50, 100, 150)
                  if n <= len(moves) - 10]
    (out / "positions.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} positions in {out / 'positions.txt'}")


def games(out, directory, *numbers):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for record in sorted(Path(directory).glob("*.sgf")):
        text = record.read_text(errors="replace")
        winner = re.search(r"RE\[([BW])\+", text)
        if not winner or re.search(r"HA\[[1-9]", text):
            continue
        size, moves, setup = sgf_main_line(record)
        if setup:
            continue
        komi = re.search(r"KM\[([-0-9.]+)\]", text)
        komi = komi[1] if komi else "0"
        lines += [f"{size} {komi} {record} {n} {winner[1]}" for n in map(int, numbers)
                  if n <= len(moves) - 5]
    (out / "positions.txt").write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} positions in {out / 'positions.txt'}")


def tengen_winrates(engine, size, komi, moves):
    """Black's win rate at tengen's root and through its most visited move."""
    replay(engine, size, komi, moves)
    black = not moves or moves[-1][0] == "W"
    line = analysis_line(engine, "kata-analyze interval 0 rootInfo true")
    best = float(re.search(r"winrate (\S+)", line.split("info move ")[1])[1])
    root = float(re.search(r"rootInfo .*?winrate (\S+)", line)[1])
    return (root, best) if black else (1.0 - root, 1.0 - best)


def katago_winrate(engine, size, komi, moves):
    replay(engine, size, komi, moves)
    text = " ".join(engine.ask("kata-raw-nn 0"))
    return 1.0 - float(re.search(r"whiteWin (\S+)", text)[1])


ESTIMATES = ("root", "best", "katago")


def measure(listing):
    out = Path(listing).parent
    entries = [l.split() for l in Path(listing).read_text().splitlines() if l.strip()]
    visits = int(os.environ.get("TENGEN_VISITS", "2000"))
    kata = Gtp(f"{os.environ['KATAGO_BIN']} gtp -model {os.environ['KATAGO_MODEL']} "
               f"-config {os.environ['KATAGO_CFG']}")
    kata.ask("kata-set-rules chinese")
    tengen = Gtp(f"{TENGEN} --threads 1 --seed 1 --analysis-visits {visits}")
    tengen.ask("kata-set-rules chinese")
    with open(out / "winrates.tsv", "w") as tsv:
        tsv.write("size\tkomi\trecord\tmoves\twinner\t" + "\t".join(ESTIMATES) + "\n")
        for size, komi, record, n, winner in entries:
            size, n = int(size), int(n)
            moves = sgf_main_line(record)[1][:n]
            root, best = tengen_winrates(tengen, size, komi, moves)
            theirs = katago_winrate(kata, size, komi, moves)
            tsv.write(f"{size}\t{komi}\t{record}\t{n}\t{winner}\t"
                      f"{root:.4f}\t{best:.4f}\t{theirs:.4f}\n")
            tsv.flush()
    tengen.close()
    kata.close()
    table(out / "winrates.tsv")


def logit(p):
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def scaled(p, factor):
    return 1.0 / (1.0 + math.exp(-factor * logit(p)))


def brier(pairs):
    return sum((p - won) ** 2 for p, won in pairs) / len(pairs)


def fit(pairs):
    """The logit factor (0.05 to 3, by 0.01) with the least Brier score."""
    return min((k / 100 for k in range(5, 301)),
               key=lambda f: brier([(scaled(p, f), won) for p, won in pairs]))


def reliability(name, pairs):
    """Pairs (Black's win rate, Black won) seen from the side to move is what users read;
    Black's view and White's are the same table mirrored, so group Black's view by tenths."""
    print(f"{name}: Brier {brier(pairs):.4f}, {len(pairs)} positions")
    print("  predicted  positions  mean predicted  won")
    for tenth in range(10):
        group = [(p, w) for p, w in pairs if min(int(p * 10), 9) == tenth]
        if group:
            print(f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f} {len(group):>10} "
                  f"{sum(p for p, _ in group) / len(group):>15.3f} "
                  f"{sum(w for _, w in group) / len(group):>5.3f}")


def table(tsv):
    rows = [l.split("\t") for l in Path(tsv).read_text().splitlines()[1:] if l.strip()]
    won = [1.0 if r[4] == "B" else 0.0 for r in rows]
    for k, name in enumerate(ESTIMATES):
        pairs = [(float(r[5 + k]), w) for r, w in zip(rows, won)]
        reliability(name, pairs)
    # The calibration, fitted on every position and checked twofold by record.
    root = [(float(r[5]), w, r[2]) for r, w in zip(rows, won)]
    records = sorted({r for _, _, r in root})
    halves = [set(records[0::2]), set(records[1::2])]
    held_out = []
    for k in range(2):
        factor = fit([(p, w) for p, w, r in root if r not in halves[k]])
        held_out += [(scaled(p, factor), w) for p, w, r in root if r in halves[k]]
        print(f"fold {k + 1}: factor {factor:.2f} fitted on the other half")
    reliability("root calibrated, held-out halves", held_out)
    factor = fit([(p, w) for p, w, _ in root])
    reliability(f"root calibrated with factor {factor:.2f} fitted on all", [
        (scaled(p, factor), w) for p, w, _ in root])


def main():
    run_mode({"positions": positions, "games": games, "measure": measure, "table": table},
             __doc__)


if __name__ == "__main__":
    main()
