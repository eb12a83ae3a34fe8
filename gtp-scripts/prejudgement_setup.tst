# Pre-judgement komi rules in a position set up with stones (SGF AB/AW and PL): the four opening
# placements belong to a game started on an empty board, so a record that starts from setup
# stones has its opening behind it. Either colour may move first (the side to move comes from PL,
# else from the record's next move), a pass is allowed at once, and suicide, the mover's choice
# in a mutual capture and positional superko (counted from the set-up position) apply as usual.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).
#
# prejudgement_setup.sgf, 7x7, Black to move (PL[B]), then B G5 (takes the ko) and W D4:
#    A B C D E F G
#  7 . O . . . . . 7    A7: a single-stone suicide for Black
#  6 O . . . . X O 6
#  5 . . . . X O . 5    F5/G5: a ko
#  4 O . . . . X O 4
#  3 X O . . . . . 3
#  2 . O . . . O O 2    A2: both sides without liberties after Black's stone
#  1 O X . . O X . 1    G1: a two-stone suicide for Black

tengen-rules japanese

# --- Loading: Black's first move is legal, PL says who moves ---------------------------------
10 loadsgf prejudgement_setup.sgf
#? [black]

20 showboard
#? [.*\n 5 \. \. \. \. X \. X 5\n 4 O \. \. O \. X O 4\n.*rules prejudgement, komi 0, handicap 0, move 2, black to move\n.*]

30 loadsgf prejudgement_setup.sgf 1
#? [black]

40 showboard
#? [.*\n 5 \. \. \. \. X O \. 5\n.*rules prejudgement, komi 0, handicap 0, move 0, black to move\n.*]

# Every point but A7 is legal for Black (A2 twice: either side's stones go), and so is a pass.
50 tengen-perft 1
#? [32]

# The record writes the position and the side to move, and reads back the same.
60 printsgf
#? [.*RU\[Prejudgement\].*AB\[fb\]\[ec\]\[fd\]\[ae\]\[bg\]\[fg\]AW\[.*\]PL\[B\]\)\n?]

printsgf setup_out.sgf
clear_board
70 loadsgf setup_out.sgf
#? [black]

# --- No opening order, passes allowed ------------------------------------------------------
80 play w pass
#?

90 undo
#?

100 genmove b
#? [[A-HJ][1-7]|pass]

110 undo
#?

# The predictions need no opening: the position is already the one they judge.
120 tengen-prejudge
#? [[BW]\+\d+(\.5)?|0]

130 tengen-prejudgement W+7 W+6
#? [W\+6\.5 1]

# --- Suicide -------------------------------------------------------------------------------
# Black G1 leaves F1-G1 without liberties: both stones go, White counts them.
140 play b g1
#?

150 showboard
#? [.*\n 1 O X \. \. O \. \. 1\n.*move 1, white to move\ncaptured by black 0, by white 2.*]

160 undo
#?

# A single-stone suicide recreates the set-up position: superko forbids it.
170 play b a7
#?error [illegal move: superko \(repeats an earlier position\)]

# --- Mutual capture: the mover chooses ------------------------------------------------------
180 tengen-play b a2 self
#?

190 showboard
#? [.*\n 3 \. O \. \. \. \. \. 3\n 2 \. O \. \. \. O O 2\n 1 O X \. \. O X \. 1\n.*captured by black 0, by white 2.*]

200 printsgf
#? [.*PL\[B\]\n;B\[af\]RM\[own\]\)\n?]

210 undo
#?

220 tengen-play b a2 opponent
#?

230 showboard
#? [.*\n 3 X O \. \. \. \. \. 3\n 2 X O \. \. \. O O 2\n 1 \. X \. \. O X \. 1\n.*captured by black 1, by white 0.*]

240 undo
#?

# --- Superko from the set-up position -----------------------------------------------------
# Black takes the ko; White's immediate retake is a basic ko.
250 play b g5
#?

260 play w f5
#?error [illegal move: ko]

# After two passes the retake would bring back the set-up position itself.
play w pass
play b pass
270 play w f5
#?error [illegal move: superko \(repeats an earlier position\)]

# Elsewhere first, the retake is a new position and legal.
play w d4
play b c4
280 play w f5
#?

290 showboard
#? [.*\n 5 \. \. \. \. X O \. 5\n 4 O \. X O \. X O 4\n.*captured by black 1, by white 1.*]

# --- An empty board still opens with the placements ----------------------------------------
clear_board
300 play b c3
#?error [illegal move: opening placement is white's]

310 play w pass
#?error [illegal move: no pass during the opening placements]
