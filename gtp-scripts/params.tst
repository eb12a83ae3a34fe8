# Settings while running: KataGo's kata-list-params / kata-get-param / kata-set-param (KataGo's
# names where KataGo has the setting, tengen's own otherwise) and Leela Zero's lz-setoption.
# Every value is checked; a refused one changes nothing.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the project extension `#?error [regex]` for expected errors.

10 kata-list-params
#? [maxPlayouts maxVisits maxTime maxVisitsPondering maxTimePondering numSearchThreads ponderingEnabled allowResignation lagBuffer resignBelow maxMemory level]

# The command line's settings.
20 kata-get-param maxPlayouts
#? [300]

30 kata-get-param numSearchThreads
#? [1]

40 kata-get-param allowResignation
#? [false]

50 kata-get-param ponderingEnabled
#? [false]

60 kata-get-param lagBuffer
#? [1\.0]

70 kata-get-param resignBelow
#? [0\.1]

80 kata-get-param maxMemory
#? [1024]

# A playout limit and no time limit: KataGo's "none".
90 kata-get-param maxTime
#? [1e\+20]

100 kata-get-param maxVisitsTotal
#?error [Invalid parameter: maxVisitsTotal]

110 kata-set-param maxPlayouts 50
#? []

120 kata-get-param maxPlayouts
#? [50]

130 kata-set-param maxTime 0.5
#? []

140 kata-get-param maxTime
#? [0\.5]

150 kata-set-param numSearchThreads 2
#? []

160 kata-get-param numSearchThreads
#? [2]

170 kata-set-param allowResignation true
#? []

180 kata-set-param resignBelow 0.05
#? []

190 kata-get-param resignBelow
#? [0\.05]

200 kata-set-param lagBuffer 0.25
#? []

210 kata-get-param lagBuffer
#? [0\.25]

# Refused values change nothing.
220 kata-set-param numSearchThreads 0
#?error [Could not set params: '0' is not a whole number from 1 to 1024]

230 kata-set-param maxPlayouts lots
#?error [Could not set params: .*]

240 kata-set-param resignBelow 1.5
#?error [Could not set params: .*]

250 kata-set-param ponderingEnabled maybe
#?error [Could not set params: 'maybe' is not true or false]

260 kata-set-param cpuctExploration 1.0
#?error [Could not set params: Unrecognized or non-overridable parameter in kata-set-params: cpuctExploration]

270 kata-get-param numSearchThreads
#? [2]

280 kata-get-param maxPlayouts
#? [50]

# A search obeys the new limits.
boardsize 9
290 genmove b
#? [[A-HJ][1-9]]

# Playouts past KataGo's 2^50 mean none; then maxTime bounds the move alone.
300 kata-set-param maxPlayouts 1125899906842624
#? []

310 kata-get-param maxTime
#? [0\.5]

# No limit at all is refused.
320 kata-set-param maxTime 1e20
#?error [Could not set params: no time limit without a maxPlayouts or maxVisits limit]

# A negative time is refused with a short message (no 309-digit bound), as is a fraction of a
# millisecond.
325 kata-set-param maxTime -1
#?error [Could not set params: '-1' is not a number of seconds from 0\.001 \(1e\+20 or more: no limit\)]

326 kata-set-param maxTime 0.0001
#?error [Could not set params: '0\.0001' is not a number of seconds from 0\.001 .*]

# Leela Zero: the options list, then the names as it spells them (any case).
330 lz-setoption
#? [\n?option name Maximum Memory Use \(MiB\) type spin .*\noption name Pondering type check default false]

340 lz-setoption name Playouts value 200
#? []

350 kata-get-param maxPlayouts
#? [200]

# Pondering with a playout limit is refused, as Leela Zero refuses it.
360 lz-setoption name pondering value true
#?error [incorrect value]

370 lz-setoption name playouts value 0
#? []

380 lz-setoption name pondering value true
#? []

390 kata-get-param ponderingEnabled
#? [true]

400 lz-setoption name playouts value 100
#?error [incorrect value]

410 lz-setoption name Pondering value false
#? []

420 lz-setoption name Lagbuffer value 50
#? []

430 kata-get-param lagBuffer
#? [0\.5]

440 lz-setoption name Resign Percentage value 0
#? []

450 kata-get-param allowResignation
#? [false]

460 lz-setoption name Resign Percentage value 20
#? []

470 kata-get-param resignBelow
#? [0\.2]

480 kata-get-param allowResignation
#? [true]

490 lz-setoption name Resign Percentage value 31
#?error [incorrect value]

500 lz-setoption name Maximum Memory Use (MiB) value 256
#? [Setting max tree size to 256 MiB\.]

510 kata-get-param maxMemory
#? [256]

520 lz-setoption name Maximum Memory Use (MiB) value 64
#?error [incorrect value]

530 lz-setoption name Visitz value 100
#?error [Unknown option]

540 lz-setoption Playouts value 100
#?error [incorrect syntax for lz-setoption]

550 known_command kata-set-param
#? [true]
