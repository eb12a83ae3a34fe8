//! Reading one line of KataGo's analysis protocol: a query (a game and the turns to analyse) or
//! an action (`query_version`, `clear_cache`, `terminate`, `terminate_all`).
//!
//! Every field is checked before anything is searched: a field that cannot be read, a position
//! that cannot be built or an illegal move makes the whole query an error naming the field,
//! and nothing of it is queued; a field tengen does not know, or a setting it has no use for,
//! is a warning and the query goes on. Nothing here panics on any input: the JSON crate reads
//! the line, and each field is matched on its type.

use super::fields::Reader;
pub use super::fields::{Perspective, Problem};
use crate::board::{Color, Move, Point};
use crate::game::Game;
use crate::rules::{HalfPoints, Rules};
use crate::search::{Limits, MoveFilter};
use serde_json::{Map, Value};
use std::time::Duration;

/// A query, checked: everything a worker needs to build each turn's position and search it.
#[derive(Clone, Debug)]
pub struct Query {
    pub id: String,
    pub size: usize,
    pub rules: Rules,
    pub komi: HalfPoints,
    pub initial_stones: Vec<(Color, Point)>,
    pub initial_player: Option<Color>,
    pub moves: Vec<(Color, Move)>,
    /// The turns to analyse, each with its priority.
    pub turns: Vec<(usize, i64)>,
    pub limits: Limits,
    pub filters: Vec<MoveFilter>,
    pub ownership: bool,
    pub ownership_stdev: bool,
    pub moves_ownership: bool,
    pub policy: bool,
    pub pv_visits: bool,
    /// Moves of each variation after its first (`analysisPVLen`).
    pub pv_len: Option<usize>,
    pub report_every: Option<Duration>,
    pub perspective: Perspective,
}

impl Query {
    /// The game at turn `turn` (0: before the first move), and the side to move there.
    /// The query was checked when read, so this fails only on a turn past its moves.
    pub fn game_at(&self, turn: usize) -> Result<Game, String> {
        let mut game = Game::new(self.size, self.rules).ok_or("bad board size")?;
        game.set_komi(self.komi);
        let handicap = self.initial_stones.len() >= 2
            && self.initial_stones.iter().all(|s| s.0 == Color::Black)
            && self.rules.first_player == Color::Black
            && self.rules.opening_placements == 0;
        if handicap {
            // Black stones alone are a handicap, with the ruleset's compensation for White.
            let points: Vec<Point> = self.initial_stones.iter().map(|s| s.1).collect();
            game.place_handicap(&points)
                .map_err(|e| format!("initial stones: {}", e))?;
        } else if !self.initial_stones.is_empty() {
            let stones: Vec<(Point, Option<Color>)> = self
                .initial_stones
                .iter()
                .map(|&(c, p)| (p, Some(c)))
                .collect();
            game.setup(&stones)
                .map_err(|e| format!("initial stones: {}", e))?;
            game.start_from_position()
                .map_err(|e| format!("initial stones: {}", e))?;
        }
        let first = self
            .initial_player
            .or(self.moves.first().map(|m| m.0))
            .unwrap_or(game.to_move());
        game.set_to_move(first)
            .map_err(|e| format!("initial player: {}", e))?;
        for (i, &(color, mv)) in self.moves.iter().take(turn).enumerate() {
            game.play(color, mv).map_err(|e| {
                format!(
                    "Illegal move {}: {} {} ({})",
                    i,
                    if color == Color::Black { "B" } else { "W" },
                    crate::coords::format_move(game.board(), mv),
                    e
                )
            })?;
        }
        Ok(game)
    }
}

/// An action line: the line as sent (echoed back) and what it asks.
#[derive(Clone, Debug)]
pub struct Action {
    pub line: Map<String, Value>,
    pub id: String,
    pub kind: ActionKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ActionKind {
    QueryVersion,
    ClearCache,
    /// Stop the queries with this id (all when `None`), only these turns when given.
    Terminate {
        id: Option<String>,
        turns: Option<Vec<usize>>,
    },
}

/// What a line asks.
#[derive(Clone, Debug)]
pub enum Request {
    Query(Query),
    Action(Action),
}

/// The fields of a query besides the actions', each read below.
const QUERY_FIELDS: &[&str] = &[
    "id",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "analysisPVLen",
    "includeOwnership",
    "includeOwnershipStdev",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "includeNoResultValue",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "priority",
    "priorities",
];

/// The defaults a query may override.
#[derive(Copy, Clone, Debug)]
pub struct Defaults {
    pub visits: u64,
    pub perspective: Perspective,
}

/// Reads one line: the request, or the error that refuses it; and the warnings either way.
pub fn parse(line: &str, defaults: Defaults) -> (Result<Request, Problem>, Vec<Problem>) {
    let mut warnings = Vec::new();
    let result = parse_line(line, defaults, &mut warnings);
    (result, warnings)
}

fn parse_line(
    line: &str,
    defaults: Defaults,
    warnings: &mut Vec<Problem>,
) -> Result<Request, Problem> {
    let value: Value = serde_json::from_str(line).map_err(|e| Problem {
        message: format!("Could not parse JSON: {}", e),
        field: None,
        id: None,
    })?;
    let Value::Object(object) = value else {
        return Err(Problem {
            message: "A query must be a JSON object".to_string(),
            field: None,
            id: None,
        });
    };
    let id = match object.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(Problem {
                message: "id must be a string".to_string(),
                field: Some("id".to_string()),
                id: None,
            })
        }
        None => {
            return Err(Problem {
                message: "Every query needs an id".to_string(),
                field: Some("id".to_string()),
                id: None,
            })
        }
    };
    if let Some(action) = object.get("action") {
        return parse_action(object.clone(), id, action).map(Request::Action);
    }
    for key in object.keys() {
        if !QUERY_FIELDS.contains(&key.as_str()) {
            warnings.push(Problem::of(key, &id, "Unexpected or unused field"));
        }
    }
    Reader {
        object: &object,
        id: &id,
        warnings,
    }
    .query(defaults)
    .map(Request::Query)
}

fn parse_action(line: Map<String, Value>, id: String, action: &Value) -> Result<Action, Problem> {
    let turns = |line: &Map<String, Value>| -> Result<Option<Vec<usize>>, Problem> {
        match line.get("turnNumbers") {
            None => Ok(None),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_u64().map(|n| n as usize))
                .collect::<Option<Vec<usize>>>()
                .map(Some)
                .ok_or_else(|| {
                    Problem::of("turnNumbers", &id, "turnNumbers must be an array of turns")
                }),
            Some(_) => Err(Problem::of(
                "turnNumbers",
                &id,
                "turnNumbers must be an array of turns",
            )),
        }
    };
    let kind = match action.as_str() {
        Some("query_version") => ActionKind::QueryVersion,
        Some("clear_cache") => ActionKind::ClearCache,
        Some("terminate") => match line.get("terminateId") {
            Some(Value::String(target)) => ActionKind::Terminate {
                id: Some(target.clone()),
                turns: turns(&line)?,
            },
            _ => {
                return Err(Problem::of(
                    "terminateId",
                    &id,
                    "terminate needs terminateId, the id of the query to stop",
                ))
            }
        },
        Some("terminate_all") => ActionKind::Terminate {
            id: None,
            turns: turns(&line)?,
        },
        _ => {
            return Err(Problem::of(
                "action",
                &id,
                "action must be query_version, clear_cache, terminate or terminate_all",
            ))
        }
    };
    Ok(Action { line, id, kind })
}

impl Reader<'_> {
    fn query(mut self, defaults: Defaults) -> Result<Query, Problem> {
        let size = self.size()?;
        let rules = self.rules()?;
        let komi = match self.get("komi") {
            None => rules.default_komi,
            Some(v) => v
                .as_f64()
                .and_then(|k| HalfPoints::parse(&k.to_string()))
                .filter(|k| k.0.abs() <= 800)
                .ok_or_else(|| {
                    self.error(
                        "komi",
                        "komi must be a whole or half number from -400 to 400",
                    )
                })?,
        };
        let probe = Game::new(size, rules).ok_or_else(|| self.error("boardXSize", "bad size"))?;
        let board = probe.board();
        let initial_stones = match self.get("initialStones") {
            None => Vec::new(),
            Some(v) => self
                .stones(v, board, "initialStones")?
                .into_iter()
                .map(|(c, m)| match m {
                    Move::Play(p) => Ok((c, p)),
                    Move::Pass => {
                        Err(self.error("initialStones", "an initial stone cannot be a pass"))
                    }
                })
                .collect::<Result<_, _>>()?,
        };
        let initial_player =
            match self.get("initialPlayer") {
                None => None,
                Some(v) => Some(v.as_str().and_then(crate::coords::parse_color).ok_or_else(
                    || self.error("initialPlayer", "initialPlayer must be \"B\" or \"W\""),
                )?),
            };
        let moves = match self.get("moves") {
            None => return Err(self.error("moves", "moves is required (an empty list for none)")),
            Some(v) => self.stones(v, board, "moves")?,
        };
        let turns = self.turns(moves.len())?;
        let mut limits = Limits {
            visits: Some(defaults.visits),
            ..Limits::default()
        };
        if let Some(v) = self.integer("maxVisits", 1, 1 << 40)? {
            limits.visits = Some(v as u64);
        }
        for field in ["rootPolicyTemperature", "rootFpuReductionMax"] {
            if let Some(v) = self.get(field) {
                if !v.is_number() {
                    return Err(self.error(field, format!("{} must be a number", field)));
                }
                self.warn(
                    field,
                    format!("{} is not a setting of tengen's search; ignored", field),
                );
            }
        }
        for field in ["includeMovesOwnershipStdev", "includeNoResultValue"] {
            if self.boolean(field)? {
                self.warn(
                    field,
                    format!("{} is not available from tengen; ignored", field),
                );
            }
        }
        let pv_len = self.integer("analysisPVLen", 0, 1000)?.map(|n| n as usize);
        let report_every = match self.get("reportDuringSearchEvery") {
            None => None,
            Some(v) => Some(
                v.as_f64()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e6)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| {
                        self.error(
                            "reportDuringSearchEvery",
                            "reportDuringSearchEvery must be a positive number of seconds",
                        )
                    })?,
            ),
        };
        let mut filters = self.filters("avoidMoves", board, false)?;
        filters.extend(self.filters("allowMoves", board, true)?);
        let mut perspective = defaults.perspective;
        self.settings(&mut limits, &mut perspective)?;
        let query = Query {
            id: self.id.to_string(),
            size,
            rules,
            komi,
            initial_stones,
            initial_player,
            moves,
            turns,
            limits,
            filters,
            ownership: self.boolean("includeOwnership")?,
            ownership_stdev: self.boolean("includeOwnershipStdev")?,
            moves_ownership: self.boolean("includeMovesOwnership")?,
            policy: self.boolean("includePolicy")?,
            pv_visits: self.boolean("includePVVisits")?,
            pv_len,
            report_every,
            perspective,
        };
        // The whole record is played once here, so that a bad position or an illegal move is
        // refused before anything is queued.
        query.game_at(query.moves.len()).map_err(|e| {
            let field = if e.starts_with("Illegal move") {
                "moves"
            } else if e.starts_with("initial player") {
                "initialPlayer"
            } else {
                "initialStones"
            };
            self.error(field, e)
        })?;
        Ok(query)
    }
}
