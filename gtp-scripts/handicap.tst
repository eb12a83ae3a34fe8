# Handicap: fixed placements (GTP's table: corners on the 3rd line up to 12x12 and on the 4th
# from 13x13; 2-9 stones on odd boards from 9x9, 2-4 on 7x7 and even boards), the engine's free
# placement, the controller's free placement, and handicap sent as plain Black moves.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).

# Vertex lists come in board order: top row first, left to right.
boardsize 19
clear_board
10 fixed_handicap 2
#? [(?:D4 Q16|Q16 D4)]

clear_board
20 fixed_handicap 9
#? [D16 K16 Q16 D10 K10 Q10 D4 K4 Q4]

clear_board
30 fixed_handicap 5
#? [D16 Q16 K10 D4 Q4]

clear_board
40 fixed_handicap 6
#? [D16 Q16 D10 Q10 D4 Q4]

clear_board
50 fixed_handicap 7
#? [D16 Q16 D10 K10 Q10 D4 Q4]

clear_board
60 fixed_handicap 8
#? [D16 K16 Q16 D10 Q10 D4 K4 Q4]

# Handicap stones are not moves: White is to move, and they cannot be undone.
70 showboard
#? [.*handicap 8, move 0, white to move.*]

80 undo
#?error [cannot undo]

90 fixed_handicap 2
#?error [board not empty]

clear_board
100 fixed_handicap 10
#?error [invalid number of stones.*]

110 fixed_handicap 1
#?error [invalid number of stones.*]

120 fixed_handicap 0
#?error [invalid number of stones.*]

130 fixed_handicap two
#?error [syntax error.*]

140 fixed_handicap
#?error [syntax error.*]

boardsize 13
clear_board
150 fixed_handicap 4
#? [D10 K10 D4 K4]

boardsize 9
clear_board
160 fixed_handicap 9
#? [C7 E7 G7 C5 E5 G5 C3 E3 G3]

boardsize 12
clear_board
170 fixed_handicap 4
#? [C10 K10 C3 K3]

clear_board
180 fixed_handicap 5
#?error [invalid number of stones.*]

boardsize 7
clear_board
190 fixed_handicap 4
#? [C5 E5 C3 E3]

clear_board
200 fixed_handicap 5
#?error [invalid number of stones.*]

boardsize 6
clear_board
210 fixed_handicap 2
#?error [invalid number of stones.*]

# A stone on the board, or a move played, rules handicap out.
boardsize 9
clear_board
play w e5
220 fixed_handicap 2
#?error [board not empty]

undo
play b pass
230 fixed_handicap 2
#?error [board not empty]

# The engine's own free placement: corners (the second stone opposite the first), then sides,
# the centre for odd counts, each point chosen by short searches among the star point and the
# 3-4 points of its corner (a 3-4 point must beat the star point clearly); then well-spread
# points, each stone distinct and on the board. A corner's candidates on 19x19: lower left
# D4 C4 D3, upper right Q16 R16 Q17, upper left D16 C16 D17, lower right Q4 R4 Q3.
boardsize 19
clear_board
232 place_free_handicap 2
#? [(?:Q16|R16|Q17) (?:D4|C4|D3)]

clear_board
234 place_free_handicap 5
#? [(?:D16|C16|D17) (?:Q16|R16|Q17) K10 (?:D4|C4|D3) (?:Q4|R4|Q3)]

clear_board
236 place_free_handicap 6
#? [(?:D16|C16|D17) (?:Q16|R16|Q17) (?:D10 Q10|K16 K4) (?:D4|C4|D3) (?:Q4|R4|Q3)|(?:D16|C16|D17) K16 (?:Q16|R16|Q17) (?:D4|C4|D3) K4 (?:Q4|R4|Q3)]

clear_board
240 place_free_handicap 4
#? [(?:D16|C16|D17) (?:Q16|R16|Q17) (?:D4|C4|D3) (?:Q4|R4|Q3)]

clear_board
250 place_free_handicap 13
#? [[A-HJ-T]\d+(?: [A-HJ-T]\d+){12}]

260 place_free_handicap 2
#?error [board not empty]

clear_board
270 place_free_handicap 1
#?error [invalid number of stones.*]

280 place_free_handicap 361
#?error [invalid number of stones.*]

# On 9x9 the corners' 3-3 points, sides and centre: nothing crowded, nothing on the first two
# lines.
boardsize 9
clear_board
282 place_free_handicap 5
#? [C7 G7 E5 C3 G3]

clear_board
284 place_free_handicap 7
#? [C7 G7 C5 E5 G5 C3 G3|C7 E7 G7 E5 C3 E3 G3]

clear_board
286 place_free_handicap 9
#? [C7 E7 G7 C5 E5 G5 C3 E3 G3]

# A tiny board gives fewer stones than asked once every free point would touch one (GTP allows
# it).
boardsize 3
clear_board
290 place_free_handicap 8
#? [\w+ \w+(?: \w+)*]

# The controller's free placement.
boardsize 9
clear_board
300 set_free_handicap c3 G7 e5
#? []

310 showboard
#? [.*handicap 3, move 0, white to move.*]

320 set_free_handicap d4 d5
#?error [board not empty]

clear_board
330 set_free_handicap c3
#?error [bad vertex list.*]

340 set_free_handicap c3 c3
#?error [bad vertex list.*]

350 set_free_handicap c3 pass
#?error [bad vertex list.*]

360 set_free_handicap c3 z9
#?error [bad vertex list.*]

370 set_free_handicap c3 i3
#?error [bad vertex list.*]

380 set_free_handicap
#?error [syntax error.*]

# Nothing of the refused placements stayed.
390 showboard
#? [.*handicap 0, move 0, black to move.*]

# Handicap sent as Black moves (Sabaki without set_free_handicap, OGS) becomes handicap at
# White's first move: it is written as HA/AB and counted with the compensation.
play b c3
play b g7
play b g3
400 genmove w
#? [[A-HJ]\d]

410 printsgf
#? [.*HA\[3\]AB\[gc\]\[cg\]\[gg\].*\n;W\[[a-i][a-i]\]\)]

# Every move a controller sent stays undoable one by one (GUIs navigate with undo); undoing
# back to White's first move makes the handicap plain moves again.
boardsize 9
clear_board
play b e5
play b j9
play b d4
play w pass
412 showboard
#? [.*handicap 3, move 1,.*]

413 undo
#? []

414 showboard
#? [.*handicap 0, move 3, white to move.*]

415 undo
#? []

416 undo
#? []

417 undo
#? []

418 showboard
#? [.*handicap 0, move 0, black to move.*]

419 undo
#?error [cannot undo]

# Black stones followed by a Black pass, or by White stones, stay moves.
clear_board
play b c3
play b pass
play w g7
420 showboard
#? [.*handicap 0, move 3,.*]

# Handicap under the pre-judgement rules is refused: their opening placements replace it.
tengen-rules prejudgement
clear_board
430 fixed_handicap 2
#?error [invalid number of stones.*]

440 set_free_handicap c3 g7
#?error [invalid number of stones.*]
