# Scoring: final_score and final_status_list on finished games, under both counting methods.
# The expected counts are GNU Go 3.8's on the same positions (`loadsgf`, `final_score` with
# --chinese-rules and --japanese-rules).
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress (runs under gogui-regress as well: no expected errors here).

# An empty board: nobody's points, so White wins by the komi.
boardsize 9
clear_board
komi 7.5
10 final_score
#? [W\+7\.5]

komi 0
20 final_score
#? [0]

30 final_status_list dead
#? []

# A game with a dead White group in the top right and a dead Black stone at C5.
loadsgf game_dead_stones.sgf
tengen-rules chinese
40 final_score
#? [W\+4\.5]

50 final_status_list dead
#? [H8 J8 H7 H6\nC5]

60 final_status_list seki
#? []

70 final_status_list alive
#? [.*C9.*]

tengen-rules japanese
80 final_score
#? [W\+5\.5]

# The same count does not depend on the komi chosen before the file (the file's KM[7.5] wins).
komi 0.5
90 final_score
#? [B\+1\.5]

# A game with one dead White stone (G7) and prisoners on both sides.
loadsgf game_dead_stone.sgf
tengen-rules chinese
100 final_score
#? [W\+2\.5]

110 final_status_list dead
#? [G7]

tengen-rules japanese
120 final_score
#? [W\+3\.5]

# Seki: Black's B7 A6 B6 and White's nine stones share the liberty C7. Area counting gives each
# its eye; territory counting gives seki eyes to nobody.
loadsgf seki.sgf
tengen-rules chinese
130 final_score
#? [B\+28]

140 final_status_list seki
#? [B7 A6 B6\nD7 F7 C6 D6 E6 F6 A5 B5 C5]

150 final_status_list dead
#? []

160 final_status_list alive
#? [G7 G6 D5 E5 F5 G5 A4 B4 C4 D4]

tengen-rules japanese
170 final_score
#? [B\+24]

# A handicap game: under area counting Black's three stones count and White gets three points
# for them; under territory counting neither, so both give the same margin here.
boardsize 9
clear_board
komi 0.5
fixed_handicap 3
tengen-rules chinese
180 final_score
#? [B\+77\.5]

tengen-rules japanese
190 final_score
#? [B\+77\.5]

# From a Japanese 9x9 game against GNU Go (tengen's match, two passes): White's A7 B7 are in
# atari inside Black's wall and Black's upper-left group has two liberties. Bare random playouts
# left the race to chance (about half each way), so A7 B7 stayed on the board and the shared
# liberty made a "seki" worth 22 points to White; play settles it at once (Black takes A6), and
# GNU Go, the referee, counts W+1.5 with A7 B7 and B3 dead and no seki.
210 loadsgf atari_not_seki.sgf
#? [black]

220 final_status_list dead
#? [A7 B7\nB3]

230 final_status_list seki
#? []

240 final_score
#? [W\+1\.5]
