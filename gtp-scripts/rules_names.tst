# Choosing the ruleset by the names other programs use: KataGo's kata-set-rules/kata-get-rules
# and KGS's kgs-rules, next to tengen-rules.
#
# Run by tests/gtp_scripts.rs as `tengen --threads 1 --seed 1 --playouts 300 --no-resign`.
# Format: gogui-regress, with the project extension `#?error [regex]` for expected errors.

# The default ruleset is Chinese: area counting, positional superko, a point per handicap stone.
10 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"N"\}]

20 kata-set-rules japanese
#? []

30 tengen-rules
#? [japanese]

40 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"\}]

# A ruleset change takes the new ruleset's komi unless the controller chose one.
50 kata-set-rules prejudgement
#? []

60 kata-get-rules
#? [\{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0"\}]

70 tengen-rules
#? [prejudgement]

80 kata-set-rules CHINESE
#? []

90 tengen-rules
#? [chinese]

100 kata-set-rules ing
#?error [unsupported rules 'ing' \(supported: japanese, chinese, prejudgement, aga, new_zealand, tromp-taylor\)]

110 kata-set-rules
#?error [syntax error.*]

120 kata-set-rules {"ko":"SIMPLE"}
#?error [unsupported rules .*supported: japanese, chinese, prejudgement, aga, new_zealand, tromp-taylor.*]

# KGS's names map to the same rulesets (aga and new_zealand: see rules_area.tst); others are
# refused by name.
130 kgs-rules japanese
#? []

140 tengen-rules
#? [japanese]

150 kgs-rules chinese
#? []

160 kgs-rules tromp-taylor
#?error [unsupported rules 'tromp-taylor' \(supported: japanese, chinese, aga, new_zealand\)]

170 tengen-rules
#? [chinese]
