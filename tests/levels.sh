#!/bin/sh
# Calibrates the strength levels (README's levels table): each level against the next, and
# levels against GNU Go 3.8 at levels 1, 5 and 10, on one board size, with `tengen match`.
#
#     tests/levels.sh SIZE GAMES PAIR...      e.g.  tests/levels.sh 9 20 1:2 2:3 1:gnugo1 6:gnugo10
#
# A pair `A:B` plays tengen --level A (engine A) against tengen --level B, or against GNU Go at
# the given level (`gnugoN`); `10` is full strength at the default 2 s per move. One thread each,
# colours alternating, Chinese rules, komi 7.5, GNU Go as the referee. Needs a release build and
# /usr/games/gnugo; records go to $OUT (default target/levels). Prints one summary line a pair.
set -eu
size=$1 games=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
tengen=${TENGEN:-$root/target/release/tengen}
gnugo=${GNUGO:-/usr/games/gnugo}
out=${OUT:-$root/target/levels}
mkdir -p "$out"
engine() {
    case $1 in
    gnugo*) echo "$gnugo --mode gtp --chinese-rules --level ${1#gnugo}" ;;
    *) echo "$tengen --threads 1 --level $1" ;;
    esac
}
for pair in "$@"; do
    a=${pair%%:*} b=${pair#*:}
    dir=$out/$size-$a-$b
    mkdir -p "$dir"
    "$tengen" match --black "$(engine "$a")" --white "$(engine "$b")" --games "$games" \
        --size "$size" --komi 7.5 --rules chinese --sgf-dir "$dir" \
        --referee "$gnugo --mode gtp --chinese-rules" >"$dir/match.log" 2>&1 || true
    echo "$size×$size level $a against $b: $(grep "win rate" "$dir/match.log")"
done
