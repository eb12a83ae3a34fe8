# Protocol: administrative commands, argument parsing, standard error texts, and the rule that a
# refused command changes nothing.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress (a numbered command is a test, `#? [regex]` must match its whole answer).
# Project extension used here: `#?error [regex]` expects a `?` answer whose message matches the
# regex (gogui-regress cannot expect errors, so this file runs only under tests/gtp_scripts.rs).

10 protocol_version
#? [2]

20 name
#? [tengen]

30 version
#? [\d+\.\d+\.\d+]

40 known_command play
#? [true]

50 known_command kgs-genmove_cleanup
#? [true]

60 known_command frobnicate
#? [false]

# list_commands is exact: one name per line, every standard command the controllers look for.
70 list_commands
#? [(?:[^\n]*\n)?protocol_version\n(?:[^\n]*\n)*genmove\n(?:[^\n]*\n)*undo\n(?:[^\n]*\n)*final_status_list\n(?:[^\n]*\n)*set_free_handicap\n(?:[^\n]*\n)*time_left\n(?:[^\n]*\n)*loadsgf\n(?:[^\n]*\n)*reg_genmove(?:\n[^\n]*)*]

80 list_commands
#? [[a-z_\-]+(?:\n[a-z_\-]+)*]

90 frobnicate
#?error [unknown command]

100 PLAY b c3
#?error [unknown command]

# Arguments: missing, extra, malformed.
110 play b
#?error [syntax error.*]

120 play b c3 c4
#?error [syntax error.*]

130 boardsize
#?error [syntax error.*]

140 boardsize nine
#?error [syntax error.*]

150 known_command
#?error [syntax error.*]

160 protocol_version 2
#?error [syntax error.*]

# Board size: 2 to 25.
170 boardsize 26
#?error [unacceptable size.*]

180 boardsize 1
#?error [unacceptable size.*]

190 boardsize 99999999999999999999999999
#?error [syntax error.*|unacceptable size.*]

200 boardsize 25
#?

210 boardsize 2
#?

# Komi: any whole or half number, kept by boardsize and clear_board.
220 komi 7
#?

230 komi 0
#?

240 komi -3.5
#?

250 komi lots
#?error [syntax error.*]

260 komi nan
#?error [syntax error.*]

# The rules count in half points: a komi between them is refused, the komi left as it was.
262 komi 6.75
#?error [komi must be a whole or half number.*]

264 komi 0.1
#?error [komi must be a whole or half number.*]

boardsize 9
clear_board
270 showboard
#? [.*komi -3\.5,.*]

# Colours and vertices: any case, no column I, pass.
280 play B d4
#?

290 play white Q16
#?error [illegal move: off board]

300 play w e5
#?

310 play BLACK pass
#?

320 play W Pass
#?

330 play b j9
#?

340 play b i5
#?error [syntax error.*]

350 play b A0
#?error [syntax error.*]

360 play b A10
#?error [illegal move: off board]

370 play purple c3
#?error [syntax error.*]

# Either colour may move several times in a row.
380 play b c3
#?

390 play b c4
#?

400 play b c5
#?

# An illegal move is refused and changes nothing.
410 play w c3
#?error [illegal move: occupied]

420 printsgf
#? [.*;B\[df\] ;W\[ee\] ;B\[\] ;W\[\] ;B\[ia\] ;B\[cg\] ;B\[cf\] ;B\[ce\]\)]

# undo takes back one move at a time, passes included, and stops at the start.
430 undo
#?

440 printsgf
#? [.*;B\[ia\] ;B\[cg\] ;B\[cf\]\)]

clear_board
450 undo
#?error [cannot undo]

# genmove answers a vertex and plays it; reg_genmove answers without playing.
boardsize 5
clear_board
460 reg_genmove b
#? [[A-E][1-5]|pass]

470 printsgf
#? [!.*;[BW]\[.*]

480 genmove b
#? [[A-E][1-5]]

490 printsgf
#? [.*;B\[[a-e][a-e]\]\)]

500 genmove w
#? [[A-E][1-5]]

510 genmove purple
#?error [syntax error.*]

# Rulesets by name.
520 tengen-rules
#? [chinese]

530 tengen-rules Japanese
#?

540 tengen-rules
#? [japanese]

550 tengen-rules go-moku
#?error [unknown rules 'go-moku' \(supported: japanese, chinese, prejudgement, aga, new_zealand, tromp-taylor\)]

560 kgs-rules go-moku
#?error [unsupported rules 'go-moku' \(supported: japanese, chinese, aga, new_zealand\)]

570 kgs-rules chinese
#?

580 tengen-rules
#? [chinese]

# Time: GTP's settings with their special cases, KGS's forms, CPU time.
590 time_settings 0 1 0
#?

600 time_settings 300 30 5
#?

610 time_settings 60 0 0
#?

620 time_settings 60 -1 0
#?error [syntax error.*]

630 time_left b 120 0
#?

640 time_left w -2 0
#?

650 time_left green 10 0
#?error [syntax error.*]

660 kgs-time_settings none
#?

670 kgs-time_settings absolute 600
#?

680 kgs-time_settings byoyomi 600 30 5
#?

690 kgs-time_settings canadian 600 300 25
#?

700 kgs-time_settings byoyomi 600
#?error [syntax error.*]

710 kgs-time_settings fischer 600 10
#?error [syntax error.*]

720 cputime
#? [\d+\.\d+]

# Perft counts from the current position; depths that would take forever are refused.
boardsize 2
clear_board
730 tengen-perft 0
#? [1]

740 tengen-perft 1
#? [5]

tengen-rules prejudgement
750 tengen-perft 2
#? [12]

tengen-rules chinese
boardsize 19
clear_board
760 tengen-perft 40
#?error [depth 40 is too deep here.*]

770 tengen-perft -1
#?error [syntax error.*]

780 tengen-perft 1
#? [362]

790 quit
#?
