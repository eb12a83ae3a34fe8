# The area rulesets other programs name, as KataGo defines them: Tromp-Taylor (the board counted
# as it stands), New Zealand and AGA (situational superko; AGA gives White N-1 points for N
# handicap stones), through kata-set-rules, kgs-rules and tengen-rules.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the project extension `#?error [regex]` for expected errors.

boardsize 5

# Tromp-Taylor: positional superko, suicide legal, no dead stones lifted, komi 7.5.
10 kata-set-rules tromp-taylor
#? []

20 kata-get-rules
#? [\{"friendlyPassOk":false,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]

30 showboard
#? [.*rules tromp-taylor, komi 7\.5,.*]

# Black owns columns A-C, White D-E, and a dead White stone sits on A5. Tromp-Taylor counts it
# as it stands: Black 5 stones, White 10 + A5, and A1-B5 reach both colours (W+13.5).
play b c1
play w d1
play b c2
play w d2
play b c3
play w d3
play b c4
play w d4
play b c5
play w d5
play w a5
40 final_score
#? [W\+13\.5]

50 final_status_list dead
#? []

# Under Chinese rules A5 is lifted: Black 15, White 10.
kata-set-rules chinese
60 final_score
#? [W\+2\.5]

70 final_status_list dead
#? [A5]

# New Zealand (KGS's name): situational superko, suicide legal, komi 7.
clear_board
100 kgs-rules new_zealand
#? []

110 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]

120 showboard
#? [.*rules new_zealand, komi 7,.*]

# Black walls off A1-B1 (White to move). White A1, Black passes, White B1 removes both White
# stones: the position after Black's C1 again, but with Black to move, which it never had.
play b a2
play w e5
play b b2
play w e4
play b c1
play w a1
play b pass
130 play w b1
#?

140 showboard
#? [.*captured by black 2,.*]

# White A1 again would repeat the position after White's first A1 with Black to move.
play b pass
150 play w a1
#?error [illegal move: superko \(repeats an earlier position\)]

# Positional superko (Tromp-Taylor) refuses the suicide that recreates the earlier position.
undo
undo
160 kata-set-rules tromp-taylor
#? []

170 play w b1
#?error [illegal move: superko \(repeats an earlier position\)]

180 showboard
#? [.*captured by black 0,.*]

# AGA (KGS's name): komi 7.5, one point for each handicap stone after the first.
clear_board
190 kgs-rules aga
#? []

200 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SITUATIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N-1"\}]

210 tengen-rules
#? [aga]

# Two handicap stones on an empty 5x5: Black 25 points, White 7.5 + 1.
set_free_handicap b2 d4
220 final_score
#? [B\+16\.5]

# Chinese rules give a point per stone: 7.5 + 2.
kgs-rules chinese
230 final_score
#? [B\+15\.5]

# A one-stone suicide is refused under every superko rule.
clear_board
tengen-rules new_zealand
play b a2
play w e5
play b b1
240 play w a1
#?error [illegal move.*]

# Back to the first position: with komi 0 Black wins by lifting A5 (B+5); under Tromp-Taylor it
# has to capture the stone first, so after White's pass it does not pass.
boardsize 5
komi 0
play b c1
play w d1
play b c2
play w d2
play b c3
play w d3
play b c4
play w d4
play b c5
play w d5
play w a5
play w pass
250 tengen-rules tromp-taylor
#? []

260 genmove b
#? [[A-E][1-5]]
