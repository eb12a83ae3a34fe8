# tengen-perft refuses what it cannot count in a second or so, even where captures reopen points
# so often that the moves now legal say little about the count (3×3 at depth 10 has 1.3e8
# sequences), and still counts what it can.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches.
boardsize 3
clear_board
kata-set-rules japanese

10 tengen-perft 10
#?error [depth 10 is too deep here.*]

20 tengen-perft 3
#? [738]

30 showboard
#? [.*move 0, black to move.*]
