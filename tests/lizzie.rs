//! Replays the GTP sessions a real Lizzie 0.7.4 (Debian's `liblizzie-java`) had with tengen,
//! recorded byte for byte between the two programs (`tests/lizzie/*.gtp`, each with a header
//! saying what was done in the GUI), and checks every answer the way Lizzie reads it.
//!
//! Lizzie numbers its commands and pipelines them; it reads each `=N` line's number with
//! `Integer.parseInt`; it decides its dialect from the start-up answers (a `name` starting with
//! `KataGo` gets `kata-analyze`, any other engine must answer a `version` whose second number is
//! at least 15, else it refuses to analyse); it splits an `info` line on ` info ` and each block
//! on spaces into key/value pairs up to `pv`, reading `visits` (and in Leela Zero's dialect
//! `winrate`, `prior` and `lcb`) as Java ints and KataGo's values as doubles; it reads the
//! numbers after `ownership` as one value per point; and it places `genmove`'s answer on its
//! board. Each analysis is left to run a quarter of a second before the next command is sent,
//! as the GUI does while the user looks, so reports stream as they do there.

mod common;

use common::gui::{is_vertex, session_lines, split_answers, RawEngine};
use std::time::Duration;

/// The sessions and the option each needs to be accepted by Lizzie, as README gives them.
const SESSIONS: &[(&str, &[&str])] = &[
    ("lz-analyze.gtp", &["--override-version", "0.17"]),
    ("kata-analyze.gtp", &["--override-name", "KataGo-tengen"]),
];

/// One thread and a small budget per move keep the replay to seconds on a shared machine
/// (Lizzie's `time_settings 0 2 1` still applies); no resigning, since Lizzie places whatever
/// `genmove` answers.
const FLAGS: &[&str] = &[
    "--threads",
    "1",
    "--seed",
    "1",
    "--playouts",
    "400",
    "--no-resign",
];

/// How long an analysis runs before the next command goes out.
const ANALYSIS_TIME: Duration = Duration::from_millis(250);

/// How long the engine may take to finish once its input has ended.
const DEADLINE: Duration = Duration::from_secs(90);

/// A command as Lizzie sent it: its number and its text.
struct Sent {
    id: u32,
    command: String,
}

fn read_session(file: &str) -> Vec<Sent> {
    session_lines("lizzie", file)
        .iter()
        .map(|l| {
            let (id, command) = l.split_once(' ').expect("`N command`");
            Sent {
                id: id.parse().expect("a command number"),
                command: command.to_string(),
            }
        })
        .collect()
}

fn is_analysis(command: &str) -> bool {
    command.starts_with("lz-analyze") || command.starts_with("kata-analyze")
}

/// Sends the session to the release binary as Lizzie did (pipelined, each analysis left running
/// for a moment) and returns everything it printed.
fn replay(session: &[Sent], options: &[&str]) -> Vec<String> {
    let args: Vec<&str> = FLAGS.iter().chain(options).copied().collect();
    let mut engine = RawEngine::spawn(&args);
    for s in session {
        engine.send(&format!("{} {}", s.id, s.command));
        if is_analysis(&s.command) {
            std::thread::sleep(ANALYSIS_TIME);
        }
    }
    // Lizzie ends the engine by closing its pipe; the last analysis ends with the input.
    engine.close_input();
    let (lines, success) = engine.rest(DEADLINE);
    assert!(success, "tengen failed");
    lines
}

/// Checks one `info` line as Lizzie's `MoveData.fromInfo`/`fromInfoKatago` and its ownership
/// reader take it; returns the number of move blocks.
fn check_info_line(line: &str, kata: bool, size: usize, ownership: bool) -> Result<usize, String> {
    let body = line
        .strip_prefix("info ")
        .ok_or_else(|| format!("not an info line: {}", line))?;
    let (moves, owned) = match body.split_once(" ownership ") {
        Some((m, o)) => (m, Some(o)),
        None => (body, None),
    };
    let blocks: Vec<&str> = moves.split(" info ").collect();
    for block in &blocks {
        let data: Vec<&str> = block.trim().split(' ').collect();
        let pv_at = data
            .iter()
            .position(|&k| k == "pv")
            .ok_or_else(|| format!("no pv in {:?}", block))?;
        if pv_at % 2 != 0 {
            return Err(format!("keys and values do not pair up in {:?}", block));
        }
        let pv = &data[pv_at + 1..];
        if pv.is_empty() || !pv.iter().all(|v| is_vertex(v, size)) {
            return Err(format!("bad pv in {:?}", block));
        }
        let mut seen = Vec::new();
        for pair in data[..pv_at].chunks(2) {
            let (key, value) = (pair[0], pair[1]);
            seen.push(key);
            let int = value.parse::<i32>();
            let double = value.parse::<f64>();
            let good = match (key, kata) {
                ("move", _) => is_vertex(value, size),
                ("visits", _) | ("order", _) => int.is_ok_and(|v| v >= 0),
                ("winrate" | "lcb" | "prior", false) => int.is_ok_and(|v| (0..=10000).contains(&v)),
                ("winrate" | "lcb" | "prior", true) => {
                    double.is_ok_and(|v| (0.0..=1.0).contains(&v))
                }
                (_, true) => double.is_ok_and(f64::is_finite),
                (_, false) => true,
            };
            if !good {
                return Err(format!("bad {} '{}' in {:?}", key, value, block));
            }
        }
        for key in ["move", "visits", "winrate"] {
            if !seen.contains(&key) {
                return Err(format!("no {} in {:?}", key, block));
            }
        }
        if kata && !seen.contains(&"scoreMean") {
            return Err(format!("no scoreMean in {:?}", block));
        }
    }
    match (owned, ownership) {
        (None, false) => {}
        (None, true) => return Err(format!("no ownership in {}", line)),
        (Some(_), false) => return Err(format!("ownership not asked for in {}", line)),
        (Some(o), true) => {
            let values: Vec<&str> = o.split(' ').collect();
            if values.len() != size * size
                || !values
                    .iter()
                    .all(|v| v.parse::<f64>().is_ok_and(|x| (-1.0..=1.0).contains(&x)))
            {
                return Err(format!(
                    "ownership needs {} values in [-1, 1]: {}",
                    size * size,
                    o
                ));
            }
        }
    }
    Ok(blocks.len())
}

/// Replays one session and checks every answer; returns the number of analysis answers that
/// streamed more than their final line.
fn check_session(file: &str, options: &[&str]) -> usize {
    let session = read_session(file);
    assert!(!session.is_empty(), "{}: no commands", file);
    let lines = replay(&session, options);
    let answers = split_answers(&lines);
    assert_eq!(
        answers.len(),
        session.len(),
        "{}: {} commands, {} answers",
        file,
        session.len(),
        answers.len()
    );
    let mut size = 19;
    let mut kata = false;
    let mut streamed = 0;
    for (sent, answer) in session.iter().zip(&answers) {
        let what = format!("{}: {} {}", file, sent.id, sent.command);
        assert_eq!(
            answer.id,
            Some(sent.id),
            "{}: answer numbered wrongly",
            what
        );
        assert!(answer.ok, "{}: refused: {}", what, answer.text);
        let words: Vec<&str> = sent.command.split_whitespace().collect();
        match words[0] {
            "name" => kata = answer.text.starts_with("KataGo"),
            // In KataGo's dialect Lizzie skips the version check.
            "version" if kata => {}
            "version" => {
                let minor = answer.text.split('.').nth(1).map(str::parse::<i32>);
                assert!(
                    matches!(minor, Some(Ok(m)) if m >= 15),
                    "{}: Lizzie refuses to analyse with version {:?}",
                    what,
                    answer.text
                );
            }
            "boardsize" => size = words[1].parse().unwrap(),
            "genmove" => assert!(
                is_vertex(&answer.text, size),
                "{}: Lizzie cannot place {:?}",
                what,
                answer.text
            ),
            w if is_analysis(w) => {
                assert_eq!(w.starts_with("kata"), kata, "{}: Lizzie's dialect", what);
                assert!(answer.text.is_empty(), "{}: {:?}", what, answer.text);
                assert!(!answer.more.is_empty(), "{}: no info line", what);
                let ownership = sent.command.ends_with("ownership true");
                for line in &answer.more {
                    if let Err(e) = check_info_line(line, kata, size, ownership) {
                        panic!("{}: {}", what, e);
                    }
                }
                if answer.more.len() > 1 {
                    streamed += 1;
                }
            }
            _ => assert!(
                answer.text.is_empty() && answer.more.is_empty(),
                "{}: unexpected answer {:?}",
                what,
                answer.text
            ),
        }
    }
    let expect_kata = options.contains(&"--override-name");
    assert_eq!(kata, expect_kata, "{}: Lizzie's dialect", file);
    streamed
}

#[test]
fn lizzie_sessions_replay_with_every_answer_as_lizzie_reads_it() {
    for &(file, options) in SESSIONS {
        let streamed = check_session(file, options);
        eprintln!("{}: {} analyses streamed reports", file, streamed);
        assert!(
            streamed > 0,
            "{}: no analysis streamed a report before its final line",
            file
        );
    }
}

#[test]
fn without_the_options_name_and_version_are_tengens_own() {
    let session = [
        Sent {
            id: 1,
            command: "name".to_string(),
        },
        Sent {
            id: 2,
            command: "version".to_string(),
        },
    ];
    let lines = replay(&session, &[]);
    let answers = split_answers(&lines);
    assert_eq!(answers[0].text, "tengen");
    assert_eq!(answers[1].text, env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_info_line_checker_takes_what_lizzie_takes() {
    let lz = "info move D4 visits 8 winrate 5122 prior 52 lcb 3317 order 0 pv D4 Q16 \
              info move pass visits 1 winrate 0 prior 0 lcb 0 order 1 pv pass";
    assert_eq!(check_info_line(lz, false, 19, false), Ok(2));
    // Lizzie reads lz win rates with parseInt: a decimal point breaks it.
    let lz_float = "info move D4 visits 8 winrate 0.51 order 0 pv D4";
    assert!(check_info_line(lz_float, false, 19, false).is_err());
    let kata = "info move B1 visits 3 winrate 0.5 scoreMean 1.5 order 0 pv B1 A2 ownership \
                0.5 -0.5 0 1";
    assert_eq!(check_info_line(kata, true, 2, true), Ok(1));
    assert!(
        check_info_line(kata, true, 3, true).is_err(),
        "4 values for 9 points"
    );
    assert!(
        check_info_line(kata, true, 2, false).is_err(),
        "ownership not asked for"
    );
    assert!(check_info_line("info move C3 visits pv C3", true, 3, false).is_err());
    assert!(check_info_line(
        "info move T19 visits 1 winrate 0.5 scoreMean 0 pv T19",
        true,
        9,
        false
    )
    .is_err());
}
