#!/bin/sh
# The counting corpus (tests/MEASUREMENTS.md, "The count against two referees"): finished
# games (two passes, nobody resigning) of tengen and GNU Go, then each record's count and dead
# stones asked of tengen and of GNU Go 3.8, and the differences listed.
#
#     tests/counting.sh play SIZE RULES GAMES PAIR...   e.g.  tests/counting.sh play 9 chinese 20 3:gnugo1
#     tests/counting.sh check DIR...                     e.g.  tests/counting.sh check target/counting/*
#
# `play`: a pair `A:B` plays engine A against engine B, colours alternating, komi 7.5 (Chinese)
# or 6.5 (Japanese); an engine is `gnugoN` (GNU Go at level N), `N` (tengen --level N, one
# thread, --no-resign) or `pachi` ($PACHI, a command that runs Pachi 12.90 from its own folder,
# at 0.5 s a move, one thread, never resigning). Records go to $OUT/SIZE-RULES-A-B (default OUT=target/counting).
# `check`: for every game-*.sgf in the directories (their rules from the directory's name),
# `loadsgf`, `final_score` and `final_status_list dead` of tengen (`--threads 1 --seed 1
# --playouts 300 --no-resign`, as the gtp-scripts run it) and of GNU Go; prints one line per
# record (`same` or `DIFF` with both answers) and a summary line per directory. Where the two
# differ, ask KataGo (../shared/referee) which is right.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tengen=${TENGEN:-$root/target/release/tengen}
gnugo=${GNUGO:-/usr/games/gnugo}
out=${OUT:-$root/target/counting}

engine() { # NAME RULES
    case $1 in
    gnugo*) echo "$gnugo --mode gtp --$2-rules --level ${1#gnugo}" ;;
    pachi) echo "${PACHI:?set PACHI to a Pachi 12.90 command} -t 0.5 threads=1 resign_threshold=0" ;;
    *) echo "$tengen --threads 1 --no-resign --level $1" ;;
    esac
}

# The answers of one engine to loadsgf, final_score, final_status_list dead, on one line each
# (the dead list's lines joined by spaces, sorted).
answers() { # ENGINE-COMMAND FILE
    printf 'loadsgf %s\nfinal_score\nfinal_status_list dead\nquit\n' "$2" | $1 2>/dev/null |
        awk 'BEGIN { n = 0 }
             /^[=?]/ { n++; sub(/^[=?] ?/, ""); text[n] = $0; next }
             /^$/ { next }
             { text[n] = text[n] " " $0 }
             END { print text[2]; print text[3] }' |
        { read -r score; read -r dead || dead=""
          echo "$score|$(echo "$dead" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')"; }
}

case ${1:-} in
play)
    size=$2 rules=$3 games=$4
    shift 4
    komi=7.5
    [ "$rules" = japanese ] && komi=6.5
    for pair in "$@"; do
        a=${pair%%:*} b=${pair#*:}
        dir=$out/$size-$rules-$a-$b
        mkdir -p "$dir"
        "$tengen" match --black "$(engine "$a" "$rules")" --white "$(engine "$b" "$rules")" \
            --games "$games" --size "$size" --komi "$komi" --rules "$rules" --sgf-dir "$dir" \
            --referee "$gnugo --mode gtp --$rules-rules" >"$dir/match.log" 2>&1 || true
        echo "$dir: $(grep -c 'two passes' "$dir/match.log") games ended by two passes"
    done
    ;;
check)
    shift
    for dir in "$@"; do
        case $dir in
        *japanese*) rules=japanese ;;
        *) rules=chinese ;;
        esac
        same=0 total=0
        for f in "$dir"/game-*.sgf; do
            [ -e "$f" ] || continue
            # Only games that ended by two passes: their records end with two passes.
            grep -q 'two passes' "$f" || continue
            t=$(answers "$tengen --threads 1 --seed 1 --playouts 300 --no-resign --rules $rules" "$f")
            g=$(answers "$gnugo --mode gtp --$rules-rules" "$f")
            total=$((total + 1))
            if [ "$t" = "$g" ]; then
                same=$((same + 1))
                echo "same $f $t"
            else
                echo "DIFF $f tengen $t gnugo $g"
            fi
        done
        echo "$dir: $same of $total the same"
    done
    ;;
*)
    sed -n '2,17p' "$0" >&2
    exit 2
    ;;
esac
