# Live analysis (lz-analyze, kata-analyze and the genmove_analyze forms) and GoGui's analysis
# commands: the format of every reply, argument errors, and interrupts.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the two project extensions of tests/gtp_scripts.rs: `#?error
# [regex]` expects a `?` answer, and `#> text` sends a raw line right behind the command (`#>`
# alone an empty line, which ends an analysis; `#> # interrupt` GoGui's interrupt). An analysis
# stopped at once still answers with one full line. This file runs only under that runner.
#
# Vertices on 9x9: [A-HJ][1-9] or pass. Every info block ends with its principal variation.

boardsize 9
clear_board
komi 7.5
play b e5
play w c3

# Leela Zero's form: integer win rates, priors and bounds in ten-thousandths.
10 lz-analyze b 10
#>
#? [info move (?:[A-HJ][1-9]|pass) visits \d+ winrate \d{1,5} prior \d{1,5} lcb \d{1,5} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:[A-HJ][1-9]|pass) visits \d+ winrate \d{1,5} prior \d{1,5} lcb \d{1,5} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)*(?:\ninfo move (?:[A-HJ][1-9]|pass) visits \d+ winrate \d{1,5} prior \d{1,5} lcb \d{1,5} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:[A-HJ][1-9]|pass) visits \d+ winrate \d{1,5} prior \d{1,5} lcb \d{1,5} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)*)*]

# Without a colour or an interval (the side to move, no reports until the end).
20 lz-analyze
#>
#? [info move [A-HJ][1-9] visits \d+ winrate \d+ [^\n]*(?:\n[^\n]*)*]

# A bare interval without a colour.
30 lz-analyze 25
#>
#? [info move [^\n]*(?:\n[^\n]*)*]

# KataGo's form: floats that always have a decimal point, score leads, and the ownership of all
# 81 points after the moves.
40 kata-analyze w 10 ownership true
#>
#? [info move (?:[A-HJ][1-9]|pass) visits \d+ winrate [01]\.\d{6} scoreMean -?\d+\.\d{3} scoreLead -?\d+\.\d{3} prior [01]\.\d{6} lcb [01]\.\d{6} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:[A-HJ][1-9]|pass) visits \d+ winrate [01]\.\d{6} scoreMean -?\d+\.\d{3} scoreLead -?\d+\.\d{3} prior [01]\.\d{6} lcb [01]\.\d{6} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)* ownership(?: -?[01]\.\d{4}){81}(?:\ninfo move (?:[A-HJ][1-9]|pass) visits \d+ winrate [01]\.\d{6} scoreMean -?\d+\.\d{3} scoreLead -?\d+\.\d{3} prior [01]\.\d{6} lcb [01]\.\d{6} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:[A-HJ][1-9]|pass) visits \d+ winrate [01]\.\d{6} scoreMean -?\d+\.\d{3} scoreLead -?\d+\.\d{3} prior [01]\.\d{6} lcb [01]\.\d{6} order \d+ pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)* ownership(?: -?[01]\.\d{4}){81})*]

# maxmoves caps the blocks of a line, minmoves fills up with unvisited moves.
50 kata-analyze b 10 maxmoves 1
#>
#? [info move [A-HJ][1-9] visits \d+ winrate \S+ scoreMean \S+ scoreLead \S+ prior \S+ lcb \S+ order 0 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?:\ninfo move [A-HJ][1-9] visits \d+ winrate \S+ scoreMean \S+ scoreLead \S+ prior \S+ lcb \S+ order 0 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)*]

60 lz-analyze b 10 minmoves 6
#>
#? [[^\n]* order 5 pv [^\n]*(?:\n[^\n]*)*]

# allow keeps Black to the listed points at the first move; avoid keeps it off them (here,
# off every point but C7 and G7).
70 lz-analyze b 10 allow b c7,g7 1
#>
#? [info move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 0 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 1 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)?(?:\ninfo move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 0 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 1 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)?)*]

80 lz-analyze b 10 avoid b A1,B1,C1,D1,E1,F1,G1,H1,J1,A2,B2,C2,D2,E2,F2,G2,H2,J2,A3,B3,D3,E3,F3,G3,H3,J3,A4,B4,C4,D4,E4,F4,G4,H4,J4,A5,B5,C5,D5,F5,G5,H5,J5,A6,B6,C6,D6,E6,F6,G6,H6,J6,A7,B7,D7,E7,F7,H7,J7,A8,B8,C8,D8,E8,F8,G8,H8,J8,A9,B9,C9,D9,E9,F9,G9,H9,J9,pass 1
#>
#? [info move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 0 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 1 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)?(?:\ninfo move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 0 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*(?: info move (?:C7|G7) visits \d+ winrate \d+ prior \d+ lcb \d+ order 1 pv (?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*)?)*]

# Bad arguments: a syntax error naming the token, and no analysis (the engine answers the next
# command at once).
90 lz-analyze b 10 frobnicate
#?error [syntax error: unexpected 'frobnicate']

100 lz-analyze b 10 ownership true
#?error [syntax error: unexpected 'ownership']

110 kata-analyze b 10 ownership maybe
#?error [syntax error: ownership must be true or false, not 'maybe']

120 kata-analyze b 1x
#?error [syntax error: bad interval '1x'.*]

130 lz-analyze b 10 avoid b d4,z9 1
#?error [syntax error: bad vertex 'z9' in avoid list]

140 lz-analyze b 10 avoid b d4 1 allow b e4 1
#?error [syntax error: avoid and allow together for black]

150 kata-analyze b 10 maxmoves
#?error [syntax error: maxmoves needs a value]

160 lz-analyze purple
#?error [syntax error: unexpected 'purple']

# The position is unchanged by all of that: two moves played, Black to move.
170 showboard
#? [.*move 2, black to move.*]

# The genmove forms: info lines, then the move, which is played.
180 kata-genmove_analyze b 10
#? [(?:info move [^\n]*\n)*play (?:[A-HJ][1-9]|pass)|play resign]

190 showboard
#? [.*move 3, white to move.*]

200 lz-genmove_analyze w 10
#? [(?:info move [A-HJ][1-9] visits \d+ winrate \d+ [^\n]*\n)*play (?:[A-HJ][1-9]|pass)|play resign]

# The pre-judgement opening fixes the colour: the other one is refused before anything starts.
tengen-rules prejudgement
clear_board
210 kata-genmove_analyze b 10
#?error [illegal move: .*]

tengen-rules chinese
clear_board
play b e5
play w c3

# GoGui: the analysis menu, each entry's command one of ours.
220 gogui-analyze_commands
#? [gfx/Ownership and dead stones/tengen-ownership %m\nvar/Principal variation/tengen-pv %m\ngfx/Top moves \(win rate, visits\)/tengen-top_moves %m\nstring/Rules and score estimate/tengen-estimate\nplist/Dead stones/final_status_list dead]

230 gogui-interrupt
#? []

240 tengen-ownership b
#? [INFLUENCE(?: [A-HJ][1-9] -?[01]\.\d\d){81}(?:\nMARK(?: [A-HJ][1-9])+)?\nTEXT chinese rules, komi 7\.5: (?:[BW]\+\d+(?:\.5)?|0) by the median of \d+ playouts through (?:[A-HJ][1-9]|pass) \(mean (?:[BW]\+\d+(?:\.5)?|0)\), Black wins \d+%]

250 tengen-pv b
#? [(?:[A-HJ][1-9]|pass)(?: (?:[A-HJ][1-9]|pass))*]

260 tengen-top_moves w
#? [(?:LABEL(?: [A-HJ][1-9] \d+%)+\n)?TEXT \d+ playouts, \d+ visits: [A-HJ][1-9] \d+\.\d% \(\d+ visits\)(?:, (?:[A-HJ][1-9]|pass) \d+\.\d% \(\d+ visits\))*]

270 tengen-estimate
#? [chinese rules, komi 7\.5: (?:[BW]\+\d+(?:\.5)?|0) by the median of \d+ playouts through (?:[A-HJ][1-9]|pass) \(mean (?:[BW]\+\d+(?:\.5)?|0)\), Black wins \d+%]

280 tengen-pv purple
#?error [syntax error: .*]

# GoGui's interrupt during a search: answered, and the next command too.
290 genmove b
#> # interrupt
#? [[A-HJ][1-9]|pass]

300 name
#? [tengen]

# Black stones sent as moves before White's first (Sabaki and GoGui send handicap so when
# set_free_handicap is not used) are analysed as handicap stones; the record stays as sent, so
# the controller can still undo them, until White's first move makes them handicap.
boardsize 9
clear_board
play b c3
play b g7
310 kata-analyze w 10
#>
#? [info move [^\n]*(?:\n[^\n]*)*]

320 showboard
#? [.*rules chinese, komi 7\.5, handicap 0, move 2, white to move.*]

undo
play b g7
play w e5
330 showboard
#? [.*rules chinese, komi 7\.5, handicap 2, move 1, black to move.*]

340 printsgf
#? [.*HA\[2\]AB\[gc\]\[cg\]\s*;W\[ee\].*]

# Two allow lists for one colour are refused (say the points in one list).
350 kata-analyze b 10 allow b a1 2 allow b b2 2
#?error [syntax error: allow given twice for black]

# Analysis for the colour that may not move in the pre-judgement opening is refused.
tengen-rules prejudgement
clear_board
360 kata-analyze b 10
#?error [illegal move: .*]

tengen-rules chinese

# A finished game under Japanese rules with dame left, Black kept to a pass: the dame that
# Black would fill before passing are not allowed, so the move is the pass.
loadsgf counting_open_area_2.sgf
kata-set-rules japanese
370 kata-genmove_analyze b allow b pass 1
#? [(?:info move pass [^\n]*\n)*play pass]

# The same when White has just passed (the end of the game offered).
undo
play w pass
380 kata-genmove_analyze b allow b pass 1
#? [(?:info move pass [^\n]*\n)*play pass]
kata-set-rules chinese
