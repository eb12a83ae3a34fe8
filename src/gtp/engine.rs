//! The engine's state between commands, and running one command line.
//!
//! The game is private to this file: handlers read it through [`Engine::game`] and change it
//! only through the methods below, which also drop whatever referred to the old position. Moves
//! and undo keep the player's search tree (it follows the game by itself); a new komi or
//! ruleset, or a game replaced or cleared, forgets it, since its values were computed for
//! something else. A replaced or cleared game also stops pondering until the player moves again.

use super::wire::{preprocess, Input, Stream};
use super::{find, scoring, Options, Refusal, Reply, Run};
use crate::board::{Color, Move, Removal};
use crate::game::{Game, GameError};
use crate::prejudgement::Prejudgement;
use crate::rules::{HalfPoints, Rules};
use crate::search::{Limits, Player, Watch};
use std::io::{self, Write};
use std::sync::Arc;

/// The engine's state between commands.
pub struct Engine {
    game: Game,
    pub(super) player: Player,
    /// Whether the controller (or the command line, or an SGF file) chose the komi. A chosen
    /// komi survives a change of ruleset; otherwise the new ruleset's usual komi applies.
    pub(super) komi_chosen: bool,
    /// A resignation answered by `genmove`, until the position changes: printed as the SGF result.
    pub(super) resigned: Option<Color>,
    /// The pre-judgement predictions stated by `tengen-prejudgement` (or read from an SGF
    /// record), for the game record; they count only while they still describe the game.
    pub(super) predictions: Option<Prejudgement>,
    pub(super) quit: bool,
    /// What the reader thread says of the input that arrived during the running command.
    pub(super) input: Arc<Input>,
    pub(super) ponder: bool,
    /// The resign threshold, kept while resigning is off (`kata-set-param allowResignation`).
    pub(super) resign_below: f64,
    /// The answers to `name` and `version` when the command line chose them.
    pub(super) override_name: Option<String>,
    pub(super) override_version: Option<String>,
    /// Set when the player has made a move and may think on the opponent's time; cleared when
    /// the game is replaced or cleared.
    ponder_armed: bool,
}

impl Engine {
    /// An engine with an empty board as the options say. Fails only on a board size outside
    /// 2–25.
    pub fn new(options: &Options) -> Option<Engine> {
        let mut game = Game::new(options.size, options.rules)?;
        if let Some(k) = options.komi {
            game.set_komi(k);
        }
        let mut player = Player::new(options.search.clone());
        player.clock_mut().lag_margin = options.lag;
        Some(Engine {
            game,
            player,
            komi_chosen: options.komi.is_some(),
            resigned: None,
            predictions: None,
            quit: false,
            input: Arc::new(Input::default()),
            ponder: options.ponder,
            resign_below: options
                .search
                .resign
                .unwrap_or(crate::search::DEFAULT_RESIGN_BELOW),
            override_name: options.override_name.clone(),
            override_version: options.override_version.clone(),
            ponder_armed: false,
        })
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The player and the game together, for a search of the game as it stands.
    pub(super) fn player_and_game(&mut self) -> (&mut Player, &Game) {
        (&mut self.player, &self.game)
    }

    /// Whether `quit` has been answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Plays a move on the game; on an illegal one nothing changes.
    pub(super) fn play(&mut self, color: Color, mv: Move) -> Result<(), GameError> {
        self.play_with(color, mv, Removal::Opponent)
    }

    /// Plays a move with the mover's choice of whose stones a mutual capture removes.
    pub(super) fn play_with(
        &mut self,
        color: Color,
        mv: Move,
        removal: Removal,
    ) -> Result<(), GameError> {
        self.game.play_with(color, mv, removal)?;
        self.position_changed();
        Ok(())
    }

    /// Reads the record's opening run of Black stones as handicap stones, when it is one
    /// ([`Game::read_moves_as_handicap`]): the moves stay, each undoable.
    pub(super) fn read_moves_as_handicap(&mut self) {
        if self.game.read_moves_as_handicap() {
            log::info!(
                "read the {} Black stones before White's first move as handicap",
                self.game.handicap().len()
            );
            self.player.forget();
        }
    }

    /// Takes back the last move; nothing changes when there is none.
    pub(super) fn undo(&mut self) -> Result<(), GameError> {
        self.game.undo()?;
        self.position_changed();
        Ok(())
    }

    /// Sets the komi. Controllers resend the komi before every sync: only a real change makes
    /// the kept search tree stale.
    pub(super) fn set_komi(&mut self, komi: HalfPoints) {
        if komi != self.game.komi() {
            self.game.set_komi(komi);
            self.player.forget();
        }
    }

    /// Switches the ruleset, changing only what the rules change (the position stays); the
    /// komi follows the ruleset unless somebody chose it.
    pub(super) fn set_rules(&mut self, rules: Rules) {
        if rules == *self.game.rules() {
            return;
        }
        self.game.set_rules(rules);
        if !self.komi_chosen {
            self.game.set_komi(rules.default_komi);
        }
        self.player.forget();
    }

    /// Replaces the game after a successful change (a new size, handicap, a loaded record).
    pub(super) fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.game_set_up();
    }

    /// Empties the board and the record, keeping size, rules and komi.
    pub(super) fn clear_game(&mut self) {
        self.game.clear();
        self.game_set_up();
    }

    /// What a game set up anew makes stale: the player's kept tree (the new game did not grow
    /// from its moves), pondering (the player has not moved in it) and the position's results.
    fn game_set_up(&mut self) {
        self.player.forget();
        self.ponder_armed = false;
        self.position_changed();
    }

    /// Called whenever the record changes, so nothing derived from the old position lingers.
    fn position_changed(&mut self) {
        self.resigned = None;
    }

    /// Lets the player think on the opponent's time, after a move of its own.
    pub(super) fn arm_ponder(&mut self) {
        self.ponder_armed = true;
    }

    /// Keeps the player from thinking on the opponent's time until it moves again.
    pub(super) fn disarm_ponder(&mut self) {
        self.ponder_armed = false;
    }

    /// Black's lead (the analysis's root lead: the playouts' median margin through the side to
    /// move's best move) by a search of a game other than the record (a what-if) within
    /// `limits`, its side to move searching; no tree kept from the record serves it, and its
    /// own is dropped after, so that the next search of the record does not value moves by it.
    pub(super) fn lead_aside(&mut self, game: &Game, limits: Limits, watch: &mut Watch) -> f64 {
        self.player.forget();
        self.player
            .analyse_watched(game, game.to_move(), limits, &[], watch);
        let lead = self.player.analysis().root_score_lead;
        let lead = match game.to_move() {
            Color::Black => lead,
            Color::White => -lead,
        };
        self.player.forget();
        lead
    }

    /// The result for an SGF `RE`, when known: a resignation answered by `genmove`, or the
    /// count once two passes have stopped play.
    pub(super) fn result(&mut self) -> Option<String> {
        if let Some(c) = self.resigned {
            return Some(format!("{}+R", c.opponent().letter()));
        }
        self.game
            .is_over()
            .then(|| scoring::margin(self).to_string())
    }

    /// Runs one raw input line: `None` when the cleaned line is empty (no response is due),
    /// otherwise the complete response, framing included. There is no controller behind it to
    /// stop a live analysis, so the line runs as if another were already queued: an analysis
    /// answers with one line.
    pub fn execute(&mut self, raw: &[u8]) -> Option<String> {
        let mut out = Vec::new();
        self.input.queue(b"");
        let written = self.respond(raw, &mut out);
        self.input.take();
        self.input.finish();
        written.expect("writing to memory cannot fail");
        (!out.is_empty()).then(|| String::from_utf8_lossy(&out).into_owned())
    }

    /// Runs one raw input line and writes its response to `out` (nothing for an empty line);
    /// a command that answers while it runs writes as it goes.
    pub fn respond(&mut self, raw: &[u8], out: &mut dyn Write) -> io::Result<()> {
        let line = preprocess(raw);
        let mut words = line.split(' ').filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            return Ok(());
        };
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (Some(first), words.next())
        } else {
            (None, Some(first))
        };
        let args: Vec<&str> = words.collect();
        let input = self.input.clone();
        let mut stream = Stream::new(id, out, &input);
        let reply = match name {
            None => Err("syntax error: missing command after the id".to_string()),
            Some(name) => self.run(name, &args, &mut stream),
        };
        stream.finish(&reply)
    }

    /// Runs a command by name, its argument count checked against the table first. A panic
    /// inside a command (a bug, never input) is contained: the controller gets an error and the
    /// session goes on, with the player's kept tree dropped in case the search left it
    /// half-built. The game changes only after a command's checks succeed, so it stays
    /// consistent.
    fn run(&mut self, name: &str, args: &[&str], stream: &mut Stream) -> Reply {
        let Some(c) = find(name) else {
            return Err("unknown command".to_string());
        };
        if !c.arity.admits(args.len()) {
            return Err(c.usage_error());
        }
        let call = std::panic::AssertUnwindSafe(|| match c.run {
            Run::Plain(f) => f(self, args),
            Run::Streaming(f) => f(self, args, stream),
        });
        match std::panic::catch_unwind(call) {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(Refusal::Usage)) => Err(c.usage_error()),
            Ok(Err(Refusal::Message(msg))) => Err(msg),
            Err(_) => {
                log::error!("internal error in '{} {}'", name, args.join(" "));
                self.player.forget();
                Err(format!(
                    "internal error in {} (see the log on stderr)",
                    name
                ))
            }
        }
    }

    /// Thinks on the opponent's time when pondering is on and the player has moved, until a
    /// line arrives.
    pub(super) fn ponder_if_due(&mut self) {
        if !(self.ponder && self.ponder_armed) || self.game.is_over() || self.input.new_line() {
            return;
        }
        let input = self.input.clone();
        log::debug!("pondering");
        self.player.ponder(&self.game, &|| input.new_line());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::gtp::tests::{ask, engine};

    #[test]
    fn a_resignation_is_the_result_until_the_position_changes() {
        let mut e = engine();
        assert_eq!(e.result(), None);
        e.resigned = Some(Color::Black);
        assert_eq!(e.result().as_deref(), Some("W+R"));
        ask(&mut e, "play w d4");
        assert_eq!(e.result(), None);
        e.resigned = Some(Color::White);
        ask(&mut e, "undo");
        assert_eq!(e.result(), None);
    }

    #[test]
    fn a_game_set_up_anew_stops_pondering_until_the_player_moves() {
        let mut e = Engine::new(&Options {
            size: 9,
            ponder: true,
            search: crate::search::Config {
                playouts: Some(50),
                threads: 1,
                seed: Some(1),
                ..crate::search::Config::default()
            },
            ..Options::default()
        })
        .unwrap();
        for setup in ["clear_board", "boardsize 9"] {
            assert!(ask(&mut e, "genmove b").starts_with("= "));
            assert!(e.ponder_armed, "after genmove, before {}", setup);
            assert!(ask(&mut e, "play w pass").starts_with("= "));
            assert!(e.ponder_armed, "a move of the opponent keeps it");
            assert!(ask(&mut e, setup).starts_with("= "), "{}", setup);
            assert!(!e.ponder_armed, "after {}", setup);
        }
    }
}
