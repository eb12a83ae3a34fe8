"""KaTrain's own engine code driving `tengen analysis`, as KaTrain's tests drive KataGo.

Usage: review.py TENGEN GAME.sgf

A host object (KaTrain's KaTrainBase with its packaged settings; no window, so Kivy's GUI is
never started) gives KaTrain's KataGoEngine the custom command `TENGEN analysis ...`. Then:
1. the finished 19x19 game is loaded into KaTrain's Game, which sends a query for every node
   (KaTrain's game review); every node must end with a complete analysis that KaTrain reads
   (score, win rate, candidate moves, ownership, policy) and every move a points-lost figure;
2. KaTrain's AI strategies that need only the engine's analysis choose moves in a new game.
Any error KaTrain logs (an answer it cannot read, an engine that died) fails the run.
"""
import os
import sys
import tempfile
import time

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from katrain.core.ai import generate_ai_move  # noqa: E402
from katrain.core.base_katrain import KaTrainBase  # noqa: E402
from katrain.core.constants import OUTPUT_ERROR  # noqa: E402
from katrain.core.engine import KataGoEngine  # noqa: E402
from katrain.core.game import Game, KaTrainSGF  # noqa: E402

TENGEN, RECORD = sys.argv[1], sys.argv[2]


class Host(KaTrainBase):
    """KaTrain's base host, remembering the errors it is told."""

    def __init__(self):
        self.errors = []
        super().__init__(force_package_config=True, debug_level=0)

    def log(self, message, level=0):
        if level == OUTPUT_ERROR:
            self.errors.append(str(message))
            print("KaTrain error:", message, flush=True)

    def __call__(self, *args, **kwargs):  # KaTrain's popups and GUI updates: none here
        pass


def wait(engine, seconds):
    deadline = time.time() + seconds
    while not engine.is_idle():
        if time.time() > deadline:
            raise SystemExit(f"engine still busy after {seconds} s: {engine.queries_remaining()} queries")
        time.sleep(0.1)


host = Host()
config = dict(host.config("engine"))
config.update(
    backend="custom",
    # `exec`: KaTrain runs the command through a shell and stops the engine by signalling
    # the process it started, which must be tengen itself.
    altcommand=f"exec {TENGEN} analysis --threads 1 --analysis-threads 2",
    max_visits=24,
    fast_visits=12,
    max_time=10.0,
    allow_recovery=False,
)
engine = KataGoEngine(host, config)
start = time.time()

# 1. KaTrain's review of a whole game.
game = Game(host, engine, move_tree=KaTrainSGF.parse_file(RECORD))
time.sleep(1)
wait(engine, 600)
nodes = list(game.root.nodes_in_tree)
assert len(nodes) > 200, len(nodes)
board_points = 19 * 19
for node in nodes:
    assert node.analysis_complete, f"node {node.depth} has no complete analysis"
    assert node.score is not None and node.winrate is not None, node.depth
    assert 0.0 <= node.winrate <= 1.0
    assert node.candidate_moves, node.depth
    assert len(node.ownership) == board_points, node.depth
    assert len(node.policy) == board_points + 1, node.depth
lost = [n.points_lost for n in nodes[1:] if n.move and not n.move.is_pass]
assert all(p is not None for p in lost), "a move without points lost"
print(f"reviewed {len(nodes)} positions in {time.time() - start:.1f} s; "
      f"mean points lost {sum(lost) / len(lost):.2f}", flush=True)

# 2. KaTrain's AI moves from tengen's analysis.
strategies = ["ai:default", "ai:scoreloss", "ai:policy", "ai:p:weighted", "ai:simple", "ai:p:rank"]
play = Game(host, engine)
for strategy in strategies:
    settings = host.config(f"ai/{strategy}")
    move, node = generate_ai_move(play, strategy, settings)
    assert move.coords is not None or move.is_pass, strategy
    assert node == play.current_node
    print(f"{strategy}: {move.gtp()}", flush=True)
assert play.current_node.depth == len(strategies)

engine.shutdown(finish=False)
if host.errors:
    raise SystemExit(f"KaTrain logged errors: {host.errors}")
print("ok", flush=True)
