# Dead groups whose eye space is too small, at the end of real games (two passes; the
# records of games played against another engine, names removed). Random playouts that never
# fill an eye space with a dead shape saw each of these groups live, and the count came out
# the wrong way round; the expected counts and dead stones are GNU Go 3.8's
# (`final_score`, `final_status_list dead`, --chinese-rules).
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress.

# Black's lower-left group: its eye space is the square four A3 B3 A2 B2, White's B2 inside.
loadsgf end_nakade_1.sgf
10 final_score
#? [W\+10\.5]

20 final_status_list dead
#? [A4 B4 C4 C3 C2 A1 B1 C1 D1]

# White's lower-left group: the eye space B2 B1 C1 C2, Black's C2 inside, holds one eye; and
# the lone White C9.
loadsgf end_nakade_2.sgf
30 final_score
#? [B\+25\.5]

40 final_status_list dead
#? [C9\nA4 D4 A3 B3 C3 D3 A2 D2 E2 A1 D1 E1\nG2 H2]

# White's lower-right group: the eye space J3 H2 J2 J1, Black's J2 inside, holds one eye.
loadsgf end_nakade_3.sgf
50 final_score
#? [B\+7\.5]

60 final_status_list dead
#? [H4 J4 F3 G3 H3 F2 G2 D1 E1 F1 G1 H1]

# White's big left-side group: its eye space is the square four B9 C9 B8 C8, Black's B9 inside.
loadsgf end_nakade_4.sgf
70 final_score
#? [B\+39\.5]

80 final_status_list dead
#? [A9 D9 A8 D8 E8 A7 B7 C7 D7 E7 A6 C6 D6 E6 F6 G6 A5 C5 D5 E5 A4\nA2]

# No seki: White's ten stones F9-J6 and Black's H9 H8 share their only liberties G9 G8 J9, and
# neither has an eye. Black fills G8, then sacrifices G9: the four stones White takes leave it
# a square four (and if White fills G8 first, Black's G9 leaves it a bent three): one eye.
loadsgf shared_liberties_dead.sgf
90 final_score
#? [B\+21\.5]

100 final_status_list dead
#? [F9 F8 J8 F7 G7 H7 J7 F6 G6 J6]

110 final_status_list seki
#? []

# Seki, not nakade: Black's A2 and B1 share B2 with White's lower-left wall, which has its own
# eye at D1. Black A1 (a square four with B2) or B2 would let White capture and make a second
# eye, and White B2 or D1 would put the wall in atari: nobody can move, so nothing here is dead
# but White's D7 (tengen counted A2 B1 dead and the game W+6.5 before the nakade fill learned
# to look for a second eye).
loadsgf seki_corner_eye.sgf
120 final_score
#? [B\+0\.5]

130 final_status_list dead
#? [D7]

140 final_status_list seki
#? [C4 A3 B3 C3 D3 C2 D2 E2 C1 E1 F1\nA2\nB1]

# Seki with a false eye: White's wall has C9 and A6, White's B9 has A9 and C9, Black's corner
# A8 B8 A7 B7 has A9 and A6. Whoever approaches loses; White filling its false eye C9 would turn
# Black's A6 into a killing nakade, and Black's A6 or A9 now only gets the corner captured, after
# which C9 is a real eye. Only C2 is dead (tengen counted White's wall dead, B+73.5, before
# the playouts learned both). GNU Go counts B+10.5.
loadsgf seki_false_eye.sgf
150 final_status_list dead
#? [C2]

160 final_status_list seki
#? [B9\nD9 E9 F9 C8 D8 E8 C7 D7 B6 C6 A5 B5 C5 D5 F5 A4 D4 E4 F4 G4 J4 E3 F3 G3 H3 J3 F2 J2 J1\nA8 B8 A7 B7]

170 final_score
#? [B\+.*]

# A capture race lost against an eye space: Black's centre group E5 … F1 has three liberties
# (F4 G2 G1), White's lower-left group three too (A1 B2 C1) around Black's B1. Black moving
# first fills the pyramid four A1 B1 C1 B2 too slowly and White wins by one move; the playouts,
# filling in no particular order, saw Black win half the time (tengen counted W+3.5 with
# nothing dead). GNU Go counts W+52.5.
loadsgf semeai_nakade.sgf
180 final_status_list dead
#? [E5 D4 E4 E3 F3 G3 F2 E1 F1\nB1]

190 final_score
#? [W\+52\.5]

# A group with no room for two eyes, dead to the side to move: White's top stones F9, E8 and
# G8 F7 G7 inside Black's wall, Black to move after two passes. Black's F8 splits them and
# every piece is in atari or short of liberties; the playouts found F8 in no particular order
# and kept the stones about half the time (tengen counted W+21.5 with nothing dead). The
# reading asks whether the side to move captures them by force. GNU Go counts W+0.5.
loadsgf split_dead.sgf
200 final_status_list dead
#? [F9\nE8\nG8 F7 G7]

210 final_score
#? [W\+0\.5]

# A capture race among many groups (19×19): White's E18 F18 G18 F17 on the top edge have three
# liberties, Black's E17 … G15 next to them three too, Black to move and winning by a move.
# Eight groups take part, and reading every line to its end spent the reader's budget before
# it found the short win (tengen counted W+17.5 with those stones alive); the reading now
# deepens in steps. GNU Go counts W+0.5.
loadsgf race_crowded.sgf
220 final_status_list dead
#? [P19\nR19\nB18 B17\nE18 F18 G18 F17\nD17 C16 D16 C15\nP15 P14 P13\nS15\nN13\nR13]

230 final_score
#? [W\+0\.5]
