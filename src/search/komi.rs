//! Dynamic komi for handicap games.
//!
//! Without it, the side giving the handicap sees every move lose at first and plays (or
//! resigns) at random, and the side receiving it sees every move win and plays slack; with it,
//! both play for a margin that they can still change. The search adds it to White's komi and
//! takes it out again of every score it shows.

use crate::game::Game;
use crate::rules::HalfPoints;

/// The komi the search gives White on top of the real one in a handicap game: about the
/// handicap's worth at first (7 points a stone on 19×19, in proportion on smaller boards),
/// shrinking linearly to nothing by move 200 on 19×19 (45 on 9×9). Zero without handicap.
pub fn dynamic_komi(game: &Game) -> HalfPoints {
    let stones = game.handicap().len() as f64;
    if stones == 0.0 {
        return HalfPoints::ZERO;
    }
    let size = game.board().size() as f64;
    let per_stone = 7.0 * size / 19.0;
    let horizon = 0.55 * size * size;
    let left = 1.0 - game.move_number() as f64 / horizon;
    if left <= 0.0 {
        return HalfPoints::ZERO;
    }
    HalfPoints::round_from(per_stone * stones * left)
}

/// Win rate (by the search's own komi) above which a player maximizing its score concedes
/// more komi, and below which it takes some back: Pachi's adaptive dynamic komi thresholds.
pub const MARGIN_KOMI_RAISE: f64 = 0.85;
pub const MARGIN_KOMI_LOWER: f64 = 0.7;

/// The next komi a player maximizing its score concedes (in half points, never negative), from
/// the last search of its side: its win rate under that komi and its mean lead in real points.
/// Two points up while the win rate stays above [`MARGIN_KOMI_RAISE`], two down below
/// [`MARGIN_KOMI_LOWER`] (steps the kept tree survives), never past the lead itself, so that
/// the search still expects to win by the real count; a player that is not ahead concedes
/// nothing. Far ahead, the search must then win by more than it expects and keeps taking
/// points instead of playing slack moves that still win.
pub fn margin_komi_step(conceded: HalfPoints, winrate: f64, lead: f64) -> HalfPoints {
    let step = HalfPoints(4);
    let next = if winrate > MARGIN_KOMI_RAISE {
        conceded + step
    } else if winrate < MARGIN_KOMI_LOWER {
        conceded - step
    } else {
        conceded
    };
    let cap = HalfPoints::round_from(lead.max(0.0));
    HalfPoints(next.0.clamp(0, cap.0.max(0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Move};
    use crate::rules::Rules;

    #[test]
    fn a_margin_komi_follows_the_win_rate_up_to_the_lead() {
        let h = HalfPoints;
        // Up two points while far ahead, never past the lead.
        assert_eq!(margin_komi_step(h(0), 0.95, 30.0), h(4));
        assert_eq!(margin_komi_step(h(58), 0.95, 30.0), h(60));
        assert_eq!(margin_komi_step(h(60), 0.95, 30.0), h(60));
        // Held in between, down below the lower threshold, never negative.
        assert_eq!(margin_komi_step(h(10), 0.8, 30.0), h(10));
        assert_eq!(margin_komi_step(h(10), 0.5, 30.0), h(6));
        assert_eq!(margin_komi_step(h(2), 0.5, 30.0), h(0));
        // Behind, nothing is conceded, whatever the win rate says.
        assert_eq!(margin_komi_step(h(10), 0.95, -3.0), h(0));
    }

    #[test]
    fn handicap_komi_shrinks_to_nothing() {
        let mut g = Game::new(19, Rules::chinese()).unwrap();
        assert_eq!(dynamic_komi(&g), HalfPoints::ZERO);
        let b = g.board().clone();
        g.place_handicap(&[
            b.point(3, 15),
            b.point(15, 3),
            b.point(3, 3),
            b.point(15, 15),
        ])
        .unwrap();
        // Four stones at 7 points each.
        assert_eq!(dynamic_komi(&g), HalfPoints::points(28));
        let mut last = dynamic_komi(&g);
        let mut color = Color::White;
        while g.move_number() < 199 {
            let mv = g
                .board()
                .empty_points()
                .iter()
                .map(|&p| Move::Play(p))
                .find(|&mv| {
                    !matches!(mv, Move::Play(p) if g.board().is_eye(p, color))
                        && g.is_legal(color, mv)
                })
                .unwrap_or(Move::Pass);
            g.play(color, mv).unwrap();
            color = color.opponent();
            let now = dynamic_komi(&g);
            assert!(now <= last);
            last = now;
        }
        assert_eq!(last, HalfPoints::ZERO);
    }
}
