# Chinese rules: positional superko, suicide illegal, area counting, komi 7.5 by default, one
# point per handicap stone to White.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).

boardsize 9
clear_board

# The engine's default ruleset, with its usual komi.
10 tengen-rules
#? [chinese]

20 showboard
#? [.*rules chinese, komi 7\.5,.*]

# A ko: Black takes at E5; White may not retake at once.
play b c5
play w e6
play b d6
play w e4
play b d4
play w f5
play w d5
30 play b e5
#?

40 play w d5
#?error [illegal move: ko]

# After both pass, the retake would recreate an earlier whole-board position: superko forbids it,
# and the refusal changes nothing.
play w pass
play b pass
50 play w d5
#?error [illegal move: superko \(repeats an earlier position\)]

60 showboard
#? [.*move 10, white to move.*]

# Suicide is illegal, for one stone or several.
clear_board
play w a2
play w b1
70 play b a1
#?error [illegal move: suicide]

clear_board
play w a3
play b a2
play w b2
play w b1
80 play b a1
#?error [illegal move: suicide]

# Area counting: stones plus surrounded points. Black captured White's A5 stone and owns the
# whole 5x5 board.
boardsize 5
clear_board
komi 0
play b b5
play w a5
play b a4
90 final_score
#? [B\+25]

# Handicap: White gets one point per handicap stone at the count.
boardsize 9
clear_board
komi 0.5
fixed_handicap 2
100 final_score
#? [B\+78\.5]

# The same stones sent as moves (as Sabaki does without set_free_handicap) become handicap
# stones at White's first move.
clear_board
play b c3
play b g7
play w pass
110 showboard
#? [.*handicap 2, move 1,.*]

120 final_score
#? [B\+78\.5]
