#!/bin/sh
# The strength ruler: tengen takes Black with a fixed handicap on 19×19 against KataGo's network
# at one visit a move (the referee kit's `ruler.cfg`), Chinese rules, and the handicap follows a
# staircase: one stone fewer after a win, one more after a loss. Up to nine stones a handicap of
# N is N stones and komi 0.5; past nine, each further stone is 14 points of reverse komi (a move's
# worth, twice the usual komi) with the nine stones: 10 is nine stones and komi -13.5. The
# handicap at which tengen wins half is where the staircase settles: the mean handicap of the
# games from the first reversal on (Dixon and Mood's up-and-down method).
#
#     tests/ruler.sh GAMES START [TENGEN ARGS...]   e.g.  tests/ruler.sh 12 9 --threads 1 --playouts 6000
#
# A fixed playout count keeps the ruler independent of the machine's load (KataGo's one visit is);
# 6,000 playouts is about 1.8 s a move of one thread on 19×19.
#
# Needs a release build (copied first, so a rebuild cannot change the player mid-run) and the kit:
# `source /work/katago/env.sh` after `../shared/referee/katago-setup.sh`, i.e. KATAGO_BIN,
# KATAGO_MODEL and KATAGO_RULER_CFG set. Records and logs go to $OUT (default target/ruler);
# one line a game, then the estimate.
set -eu
games=$1 handicap=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/target/ruler}
mkdir -p "$out"
cp "${TENGEN:-$root/target/release/tengen}" "$out/tengen"
katago="$KATAGO_BIN gtp -model $KATAGO_MODEL -config $KATAGO_RULER_CFG"
last= reversed= sum=0 counted=0 wins=0
for n in $(seq 1 "$games"); do
    dir=$out/game-$n
    mkdir -p "$dir"
    stones=$handicap komi=0.5
    if [ "$handicap" -gt 9 ]; then
        stones=9 komi=$(echo "0.5 - 14 * ($handicap - 9)" | bc)
    fi
    "$out/tengen" match --black "$out/tengen $*" --white "$katago" --games 1 --size 19 \
        --rules chinese --handicap "$stones" --komi="$komi" --fixed-colours --sgf-dir "$dir" \
        --seed "$n" >"$dir/match.log" 2>"$dir/stderr.log" || true
    if grep -q "^summary: A 1 wins" "$dir/match.log"; then
        result=win
    elif grep -q "^summary: A 0 wins, B 1 wins" "$dir/match.log"; then
        result=loss
    else
        echo "game $n at handicap $handicap: no result (see $dir)"
        continue
    fi
    [ -n "$last" ] && [ "$result" != "$last" ] && reversed=yes
    if [ -n "$reversed" ]; then
        sum=$((sum + handicap)) counted=$((counted + 1))
    fi
    [ "$result" = win ] && wins=$((wins + 1))
    echo "game $n at handicap $handicap ($stones stones, komi $komi): tengen $result ($(grep '^game 1' "$dir/match.log" | head -1))"
    last=$result
    if [ "$result" = win ]; then
        [ "$handicap" -gt 2 ] && handicap=$((handicap - 1))
    else
        handicap=$((handicap + 1))
    fi
done
echo "tengen won $wins of $games"
if [ "$counted" -gt 0 ]; then
    echo "handicap for half the games: $(echo "scale=2; $sum / $counted" | bc) (mean of $counted games from the first reversal)"
else
    echo "no reversal yet: the staircase has not reached the handicap that wins half"
fi
