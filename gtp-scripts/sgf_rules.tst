# The SGF names printsgf writes in RU for each ruleset, and loadsgf reading them back to the same
# rules: FF[4]'s AGA and NZ, KataGo's TrompTaylor, and Japanese, Chinese, Prejudgement.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress.

boardsize 9
kata-set-rules aga
play b e5
10 printsgf
#? [.*RU\[AGA\].*]

printsgf rules_aga.sgf
kata-set-rules new_zealand
20 printsgf
#? [.*RU\[NZ\].*]

printsgf rules_nz.sgf
kata-set-rules tromp-taylor
30 printsgf
#? [.*RU\[TrompTaylor\].*]

printsgf rules_tt.sgf
kata-set-rules japanese
40 printsgf
#? [.*RU\[Japanese\].*]

# Each record read back gives its ruleset (the engine is under other rules before each).
50 loadsgf rules_aga.sgf
#? [white]

60 tengen-rules
#? [aga]

kata-set-rules chinese
70 loadsgf rules_nz.sgf
#? [white]

80 tengen-rules
#? [new_zealand]

kata-set-rules chinese
90 loadsgf rules_tt.sgf
#? [white]

100 tengen-rules
#? [tromp-taylor]

110 printsgf
#? [.*RU\[TrompTaylor\].*;B\[ee\]\)]
