#!/bin/sh
# Runs the GTP scripts of this directory under GoGui's own runner, gogui-regress, after
# rewriting the two extensions that only tests/gtp_scripts.rs understands:
#   - a numbered command followed by `#?error [regex]` (an expected `?` answer, which
#     gogui-regress cannot expect) loses its number: it is still sent, in its place, and its error
#     is counted in gogui-regress's "Error" column instead of failing a test;
#   - a command followed by a bare `#>` (an empty line sent during it, which is what ends a live
#     analysis) is left out with its pattern, since gogui-regress sends nothing while it waits;
#     other `#>` lines (`#> # interrupt`) are dropped, and the command runs to its end.
# Everything else runs as written. The rewritten copies and gogui-regress's HTML report go to a
# scratch directory, which is printed.
#
# Usage: gtp-scripts/gogui-regress.sh GOGUI_REGRESS_JAR [TENGEN] [SCRIPT.tst...]
#   GOGUI_REGRESS_JAR  gogui-regress.jar of a GoGui build (lib/gogui-regress.jar)
#   TENGEN             the engine binary [default: target/release/tengen]
# The engine runs with the fixed flags of tests/gtp_scripts.rs. Exit status: gogui-regress's
# (0 when no test failed unexpectedly).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
jar=${1:?usage: $0 GOGUI_REGRESS_JAR [TENGEN] [SCRIPT.tst...]}
shift
tengen=${1:-$here/../target/release/tengen}
[ $# -gt 0 ] && shift
tengen=$(cd "$(dirname "$tengen")" && pwd)/$(basename "$tengen")
work=$(mktemp -d "${TMPDIR:-/tmp}/tengen-gogui-regress.XXXXXX")
cp "$here"/*.sgf "$work"/
if [ $# -eq 0 ]; then
  set -- "$here"/*.tst
fi
names=
for script in "$@"; do
  name=$(basename "$script")
  awk '
    function flush() { if (held) print pending; held = 0 }
    /^#\?error/ {
      if (held) { sub(/^[0-9]+[ \t]+/, "", pending); flush() }
      print "# expected error (run here as a plain command): " substr($0, 9)
      next
    }
    /^#>[ \t]*$/ {
      if (held) { print "# left out (needs a line sent during it): " pending; held = 0; skip = 1 }
      print "# " $0
      next
    }
    /^#>/ { next }
    /^#\?/ && skip { print "# " $0; next }
    /^#/ || /^[ \t]*$/ { flush(); skip = 0; print; next }
    { flush(); skip = 0; pending = $0; held = 1 }
    END { flush() }
  ' "$script" > "$work/$name"
  names="$names $name"
done
mkdir -p "$work/html"
echo "gogui-regress in $work" >&2
cd "$work"
# shellcheck disable=SC2086
java -jar "$jar" -long -output html \
  "$tengen --threads 1 --seed 1 --playouts 300 --no-resign" $names
