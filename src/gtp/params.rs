//! Settings while running: KataGo's `kata-list-params`, `kata-get-param`, `kata-set-param` and
//! Leela Zero's `lz-setoption`, over the same few settings the command line sets.
//!
//! KataGo's names where KataGo has the setting (`maxPlayouts`, `maxVisits`, `maxTime`,
//! `maxVisitsPondering`, `maxTimePondering` — the limits of live analysis and pondering, as
//! `--analysis-visits` and `--analysis-seconds` — `numSearchThreads`, `ponderingEnabled`,
//! `allowResignation`, `lagBuffer`), tengen's own otherwise (`resignBelow`, `maxMemory`,
//! `level`, as `--resign-below`, `--max-memory` and `--level`); Leela Zero's option names as
//! Leela Zero spells them. Every value is checked before anything changes, so a refused setting
//! changes nothing.

use super::{Answer, Engine};
use crate::search::{level, DEFAULT_MOVE_TIME, DEFAULT_RESIGN_BELOW};
use std::time::Duration;

/// KataGo's "no limit" for `maxPlayouts` and `maxVisits` (2^50), printed when none is set and
/// taken to mean none from there up.
const UNLIMITED_PLAYOUTS: u64 = 1 << 50;

/// KataGo's "no limit" for `maxTime`, and how it prints it.
const UNLIMITED_TIME: f64 = 1e20;
const UNLIMITED_TIME_TEXT: &str = "1e+20";

/// The most search threads (as `--threads`).
const MAX_THREADS: u64 = 1024;

/// The settings, in the order `kata-list-params` names them.
const PARAMS: [&str; 12] = [
    "maxPlayouts",
    "maxVisits",
    "maxTime",
    "maxVisitsPondering",
    "maxTimePondering",
    "numSearchThreads",
    "ponderingEnabled",
    "allowResignation",
    "lagBuffer",
    "resignBelow",
    "maxMemory",
    "level",
];

/// One change, checked and ready to apply.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Change {
    Playouts(Option<u64>),
    Visits(Option<u64>),
    Time(Option<Duration>),
    AnalysisVisits(Option<u64>),
    AnalysisTime(Option<Duration>),
    Threads(usize),
    Pondering(bool),
    AllowResignation(bool),
    Lag(Duration),
    ResignBelow(f64),
    MaxMemory(usize),
    Level(u8),
}

impl Engine {
    fn apply(&mut self, change: Change) {
        let config = self.player.config_mut();
        match change {
            Change::Playouts(p) => config.playouts = p,
            Change::Visits(v) => config.visits = v,
            Change::Time(t) => config.time = t,
            Change::AnalysisVisits(v) => config.analysis.visits = v,
            Change::AnalysisTime(t) => config.analysis.time = t,
            Change::Threads(n) => config.threads = n,
            Change::Pondering(on) => self.ponder = on,
            Change::AllowResignation(on) => {
                config.resign = on.then_some(self.resign_below);
            }
            Change::ResignBelow(p) => {
                self.resign_below = p;
                if config.resign.is_some() {
                    config.resign = Some(p);
                }
            }
            Change::Lag(lag) => self.player.clock_mut().lag_margin = lag,
            Change::MaxMemory(mb) => self.player.set_max_memory(mb),
            Change::Level(level) => config.level = level,
        }
    }
}

fn seconds(v: Duration) -> String {
    format!("{:?}", v.as_secs_f64())
}

/// The current value of a setting, as KataGo prints it.
fn value(engine: &mut Engine, name: &str) -> Option<String> {
    let lag = engine.player.clock_mut().lag_margin;
    let config = engine.player.config();
    Some(match name {
        "maxPlayouts" => config.playouts.unwrap_or(UNLIMITED_PLAYOUTS).to_string(),
        "maxVisits" => config.visits.unwrap_or(UNLIMITED_PLAYOUTS).to_string(),
        // Without any limit a move takes the default time.
        "maxTime" => match config.time {
            Some(t) => seconds(t),
            None if config.playouts.is_some() || config.visits.is_some() => {
                UNLIMITED_TIME_TEXT.to_string()
            }
            None => seconds(DEFAULT_MOVE_TIME),
        },
        "maxVisitsPondering" => config
            .analysis
            .visits
            .unwrap_or(UNLIMITED_PLAYOUTS)
            .to_string(),
        "maxTimePondering" => config
            .analysis
            .time
            .map_or(UNLIMITED_TIME_TEXT.to_string(), seconds),
        "numSearchThreads" => config.threads.to_string(),
        "ponderingEnabled" => engine.ponder.to_string(),
        "allowResignation" => config.resign.is_some().to_string(),
        "lagBuffer" => seconds(lag),
        "resignBelow" => format!("{:?}", engine.resign_below),
        "maxMemory" => config.max_memory_mb.to_string(),
        "level" => config.level.to_string(),
        _ => return None,
    })
}

fn parse_bool(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("'{}' is not true or false", s)),
    }
}

fn parse_float(s: &str, min: f64, max: f64) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("'{}' is not a number from {} to {}", s, min, max)),
    }
}

fn parse_int(s: &str, min: u64, max: u64) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "'{}' is not a whole number from {} to {}",
            s, min, max
        )),
    }
}

/// A playout or visit limit as KataGo gives it: 2^50 or more is none.
fn count_limit(v: &str) -> Result<Option<u64>, String> {
    let n = parse_int(v, 1, u64::MAX)?;
    Ok((n < UNLIMITED_PLAYOUTS).then_some(n))
}

/// A time limit in seconds as KataGo gives it: 1e20 or more is none.
fn time_limit(v: &str) -> Result<Option<Duration>, String> {
    // No upper bound to print: every larger number means none.
    let t = v
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.001)
        .ok_or_else(|| {
            format!(
                "'{}' is not a number of seconds from 0.001 ({} or more: no limit)",
                v, UNLIMITED_TIME_TEXT
            )
        })?;
    Ok((t < UNLIMITED_TIME).then(|| Duration::from_secs_f64(t.min(1e9))))
}

/// A KataGo setting and its value as a change, or why not.
fn kata_change(engine: &Engine, name: &str, v: &str) -> Result<Change, String> {
    let config = engine.player.config();
    Ok(match name {
        "maxPlayouts" => Change::Playouts(count_limit(v)?),
        "maxVisits" => Change::Visits(count_limit(v)?),
        "maxTime" => match time_limit(v)? {
            Some(t) => Change::Time(Some(t)),
            None if config.playouts.is_some() || config.visits.is_some() => Change::Time(None),
            None => return Err("no time limit without a maxPlayouts or maxVisits limit".into()),
        },
        "maxVisitsPondering" => Change::AnalysisVisits(count_limit(v)?),
        "maxTimePondering" => Change::AnalysisTime(time_limit(v)?),
        "numSearchThreads" => {
            // As `--threads`: more than a few per core only delay the clock, so they are capped.
            let n = parse_int(v, 1, MAX_THREADS)? as usize;
            let cap = crate::search::max_threads();
            if n > cap {
                log::warn!("numSearchThreads {}: using {} threads", n, cap);
            }
            Change::Threads(n.min(cap))
        }
        "ponderingEnabled" => Change::Pondering(parse_bool(v)?),
        "allowResignation" => Change::AllowResignation(parse_bool(v)?),
        "lagBuffer" => Change::Lag(Duration::from_secs_f64(parse_float(v, 0.0, 3600.0)?)),
        "resignBelow" => Change::ResignBelow(parse_float(v, 0.0, 1.0)?),
        "maxMemory" => Change::MaxMemory(parse_int(v, 16, 1_048_576)? as usize),
        "level" => Change::Level(parse_int(
            v,
            u64::from(level::MIN_LEVEL),
            u64::from(level::FULL_STRENGTH),
        )? as u8),
        _ => {
            return Err(format!(
                "Unrecognized or non-overridable parameter in kata-set-params: {}",
                name
            ))
        }
    })
}

pub fn kata_list_params(_: &mut Engine, _: &[&str]) -> Answer {
    Ok(PARAMS.join(" "))
}

pub fn kata_get_param(engine: &mut Engine, args: &[&str]) -> Answer {
    value(engine, args[0]).ok_or_else(|| format!("Invalid parameter: {}", args[0]).into())
}

pub fn kata_set_param(engine: &mut Engine, args: &[&str]) -> Answer {
    let change = kata_change(engine, args[0], args[1])
        .map_err(|e| format!("Could not set params: {}", e))?;
    engine.apply(change);
    Ok(String::new())
}

/// Leela Zero's options as `lz-setoption` without arguments lists them (its format), with
/// tengen's defaults.
fn lz_options() -> String {
    [
        "option name Maximum Memory Use (MiB) type spin default 1024 min 128 max 131072",
        "option name Playouts type spin default 0 min 0 max 1000000000",
        "option name Visits type spin default 0 min 0 max 1000000000",
        "option name Lagbuffer type spin default 100 min 0 max 3000",
        "option name Resign Percentage type spin default -1 min -1 max 30",
        "option name Pondering type check default false",
    ]
    .iter()
    .map(|l| format!("\n{}", l))
    .collect()
}

/// `lz-setoption name NAME value VALUE` as Leela Zero reads it: the name is every word up to
/// `value`, case-insensitive; Playouts 0 means none, and a playout limit excludes pondering (in
/// both directions); Visits 0 means none; Resign Percentage -1 is the default threshold and 0
/// never resigns.
pub fn lz_setoption(engine: &mut Engine, args: &[&str]) -> Answer {
    if args.is_empty() {
        return Ok(lz_options());
    }
    if !args[0].eq_ignore_ascii_case("name") {
        return Err("incorrect syntax for lz-setoption".into());
    }
    let at_value = args
        .iter()
        .position(|a| a.eq_ignore_ascii_case("value"))
        .unwrap_or(args.len());
    let name = args[1..at_value].join(" ").to_ascii_lowercase();
    let value = args.get(at_value + 1..).unwrap_or(&[]).join(" ");
    let incorrect = |_| "incorrect value".to_string();
    let config = engine.player.config();
    let change = match name.as_str() {
        "maximum memory use (mib)" => {
            Change::MaxMemory(parse_int(&value, 128, 131_072).map_err(incorrect)? as usize)
        }
        "playouts" => {
            let n = parse_int(&value, 0, 1_000_000_000).map_err(incorrect)?;
            if n > 0 && engine.ponder {
                // Leela Zero: limiting playouts while pondering makes no sense.
                return Err("incorrect value".into());
            }
            Change::Playouts((n > 0).then_some(n))
        }
        "visits" => {
            let n = parse_int(&value, 0, 1_000_000_000).map_err(incorrect)?;
            Change::Visits((n > 0).then_some(n))
        }
        "lagbuffer" => {
            let cs = parse_int(&value, 0, 3000).map_err(incorrect)?;
            Change::Lag(Duration::from_millis(cs * 10))
        }
        "pondering" => match value.to_ascii_lowercase().as_str() {
            "true" if config.playouts.is_some() => return Err("incorrect value".into()),
            "true" => Change::Pondering(true),
            "false" => Change::Pondering(false),
            _ => return Err("incorrect value".into()),
        },
        "resign percentage" => {
            let pct: i64 = value
                .parse()
                .ok()
                .filter(|p| (-1..=30).contains(p))
                .ok_or("incorrect value")?;
            match pct {
                -1 => {
                    engine.apply(Change::ResignBelow(DEFAULT_RESIGN_BELOW));
                    Change::AllowResignation(true)
                }
                0 => Change::AllowResignation(false),
                p => {
                    engine.apply(Change::ResignBelow(p as f64 / 100.0));
                    Change::AllowResignation(true)
                }
            }
        }
        _ => return Err("Unknown option".into()),
    };
    engine.apply(change);
    Ok(match change {
        Change::MaxMemory(mb) => format!("Setting max tree size to {} MiB.", mb),
        _ => String::new(),
    })
}
