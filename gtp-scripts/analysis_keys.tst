# KataGo's extra kata-analyze keys: rootInfo (the search's visits, win rate and lead after the
# info blocks), pvVisits and pvEdgeVisits (the visits of each position along each PV, after it).
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress with the project extensions of tests/gtp_scripts.rs: `#?error [regex]`
# expects a `?` answer, `#>` sends an empty line right behind the command (ending the analysis).

boardsize 9
play b e5
play w c3

10 kata-analyze b 0 maxmoves 2 rootInfo true pvVisits true pvEdgeVisits true
#>
#? [info move [A-HJ][1-9] visits (\d+) winrate [01]\.\d{6} scoreMean \S+ scoreLead \S+ prior \S+ lcb \S+ order 0 pv [A-HJ][1-9](?: (?:[A-HJ][1-9]|pass))* pvVisits \d+(?: \d+)* pvEdgeVisits \d+(?: \d+)* info move [A-HJ][1-9] visits \d+ .* order 1 pv [^a-z]* pvVisits [\d ]+ pvEdgeVisits [\d ]+ rootInfo visits [1-9]\d* winrate [01]\.\d{6} scoreMean -?\d+\.\d{3} scoreLead -?\d+\.\d{3}]

# rootInfo comes before the ownership, as KataGo prints them.
20 kata-analyze w 0 ownership true rootInfo TRUE
#>
#? [info .* rootInfo visits \d+ winrate \S+ scoreMean \S+ scoreLead \S+ ownership(?: -?[01]\.\d{4}){81}]

# Asked false, or not asked: absent.
30 kata-analyze b 0 rootInfo false pvVisits false
#>
#? [!.*(?:rootInfo|pvVisits).*]

40 kata-genmove_analyze b 0 rootInfo true pvVisits true
#? [info .* pvVisits .* rootInfo visits \d+ winrate \S+ scoreMean \S+ scoreLead \S+\nplay [A-HJ][1-9]]

50 kata-analyze b 0 pvEdgeVisits maybe
#?error [syntax error: pvEdgeVisits must be true or false, not 'maybe']

# Leela Zero's dialect has no such keys.
60 lz-analyze b 0 rootInfo true
#?error [syntax error: unexpected 'rootInfo']
