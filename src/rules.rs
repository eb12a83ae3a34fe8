//! Rulesets as data.
//!
//! A [`Rules`] value is a small `Copy` struct of independent fields; the three presets —
//! Japanese (1989, territory), Chinese (area) and pre-judgement komi — are just values of it. Code
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
}

/// How the final position is counted.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Scoring {
    /// Live stones plus surrounded empty points (Chinese, pre-judgement).
    Area,
    /// Surrounded empty points plus prisoners; seki eyes count for nobody (Japanese).
    Territory,
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
    /// Whether White receives one point per handicap stone at the count (area counting: the
    /// stones Black did not have to play).
    pub handicap_compensation: bool,
    /// Whether the komi is the threshold that the players' predictions set after the opening.
    pub komi_from_predictions: bool,
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
            handicap_compensation: false,
            komi_from_predictions: false,
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
            handicap_compensation: true,
            komi_from_predictions: false,
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
            handicap_compensation: false,
            komi_from_predictions: true,
        }
    }

    /// The preset with this name (case-insensitive), if any.
    pub fn by_name(name: &str) -> Option<Rules> {
        match name.to_ascii_lowercase().as_str() {
            "japanese" => Some(Rules::japanese()),
            "chinese" => Some(Rules::chinese()),
            "prejudgement" | "pre-judgement" => Some(Rules::prejudgement()),
            _ => None,
        }
    }

    /// The names of the presets, for error messages and help.
    pub const NAMES: [&'static str; 3] = ["japanese", "chinese", "prejudgement"];

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
        self.ko == KoRule::PositionalSuperko
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
}
