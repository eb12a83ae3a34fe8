# KataGo's time settings: kata-time_settings takes KGS's kinds and Fischer time (plain and
# capped), in seconds with decimals; kata-list_time_settings names them. tests/clock.rs plays
# games under these clocks and checks the time taken.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the project extension `#?error [regex]` for expected errors.

10 kata-list_time_settings
#? [none absolute byoyomi canadian fischer fischer-capped]

20 kata-time_settings fischer 300 10
#? []

30 kata-time_settings fischer-capped 300.5 10.25 600 30
#? []

# A negative limit means none.
40 kata-time_settings fischer-capped 300 10 -1 -1
#? []

50 kata-time_settings none
#? []

60 kata-time_settings byoyomi 600 30 5
#? []

70 kata-time_settings canadian 600 300 25
#? []

80 kata-time_settings absolute 1800
#? []

90 kata-time_settings fischer-capped 300 10 200 30
#?error [the main time limit is smaller than the main time]

100 kata-time_settings fischer 300
#?error [syntax error: usage: kata-time_settings .*]

110 kata-time_settings fischer -5 10
#?error [syntax error: '-5' is not a number of seconds]

120 kata-time_settings bronstein 300 10
#?error [syntax error: usage: kata-time_settings .*]

# Fischer time is KataGo's extension only.
130 kgs-time_settings fischer 300 10
#?error [syntax error: usage: kgs-time_settings .*]

# Under Fischer time `time_left` reports the main time, with 0 stones.
kata-time_settings fischer 300 10
140 time_left b 287.5 0
#? []

150 known_command kata-time_settings
#? [true]
