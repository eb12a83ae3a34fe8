"""Positions per second: a whole 19x19 game analysed through `tengen analysis` (one query,
every turn, several positions at once) against the same positions through GTP `kata-analyze`
one at a time, in the same run.

Usage: throughput.py TENGEN GAME.sgf [POSITIONS] [VISITS] [CORES]

JSON: `tengen analysis --analysis-threads CORES --threads 1`, one query with analyzeTurns
0..POSITIONS-1 and maxVisits VISITS, timed from the query to the last result.
GTP: `tengen --threads CORES --analysis-visits VISITS`; per position `play`, `clear_cache`
(so that no visits are carried over from the last position's tree, as in every JSON search),
and `kata-analyze 0` (one line, once the visits are reached), timed from the first command to
the last analysis line. Both searches stop at VISITS root visits.
"""
import json
import re
import subprocess
import sys
import time

tengen, record = sys.argv[1], sys.argv[2]
positions = int(sys.argv[3]) if len(sys.argv) > 3 else 250
visits = int(sys.argv[4]) if len(sys.argv) > 4 else 500
cores = int(sys.argv[5]) if len(sys.argv) > 5 else 2

text = open(record).read()
size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
komi = float(re.search(r"KM\[([-\d.]+)\]", text).group(1))
letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def vertex(sgf):
    if sgf == "" or (sgf == "tt" and size <= 19):
        return "pass"
    x, y = ord(sgf[0]) - 97, ord(sgf[1]) - 97
    return f"{letters[x]}{size - y}"


moves = [(c, vertex(v)) for c, v in re.findall(r";([BW])\[([a-z]{0,2})\]", text)]
assert len(moves) >= positions - 1, len(moves)

# JSON analysis engine.
query = {
    "id": "game",
    "moves": [[c, v] for c, v in moves[: positions - 1]],
    "rules": "chinese",
    "komi": komi,
    "boardXSize": size,
    "boardYSize": size,
    "maxVisits": visits,
    "analyzeTurns": list(range(positions)),
}
engine = subprocess.Popen(
    [tengen, "analysis", "--analysis-threads", str(cores), "--threads", "1"],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
)
start = time.time()
engine.stdin.write(json.dumps(query) + "\n")
engine.stdin.flush()
finals = 0
while finals < positions:
    line = json.loads(engine.stdout.readline())
    assert "error" not in line, line
    if line.get("isDuringSearch") is False:
        assert line["rootInfo"]["visits"] >= visits, line["rootInfo"]
        finals += 1
json_seconds = time.time() - start
engine.stdin.close()
engine.wait()

# GTP, one position at a time.
gtp = subprocess.Popen(
    [tengen, "--threads", str(cores), "--analysis-visits", str(visits)],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
    text=True,
)


def send(command):
    gtp.stdin.write(command + "\n")
    gtp.stdin.flush()


def answer():
    lines = []
    while True:
        line = gtp.stdout.readline()
        if line.strip() == "" and lines:
            return lines
        if line.strip():
            lines.append(line.strip())


send(f"boardsize {size}")
answer()
send("kgs-rules chinese")
answer()
send(f"komi {komi}")
answer()
start = time.time()
for turn in range(positions):
    if turn > 0:
        c, v = moves[turn - 1]
        send(f"play {c} {v}")
        answer()
    send("clear_cache")
    answer()
    send("kata-analyze 0")
    assert gtp.stdout.readline().startswith("=")
    info = gtp.stdout.readline()
    assert info.startswith("info"), info
    # The answer stays open until the next line: an empty line ends it.
    send("")
    while gtp.stdout.readline().strip() != "":
        pass
gtp_seconds = time.time() - start
send("quit")
gtp.wait()

print(
    f"{positions} positions at {visits} visits, {cores} cores: "
    f"JSON {positions / json_seconds:.2f} positions/s ({json_seconds:.1f} s), "
    f"GTP kata-analyze {positions / gtp_seconds:.2f} positions/s ({gtp_seconds:.1f} s), "
    f"ratio {gtp_seconds / json_seconds:.2f}"
)
