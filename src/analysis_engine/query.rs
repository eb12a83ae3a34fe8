//! Reading one line of KataGo's analysis protocol: a query (a game and the turns to analyse) or
//! an action (`query_version`, `clear_cache`, `terminate`, `terminate_all`).
//!
//! Every field is checked before anything is searched: a field that cannot be read, a position
//! that cannot be built or an illegal move makes the whole query an error naming the field,
//! and nothing of it is queued; a field tengen does not know, or a setting it has no use for,
//! is a warning and the query goes on. Nothing here panics on any input: the JSON crate reads
//! the line, and each field is matched on its type.

use crate::board::{Color, Move, Point, MAX_SIZE, MIN_SIZE};
use crate::coords::parse_vertex;
use crate::game::Game;
use crate::rules::{HalfPoints, HandicapBonus, Rules};
use crate::search::{Limits, MoveFilter};
use serde_json::{Map, Value};
use std::time::Duration;

/// Whose view the win rates, leads and ownership are reported in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Perspective {
    Black,
    White,
    SideToMove,
}

impl Perspective {
    pub fn parse(s: &str) -> Option<Perspective> {
        match s.to_ascii_uppercase().as_str() {
            "BLACK" | "B" => Some(Perspective::Black),
            "WHITE" | "W" => Some(Perspective::White),
            "SIDETOMOVE" => Some(Perspective::SideToMove),
            _ => None,
        }
    }
}

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

/// A refusal or a warning about one field of a query.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub message: String,
    pub field: Option<String>,
    pub id: Option<String>,
}

impl Problem {
    fn of(field: &str, id: &str, message: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            field: Some(field.to_string()),
            id: Some(id.to_string()),
        }
    }
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

/// Reads the fields of one query object.
struct Reader<'a> {
    object: &'a Map<String, Value>,
    id: &'a str,
    warnings: &'a mut Vec<Problem>,
}

impl Reader<'_> {
    fn error(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem::of(field, self.id, message)
    }

    fn warn(&mut self, field: &str, message: impl Into<String>) {
        self.warnings.push(Problem::of(field, self.id, message));
    }

    fn get(&self, field: &str) -> Option<&Value> {
        self.object.get(field)
    }

    fn boolean(&self, field: &str) -> Result<bool, Problem> {
        match self.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.error(field, format!("{} must be true or false", field))),
        }
    }

    /// A whole number in `lo..=hi`, if present.
    fn integer(&self, field: &str, lo: i64, hi: i64) -> Result<Option<i64>, Problem> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => whole(v)
                .filter(|n| (lo..=hi).contains(n))
                .map(Some)
                .ok_or_else(|| {
                    self.error(
                        field,
                        format!("{} must be a whole number from {} to {}", field, lo, hi),
                    )
                }),
        }
    }

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

    /// The board side: both sizes given, equal, within tengen's range.
    fn size(&self) -> Result<usize, Problem> {
        let range = (MIN_SIZE as i64, MAX_SIZE as i64);
        let mut sides = [0usize; 2];
        for (k, field) in ["boardXSize", "boardYSize"].iter().enumerate() {
            sides[k] = match self.get(field) {
                None => return Err(self.error(field, format!("{} is required", field))),
                Some(v) => whole(v)
                    .filter(|n| (range.0..=range.1).contains(n))
                    .ok_or_else(|| {
                        self.error(
                            field,
                            format!(
                                "{} must be a whole number from {} to {} (tengen's boards)",
                                field, range.0, range.1
                            ),
                        )
                    })? as usize,
            };
        }
        if sides[0] != sides[1] {
            return Err(self.error(
                "boardYSize",
                format!(
                    "tengen plays square boards only: boardXSize {} and boardYSize {} differ",
                    sides[0], sides[1]
                ),
            ));
        }
        Ok(sides[0])
    }

    /// The ruleset: a name, or KataGo's rules object where one of tengen's presets has those
    /// fields; `whiteHandicapBonus` overrides the preset's compensation.
    fn rules(&self) -> Result<Rules, Problem> {
        let unsupported = |what: String| {
            self.error(
                "rules",
                format!(
                    "unsupported rules {} (tengen plays {}, and KataGo's rules objects equal to \
                     one of them)",
                    what,
                    Rules::NAMES.join(", ")
                ),
            )
        };
        let mut rules = match self.get("rules") {
            None => return Err(self.error("rules", "rules is required")),
            Some(Value::String(name)) => {
                let lower = name.to_ascii_lowercase();
                // KataGo's spellings of Chinese rules for the servers that use them.
                let name = match lower.as_str() {
                    "chinese-ogs" | "chinese-kgs" | "chinese_ogs" | "chinese_kgs" => "chinese",
                    other => other,
                };
                Rules::by_name(name).ok_or_else(|| unsupported(format!("'{}'", name)))?
            }
            Some(Value::Object(fields)) => rules_from_object(fields)
                .ok_or_else(|| unsupported(Value::Object(fields.clone()).to_string()))?,
            Some(_) => return Err(self.error("rules", "rules must be a name or an object")),
        };
        if let Some(v) = self.get("whiteHandicapBonus") {
            rules.handicap_bonus =
                v.as_str()
                    .and_then(HandicapBonus::from_katago)
                    .ok_or_else(|| {
                        self.error(
                            "whiteHandicapBonus",
                            "whiteHandicapBonus must be \"0\", \"N\" or \"N-1\"",
                        )
                    })?;
        }
        Ok(rules)
    }

    /// `[["B","D4"], …]`: colours and moves on this board.
    fn stones(
        &self,
        v: &Value,
        board: &crate::board::Board,
        field: &str,
    ) -> Result<Vec<(Color, Move)>, Problem> {
        let Value::Array(list) = v else {
            return Err(self.error(field, format!("{} must be a list of [player, move]", field)));
        };
        list.iter()
            .enumerate()
            .map(|(i, entry)| {
                let pair = entry.as_array().filter(|a| a.len() == 2);
                let color = pair
                    .and_then(|a| a[0].as_str())
                    .and_then(crate::coords::parse_color);
                let mv = pair
                    .and_then(|a| a[1].as_str())
                    .and_then(|s| location(s, board));
                match (color, mv) {
                    (Some(c), Some(m)) => Ok((c, m)),
                    _ => Err(self.error(
                        field,
                        format!(
                            "Could not parse entry {} of {}: {} (want [\"B\" or \"W\", a vertex \
                             on this board])",
                            i, field, entry
                        ),
                    )),
                }
            })
            .collect()
    }

    /// `analyzeTurns` with `priority`/`priorities`: the last turn by default.
    fn turns(&self, moves: usize) -> Result<Vec<(usize, i64)>, Problem> {
        let turns: Vec<usize> = match self.get("analyzeTurns") {
            None => vec![moves],
            Some(Value::Array(list)) => list
                .iter()
                .map(|v| {
                    whole(v)
                        .filter(|&t| t >= 0 && t as usize <= moves)
                        .map(|t| t as usize)
                })
                .collect::<Option<_>>()
                .ok_or_else(|| {
                    self.error(
                        "analyzeTurns",
                        format!(
                            "analyzeTurns must list turns from 0 to {} (the moves given)",
                            moves
                        ),
                    )
                })?,
            Some(_) => return Err(self.error("analyzeTurns", "analyzeTurns must be a list")),
        };
        let priority = self
            .integer("priority", i32::MIN as i64, i32::MAX as i64)?
            .unwrap_or(0);
        let priorities: Vec<i64> = match self.get("priorities") {
            None => vec![priority; turns.len()],
            Some(Value::Array(list)) if list.len() == turns.len() => list
                .iter()
                .map(whole)
                .collect::<Option<_>>()
                .ok_or_else(|| self.error("priorities", "priorities must be whole numbers"))?,
            Some(_) => {
                return Err(self.error(
                    "priorities",
                    "priorities must be a list as long as analyzeTurns",
                ))
            }
        };
        Ok(turns.into_iter().zip(priorities).collect())
    }

    /// `avoidMoves` or `allowMoves`: `[{"player":"B","moves":["D4"],"untilDepth":1}, …]`.
    fn filters(
        &self,
        field: &str,
        board: &crate::board::Board,
        allow: bool,
    ) -> Result<Vec<MoveFilter>, Problem> {
        let Some(v) = self.get(field) else {
            return Ok(Vec::new());
        };
        let bad = || {
            self.error(
                field,
                format!(
                    "{} must be a list of {{\"player\", \"moves\", \"untilDepth\"}} objects",
                    field
                ),
            )
        };
        let list = v.as_array().ok_or_else(bad)?;
        let mut filters: Vec<MoveFilter> = Vec::new();
        for entry in list {
            let color = entry
                .get("player")
                .and_then(Value::as_str)
                .and_then(crate::coords::parse_color)
                .ok_or_else(bad)?;
            let moves = entry
                .get("moves")
                .and_then(Value::as_array)
                .ok_or_else(bad)?
                .iter()
                .map(|m| m.as_str().and_then(|s| location(s, board)))
                .collect::<Option<Vec<Move>>>()
                .ok_or_else(bad)?;
            let until = entry
                .get("untilDepth")
                .and_then(whole)
                .filter(|&d| d >= 1)
                .ok_or_else(bad)? as usize;
            if allow && filters.iter().any(|f| f.color == color) {
                return Err(self.error(field, "allowMoves may hold one entry per player"));
            }
            filters.push(MoveFilter {
                color,
                moves,
                allow,
                until,
            });
        }
        Ok(filters)
    }

    /// `overrideSettings`: the search limits and the reporting view tengen honours; warnings
    /// for the rest.
    fn settings(
        &mut self,
        limits: &mut Limits,
        perspective: &mut Perspective,
    ) -> Result<(), Problem> {
        let Some(v) = self.get("overrideSettings") else {
            return Ok(());
        };
        let Value::Object(settings) = v.clone() else {
            return Err(self.error("overrideSettings", "overrideSettings must be an object"));
        };
        for (key, value) in &settings {
            let bad = |what: &str| {
                self.error(
                    "overrideSettings",
                    format!("overrideSettings: {} must be {}", key, what),
                )
            };
            match key.as_str() {
                "reportAnalysisWinratesAs" => {
                    *perspective = value
                        .as_str()
                        .and_then(Perspective::parse)
                        .ok_or_else(|| bad("BLACK, WHITE or SIDETOMOVE"))?;
                }
                "maxVisits" | "maxPlayouts" => {
                    let n = whole(value)
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| bad("a positive whole number"))?
                        as u64;
                    if key == "maxVisits" {
                        limits.visits = Some(n);
                    } else {
                        limits.playouts = Some(n);
                    }
                }
                "maxTime" => {
                    let s = value
                        .as_f64()
                        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e6)
                        .ok_or_else(|| bad("a positive number of seconds"))?;
                    limits.time = Some(Duration::from_secs_f64(s));
                }
                other => {
                    let message = format!(
                        "overrideSettings: {} is not a setting of tengen's search; ignored",
                        other
                    );
                    self.warn("overrideSettings", message);
                }
            }
        }
        Ok(())
    }
}

/// A whole number, as an integer or a float without fraction (`5`, `5.0`).
fn whole(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
            .map(|f| f as i64)
    })
}

/// A location as KataGo reads it: a GTP vertex (`D4`, `pass`) or `(x,y)` counted from the top
/// left corner.
fn location(s: &str, board: &crate::board::Board) -> Option<Move> {
    if let Some(inner) = s.trim().strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        return (x < board.size() && y < board.size()).then(|| Move::Play(board.point(x, y)));
    }
    parse_vertex(s, board).ok()
}

/// The preset whose KataGo fields are those of the object (fields it leaves out are not
/// compared; its `whiteHandicapBonus` is applied on top). Pre-judgement has no KataGo form.
fn rules_from_object(fields: &Map<String, Value>) -> Option<Rules> {
    let presets = [
        Rules::chinese(),
        Rules::japanese(),
        Rules::tromp_taylor(),
        Rules::aga(),
        Rules::new_zealand(),
    ];
    let matches = |rules: &Rules| {
        let k = rules.katago();
        fields.iter().all(|(key, v)| match key.as_str() {
            "ko" => v.as_str() == Some(k.ko),
            "scoring" => v.as_str() == Some(k.scoring),
            "tax" => v.as_str() == Some(k.tax),
            "suicide" => v.as_bool() == Some(k.suicide),
            "hasButton" => v.as_bool() == Some(false),
            "friendlyPassOk" => v.as_bool() == Some(k.friendly_pass_ok),
            "whiteHandicapBonus" => v.as_str().and_then(HandicapBonus::from_katago).is_some(),
            _ => false,
        })
    };
    let mut rules = presets.into_iter().find(matches)?;
    if let Some(bonus) = fields
        .get("whiteHandicapBonus")
        .and_then(Value::as_str)
        .and_then(HandicapBonus::from_katago)
    {
        rules.handicap_bonus = bonus;
    }
    Some(rules)
}
