# SGF records: loadsgf reads the main line (first variation at every branch) of FF[4] files with
# setup stones, handicap, komi and RU; MOVE stops before that move number; a file that cannot be
# read leaves the current game untouched. printsgf writes the game back.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress. Project extension used here: `#?error [regex]` expects a `?` answer
# whose message matches the regex (runs only under tests/gtp_scripts.rs).

# loadsgf answers the colour to move, as GNU Go does.
10 loadsgf variations.sgf
#? [black]

20 tengen-rules
#? [japanese]

30 printsgf
#? [.*SZ\[9\]KM\[0\.5\]RU\[Japanese\].*\n;B\[ee\] ;W\[cc\] ;B\[gg\] ;W\[cg\] ;B\[gc\] ;W\[\]\)]

40 loadsgf variations.sgf 3
#? [black]

50 printsgf
#? [.*\n;B\[ee\] ;W\[cc\]\)]

60 loadsgf variations.sgf 1
#? [black]

70 printsgf
#? [!.*;[BW]\[.*]

# A move number past the end reads the whole game.
80 loadsgf variations.sgf 1000
#? [black]

90 loadsgf variations.sgf 0
#?error [syntax error.*]

100 loadsgf variations.sgf three
#?error [syntax error.*]

# A move number past what a number holds is too large, not too small.
105 loadsgf variations.sgf 99999999999999999999999999
#?error [syntax error: the move number is too large]

# Handicap: HA with the root's AB gives handicap stones (White moves first, compensated under
# area counting).
110 loadsgf handicap.sgf
#? [black]

120 showboard
#? [.*rules chinese, komi 0\.5, handicap 2, move 3, black to move.*]

130 printsgf
#? [.*HA\[2\]AB\[jd\]\[dj\].*\n;W\[jj\] ;B\[dd\] ;W\[gg\]\)]

# Setup stones in the root and before the first move, AE included, with compressed point lists.
140 loadsgf setup.sgf
#? [white]

150 showboard
#? [.*\n 5 X \. \. \. \. 5\n 4 O O \. \. \. 4\n 3 \. \. X \. \. 3\n 2 \. \. \. O X 2\n 1 \. \. \. \. O 1\n.*komi 7,.*]

160 printsgf
#? [.*AB\[aa\]\[cc\]AW\[ab\]\[bb\]\[dd\]\n;W\[ee\] ;B\[ed\]\)]

# RU names a pre-judgement game: its opening order is checked while loading.
170 loadsgf prejudgement.sgf
#? [black]

180 tengen-rules
#? [prejudgement]

190 showboard
#? [.*komi -6\.5,.*move 5,.*]

# An RU that is not one of tengen's rulesets keeps the configured one.
tengen-rules chinese
200 loadsgf unknown_rules.sgf
#? [black]

210 tengen-rules
#? [chinese]

# RU[AGA] (as KGS and other programs write it) is the AGA ruleset: N-1 points for N stones.
212 loadsgf aga.sgf
#? [white]

214 tengen-rules
#? [aga]

216 showboard
#? [.*rules aga, komi 7\.5, handicap 2,.*]

# Bad files: an error, and the game as it was. Load a known position first.
220 loadsgf variations.sgf 3
#? [black]

230 loadsgf broken.sgf
#?error [cannot load file: property Q has no value]

240 loadsgf offboard.sgf
#?error [cannot load file: move 2: point 'jj' is off the 9x9 board]

250 loadsgf occupied.sgf
#?error [cannot load file: move 3 \(B cc\) is illegal: occupied]

260 loadsgf big_board.sgf
#?error [cannot load file: board size 26 is not supported.*]

270 loadsgf chess.sgf
#?error [cannot load file: GM\[3\] is not a game of Go]

280 loadsgf no-such-file.sgf
#?error [cannot load file: no-such-file\.sgf: .*]

290 loadsgf .
#?error [cannot load file: \.: not a regular file]

300 loadsgf
#?error [syntax error.*]

310 printsgf
#? [.*RU\[Japanese\].*\n;B\[ee\] ;W\[cc\]\)]

# printsgf FILE writes a file that loads back to the same game; after two passes the result is
# recorded.
boardsize 9
clear_board
komi 6.5
tengen-rules chinese
play b e5
play w c3
play b pass
play w pass
320 printsgf written.sgf
#? []

clear_board
330 loadsgf written.sgf
#? [black]

340 printsgf
#? [.*KM\[6\.5\]RU\[Chinese\]RE\[[BW]\+\d+(\.5)?\]\n;B\[ee\] ;W\[cg\] ;B\[\] ;W\[\]\)]

350 printsgf /no/such/directory/x.sgf
#?error [cannot write file: .*]

360 printsgf a b
#?error [syntax error.*]

# Never into a device or a pipe (here the protocol stream itself).
370 printsgf /dev/stdout
#?error [cannot write file: /dev/stdout: not a regular file]
