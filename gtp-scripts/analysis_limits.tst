# Limits of live analysis (KataGo's maxVisitsPondering and maxTimePondering, as
# --analysis-visits and --analysis-seconds), the visit limit of a move (maxVisits, as --visits),
# KataGo's stop and clear_cache, and kata-analyze's ownershipStdev and movesOwnership.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the project extensions of tests/gtp_scripts.rs: `#?error [regex]`
# expects a `?` answer, `#>` sends an empty line right behind the command (ending an analysis,
# but only after 100 playouts). With --seed no tree is kept between searches.

10 known_command stop
#? [true]

20 known_command clear_cache
#? [true]

30 list_commands
#? [.*^stop$.*^clear_cache$.*]

# Nothing runs: stop and clear_cache answer at once.
40 stop
#? []

50 clear_cache
#? []

60 stop now
#?error [syntax error: stop takes no arguments]

# No limits unless set (KataGo's 2^50 and 1e20 for none).
70 kata-get-param maxVisits
#? [1125899906842624]

80 kata-get-param maxVisitsPondering
#? [1125899906842624]

90 kata-get-param maxTimePondering
#? [1e\+20]

boardsize 9
play b e5
play w c3

# An analysis limit below the 100 playouts an analysis runs before the next line stops it: the
# search stops at it (one thread: exactly).
100 kata-set-param maxVisitsPondering 60
#? []

110 kata-analyze b 0 rootInfo true
#>
#? [info move .* rootInfo visits 60 winrate .*]

120 kata-set-param maxVisitsPondering 1125899906842624
#? []

130 kata-get-param maxVisitsPondering
#? [1125899906842624]

140 kata-set-param maxTimePondering 0.5
#? []

150 kata-get-param maxTimePondering
#? [0\.5]

160 kata-set-param maxTimePondering 0
#?error [Could not set params: '0' is not a number of seconds from 0\.001 \(1e\+20 or more: no limit\)]

170 kata-get-param maxTimePondering
#? [0\.5]

# A move's visit limit: the first limit reached (here before the 300 playouts) ends a search.
# GoGui's top moves say this search's playouts and the root's visits.
180 kata-set-param maxVisits 120
#? []

190 kata-get-param maxVisits
#? [120]

200 tengen-top_moves b
#? [(?:LABEL(?: [A-HJ][1-9] \d+%)+\n)?TEXT 120 playouts, 120 visits: [A-HJ][1-9] \d+\.\d% \(\d+ visits\)(?:, (?:[A-HJ][1-9]|pass) \d+\.\d% \(\d+ visits\))*]

210 kata-set-param maxVisits 0
#?error [Could not set params: '0' is not a whole number from 1 to .*]

# A visit limit alone bounds a move: maxTime may be none.
kata-set-param maxPlayouts 1125899906842624
220 kata-set-param maxTime 1e20
#? []

230 kata-get-param maxTime
#? [1e\+20]

240 genmove b
#? [[A-HJ][1-9]]

# Leela Zero's Visits option sets the same limit (0: none).
250 lz-setoption name Visits value 0
#? []

260 kata-get-param maxVisits
#? [1125899906842624]

270 lz-setoption name Visits value 80
#? []

280 kata-get-param maxVisits
#? [80]

290 lz-setoption name Visits value -1
#?error [incorrect value]

300 kata-get-param maxVisits
#? [80]

# ownershipStdev: one value per point in [0, 1] after the ownership; movesOwnership: each move's
# own ownership in its info block, after its pv (and pvVisits).
310 kata-analyze w 0 maxmoves 2 ownership true ownershipStdev true movesOwnership true pvVisits true
#>
#? [info move [A-HJ][1-9] visits \d+ [^\n]* pv [A-HJ1-9 pas]+ pvVisits [\d ]+ movesOwnership(?: -?[01]\.\d{4}){81} info move [A-HJ][1-9] visits \d+ [^\n]* pv [A-HJ1-9 pas]+ pvVisits [\d ]+ movesOwnership(?: -?[01]\.\d{4}){81} ownership(?: -?[01]\.\d{4}){81} ownershipStdev(?: [01]\.\d{4}){81}]

# Each alone.
320 kata-analyze w 0 ownershipStdev true
#>
#? [info move [^\n]* pv [^\n]* ownershipStdev(?: [01]\.\d{4}){81}]

330 kata-analyze w 0 movesOwnership TRUE
#>
#? [info move [^\n]* pv [A-HJ1-9 pas]+ movesOwnership(?: -?[01]\.\d{4}){81}(?: info move [^\n]* pv [A-HJ1-9 pas]+ movesOwnership(?: -?[01]\.\d{4}){81})*]

340 kata-analyze w 0 movesOwnership false ownershipStdev false
#>
#? [![^\n]*(?:movesOwnership|ownershipStdev)[^\n]*]

350 kata-analyze w 0 movesOwnership maybe
#?error [syntax error: movesOwnership must be true or false, not 'maybe']

360 lz-analyze w 0 ownershipStdev true
#?error [syntax error: unexpected 'ownershipStdev']

370 kata-genmove_analyze w 0 movesOwnership true
#? [info move [^\n]* movesOwnership(?: -?[01]\.\d{4}){81}[^\n]*\nplay [A-HJ][1-9]]
