# Strength levels: `--level N` and the `level` setting of kata-set-param, 1 (beginner) to 10
# (full strength). Below 10 a level reads a fixed number of playouts per move and picks among
# the plausible moves.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the project extension `#?error [regex]` for expected errors.

boardsize 9
clear_board

10 kata-get-param level
#? [10]

20 kata-set-param level 0
#?error [Could not set params: '0' is not a whole number from 1 to 10]

30 kata-set-param level 11
#?error [Could not set params: '11' is not a whole number from 1 to 10]

# A refused setting changed nothing.
40 kata-get-param level
#? [10]

50 kata-set-param level 1
#? []

60 kata-get-param level
#? [1]

# A beginner still answers atari: Black's stone at E5, in atari, is saved by extending
# to E6 rather than left to die.
play b e5
play w e4
play b a1
play w d5
play b a2
play w f5
play b a3
70 genmove b
#? [E6]

80 kata-set-param level 10
#? []

90 kata-get-param level
#? [10]
