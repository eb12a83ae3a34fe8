//! Time: the clock settings controllers send (`time_settings`, `kgs-time_settings`,
//! `kata-time_settings`, `time_left`), which go to the player's clock, and the engine's CPU time (`cputime`, which
//! gogui-twogtp reads for its statistics).

use super::{parse_uint, Answer, Engine, Refusal};
use crate::coords::parse_color;
use crate::search::time::TimeSystem;
use std::time::Duration;

/// CPU seconds used by the whole process (all threads), as a float.
pub fn cputime(_: &mut Engine, _: &[&str]) -> Answer {
    let secs = process_cpu_seconds().ok_or("cannot read the process CPU time")?;
    Ok(format!("{:.3}", secs))
}

/// User plus system time of this process from `/proc/self/stat` (Linux), whose tick is the
/// kernel's fixed user-space clock of 100 Hz.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    const USER_HZ: f64 = 100.0;
    Some((utime + stime) as f64 / USER_HZ)
}

/// A non-negative number of seconds (GTP sends integers; decimals are taken too).
fn seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1.0e9).contains(&v) => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("syntax error: '{}' is not a number of seconds", s)),
    }
}

/// A count of stones or periods.
fn count(s: &str) -> Result<u32, String> {
    parse_uint(s, u32::MAX as u64)
        .map(|v| v as u32)
        .ok_or_else(|| format!("syntax error: '{}' is not a count", s))
}

/// GTP's Canadian settings with the spec's special cases: a byo-yomi time with no stones means
/// no limit (GoGui sends `0 1 0` for that); no byo-yomi time means absolute time, and with no main
/// time either there is nothing to count, so no limit.
fn canadian(main: Duration, period: Duration, stones: u32) -> TimeSystem {
    if period.is_zero() {
        if main.is_zero() {
            TimeSystem::None
        } else {
            TimeSystem::Absolute { main }
        }
    } else if stones == 0 {
        TimeSystem::None
    } else {
        TimeSystem::Canadian {
            main,
            period,
            stones,
        }
    }
}

pub fn time_settings(engine: &mut Engine, args: &[&str]) -> Answer {
    let system = canadian(seconds(args[0])?, seconds(args[1])?, count(args[2])?);
    engine.player.clock_mut().set_system(system);
    Ok(String::new())
}

/// KGS's form, which also names Japanese byo-yomi (where `time_left` then counts periods).
pub fn kgs_time_settings(engine: &mut Engine, args: &[&str]) -> Answer {
    let system = kgs_time_system(args)?.ok_or(Refusal::Usage)?;
    engine.player.clock_mut().set_system(system);
    Ok(String::new())
}

/// KataGo's form: KGS's kinds, and Fischer time (`fischer MAIN INCREMENT`; `fischer-capped MAIN
/// INCREMENT MAIN_LIMIT MAX_PER_MOVE`, where a negative limit means none), all in seconds with
/// decimals.
pub fn kata_time_settings(engine: &mut Engine, args: &[&str]) -> Answer {
    let kind = args.first().map(|s| s.to_ascii_lowercase());
    let system = match (kind.as_deref(), args.len()) {
        (Some("fischer"), 3) => TimeSystem::Fischer {
            main: seconds(args[1])?,
            increment: seconds(args[2])?,
            main_limit: Duration::MAX,
            per_move: Duration::MAX,
        },
        (Some("fischer-capped"), 5) => {
            let (main, increment) = (seconds(args[1])?, seconds(args[2])?);
            let limit = |s: &str| match s.parse::<f64>() {
                Ok(v) if v < 0.0 => Ok(Duration::MAX),
                _ => seconds(s),
            };
            let (main_limit, per_move) = (limit(args[3])?, limit(args[4])?);
            if main_limit < main {
                return Err("the main time limit is smaller than the main time".into());
            }
            TimeSystem::Fischer {
                main,
                increment,
                main_limit,
                per_move,
            }
        }
        _ => kgs_time_system(args)?.ok_or(Refusal::Usage)?,
    };
    engine.player.clock_mut().set_system(system);
    Ok(String::new())
}

/// The kinds `kata-time_settings` takes, as KataGo lists them.
pub fn kata_list_time_settings(_: &mut Engine, _: &[&str]) -> Answer {
    Ok("none absolute byoyomi canadian fischer fischer-capped".to_string())
}

/// `none`, `absolute MAIN`, `canadian MAIN PERIOD STONES` or `byoyomi MAIN PERIOD PERIODS`;
/// `None` for another kind or number of arguments.
fn kgs_time_system(args: &[&str]) -> Result<Option<TimeSystem>, String> {
    let kind = args.first().map(|s| s.to_ascii_lowercase());
    Ok(Some(match (kind.as_deref(), args.len()) {
        (Some("none"), 1) => TimeSystem::None,
        (Some("absolute"), 2) => canadian(seconds(args[1])?, Duration::ZERO, 0),
        (Some("canadian"), 4) => canadian(seconds(args[1])?, seconds(args[2])?, count(args[3])?),
        (Some("byoyomi"), 4) => {
            let (main, period, periods) = (seconds(args[1])?, seconds(args[2])?, count(args[3])?);
            if period.is_zero() || periods == 0 {
                canadian(main, Duration::ZERO, 0)
            } else {
                TimeSystem::Byoyomi {
                    main,
                    period,
                    periods,
                }
            }
        }
        _ => return Ok(None),
    }))
}

/// `time_left COLOR TIME STONES`: STONES is 0 in main time, else the stones (Canadian) or
/// periods (byo-yomi) left. A negative time (some controllers send one once over) counts as 0.
pub fn time_left(engine: &mut Engine, args: &[&str]) -> Answer {
    let color = parse_color(args[0]).ok_or("syntax error: color must be b, w, black or white")?;
    let left = match args[1].parse::<f64>() {
        Ok(v) if v.is_finite() && v < 0.0 => Duration::ZERO,
        _ => seconds(args[1])?,
    };
    let stones = count(args[2])?;
    engine.player.clock_mut().time_left(color, left, stones);
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_reads_on_linux() {
        if cfg!(target_os = "linux") {
            let t = super::process_cpu_seconds().unwrap();
            assert!(t >= 0.0);
        }
    }
}
