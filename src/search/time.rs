//! The game clock: what the controller said about time, and how long to think on a move.
//!
//! GTP's `time_settings` / `kgs-time_settings` / `kata-time_settings` set the system; `time_left` corrects our idea of
//! the remaining time when a controller sends it; when none comes (gogui-twogtp never sends it),
//! the clock keeps its own account from the time each move actually took. A move gets a share of
//! the main time spread over the moves still expected (under Fischer time, the increment plus a
//! share of the main time beyond it), or a safe share of the byo-yomi period, always minus a lag
//! margin, so that tengen never loses on time.

use crate::board::Color;
use std::time::Duration;

/// The lag margin by default: kept back from every allotment for the controller's and the
/// network's delays (`--lag`).
pub const DEFAULT_LAG: Duration = Duration::from_secs(1);

/// A time system as GTP and KGS describe them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// One budget for the whole game.
    Absolute { main: Duration },
    /// Main time, then `stones` moves in every `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
    /// Main time, then `periods` periods of `period` each, one move per period.
    Byoyomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// KataGo's Fischer time: `increment` is added to the main time at the end of each move,
    /// which is then cut to `main_limit`; no move may take more than `per_move` (both unlimited
    /// without the cap: `Duration::MAX`).
    Fischer {
        main: Duration,
        increment: Duration,
        main_limit: Duration,
        per_move: Duration,
    },
}

/// What one side has left.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Side {
    main: Duration,
    /// Time left in the current byo-yomi period (Canadian: for the stones left).
    period: Duration,
    /// Canadian: stones to play in this period; Japanese byo-yomi: periods left.
    count: u32,
    in_overtime: bool,
}

/// The clock of both sides.
#[derive(Clone, Debug)]
pub struct Clock {
    system: TimeSystem,
    sides: [Side; 2],
    /// Kept back from every allotment for communication lag.
    pub lag_margin: Duration,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeSystem::None)
    }
}

impl Clock {
    pub fn new(system: TimeSystem) -> Clock {
        let mut c = Clock {
            system,
            sides: [Side {
                main: Duration::ZERO,
                period: Duration::ZERO,
                count: 0,
                in_overtime: false,
            }; 2],
            lag_margin: DEFAULT_LAG,
        };
        c.set_system(system);
        c
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// Sets the time system and gives both sides their full time.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = system;
        let side = match system {
            TimeSystem::None => Side {
                main: Duration::ZERO,
                period: Duration::ZERO,
                count: 0,
                in_overtime: false,
            },
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => Side {
                main,
                period: Duration::ZERO,
                count: 0,
                in_overtime: false,
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => Side {
                main,
                period,
                count: stones,
                in_overtime: main.is_zero(),
            },
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => Side {
                main,
                period,
                count: periods,
                in_overtime: main.is_zero(),
            },
        };
        self.sides = [side; 2];
    }

    /// GTP `time_left COLOR TIME STONES`: `stones` = 0 while in main time; otherwise the
    /// stones left in the Canadian period, or the periods left under Japanese byo-yomi.
    pub fn time_left(&mut self, color: Color, left: Duration, stones: u32) {
        let s = &mut self.sides[color.index()];
        match self.system {
            TimeSystem::None => {}
            TimeSystem::Absolute { .. } | TimeSystem::Fischer { .. } => s.main = left,
            TimeSystem::Canadian { .. } | TimeSystem::Byoyomi { .. } => {
                if stones == 0 {
                    s.main = left;
                    s.in_overtime = false;
                } else {
                    s.main = Duration::ZERO;
                    s.period = left;
                    s.count = stones;
                    s.in_overtime = true;
                }
            }
        }
    }

    /// Books `used` against `color`'s clock, as the controller's clock would.
    pub fn record_move(&mut self, color: Color, used: Duration) {
        let system = self.system;
        let s = &mut self.sides[color.index()];
        match system {
            TimeSystem::None => {}
            TimeSystem::Absolute { .. } => s.main = s.main.saturating_sub(used),
            TimeSystem::Fischer {
                increment,
                main_limit,
                ..
            } => s.main = (s.main.saturating_sub(used) + increment).min(main_limit),
            TimeSystem::Canadian { period, stones, .. } => {
                let mut used = used;
                if !s.in_overtime {
                    if used <= s.main {
                        s.main -= used;
                        return;
                    }
                    used -= s.main;
                    s.main = Duration::ZERO;
                    s.in_overtime = true;
                    s.period = period;
                    s.count = stones;
                }
                s.period = s.period.saturating_sub(used);
                s.count = s.count.saturating_sub(1);
                if s.count == 0 {
                    s.period = period;
                    s.count = stones;
                }
            }
            TimeSystem::Byoyomi {
                period, periods, ..
            } => {
                let mut used = used;
                if !s.in_overtime {
                    if used <= s.main {
                        s.main -= used;
                        return;
                    }
                    used -= s.main;
                    s.main = Duration::ZERO;
                    s.in_overtime = true;
                    s.count = periods;
                }
                // Each whole period overrun costs one period.
                let lost = (used.as_secs_f64() / period.as_secs_f64().max(1e-9)) as u32;
                s.count = s.count.saturating_sub(lost).max(1);
                s.period = period;
            }
        }
    }

    /// How long `color` may think on this move, or `None` when there is no limit. `moves_left`
    /// is the number of own moves still expected in the game.
    pub fn allotment(&self, color: Color, moves_left: u32) -> Option<Duration> {
        let s = &self.sides[color.index()];
        let spread = |main: Duration| main / moves_left.max(1);
        let t = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => spread(s.main),
            // The increment comes back after every move; the main time beyond it is spread.
            TimeSystem::Fischer { increment, .. } if s.main > increment => {
                increment + spread(s.main - increment)
            }
            TimeSystem::Fischer { .. } => s.main,
            TimeSystem::Canadian { period, stones, .. } => {
                if s.in_overtime {
                    s.period / s.count.max(1)
                } else {
                    // Main time spread, plus a fair share of the first period to come.
                    spread(s.main) + period / stones.max(1).saturating_mul(2)
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                if s.in_overtime {
                    period.mul_f64(0.8)
                } else {
                    spread(s.main) + period.mul_f64(0.5)
                }
            }
        };
        let hard_cap = match self.system {
            TimeSystem::Absolute { .. } => s.main,
            TimeSystem::Fischer { per_move, .. } => s.main.min(per_move),
            TimeSystem::Canadian { .. } | TimeSystem::Byoyomi { .. } if s.in_overtime => s.period,
            _ => s.main + s.period,
        };
        // Keep back the lag margin, but no more than a fifth of a short allotment, so that
        // a 1-second byo-yomi still leaves most of its second for thinking.
        let t = t.min(hard_cap);
        let t = t.saturating_sub(self.lag_margin.min(t / 5));
        Some(t.max(Duration::from_millis(20)))
    }
}

/// How long one move may think under the clock.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveTime {
    /// The time to think when the best move is clear.
    pub target: Duration,
    /// The most the move may take when, at `target`, the best move is still unclear.
    pub max: Duration,
    /// Whether the search may stop before `target` once the best move cannot change: not when
    /// time left unused is lost anyway (the last stone of a byo-yomi or Canadian period), where
    /// searching on at least grows the tree the next move starts from.
    pub early_stop: bool,
}

impl Clock {
    /// The move's time for `color` (see [`Clock::allotment`] for the target), or `None` when
    /// there is no limit. In main time a move whose best move is unclear may take up to twice
    /// its share, never past the lag margin of what is left.
    pub fn move_time(&self, color: Color, moves_left: u32) -> Option<MoveTime> {
        let target = self.allotment(color, moves_left)?;
        let s = &self.sides[color.index()];
        let (left, lost_if_unused) = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => (s.main, false),
            // Under a cap on the main time, what the increment would add beyond it is lost.
            TimeSystem::Fischer {
                per_move,
                increment,
                main_limit,
                ..
            } => (
                s.main.min(per_move),
                s.main.saturating_add(increment) > main_limit,
            ),
            TimeSystem::Canadian { .. } if s.in_overtime => (s.period, s.count <= 1),
            TimeSystem::Byoyomi { .. } if s.in_overtime => (s.period, true),
            // Main time, with the first period behind it.
            TimeSystem::Canadian { .. } | TimeSystem::Byoyomi { .. } => (s.main, false),
        };
        let safe = left.saturating_sub(self.lag_margin.min(left / 5));
        let max = if s.in_overtime {
            target
        } else {
            (2 * target).min(safe).max(target)
        };
        Some(MoveTime {
            target,
            max,
            early_stop: !lost_if_unused,
        })
    }
}

/// Own moves still expected on a board of side `size` after `move_number` moves in all.
pub fn expected_moves_left(size: usize, move_number: usize) -> u32 {
    // A typical game length in moves, both sides: games between engines end by resignation
    // after 0.55–0.6 of the area (about 210 moves on 19×19, 56 on 9×9). Planning for 0.9 left
    // most of an absolute clock unspent; 0.65 won 19×19 self-play under a 120-second clock
    // (tests/MEASUREMENTS.md "The time split over a 19×19 game").
    let total = (size * size) as f64 * 0.65;
    let left = (total - move_number as f64).max(0.0) / 2.0;
    // Never plan as if the game were about to end: the end is uncertain.
    (left.max(size as f64 * 1.5)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fischer_time_spends_the_increment_and_keeps_the_main_time() {
        let secs = Duration::from_secs;
        let mut c = Clock::new(TimeSystem::Fischer {
            main: secs(60),
            increment: secs(5),
            main_limit: Duration::MAX,
            per_move: Duration::MAX,
        });
        // 5 s of increment plus 55 s over 30 moves, less a fifth of a short allotment... here
        // the whole second of lag.
        let a = c.allotment(Color::Black, 30).unwrap();
        assert_eq!(a, secs(5) + secs(55) / 30 - secs(1));
        let t = c.move_time(Color::Black, 30).unwrap();
        assert!(t.early_stop && t.max == 2 * t.target);
        // The increment arrives after each move.
        c.record_move(Color::Black, secs(10));
        c.time_left(Color::White, secs(3), 0);
        assert_eq!(c.sides[0].main, secs(55));
        // Less main time than the increment: what is left, less the lag margin's share.
        let a = c.allotment(Color::White, 30).unwrap();
        assert_eq!(a, Duration::from_millis(2400));
        assert!(c.move_time(Color::White, 30).unwrap().max <= a);
        // The capped form: the main time never grows past its limit, no move past its maximum,
        // and time the cap would waste is not saved by stopping early.
        let mut c = Clock::new(TimeSystem::Fischer {
            main: secs(20),
            increment: secs(10),
            main_limit: secs(25),
            per_move: secs(4),
        });
        let t = c.move_time(Color::Black, 30).unwrap();
        assert!(!t.early_stop && t.max <= secs(4) && t.target <= secs(4));
        c.record_move(Color::Black, secs(1));
        assert_eq!(c.sides[0].main, secs(25));
        c.set_system(TimeSystem::Absolute { main: secs(1) });
        c.lag_margin = Duration::from_millis(100);
        assert_eq!(
            c.allotment(Color::Black, 1),
            Some(Duration::from_millis(900))
        );
    }

    #[test]
    fn absolute_time_is_spread_and_kept_under_the_limit() {
        let mut c = Clock::new(TimeSystem::Absolute {
            main: Duration::from_secs(300),
        });
        let a = c.allotment(Color::Black, 30).unwrap();
        assert!(a < Duration::from_secs(10) && a > Duration::from_secs(8));
        c.time_left(Color::Black, Duration::from_secs(2), 0);
        let a = c.allotment(Color::Black, 30).unwrap();
        assert!(a < Duration::from_secs(1));
    }

    #[test]
    fn canadian_overtime_divides_the_period() {
        let mut c = Clock::new(TimeSystem::Canadian {
            main: Duration::ZERO,
            period: Duration::from_secs(60),
            stones: 10,
        });
        assert_eq!(c.allotment(Color::White, 40), Some(Duration::from_secs(5)));
        c.time_left(Color::White, Duration::from_secs(30), 2);
        assert_eq!(c.allotment(Color::White, 40), Some(Duration::from_secs(14)));
    }

    #[test]
    fn own_accounting_enters_overtime() {
        let mut c = Clock::new(TimeSystem::Byoyomi {
            main: Duration::from_secs(10),
            period: Duration::from_secs(5),
            periods: 3,
        });
        c.record_move(Color::Black, Duration::from_secs(11));
        let a = c.allotment(Color::Black, 40).unwrap();
        assert_eq!(a, Duration::from_millis(3200));
        // White is still in main time: 10 s over 40 moves and half a period, less a fifth.
        assert_eq!(
            c.allotment(Color::White, 40),
            Some(Duration::from_millis(2200))
        );
        assert_eq!(Clock::default().allotment(Color::Black, 10), None);
    }

    #[test]
    fn byo_yomi_periods_are_used_and_main_time_may_stretch() {
        // One stone per 2-second period: time left unused is lost, so no early stop.
        let c = Clock::new(TimeSystem::Canadian {
            main: Duration::ZERO,
            period: Duration::from_secs(2),
            stones: 1,
        });
        let t = c.move_time(Color::Black, 40).unwrap();
        assert!(!t.early_stop && t.max == t.target);
        assert_eq!(t.target, Duration::from_millis(1600));
        // Ten stones per minute: saved time serves the next stones.
        let c = Clock::new(TimeSystem::Canadian {
            main: Duration::ZERO,
            period: Duration::from_secs(60),
            stones: 10,
        });
        assert!(c.move_time(Color::Black, 40).unwrap().early_stop);
        // Main time: an unclear move may take twice its share, within what is left.
        let mut c = Clock::new(TimeSystem::Absolute {
            main: Duration::from_secs(300),
        });
        let t = c.move_time(Color::White, 30).unwrap();
        assert!(t.early_stop && t.max == 2 * t.target);
        c.time_left(Color::White, Duration::from_secs(3), 0);
        let t = c.move_time(Color::White, 30).unwrap();
        assert!(t.max <= Duration::from_millis(2400), "{:?}", t);
        assert_eq!(Clock::default().move_time(Color::Black, 10), None);
    }
}
