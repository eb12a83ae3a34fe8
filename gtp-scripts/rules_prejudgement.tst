# Pre-judgement komi rules: White first; four opening stones placed W, B, W, B with no pass;
# suicide legal (a single-stone suicide repeats the position, so superko forbids it); positional
# superko; area counting; the komi is the threshold from the predictions (0 by default).
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).

tengen-rules prejudgement
boardsize 5
clear_board

10 showboard
#? [.*rules prejudgement, komi 0,.*white to move.*]

# The opening: White places first, nobody passes, and the order is fixed.
20 play b c3
#?error [illegal move: opening placement is white's]

30 play w pass
#?error [illegal move: no pass during the opening placements]

40 genmove b
#?error [illegal move: opening placement is white's]

50 fixed_handicap 2
#?error [invalid number of stones.*]

60 play w a3
#?

70 play w b2
#?error [illegal move: opening placement is black's]

80 play b a2
#?

90 genmove w
#? [[A-E][1-5]]

100 undo
#?

110 play w b2
#?

120 genmove b
#? [[A-E][1-5]]

130 undo
#?

140 play b e5
#?

# The opening is over: passing is allowed again.
150 play w pass
#?

160 undo
#?

# Suicide of several stones is legal: Black's A1 leaves A1-A2 without liberties and they go.
play w b1
170 play b a1
#?

180 showboard
#? [.*\n 2 \. O \. \. \. 2\n 1 \. O \. \. \. 1\n.*]

# A single-stone suicide would recreate the position before it: superko forbids it.
play w a2
190 play b a1
#?error [illegal move: superko \(repeats an earlier position\)]

# Area counting with the threshold as komi: White's 4 stones and the corner point A1 against
# Black's one stone and nothing else (the rest touches both).
200 final_score
#? [W\+\d+(\.5)?|B\+\d+(\.5)?|0]

komi -6.5
210 tengen-rules
#? [prejudgement]

# The prediction and the threshold (prejudgement_flow.tst covers the whole flow): the engine's
# prediction is a GTP score, and the threshold from two predictions replaces the komi.
220 tengen-prejudge
#? [[BW]\+\d+(\.5)?|0]

230 tengen-prejudgement W+7 W+6
#? [W\+6\.5 1]

240 showboard
#? [.*rules prejudgement, komi -6\.5,.*]

250 genmove w
#? [[A-E][1-5]|pass]

# Under another ruleset neither command applies, and nothing changes.
tengen-rules chinese
260 tengen-prejudgement W+7 W+6
#?error [not under pre-judgement rules \(rules are chinese; use tengen-rules prejudgement\)]

270 tengen-prejudge
#?error [not under pre-judgement rules.*]

280 showboard
#? [.*rules chinese, komi -6\.5,.*]
