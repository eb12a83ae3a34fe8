# Pre-judgement komi end to end (RULES.md, "Pre-judgement komi in an engine"): the opening, the
# engine's prediction, the threshold from two predictions with the seed's three examples,
# final_score against it, the record, mutual capture with the mover's choice, undo into the
# opening, and the errors.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# `#?error [regex]` is the project's extension: a `?` answer whose message matches.

# --- Refused outside the ruleset ------------------------------------------------------------
tengen-rules chinese
boardsize 7
clear_board
10 tengen-prejudge
#?error [not under pre-judgement rules.*]

20 tengen-prejudgement W+7 W+6
#?error [not under pre-judgement rules.*]

# --- The opening: W, B, W, B, no pass, no prediction yet ------------------------------------
tengen-rules prejudgement
clear_board
30 tengen-prejudge
#?error [the opening is not complete \(0 of 4 placements made\)]

40 tengen-prejudgement W+7 W+6
#?error [the opening is not complete.*]

50 play w pass
#?error [illegal move: no pass during the opening placements]

60 genmove b
#?error [illegal move: opening placement is white's]

play w d4
70 play w d3
#?error [illegal move: opening placement is black's]

play b c4
80 play b pass
#?error [illegal move: no pass during the opening placements]

play w d3
90 tengen-prejudge
#?error [the opening is not complete \(3 of 4 placements made\)]

play b c3
100 showboard
#? [.*komi 0, handicap 0, move 4, white to move.*]

# --- The engine's prediction: a score, komi not counted, the komi left alone ----------------
110 tengen-prejudge
#? [[BW]\+\d+(\.5)?|0]

120 showboard
#? [.*komi 0,.*]

# --- Undo into the opening brings its restrictions back -------------------------------------
130 undo
#?

140 play w pass
#?error [illegal move: no pass during the opening placements]

150 tengen-prejudge
#?error [the opening is not complete.*]

160 play b c3
#?

# --- Bad predictions change nothing ---------------------------------------------------------
170 tengen-prejudgement W+7
#?error [syntax error: usage: tengen-prejudgement .*]

180 tengen-prejudgement W+7 x
#?error [syntax error: prediction 'x' is not a score.*]

190 tengen-prejudgement W+0.25 W+6
#?error [syntax error: prediction 'W\+0\.25' is not a score.*]

200 tengen-prejudgement W+R B+1
#?error [syntax error: prediction 'W\+R' is not a score.*]

210 tengen-prejudgement 7 W+6
#?error [syntax error.*]

220 showboard
#? [.*komi 0,.*]

# --- The seed's first example: W+7 and W+6 --------------------------------------------------
230 tengen-prejudgement W+7 W+6
#? [W\+6\.5 1]

240 showboard
#? [.*komi -6\.5,.*white to move.*]

# Walls on columns C and D: Black owns A-C (21 points), White D-G (28): a board margin of W+7.
play b c1
play b c2
play b c5
play b c6
play b c7
play w d1
play w d2
play w d5
play w d6
play w d7
250 final_score
#? [W\+0\.5]

# --- The seed's second example: W+7 and B+6 -------------------------------------------------
260 tengen-prejudgement W+7 B+6
#? [W\+0\.5 1]

270 final_score
#? [W\+6\.5]

# --- The seed's third example: equal predictions; player 1 takes White; W+7 exactly draws ---
280 tengen-prejudgement W+7 W+7
#? [W\+7 1]

290 final_score
#? [0]

# --- The other player takes White when it rates White higher ---------------------------------
300 tengen-prejudgement W+6 W+7
#? [W\+6\.5 2]

310 tengen-prejudgement B+3 0
#? [B\+1\.5 2]

320 tengen-prejudgement 0 0
#? [0 1]

330 tengen-prejudgement W+7 W+7
#? [W\+7 1]

# --- The record: rules, komi -t, predictions and threshold, result against the threshold -----
play w pass
play b pass
340 printsgf
#? [.*KM\[-7\]RU\[Prejudgement\]RE\[0\]C\[prejudgement predictions W\+7 W\+7 threshold W\+7\].*]

350 printsgf flow.sgf
#?

clear_board
tengen-rules chinese
komi 7.5
360 loadsgf flow.sgf
#? [white]

370 tengen-rules
#? [prejudgement]

380 showboard
#? [.*komi -7, handicap 0, move 16,.*]

390 final_score
#? [0]

400 printsgf
#? [.*C\[prejudgement predictions W\+7 W\+7 threshold W\+7\].*]

# Loaded inside the opening, the position has no predictions to record.
410 loadsgf flow.sgf 3
#? [white]

420 printsgf
#? [!.*prejudgement predictions.*]

430 play w pass
#?error [illegal move: no pass during the opening placements]

# A komi sent afterwards overrides the threshold, and the record no longer claims it.
loadsgf flow.sgf
komi -6.5
440 printsgf
#? [!.*prejudgement predictions.*]

# --- Suicide: legal here, illegal under the other two rulesets ------------------------------
# Black A2 (an opening stone) with White A3, B2, B1 around: Black A1 leaves A1-A2 without
# liberties, captures nothing, and the two stones go.
tengen-rules prejudgement
boardsize 5
clear_board
play w a3
play b a2
play w b2
play b e5
play w b1
450 play b a1
#?

460 showboard
#? [.*\n 2 \. O \. \. \. 2\n 1 \. O \. \. \. 1\n.*captured by black 0, by white 2]

# A single-stone suicide would recreate the position before it: superko forbids it.
play w a2
470 play b a1
#?error [illegal move: superko \(repeats an earlier position\)]

tengen-rules chinese
clear_board
play b a2
play w a3
play w b2
play w b1
480 play b a1
#?error [illegal move: suicide]

tengen-rules japanese
clear_board
play b a2
play w a3
play w b2
play w b1
490 play b a1
#?error [illegal move: suicide]

# --- Mutual capture: the mover chooses whose stones go --------------------------------------
# White A1 has only A2 left; Black A3 would join A2 with no liberty left either.
tengen-rules prejudgement
clear_board
play w a1
play b b1
play w b2
play b a3
play w b3
play w a4
500 tengen-play b a2 self
#?

510 showboard
#? [.*\n 3 \. O \. \. \. 3\n 2 \. O \. \. \. 2\n 1 O X \. \. \. 1\n.*captured by black 0, by white 2]

# The record marks the choice, and reads back into the same position.
520 printsgf
#? [.*;B\[ad\]RM\[own\]\)\n?]

printsgf own.sgf
clear_board
530 loadsgf own.sgf
#? [white]

540 showboard
#? [.*\n 3 \. O \. \. \. 3\n 2 \. O \. \. \. 2\n 1 O X \. \. \. 1\n.*captured by black 0, by white 2]

550 undo
#?

560 tengen-play b a2 opponent
#?

570 showboard
#? [.*\n 3 X O \. \. \. 3\n 2 X O \. \. \. 2\n 1 \. X \. \. \. 1\n.*captured by black 1, by white 0]

undo
# Plain play removes the opponent's stones.
580 play b a2
#?

590 showboard
#? [.*\n 2 X O \. \. \. 2\n 1 \. X \. \. \. 1\n.*captured by black 1, by white 0]

undo
600 tengen-play b a2 neither
#?error [syntax error: removal must be self or opponent]

610 tengen-play b a2
#?error [syntax error: usage: tengen-play .*]

620 tengen-play b i5 self
#?error [syntax error: bad vertex i5]

625 tengen-play b z9 self
#?error [illegal move: off board]

630 tengen-play b a5 self x
#?error [syntax error: usage: tengen-play .*]

640 tengen-play b b2 self
#?error [illegal move: occupied]

650 tengen-play x a2 self
#?error [syntax error: color.*]

660 showboard
#? [.*\n 2 \. O \. \. \. 2\n 1 O X \. \. \. 1\n.*move 6,.*]

# Under the other rulesets the mover has no choice: `self` is refused, `opponent` is `play`.
tengen-rules chinese
670 tengen-play b a2 self
#?error [illegal move: under chinese rules a mutual capture always removes the opponent's stones]

680 tengen-play b a2 opponent
#?

690 showboard
#? [.*\n 2 X O \. \. \. 2\n 1 \. X \. \. \. 1\n.*]
