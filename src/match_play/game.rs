//! One game of a match: the engines started afresh and set up, the turns (each mover's
//! `genmove` checked against tengen's authoritative record and passed on to the other engine and
//! the referee), the pre-judgement opening and predictions, and how the game ends.

use super::client::ClientError;
use super::openings::opening_text;
use super::records::Records;
use super::seat::{ask, failure_text, prepare, shown, start, Failure, Seat};
use super::signals::games_stopped;
use super::stats::GameResult;
use super::MatchConfig;
use crate::board::Color;
use crate::coords::{format_move, parse_vertex};
use crate::game::{Game, PlayedMove};
use crate::prejudgement::Predictions;
use crate::rules::Margin;
use crate::search::judgement::StandaloneJudge;
use crate::sgf;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One engine's Fischer clock in a game.
#[derive(Copy, Clone, Debug)]
struct SeatClock {
    left: Duration,
    /// The least time left after one of its moves, before the increment.
    least: Option<Duration>,
}

/// The commands an engine needs for pre-judgement games.
const PREJUDGEMENT_COMMANDS: [&str; 2] = ["tengen-prejudge", "tengen-prejudgement"];

/// The colour whose seat has this index.
fn seat_color(index: usize) -> Color {
    if index == Color::Black.index() {
        Color::Black
    } else {
        Color::White
    }
}

/// The seat asked for the next move. Seats are indexed by colour, except in the pre-judgement
/// opening, where colours are not yet known: the first mover (in the first player's seat until
/// the predictions decide) places the first and last opening stones, the other engine those in
/// between, so each places stones of both colours.
fn mover_seat(game: &Game) -> usize {
    let rules = game.rules();
    if !game.in_opening() {
        return game.to_move().index();
    }
    let first = rules.first_player.index();
    let k = game.move_number();
    if k == 0 || k + 1 == rules.opening_placements as usize {
        first
    } else {
        1 - first
    }
}

/// The two predictions after the pre-judgement opening, first mover's first, each engine told
/// both. A seat that fails or answers something other than a score loses (`Err`).
fn settle_predictions(
    seats: &mut [Seat; 2],
    first: usize,
    deadline: Duration,
) -> Result<Predictions, End> {
    let loses = |seat: usize, why: String| End::Win(seat_color(1 - seat), "F", why);
    let mut predictions = [Margin::default(); 2];
    for (i, seat) in [first, 1 - first].into_iter().enumerate() {
        let text = ask(&mut seats[seat], "tengen-prejudge", deadline)
            .map_err(|e| loses(seat, failure_text(&e)))?;
        predictions[i] = Margin::parse(&text).ok_or_else(|| {
            loses(
                seat,
                format!(
                    "{} answered tengen-prejudge with '{}', not a score",
                    seats[seat].title,
                    shown(text.trim())
                ),
            )
        })?;
    }
    let command = format!("tengen-prejudgement {} {}", predictions[0], predictions[1]);
    for seat in [first, 1 - first] {
        ask(&mut seats[seat], &command, deadline).map_err(|e| loses(seat, failure_text(&e)))?;
    }
    Ok(Predictions {
        first: predictions[0],
        second: predictions[1],
    })
}

/// The decision of a finished game (see `count`), before it is written down.
pub(super) struct Outcome {
    pub(super) winner: Option<Color>,
    pub(super) result: String,
    pub(super) reason: String,
    pub(super) tengen_score: Option<Margin>,
    pub(super) referee_score: Option<Result<Margin, String>>,
}

/// A game's end before counting.
pub(super) enum End {
    /// Two passes or the move limit: count the board.
    Count(String),
    /// A decided game: the winner, the SGF result letter after `+`, and why.
    Win(Color, &'static str, String),
    /// No result.
    NoResult(String),
    /// The match stopped the game (a signal, or no more games needed): no result, not counted.
    Interrupted,
}

/// Why a game was not played.
enum Unplayed {
    /// The match cannot be played as configured (found in its first game).
    Config(String),
    /// A game without moves: the winner (a forfeit), or none, and why.
    Void(Option<Color>, String),
}

/// Engine A's colour in game `number` (its seat's, under pre-judgement rules, until the
/// predictions settle it).
fn a_color_of(config: &MatchConfig, number: usize) -> Color {
    let first_player = config.rules.first_player;
    if config.a_first(number) {
        first_player
    } else {
        first_player.opponent()
    }
}

/// One game in progress: the two engines, the referee, and tengen's authoritative record.
pub(super) struct Table {
    number: usize,
    /// Seats by colour (`Color::index`); in the pre-judgement opening the first player's seat
    /// holds the first mover until the predictions give the colours.
    seats: [Seat; 2],
    pub(super) referee: Option<Seat>,
    /// Why the referee stopped following the game, once it has.
    pub(super) referee_error: Option<String>,
    pub(super) game: Game,
    /// The opening's moves (the first of the record's), for the record's comment.
    opening: Vec<PlayedMove>,
    /// Engine A's colour (its seat's, until the pre-judgement predictions settle it).
    a_color: Color,
    /// Pre-judgement games: the two predictions once stated, the first mover's first.
    predictions: Option<Predictions>,
    /// Under a Fischer clock, each seat's, moved with the seats.
    clocks: Option<[SeatClock; 2]>,
}

/// A game as played: counted, or stopped with the match (not counted).
pub enum Played {
    Counted(GameResult),
    Interrupted(GameResult),
}

/// Plays game `number` from `opening` (moves after the handicap, if any) and reports it,
/// writing its SGF into `records` if given (a record that cannot be written is reported on
/// stderr), a game ending on the board counted by tengen's `judge` too. `Err` when the match
/// cannot be played as configured.
pub fn play_game(
    config: &MatchConfig,
    number: usize,
    opening: &[PlayedMove],
    records: Option<&Mutex<Records>>,
    judge: &mut StandaloneJudge,
) -> Result<Played, String> {
    let (mut table, setup_end) = match Table::set_up(config, number, opening) {
        Ok(set) => set,
        Err(Unplayed::Config(e)) => return Err(e),
        Err(Unplayed::Void(winner, reason)) => {
            let result = winner.map_or("?".to_string(), |c| format!("{}+F", c.letter()));
            // Engines that failed to start because the match was stopping have not forfeited.
            let played = if games_stopped() {
                Played::Interrupted
            } else {
                Played::Counted
            };
            return Ok(played(GameResult {
                number,
                a_color: a_color_of(config, number),
                winner,
                result,
                reason,
                moves: 0,
                tengen_score: None,
                referee_score: None,
                prejudgement: None,
                least_time_left: None,
            }));
        }
    };
    let mut end = match setup_end {
        Some(end) => end,
        None => loop {
            if games_stopped() {
                break End::Interrupted;
            }
            if let Err(end) = table.play_turn(config) {
                break end;
            }
        },
    };
    // An engine that died of the same signal (it shares the terminal) has not lost.
    if games_stopped() {
        end = End::Interrupted;
    }
    let interrupted = matches!(end, End::Interrupted);
    if interrupted {
        table.kill_all();
    }
    let outcome = table.count(config, judge, end);
    if let Some(records) = records {
        // A poisoned lock only means another game's writer panicked; the directory is fine.
        let mut records = records.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = table.write_record(&mut records, &outcome) {
            log::warn!("game {}: the record was not written: {}", number, e);
        }
    }
    let result = table.finish(outcome);
    Ok(if interrupted {
        Played::Interrupted(result)
    } else {
        Played::Counted(result)
    })
}

impl Table {
    /// Starts the engines (and the referee) and sets them up for game `number`. In the first
    /// game, any failure is the configuration's (`Unplayed::Config`); later, an engine that
    /// cannot start forfeits and a refused setup leaves the game without result. An engine
    /// lost during the setup ends the game at once (`Some` end). tengen's record starts with
    /// the handicap and the opening, and each engine and the referee are brought to it.
    fn set_up(
        config: &MatchConfig,
        number: usize,
        opening: &[PlayedMove],
    ) -> Result<(Table, Option<End>), Unplayed> {
        let mut game = config.start_game().map_err(Unplayed::Config)?;
        for m in opening {
            game.play(m.color, m.mv).map_err(|e| {
                Unplayed::Config(format!(
                    "the opening {} is illegal: {}",
                    opening_text(&game, opening),
                    e
                ))
            })?;
        }
        let a_color = a_color_of(config, number);
        let (black_cmd, white_cmd) = if a_color == Color::Black {
            (&config.black, &config.white)
        } else {
            (&config.white, &config.black)
        };
        let unplayable = |winner: Option<Color>, why: String| {
            if config.checks_configuration(number) {
                Unplayed::Config(why)
            } else {
                Unplayed::Void(winner, why)
            }
        };
        let (black, white) = (start(black_cmd, config), start(white_cmd, config));
        let mut seats = match (black, white) {
            (Ok(b), Ok(w)) => [b, w],
            (Err(e), Ok(_)) => {
                return Err(unplayable(Some(Color::White), format!("black {}", e)));
            }
            (Ok(_), Err(e)) => {
                return Err(unplayable(Some(Color::Black), format!("white {}", e)));
            }
            (Err(b), Err(w)) => {
                return Err(unplayable(None, format!("black {}; white {}", b, w)));
            }
        };
        let mut referee_error: Option<String> = None;
        let mut referee = match &config.referee {
            Some(cmd) => match start(cmd, config) {
                Ok(r) => Some(r),
                Err(e) if config.checks_configuration(number) => return Err(Unplayed::Config(e)),
                Err(e) => {
                    referee_error = Some(format!("the referee {}", e));
                    None
                }
            },
            None => None,
        };
        if config.rules.komi_from_predictions {
            for seat in &seats {
                if let Some(missing) = PREJUDGEMENT_COMMANDS.iter().find(|c| !seat.lists(c)) {
                    return Err(unplayable(
                        None,
                        format!(
                            "{} does not list {}: it cannot play pre-judgement games",
                            seat.title, missing
                        ),
                    ));
                }
            }
        }

        let mut end = None;
        for color in [Color::Black, Color::White] {
            match prepare(&mut seats[color.index()], config, &game) {
                Ok(()) => {}
                Err(Failure::Refused(msg)) if config.checks_configuration(number) => {
                    return Err(Unplayed::Config(msg))
                }
                Err(Failure::Refused(msg)) => {
                    end = Some(End::NoResult(msg));
                    break;
                }
                Err(Failure::Lost(e)) => {
                    end = Some(End::Win(
                        color.opponent(),
                        "F",
                        format!("{} {} during setup", color, e),
                    ));
                    break;
                }
            }
        }
        if let Some(r) = referee.as_mut() {
            if let Err(e) = prepare(r, config, &game) {
                referee_error = Some(failure_text(&e));
            }
        }
        let table = Table {
            number,
            seats,
            referee,
            referee_error,
            game,
            opening: opening.to_vec(),
            a_color,
            predictions: None,
            clocks: config.fischer.map(|f| {
                [SeatClock {
                    left: f.main,
                    least: None,
                }; 2]
            }),
        };
        Ok((table, end))
    }

    /// Sends `command` to the referee while it still follows the game; a failure stops it
    /// following.
    fn tell_referee(&mut self, command: &str, deadline: Duration) {
        if let (Some(r), None) = (self.referee.as_mut(), &self.referee_error) {
            if let Err(e) = ask(r, command, deadline) {
                self.referee_error = Some(failure_text(&e));
            }
        }
    }

    /// One turn: the pre-judgement predictions when the opening has just ended, then the
    /// mover's `genmove`, checked against tengen's record and passed on to the other engine and
    /// the referee. `Err` is how the game ends: two passes or the move limit (to be counted), a
    /// loss, or no result.
    fn play_turn(&mut self, config: &MatchConfig) -> Result<(), End> {
        let move_deadline = config.move_timeout();
        let prejudgement = config.rules.komi_from_predictions;
        if prejudgement && self.predictions.is_none() && !self.game.in_opening() {
            self.settle(config)?;
        }
        if self.game.is_over() {
            return Err(End::Count("two passes".to_string()));
        }
        if self.game.move_number() >= config.max_moves() {
            return Err(End::Count(format!("move limit of {}", config.max_moves())));
        }
        let color = self.game.to_move();
        let letter = color.letter().to_ascii_lowercase();
        // The mover's seat; its colour is `color` except in the pre-judgement opening, where
        // the seat's colour stands for the engine in a result.
        let seat = mover_seat(&self.game);
        let loser = seat_color(seat);
        let mover = &mut self.seats[seat];
        let mut genmove_deadline = move_deadline;
        if let Some(clock) = self.clocks.map(|c| c[seat]) {
            // Only an engine told its Fischer clock hears what is left of it (KataGo's
            // `time_left` takes fractions of a second; plain GTP's, integers).
            if mover.lists("kata-time_settings") && mover.lists("time_left") {
                let command = format!("time_left {} {:.3} 0", letter, clock.left.as_secs_f64());
                ask(mover, &command, move_deadline).map_err(|e| {
                    End::Win(
                        loser.opponent(),
                        "F",
                        format!("{} {}", color, failure_text(&e)),
                    )
                })?;
            }
            // Past its clock the engine has lost; wait a little longer only to say so.
            genmove_deadline = move_deadline.min(clock.left + Duration::from_secs(2));
        }
        let started = Instant::now();
        let answer = match mover
            .client
            .send(&format!("genmove {}", letter), genmove_deadline)
        {
            Ok(Ok(text)) => text,
            Ok(Err(msg)) => {
                return Err(End::Win(
                    loser.opponent(),
                    "F",
                    format!("{}'s genmove failed: {}", color, shown(&msg)),
                ));
            }
            Err(ClientError::Timeout(d)) => {
                // A hung engine will not answer `quit` either.
                mover.client.kill();
                return Err(End::Win(
                    loser.opponent(),
                    "T",
                    format!("{} gave no move within {:.1} s", color, d.as_secs_f64()),
                ));
            }
            Err(e) => {
                return Err(End::Win(loser.opponent(), "F", format!("{} {}", color, e)));
            }
        };
        let used = started.elapsed();
        if let (Some(clocks), Some(f)) = (self.clocks.as_mut(), config.fischer) {
            let clock = &mut clocks[seat];
            if used > clock.left {
                return Err(End::Win(
                    loser.opponent(),
                    "T",
                    format!(
                        "{} took {:.3} s with {:.3} s on its clock",
                        color,
                        used.as_secs_f64(),
                        clock.left.as_secs_f64()
                    ),
                ));
            }
            let after = clock.left - used;
            clock.least = Some(clock.least.map_or(after, |l| l.min(after)));
            clock.left = after + f.increment;
        }
        let answer = answer.trim().to_string();
        if answer.eq_ignore_ascii_case("resign") {
            return Err(End::Win(
                loser.opponent(),
                "R",
                format!("{} resigned", color),
            ));
        }
        let mv = parse_vertex(&answer, self.game.board()).map_err(|_| {
            End::Win(
                loser.opponent(),
                "F",
                format!(
                    "{} answered genmove with '{}', not a move",
                    color,
                    shown(&answer)
                ),
            )
        })?;
        if let Err(e) = self.game.play(color, mv) {
            return Err(End::Win(
                loser.opponent(),
                "F",
                format!("{} played an illegal move {}: {}", color, shown(&answer), e),
            ));
        }
        let vertex = format_move(self.game.board(), mv);
        let play = format!("play {} {}", letter, vertex);
        let other = &mut self.seats[1 - seat];
        let told = match other.client.send(&play, move_deadline) {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(msg)) => Err(End::NoResult(format!(
                "{} refused {}'s legal move {}: {}",
                color.opponent(),
                color,
                vertex,
                shown(&msg)
            ))),
            Err(e) => {
                other.client.kill();
                Err(End::Win(loser, "F", format!("{} {}", color.opponent(), e)))
            }
        };
        // The referee follows the record even when the other engine failed to.
        self.tell_referee(&play, move_deadline);
        log::debug!("game {}: {} {}", self.number, color, vertex);
        told
    }

    /// After the pre-judgement opening: the predictions, and from them the colours and the
    /// threshold (the game's komi), which the referee is told too.
    fn settle(&mut self, config: &MatchConfig) -> Result<(), End> {
        let first_player = config.rules.first_player;
        let move_deadline = config.move_timeout();
        let predictions = settle_predictions(&mut self.seats, first_player.index(), move_deadline)?;
        let threshold = predictions.threshold();
        // The first mover sits in the first player's (White's) seat so far.
        let first_is_white = threshold.white == 1;
        if first_is_white != (first_player == Color::White) {
            self.seats.swap(0, 1);
            if let Some(clocks) = self.clocks.as_mut() {
                clocks.swap(0, 1);
            }
        }
        let a_first = config.a_first(self.number);
        self.a_color = if a_first == first_is_white {
            Color::White
        } else {
            Color::Black
        };
        self.game.set_komi(threshold.komi);
        if let (Some(r), None) = (self.referee.as_ref(), &self.referee_error) {
            let command = if r.lists("tengen-prejudgement") {
                format!(
                    "tengen-prejudgement {} {}",
                    predictions.first, predictions.second
                )
            } else {
                format!("komi {}", threshold.komi)
            };
            self.tell_referee(&command, move_deadline);
        }
        log::info!(
            "game {}: predictions {} and {}, threshold {}, player {} takes White",
            self.number,
            predictions.first,
            predictions.second,
            threshold.margin,
            threshold.white
        );
        self.predictions = Some(predictions);
        Ok(())
    }

    /// Writes the game as SGF into the match's records.
    fn write_record(&self, records: &mut Records, outcome: &Outcome) -> Result<PathBuf, String> {
        let info = sgf::Info {
            black: Some(self.seats[0].title.clone()),
            white: Some(self.seats[1].title.clone()),
            result: (outcome.result != "?").then(|| outcome.result.clone()),
            comment: Some(format!(
                "game {} of tengen match{}: {}",
                self.number,
                match self.opening.len() {
                    0 => String::new(),
                    _ => format!(", opening {}", opening_text(&self.game, &self.opening)),
                },
                outcome.reason
            )),
            predictions: self.predictions,
        };
        records.write(self.number, &sgf::write(&self.game, &info))
    }

    /// Ends every process of the game at once (the match is stopping: no time for `quit`).
    fn kill_all(&mut self) {
        for seat in self.seats.iter_mut().chain(self.referee.as_mut()) {
            seat.client.kill();
        }
    }

    /// Lets the engines go and reports the game.
    fn finish(self, outcome: Outcome) -> GameResult {
        let grace = Duration::from_secs(2);
        let [black, white] = self.seats;
        for seat in [Some(black), Some(white), self.referee]
            .into_iter()
            .flatten()
        {
            seat.client.quit(grace);
        }
        GameResult {
            number: self.number,
            a_color: self.a_color,
            winner: outcome.winner,
            result: outcome.result,
            reason: outcome.reason,
            moves: self.game.move_number(),
            tengen_score: outcome.tengen_score,
            referee_score: outcome.referee_score,
            prejudgement: self.predictions,
            least_time_left: self.clocks.map(|c| {
                let a = self.a_color.index();
                [c[a].least, c[1 - a].least]
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn the_first_mover_places_stones_one_and_four() {
        let mut game = Game::new(9, Rules::prejudgement()).unwrap();
        let (w, b) = (Color::White.index(), Color::Black.index());
        let mut seats = Vec::new();
        let mut k = 0;
        while game.in_opening() {
            seats.push(mover_seat(&game));
            let p = game.board().point(k, 0);
            game.play(game.to_move(), crate::board::Move::Play(p))
                .unwrap();
            k += 1;
        }
        assert_eq!(seats, [w, b, b, w]);
        assert_eq!(mover_seat(&game), w);
        let mut chinese = Game::new(9, Rules::chinese()).unwrap();
        assert_eq!(mover_seat(&chinese), b);
        chinese
            .play(Color::Black, crate::board::Move::Pass)
            .unwrap();
        assert_eq!(mover_seat(&chinese), w);
    }
}
