//! The fields of a query read one by one: each reader checks its field's type and range and
//! names the field in its error, so that [`super::query`] can build a query or refuse it
//! whole, with the [`Problem`] a refusal or warning is and the [`Perspective`] a report takes.
//! Nothing here panics on any input.

use crate::board::{Color, Move, MAX_SIZE, MIN_SIZE};
use crate::coords::parse_vertex;
use crate::rules::{HandicapBonus, Rules};
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

/// A refusal or a warning about one field of a query.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub message: String,
    pub field: Option<String>,
    pub id: Option<String>,
}

impl Problem {
    pub(super) fn of(field: &str, id: &str, message: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            field: Some(field.to_string()),
            id: Some(id.to_string()),
        }
    }
}

/// Reads the fields of one query object.
pub(super) struct Reader<'a> {
    pub(super) object: &'a Map<String, Value>,
    pub(super) id: &'a str,
    pub(super) warnings: &'a mut Vec<Problem>,
}

impl Reader<'_> {
    pub(super) fn error(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem::of(field, self.id, message)
    }

    pub(super) fn warn(&mut self, field: &str, message: impl Into<String>) {
        self.warnings.push(Problem::of(field, self.id, message));
    }

    pub(super) fn get(&self, field: &str) -> Option<&Value> {
        self.object.get(field)
    }

    pub(super) fn boolean(&self, field: &str) -> Result<bool, Problem> {
        match self.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.error(field, format!("{} must be true or false", field))),
        }
    }

    /// A whole number in `lo..=hi`, if present.
    pub(super) fn integer(&self, field: &str, lo: i64, hi: i64) -> Result<Option<i64>, Problem> {
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

    /// The board side: both sizes given, equal, within tengen's range.
    pub(super) fn size(&self) -> Result<usize, Problem> {
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
    pub(super) fn rules(&self) -> Result<Rules, Problem> {
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
    pub(super) fn stones(
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
    pub(super) fn turns(&self, moves: usize) -> Result<Vec<(usize, i64)>, Problem> {
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
    pub(super) fn filters(
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
    pub(super) fn settings(
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
pub(super) fn whole(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
            .map(|f| f as i64)
    })
}

/// A location as KataGo reads it: a GTP vertex (`D4`, `pass`) or `(x,y)` counted from the top
/// left corner.
pub(super) fn location(s: &str, board: &crate::board::Board) -> Option<Move> {
    if let Some(inner) = s.trim().strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let (x, y): (usize, usize) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        return (x < board.size() && y < board.size()).then(|| Move::Play(board.point(x, y)));
    }
    parse_vertex(s, board).ok()
}

/// The preset whose KataGo fields are those of the object (fields it leaves out are not
/// compared; its `whiteHandicapBonus` is applied on top). Pre-judgement has no KataGo form.
pub(super) fn rules_from_object(fields: &Map<String, Value>) -> Option<Rules> {
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
