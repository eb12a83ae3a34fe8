# Game records as editors, servers and reviews write them, each loaded as GNU Go 3.8 loads it:
# the expected boards are GNU Go's `showboard` for the same file (its hoshi `+` shown as `.`), and
# the side to move its `loadsgf` answer. Setup stones after the first move (a review's edit),
# FF[1]'s PL[1]/PL[2], a node holding a move of each colour (played in file order), a file cut
# short (read up to its last complete node; a warning on stderr), PL in a move node or in the
# last node.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).

# A review: after move 4 the reviewer adds a Black and a White stone, and play goes on.
10 loadsgf review_edit.sgf
#? [white]

20 showboard
#? [.*\n 9 \. \. \. \. \. \. \. \. \. 9\n 8 \. \. \. \. \. \. \. \. \. 8\n 7 \. \. O \. \. \. X \. \. 7\n 6 \. \. \. \. \. \. \. \. \. 6\n 5 \. \. O \. X \. \. \. \. 5\n 4 \. \. X \. \. \. O \. \. 4\n 3 \. \. \. X O X O \. \. 3\n 2 \. \. \. \. \. \. \. \. \. 2\n 1 \. \. \. \. \. \. \. \. \. 1\n   A B C D E F G H J\nrules japanese, komi 6\.5, handicap 0, move 4, white to move\n.*]

# The record restarts from the edited position: its moves since can be taken back, not the ones
# before; printsgf writes the edited position as the start.
30 printsgf
#? [.*AB\[gc\]\[ee\]\[dg\]AW\[cc\]\[ce\]\[eg\]\n;W\[gg\] ;B\[fg\] ;W\[gf\] ;B\[cf\]\)]

undo
undo
undo
undo
40 undo
#?error [cannot undo]

# Before move 6 (Black F3): the edit is made, White G3 played.
50 loadsgf review_edit.sgf 6
#? [black]

60 showboard
#? [.*\n 9 \. \. \. \. \. \. \. \. \. 9\n 8 \. \. \. \. \. \. \. \. \. 8\n 7 \. \. O \. \. \. X \. \. 7\n 6 \. \. \. \. \. \. \. \. \. 6\n 5 \. \. O \. X \. \. \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. \. X O \. O \. \. 3\n 2 \. \. \. \. \. \. \. \. \. 2\n 1 \. \. \. \. \. \. \. \. \. 1\n.*]

# AE in a later node takes a stone off. (GNU Go 3.8 ignores AE everywhere, in the root too; FF[4]
# defines it, and tengen follows FF[4].)
70 loadsgf review_erase.sgf
#? [black]

80 showboard
#? [.*\n 7 \. \. \. \. \. \. X \. \. 7\n 6 \. \. \. \. \. \. \. \. \. 6\n 5 \. \. \. \. X \. \. \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. \. \. \. \. O \. \. 3\n.*]

# A problem in FF[3] with PL[2]: White to play.
90 loadsgf problem_pl2.sgf
#? [white]

100 showboard
#? [.*\n 9 \. \. \. \. \. \. \. \. \. 9\n 8 X X X X X \. \. \. \. 8\n 7 O O O O X \. \. \. \. 7\n 6 \. O O O X \. \. \. \. 6\n 5 X X X X X \. \. \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. \. \. \. \. \. \. \. 3\n 2 \. \. \. \. \. \. \. \. \. 2\n 1 \. \. \. \. \. \. \. \. \. 1\n   A B C D E F G H J\nrules chinese, komi 0, handicap 0, move 0, white to move\n.*]

# Nodes holding a Black and a White move: both played, in file order.
110 loadsgf two_moves_node.sgf
#? [black]

120 showboard
#? [.*\n 9 \. \. \. \. \. \. \. \. \. 9\n 8 \. \. \. \. \. \. \. \. \. 8\n 7 \. \. O \. \. \. X \. \. 7\n 6 \. \. \. \. \. \. \. \. \. 6\n 5 \. \. \. \. X \. O \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. X \. \. \. O \. \. 3\n 2 \. \. \. \. \. \. \. \. \. 2\n 1 \. \. \. \. \. \. \. \. \. 1\n   A B C D E F G H J\nrules chinese, komi 7\.5, handicap 0, move 6, black to move\n.*]

# Before the fourth move, the first of the node W G3 + B C3: the node is not played.
130 loadsgf two_moves_node.sgf 4
#? [white]

140 showboard
#? [.*move 3, white to move\n.*]

# A download cut short, without its closing parenthesis: every move it holds.
150 loadsgf cut_short.sgf
#? [white]

160 showboard
#? [.*\n 9 \. \. \. \. \. \. \. \. \. 9\n 8 \. \. \. \. \. \. \. \. \. 8\n 7 \. \. O \. \. \. X \. \. 7\n 6 \. \. \. \. \. \. \. \. \. 6\n 5 \. \. \. \. X \. \. \. \. 5\n 4 \. \. \. \. \. \. \. \. \. 4\n 3 \. \. X O \. \. X \. \. 3\n 2 \. \. O \. \. \. \. \. \. 2\n 1 \. \. \. \. \. \. \. \. \. 1\n.*move 7, white to move\n.*]

# PL in the last node, and in the node of the last move, says who moves next.
170 loadsgf pl_last_node.sgf
#? [black]

180 showboard
#? [.*\n 7 \. \. O \. \. \. X \. \. 7\n.*move 3, black to move\n.*]

190 loadsgf pl_move_node.sgf
#? [white]

200 showboard
#? [.*\n 7 \. \. O \. \. \. \. \. \. 7\n.*move 2, white to move\n.*]

# A record without KM: the komi is its rules' usual one, not the one set before (GNU Go 3.8 sets
# its own default, 5.5, whatever it had). Japanese here, 6.5; it follows a change of rules.
komi 3
210 loadsgf no_komi.sgf
#? [black]

220 showboard
#? [.*\n 7 \. \. O \. \. \. \. \. \. 7\n.*\nrules japanese, komi 6\.5, handicap 0, move 2, black to move\n.*]

tengen-rules chinese
230 showboard
#? [.*\nrules chinese, komi 7\.5,.*]

# Still refused: what cannot be a game.
240 loadsgf broken.sgf
#?error [cannot load file: property Q has no value]

250 showboard
#? [.*\nrules chinese, komi 7\.5, handicap 0, move 2, black to move\n.*]
