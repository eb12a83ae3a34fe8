//! Rulesets as data.
//!
//! A [`Rules`] value is a small `Copy` struct of independent fields; the presets — Japanese
//! (1989, territory), Chinese (area), pre-judgement komi, and the area rulesets AGA, New Zealand
//! and Tromp–Taylor as KataGo defines them — are just values of it. Code
//! above this layer asks a field ("is suicide legal?", "how is it counted?") and never matches on a
//! ruleset's name, so a new variant is a new constructor, not a hunt through the search.
//!
//! Scores and komi are kept in half points ([`HalfPoints`]) so that every comparison is exact.

use crate::board::Color;
use std::fmt;

/// A number of points in halves: `7.5` is `HalfPoints(15)`. Komi, margins and thresholds.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Hash, Default)]
pub struct HalfPoints(pub i32);

impl HalfPoints {
    pub const ZERO: HalfPoints = HalfPoints(0);

    /// Whole points.
    pub const fn points(n: i32) -> HalfPoints {
        HalfPoints(2 * n)
    }

    /// Parses a komi as GTP sends it (`7.5`, `-3`, `0`, `6.50`); it must be a whole or half number.
    pub fn parse(s: &str) -> Option<HalfPoints> {
        let v: f64 = s.trim().parse().ok()?;
        if !v.is_finite() || v.abs() > 10_000.0 {
            return None;
        }
        let halves = v * 2.0;
        (halves.fract() == 0.0).then_some(HalfPoints(halves as i32))
    }

    /// The nearest half point to a float (ties away from zero).
    pub fn round_from(v: f64) -> HalfPoints {
        HalfPoints((v * 2.0).round() as i32)
    }

    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl std::ops::Add for HalfPoints {
    type Output = HalfPoints;
    fn add(self, o: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 + o.0)
    }
}

impl std::ops::Sub for HalfPoints {
    type Output = HalfPoints;
    fn sub(self, o: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 - o.0)
    }
}

impl std::ops::Neg for HalfPoints {
    type Output = HalfPoints;
    fn neg(self) -> HalfPoints {
        HalfPoints(-self.0)
    }
}

impl fmt::Display for HalfPoints {
    /// `7.5`, `-3`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) {
            write!(f, "{}{}", sign, a / 2)
        } else {
            write!(f, "{}{}.5", sign, a / 2)
        }
    }
}

/// A game result or prediction as a margin for Black (negative: White ahead), in half points.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Hash, Default)]
pub struct Margin(pub HalfPoints);

impl Margin {
    /// A margin from White's point of view, e.g. the pre-judgement threshold.
    pub fn for_white(self) -> HalfPoints {
        -self.0
    }

    /// Parses GTP's score form: `B+3.5`, `W+0.5`, `0` (also `B+0`, and `W+R`-style results are not
    /// margins and are refused). The number must be a whole or half number, not negative.
    pub fn parse(s: &str) -> Option<Margin> {
        let s = s.trim();
        if s == "0" {
            return Some(Margin(HalfPoints::ZERO));
        }
        let (sign, rest) = match s.get(..2).map(|p| p.to_ascii_uppercase()) {
            Some(p) if p == "B+" => (1, &s[2..]),
            Some(p) if p == "W+" => (-1, &s[2..]),
            _ => return None,
        };
        if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_digit() || c == '.') {
            return None;
        }
        let v = HalfPoints::parse(rest)?;
        Some(Margin(HalfPoints(sign * v.0)))
    }
}

impl fmt::Display for Margin {
    /// `B+3.5`, `W+0.5`, or `0` for a draw, exactly as GTP's `final_score` prints it.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let v = self.0;
        if v.0 > 0 {
            write!(f, "B+{}", v)
        } else if v.0 < 0 {
            write!(f, "W+{}", -v)
        } else {
            f.write_str("0")
        }
    }
}

/// How repetition is limited.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum KoRule {
    /// Only the immediate retake of a single stone is forbidden; longer cycles are legal and
    /// reported (Japanese: "no result" if the players agree).
    Basic,
    /// A move may not recreate any earlier whole-board stone arrangement.
    PositionalSuperko,
    /// A move may not recreate an earlier whole-board stone arrangement that had the same side to
    /// move (AGA, New Zealand). The board's basic ko stays: with the colours alternating its
    /// retake is such a repetition anyway, and GTP's moves out of turn do not lift it.
    SituationalSuperko,
}

/// The points White receives at the count for Black's handicap stones.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum HandicapBonus {
    None,
    /// One per stone (Chinese area counting: the stones Black did not have to play).
    PerStone,
    /// One per stone after the first (AGA area counting: a handicap of N stones is N − 1 extra
    /// moves for Black, the first replacing komi).
    PerStoneAfterFirst,
}

impl HandicapBonus {
    /// The bonus for `stones` handicap stones.
    pub fn points(self, stones: usize) -> HalfPoints {
        let n = match self {
            HandicapBonus::None => 0,
            HandicapBonus::PerStone => stones,
            HandicapBonus::PerStoneAfterFirst => stones.saturating_sub(1),
        };
        HalfPoints::points(n as i32)
    }
}

/// How the final position is counted.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Scoring {
    /// Live stones plus surrounded empty points (Chinese, pre-judgement).
    Area,
    /// Surrounded empty points plus prisoners; seki eyes count for nobody (Japanese).
    Territory,
}

/// A ruleset's fields as KataGo names them (its `hasButton` is always false here).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct KataRules {
    pub ko: &'static str,
    pub scoring: &'static str,
    pub tax: &'static str,
    pub suicide: bool,
    pub white_handicap_bonus: &'static str,
    pub friendly_pass_ok: bool,
}

impl HandicapBonus {
    /// KataGo's name of a handicap bonus (`0`, `N`, `N-1`), read back.
    pub fn from_katago(name: &str) -> Option<HandicapBonus> {
        match name {
            "0" => Some(HandicapBonus::None),
            "N" => Some(HandicapBonus::PerStone),
            "N-1" => Some(HandicapBonus::PerStoneAfterFirst),
            _ => None,
        }
    }
}

/// A ruleset: every field an independent question that the game, search and scorer ask.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The preset's name, for display only (`tengen-rules`, SGF `RU`). Never branch on it.
    pub name: &'static str,
    /// Who places the first stone.
    pub first_player: Color,
    /// Whether a move that leaves its own group without liberties (capturing nothing) is legal,
    /// for one stone or many.
    pub suicide_legal: bool,
    /// Whether, when a move leaves both sides without liberties, the mover may choose to remove
    /// its own stones instead of the opponent's (the default removes the opponent's).
    pub mover_chooses_removal: bool,
    pub ko: KoRule,
    /// Number of opening stones placed freely in alternating colours from `first_player`, during
    /// which passing is not allowed (pre-judgement: 4).
    pub opening_placements: u8,
    pub scoring: Scoring,
    /// Komi used when the controller does not set one.
    pub default_komi: HalfPoints,
    /// Whether an exactly equal count is a draw (`0`). All presets allow it with an integer komi.
    pub draws: bool,
    /// What White receives at the count for the handicap stones.
    pub handicap_bonus: HandicapBonus,
    /// Whether the stones both players agree are dead are lifted at the count. Without (Tromp–
    /// Taylor) every stone on the board at the end counts as alive, so dead stones have to be
    /// captured before passing (KataGo's `friendlyPassOk`).
    pub dead_stones_lifted: bool,
    /// Whether the komi is the threshold that the players' predictions set after the opening.
    pub komi_from_predictions: bool,
    /// Whether the status of the stones at the end is confirmed by play in which a ko lost may
    /// be retaken only after a pass (Japanese 1989, 第7条-2): a bent four in the corner is dead
    /// without being played out.
    pub confirmation_ko: bool,
}

impl Rules {
    /// Japanese rules of 1989: territory counting, basic ko, suicide illegal, komi 6.5.
    pub const fn japanese() -> Rules {
        Rules {
            name: "japanese",
            first_player: Color::Black,
            suicide_legal: false,
            mover_chooses_removal: false,
            ko: KoRule::Basic,
            opening_placements: 0,
            scoring: Scoring::Territory,
            default_komi: HalfPoints(13),
            draws: true,
            handicap_bonus: HandicapBonus::None,
            dead_stones_lifted: true,
            komi_from_predictions: false,
            confirmation_ko: true,
        }
    }

    /// Chinese rules: area counting, positional superko, suicide illegal, komi 7.5 (3¾ stones).
    pub const fn chinese() -> Rules {
        Rules {
            name: "chinese",
            first_player: Color::Black,
            suicide_legal: false,
            mover_chooses_removal: false,
            ko: KoRule::PositionalSuperko,
            opening_placements: 0,
            scoring: Scoring::Area,
            default_komi: HalfPoints(15),
            draws: true,
            handicap_bonus: HandicapBonus::PerStone,
            dead_stones_lifted: true,
            komi_from_predictions: false,
            confirmation_ko: false,
        }
    }

    /// Pre-judgement komi: White first, four free placements W, B, W, B without passes, suicide
    /// legal, the mover chooses in mutual capture, positional superko, area counting, and a komi
    /// (threshold) set from the two players' predictions.
    pub const fn prejudgement() -> Rules {
        Rules {
            name: "prejudgement",
            first_player: Color::White,
            suicide_legal: true,
            mover_chooses_removal: true,
            ko: KoRule::PositionalSuperko,
            opening_placements: 4,
            scoring: Scoring::Area,
            default_komi: HalfPoints(0),
            draws: true,
            handicap_bonus: HandicapBonus::None,
            dead_stones_lifted: true,
            komi_from_predictions: true,
            confirmation_ko: false,
        }
    }

    /// AGA rules as KataGo plays them: area counting, situational superko, suicide illegal, komi
    /// 7.5, White receives N − 1 points for N handicap stones. AGA's pass stones and "White passes
    /// last" make its territory count equal to this area count, so the result is AGA's.
    pub const fn aga() -> Rules {
        Rules {
            name: "aga",
            ko: KoRule::SituationalSuperko,
            handicap_bonus: HandicapBonus::PerStoneAfterFirst,
            ..Rules::chinese()
        }
    }

    /// New Zealand rules as KataGo defines them: area counting, situational superko, suicide of
    /// one or more stones legal, komi 7, no handicap bonus.
    pub const fn new_zealand() -> Rules {
        Rules {
            name: "new_zealand",
            suicide_legal: true,
            ko: KoRule::SituationalSuperko,
            default_komi: HalfPoints(14),
            handicap_bonus: HandicapBonus::None,
            ..Rules::chinese()
        }
    }

    /// Tromp–Taylor rules: area counting of the board exactly as it stands at two passes (no
    /// stone is lifted as dead), positional superko, suicide legal, komi 7.5, no handicap bonus.
    pub const fn tromp_taylor() -> Rules {
        Rules {
            name: "tromp-taylor",
            suicide_legal: true,
            handicap_bonus: HandicapBonus::None,
            dead_stones_lifted: false,
            ..Rules::chinese()
        }
    }

    /// The preset with this name (case-insensitive; KataGo's and KGS's spellings), if any.
    pub fn by_name(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "japanese" => Some(Rules::japanese()),
            "chinese" => Some(Rules::chinese()),
            "prejudgement" | "pre-judgement" => Some(Rules::prejudgement()),
            "aga" => Some(Rules::aga()),
            "new_zealand" | "new-zealand" | "newzealand" | "new zealand" | "nz" => {
                Some(Rules::new_zealand())
            }
            "tromp-taylor" | "tromp_taylor" | "tromptaylor" | "tromp taylor" => {
                Some(Rules::tromp_taylor())
            }
            _ => None,
        }
    }

    /// This ruleset in KataGo's vocabulary of rules (`kata-get-rules`, the analysis engine's
    /// `rules` objects). Pre-judgement's own features (White first, the free placements, the
    /// predicted komi) have no KataGo field.
    pub fn katago(&self) -> KataRules {
        KataRules {
            ko: match self.ko {
                KoRule::Basic => "SIMPLE",
                KoRule::PositionalSuperko => "POSITIONAL",
                KoRule::SituationalSuperko => "SITUATIONAL",
            },
            scoring: match self.scoring {
                Scoring::Area => "AREA",
                Scoring::Territory => "TERRITORY",
            },
            // Territory counting gives the eyes of groups in seki to nobody.
            tax: match self.scoring {
                Scoring::Area => "NONE",
                Scoring::Territory => "SEKI",
            },
            suicide: self.suicide_legal,
            white_handicap_bonus: match self.handicap_bonus {
                HandicapBonus::None => "0",
                HandicapBonus::PerStone => "N",
                HandicapBonus::PerStoneAfterFirst => "N-1",
            },
            friendly_pass_ok: self.dead_stones_lifted,
        }
    }

    /// The names of the presets, for error messages and help.
    pub const NAMES: [&'static str; 6] = [
        "japanese",
        "chinese",
        "prejudgement",
        "aga",
        "new_zealand",
        "tromp-taylor",
    ];

    /// Whether the opening placement phase is still running after `stones_placed` moves.
    pub fn in_opening(&self, moves_played: usize) -> bool {
        moves_played < self.opening_placements as usize
    }

    /// Whether a pass is allowed once `moves_played` moves have been made.
    pub fn pass_allowed(&self, moves_played: usize) -> bool {
        !self.in_opening(moves_played)
    }

    /// The colour that must place the `index`-th opening stone (0-based), or `None` after the
    /// opening.
    pub fn opening_color(&self, index: usize) -> Option<Color> {
        self.in_opening(index).then(|| {
            if index.is_multiple_of(2) {
                self.first_player
            } else {
                self.first_player.opponent()
            }
        })
    }

    /// Whether repetitions beyond basic ko are forbidden.
    pub fn superko(&self) -> bool {
        self.ko != KoRule::Basic
    }

    /// Whether the eyes of groups in seki count as points (area counting) or not (territory).
    pub fn seki_eyes_count(&self) -> bool {
        self.scoring == Scoring::Area
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_parse_and_print() {
        assert_eq!(HalfPoints::parse("7.5"), Some(HalfPoints(15)));
        assert_eq!(HalfPoints::parse("-3"), Some(HalfPoints(-6)));
        assert_eq!(HalfPoints::parse("0.25"), None);
        assert_eq!(HalfPoints::parse("x"), None);
        assert_eq!(HalfPoints(15).to_string(), "7.5");
        assert_eq!(HalfPoints(-1).to_string(), "-0.5");
        assert_eq!(HalfPoints(-6).to_string(), "-3");
    }

    #[test]
    fn margins_print_as_gtp_does() {
        assert_eq!(Margin(HalfPoints(7)).to_string(), "B+3.5");
        assert_eq!(Margin(HalfPoints(-1)).to_string(), "W+0.5");
        assert_eq!(Margin(HalfPoints(0)).to_string(), "0");
        assert_eq!(Margin::parse("W+7"), Some(Margin(HalfPoints(-14))));
        assert_eq!(Margin::parse("b+2.5"), Some(Margin(HalfPoints(5))));
        assert_eq!(Margin::parse("0"), Some(Margin(HalfPoints(0))));
        assert_eq!(Margin::parse("W+-3"), None);
        assert_eq!(Margin::parse("W+R"), None);
        assert_eq!(Margin::parse("7"), None);
    }

    #[test]
    fn presets_differ_only_where_the_rules_do() {
        let j = Rules::japanese();
        let c = Rules::chinese();
        let p = Rules::prejudgement();
        assert_eq!(j.first_player, Color::Black);
        assert_eq!(p.first_player, Color::White);
        assert!(!j.suicide_legal && !c.suicide_legal && p.suicide_legal);
        assert!(!j.superko() && c.superko() && p.superko());
        assert!(!p.pass_allowed(3) && p.pass_allowed(4) && j.pass_allowed(0));
        assert_eq!(p.opening_color(0), Some(Color::White));
        assert_eq!(p.opening_color(1), Some(Color::Black));
        assert_eq!(p.opening_color(3), Some(Color::Black));
        assert_eq!(p.opening_color(4), None);
        assert!(!j.seki_eyes_count() && c.seki_eyes_count());
        assert_eq!(Rules::by_name("Chinese"), Some(c));
    }

    #[test]
    fn area_presets_as_katago_defines_them() {
        let (a, n, t) = (Rules::aga(), Rules::new_zealand(), Rules::tromp_taylor());
        assert!(!a.suicide_legal && n.suicide_legal && t.suicide_legal);
        assert_eq!(a.ko, KoRule::SituationalSuperko);
        assert_eq!(n.ko, KoRule::SituationalSuperko);
        assert_eq!(t.ko, KoRule::PositionalSuperko);
        assert_eq!(
            [a.default_komi, n.default_komi, t.default_komi],
            [HalfPoints(15), HalfPoints(14), HalfPoints(15)]
        );
        assert_eq!(a.handicap_bonus.points(4), HalfPoints::points(3));
        assert_eq!(a.handicap_bonus.points(0), HalfPoints::ZERO);
        assert_eq!(
            Rules::chinese().handicap_bonus.points(4),
            HalfPoints::points(4)
        );
        assert_eq!(t.handicap_bonus.points(4), HalfPoints::ZERO);
        assert!(a.dead_stones_lifted && n.dead_stones_lifted && !t.dead_stones_lifted);
        assert!([a, n, t]
            .iter()
            .all(|r| r.scoring == Scoring::Area && r.superko()));
        for name in Rules::NAMES {
            assert_eq!(Rules::by_name(name).map(|r| r.name), Some(name));
        }
        assert_eq!(Rules::by_name("NZ"), Some(n));
    }
}
