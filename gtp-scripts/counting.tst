# Finished games (two passes) whose count tengen gets wrong, from the counting corpus: matches
# of tengen and GNU Go at several levels on 9×9, 13×13 and 19×19 under Chinese and Japanese
# rules, judged by GNU Go 3.8 (`final_score`, `final_status_list dead`) and by KataGo 1.18.1
# (b10c384 network) where tengen and GNU Go differ. The expected answers are the referees'
# wherever the two agree. Names of the players removed.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress; `*` marks a known failure, to be lifted when the judgement reads it.

# 13×13, Chinese rules, Black to move. White's top-right group L12 J11 K11 L11 M11 has five
# liberties (J10 L10 L13 M12 N11) and room toward the open corner and the right edge, shut in
# by Black's J12 K12 above and K10 M10 below. Both referees count it dead, B+1.5 (GNU Go and
# KataGo alike; KataGo's dead list is GNU Go's). The flat playouts are unsure of it (it kept
# 54% of them) and the readers find no kill in its open space; tengen counted it alive,
# W+35.5. A search by Black, the side to move, loses it in 71% of its playouts.
tengen-rules chinese
loadsgf counting_eye_space_1.sgf
10 final_score
#? [B\+1\.5]

20 final_status_list dead
#? [L12 J11 K11 L11 M11\nG7]

# 9×9, Chinese rules, Black to move (tengen at level 3 against GNU Go level 1). White's top
# right group G9 G8 E7 F7 G7 H7 J7 H6 has four liberties: H9 and H8 of a corner eye space that
# holds Black's J8, F6 inside Black's wall, and J6 on the edge that Black's area surrounds. Both
# referees count it dead with A3 A2, B+5.5 (KataGo: the same dead list). tengen's playouts
# kept it, W+25.5, and the race reader found no capture: Black must first take J5 from outside
# the fight, then J6, and only then the corner. The life reader (tactics::life) walls off the
# edge the playouts give Black and finds that sequence; J8 then lives inside the dead group.
tengen-rules chinese
loadsgf counting_eye_space_2.sgf
15 final_score
#? [B\+5\.5]

16 final_status_list dead
#? [G9 G8 E7 F7 G7 H7 J7 H6\nA3 A2]

# 13×13, Chinese rules, White to move (tengen at level 3 against GNU Go level 1). Black's top
# group E13 E12 G12 H12 E11 F11 G11 E10 has its eye space along the first line, D13 and F13 to
# K13, with White's F12 in atari inside it. Both referees count it dead, W+2.5 (KataGo: the
# same dead list; GNU Go's owl reading: White kills at H13, and Black cannot live even moving
# first). The flat playouts kept the group (B+45.5), and no reader settles it: the kill runs
# past ten plies through the weak White groups around it. A search by White, the side to
# move, finds H13 and its playouts lose the group in 70% of them.
tengen-rules chinese
loadsgf counting_eye_space_3.sgf
17 final_score
#? [W\+2\.5]

18 final_status_list dead
#? [E13 E12 G12 H12 E11 F11 G11 E10\nC9\nF9 F8\nK7\nJ6 J5 J4\nK3 L3\nH2]

# 19×19, Japanese rules, komi 6.5, White to move (tengen at level 4 against GNU Go level 1).
# Black's lower-left group C4 B3 C3 C2 D2 has four liberties and an open corner whose empty
# points run up the first line to Black's B9 group, past White's B4 B6 B8. Both referees count
# it dead (the same 64 dead stones), B+22.5; tengen keeps it and gives Black the corner,
# B+74.5: its space runs too far for the life reader, and the playouts keep it.
tengen-rules japanese
loadsgf counting_eye_space_4.sgf
19 final_score
#? [B\+22\.5]*

# 19×19, Chinese rules (tengen at level 6 against GNU Go level 1). White's sixteen stones at the
# top (J18 K18 L18 N18 O18 J17 M17 N17 J16 K16 M16 K15 M15 N15 O15 P15) are shut in by Black's,
# with Black's L17 L16 L15 among them. Both referees count them dead, W+18.5 (KataGo: the same
# 39 dead stones); tengen keeps them, W+82.5: a race of big groups inside the opponent's area
# that neither the race reader nor the life reader settles.
tengen-rules chinese
loadsgf counting_race_19.sgf
21 final_score
#? [W\+18\.5]*

# 19×19, Chinese rules (tengen at level 6 against GNU Go level 1), Black to move. White's six
# stones on the second line at the top (L18 to Q18, with N17), Black's K18 and R18 at their ends:
# "six die, eight live", Black hanes at K19 and R19 and places inside. Both referees count them
# dead, W+0.5 (KataGo: the same 40 dead stones); tengen keeps them, W+23.5.
tengen-rules chinese
loadsgf counting_second_line_six.sgf
22 final_score
#? [W\+0\.5]*

# 9×9, Chinese rules, Black to move, a game that ended with open borders (GNU Go at level 0
# passed early). White's B9, C8 D8 and B7 lie inside Black's top-left, around Black's A8, with
# two to four liberties each and no eye space: both referees count them dead with C5, B+13.5.
# The flat playouts are unsure of them (about even) and the race reader proves no capture of
# any one of them, so tengen kept them and its seki finder listed them and A8 as seki, W+18.5.
# A search by Black, the side to move, takes them in 99% of its playouts.
tengen-rules chinese
loadsgf counting_open_area_1.sgf
30 final_score
#? [B\+13\.5]

40 final_status_list dead
#? [B9\nC8 D8\nB7\nC5]

# 9×9, Chinese rules, White to move, open borders again: White's H8, G7 and H6 are loose
# stones in Black's right side, which Black's F-column wall and G5 H5 close only in part. Both
# referees count them dead with C8, B+23.5; tengen keeps them and gives White the right side,
# W+18.5.
tengen-rules chinese
loadsgf counting_open_area_2.sgf
50 final_score
#? [B\+23\.5]*

60 final_status_list dead
#? [C8\nH8\nG7\nH6]*

# 9×9, Japanese rules, komi 6.5, Black to move: White's lone G7 in the open top right, Black's
# F8 and the F-column wall around it. Both referees count it dead with H5, B+6.5 (KataGo's
# count with its dead list). The flat playouts leave G7 alive and gave White the top right,
# W+25.5; a search by Black, the side to move, takes it.
tengen-rules japanese
loadsgf counting_open_area_3.sgf
70 final_score
#? [B\+6\.5]

80 final_status_list dead
#? [G7\nH5]

# 19×19, Japanese rules, komi 6.5, Black to move (tengen at level 6 against GNU Go level 5). In
# the top-left corner White's ten stones hold Black's A18 and B19; White's only liberties, A17
# and C19, are theirs too. Further play would make a ko: Black connects at A19 and fills a
# shared liberty, White's capture leaves a bent four in the corner, and Black takes the ko. Under
# Japanese rules the ko is taken back only after a pass (第7条-2), so White is dead as it stands.
# Both referees count it dead, B+20.5 (KataGo: the same 26 dead stones); tengen called it seki,
# W+2.5.
tengen-rules japanese
loadsgf counting_bent_four.sgf
90 final_score
#? [B\+20\.5]

100 final_status_list dead
#? [D19 B18 C18 D18 E18 B17 C17 D17 A16 B16\nM18 M17 N17\nO18\nS16 R15 S15 S14\nN12 N11\nG11\nG5 G4 H4 G3 G2]

110 final_status_list seki
#? []
