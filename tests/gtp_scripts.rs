//! Runs the GTP regression scripts of `gtp-scripts/` through the release binary.
//!
//! The scripts use gogui-regress's format: a command with a numeric id is a test, and the
//! `#? [regex]` line after it gives the expected answer (the regex must match the whole answer,
//! `.` matching newlines and `^`/`$` matching at line ends, as Java's MULTILINE|DOTALL);
//! `[!regex]` negates; a trailing `*` marks a known failure; `#?` alone only asks for success.
//! A command without an id is setup and must succeed. Two project extensions: for the errors
//! gogui-regress cannot expect, `#?error [regex]` asks for a `?` answer whose message matches;
//! for commands that run until the controller sends something (live analysis) or that an
//! interrupt cuts short, each `#> text` line after a command is sent to the engine right behind
//! it (`#>` alone sends an empty line, `#> # interrupt` GoGui's interrupt). gogui-regress reads
//! both as comments, so scripts using them run only here.
//!
//! Each script runs in a fresh engine whose working directory is a scratch copy of
//! `gtp-scripts/` (so `loadsgf` finds the fixtures and `printsgf FILE` writes nowhere else), with
//! the fixed flags of [`ENGINE_FLAGS`] so that searches are reproducible.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tengen::match_play::client::{Client, ClientError};

/// The engine's command line for every script: one thread, a fixed seed and playout budget, no
/// resigning (so a genmove test always gets a move).
const ENGINE_FLAGS: &[&str] = &[
    "--threads",
    "1",
    "--seed",
    "1",
    "--playouts",
    "300",
    "--no-resign",
];

/// The longest any one command may take.
const DEADLINE: Duration = Duration::from_secs(60);

/// gogui-regress's patterns are Java regular expressions matched against the whole answer with
/// MULTILINE and DOTALL; the subset the scripts use means the same in the `regex` crate.
struct Pattern(regex::Regex);

impl Pattern {
    fn new(source: &str) -> Result<Pattern, String> {
        regex::Regex::new(&format!(r"(?ms)\A(?:{})\z", source))
            .map(Pattern)
            .map_err(|e| format!("bad regex {:?}: {}", source, e))
    }

    fn full_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }
}

/// What a test expects.
#[derive(Debug)]
enum Expect {
    /// Success with an answer that matches (or, negated, does not match) the pattern.
    Answer { pattern: String, negated: bool },
    /// Success, whatever the answer.
    Success,
    /// A `?` answer whose message matches the pattern.
    Error(String),
}

#[derive(Debug)]
struct Test {
    line: usize,
    command: String,
    /// `None` for setup commands (they must succeed).
    id: Option<String>,
    expect: Expect,
    known_failure: bool,
    /// Raw lines to send right behind the command (`#>`).
    after: Vec<String>,
}

fn bracketed(s: &str, file: &str, line: usize) -> Result<(String, bool), String> {
    let s = s.trim();
    let known_failure = s.ends_with('*');
    let s = s.trim_end_matches('*').trim_end();
    if !(s.starts_with('[') && s.ends_with(']')) {
        return Err(format!(
            "{}:{}: expected [regex], found {:?}",
            file, line, s
        ));
    }
    Ok((s[1..s.len() - 1].to_string(), known_failure))
}

fn parse_script(text: &str, file: &str) -> Result<Vec<Test>, String> {
    let mut tests: Vec<Test> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if let Some(rest) = l.strip_prefix("#>") {
            let Some(t) = tests.last_mut() else {
                return Err(format!("{}:{}: #> without a command before it", file, line));
            };
            t.after
                .push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
            continue;
        }
        if let Some(rest) = l.strip_prefix("#?") {
            let Some(t) = tests.last_mut().filter(|t| t.id.is_some()) else {
                return Err(format!(
                    "{}:{}: #? without a numbered test before it",
                    file, line
                ));
            };
            if let Some(rest) = rest.strip_prefix("error") {
                let (pattern, known) = bracketed(rest, file, line)?;
                t.expect = Expect::Error(pattern);
                t.known_failure = known;
            } else if rest.trim().is_empty() {
                t.expect = Expect::Success;
            } else {
                let (mut pattern, known) = bracketed(rest, file, line)?;
                let negated = pattern.starts_with('!');
                if negated {
                    pattern.remove(0);
                }
                t.expect = Expect::Answer { pattern, negated };
                t.known_failure = known;
            }
            continue;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let first = l.split_whitespace().next().unwrap_or("");
        let (id, command) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (Some(first.to_string()), l[first.len()..].trim().to_string())
        } else {
            (None, l.to_string())
        };
        tests.push(Test {
            line,
            command,
            id,
            expect: Expect::Success,
            known_failure: false,
            after: Vec::new(),
        });
    }
    Ok(tests)
}

/// Checks one answer; `Err` describes the mismatch.
fn check(test: &Test, answer: &Result<String, String>) -> Result<(), String> {
    let regex = |p: &str| Pattern::new(p);
    match (&test.expect, answer) {
        (Expect::Success, Ok(_)) => Ok(()),
        (Expect::Answer { pattern, negated }, Ok(text)) => {
            if regex(pattern)?.full_match(text) != *negated {
                Ok(())
            } else {
                Err(format!(
                    "expected {}[{}], got '= {}'",
                    if *negated { "no match of " } else { "" },
                    pattern,
                    text
                ))
            }
        }
        (Expect::Error(pattern), Err(msg)) => {
            if regex(pattern)?.full_match(msg) {
                Ok(())
            } else {
                Err(format!("expected error [{}], got '? {}'", pattern, msg))
            }
        }
        (Expect::Error(pattern), Ok(text)) => Err(format!(
            "expected error [{}], got success '= {}'",
            pattern, text
        )),
        (_, Err(msg)) => Err(format!("unexpected error '? {}'", msg)),
    }
}

/// Copies the scripts' directory, so that scripts may write files.
fn scratch_copy(from: &Path) -> PathBuf {
    let to = std::env::temp_dir().join(format!("tengen-gtp-scripts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    to
}

/// Runs one script; returns the failures (file:line, command, what went wrong) and the count.
fn run_script(dir: &Path, file: &str) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let tests = match parse_script(&text, file) {
        Ok(t) => t,
        Err(e) => return (vec![e], 0),
    };
    let args: Vec<String> = ENGINE_FLAGS.iter().map(|s| s.to_string()).collect();
    let mut engine = Client::spawn_args(env!("CARGO_BIN_EXE_tengen"), &args, Some(dir), false)
        .expect("start tengen");
    let mut failures = Vec::new();
    for t in &tests {
        let answer = match engine.send_then(&t.command, &t.after, DEADLINE) {
            Ok(a) => a,
            Err(ClientError::Timeout(_)) => {
                failures.push(format!(
                    "{}:{}: {}: no answer in time",
                    file, t.line, t.command
                ));
                break;
            }
            Err(e) => {
                failures.push(format!("{}:{}: {}: engine {}", file, t.line, t.command, e));
                break;
            }
        };
        let result = check(t, &answer);
        match (result, t.known_failure) {
            (Ok(()), false) | (Err(_), true) => {}
            (Ok(()), true) => eprintln!(
                "{}:{}: {}: passes although marked as a known failure",
                file, t.line, t.command
            ),
            (Err(e), false) => failures.push(format!(
                "{}:{}: {}{}: {}",
                file,
                t.line,
                t.id.as_ref().map_or(String::new(), |id| format!("{} ", id)),
                t.command,
                e
            )),
        }
    }
    engine.quit(Duration::from_secs(3));
    (failures, tests.len())
}

#[test]
fn gtp_regression_scripts() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts");
    let dir = scratch_copy(&source);
    let mut scripts: Vec<String> = std::fs::read_dir(&source)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tst"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no scripts in {}", source.display());
    let mut all = Vec::new();
    for s in &scripts {
        let (failures, count) = run_script(&dir, s);
        eprintln!("{}: {} commands, {} failures", s, count, failures.len());
        all.extend(failures);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        all.is_empty(),
        "{} GTP script failures:\n{}",
        all.len(),
        all.join("\n")
    );
}

#[test]
fn patterns_are_java_full_matches() {
    let m = |p: &str, t: &str| Pattern::new(p).unwrap().full_match(t);
    assert!(m("", ""));
    assert!(m("abc", "abc") && !m("ab", "abc") && !m("abc", "ab"));
    assert!(m("[A-HJ-T]\\d+|pass", "Q16") && m("[A-HJ-T]\\d+|pass", "pass"));
    assert!(!m("[A-HJ-T]\\d+|pass", "I5") && !m("a|b", "ab"));
    assert!(m(".*genmove.*", "play\ngenmove\nundo"));
    assert!(m("(?:.*\\n)?^undo$(?:\\n.*)?", "play\nundo\nshowboard"));
    assert!(m("B\\+\\d+(\\.5)?", "B+3.5") && !m("B\\+\\d+", "B+3.5"));
    assert!(Pattern::new("(ab").is_err() && Pattern::new("*a").is_err());
}
