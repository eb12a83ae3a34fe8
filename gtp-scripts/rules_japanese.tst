# Japanese rules (1989): basic ko only, suicide illegal, territory counting with prisoners,
# komi 6.5 by default.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).

tengen-rules japanese
boardsize 9
clear_board

# A fresh engine takes the ruleset's usual komi.
10 showboard
#? [.*rules japanese, komi 6\.5,.*]

# A ko: Black takes at E5; White may not retake at once.
play b c5
play w e6
play b d6
play w e4
play b d4
play w f5
play w d5
20 play b e5
#?

30 play w d5
#?error [illegal move: ko]

# After both pass, the retake recreates an earlier whole-board position. Japanese rules forbid
# only the immediate retake, so it is legal.
play w pass
play b pass
40 play w d5
#?

# Suicide is illegal.
clear_board
play w a2
play w b1
50 play b a1
#?error [illegal move: suicide]

# Territory counting: empty points surrounded by one side plus its prisoners. Black captures
# White's A5 stone; the whole board is Black's: 23 points of territory and 1 prisoner.
boardsize 5
clear_board
komi 0
play b b5
play w a5
play b a4
60 final_score
#? [B\+24]

70 final_status_list dead
#? []

80 final_status_list alive
#? [B5 A4|A4 B5|B5\nA4]

# A chosen komi survives a change of ruleset; the ruleset's own komi does not.
tengen-rules chinese
90 final_score
#? [B\+25]
