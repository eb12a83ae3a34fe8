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

// --- A small backtracking regex matcher (Java syntax subset) ------------------------------

#[derive(Debug, Clone)]
enum Node {
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    LineStart,
    LineEnd,
    Group(Vec<Vec<Node>>),
    Repeat(Box<Node>, usize, usize, bool),
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    source: &'a str,
}

impl Parser<'_> {
    fn error(&self, msg: &str) -> String {
        format!("bad regex {:?} at {}: {}", self.source, self.pos, msg)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn alternatives(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut alts = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.pos += 1;
            alts.push(self.sequence()?);
        }
        Ok(alts)
    }

    fn sequence(&mut self) -> Result<Vec<Node>, String> {
        let mut seq = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            seq.push(self.quantified(atom)?);
        }
        Ok(seq)
    }

    fn quantified(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('?') => (0, 1),
            Some('{') => {
                let close = self.chars[self.pos..]
                    .iter()
                    .position(|&c| c == '}')
                    .ok_or_else(|| self.error("unclosed {"))?;
                let body: String = self.chars[self.pos + 1..self.pos + close].iter().collect();
                let num = |s: &str| s.trim().parse::<usize>().map_err(|_| self.error("bad {}"));
                let (min, max) = match body.split_once(',') {
                    None => (num(&body)?, num(&body)?),
                    Some((a, "")) => (num(a)?, usize::MAX),
                    Some((a, b)) => (num(a)?, num(b)?),
                };
                self.pos += close;
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.pos += 1;
        let greedy = if self.peek() == Some('?') {
            self.pos += 1;
            false
        } else {
            true
        };
        Ok(Node::Repeat(Box::new(atom), min, max, greedy))
    }

    fn escape_class(c: char) -> Option<(Vec<(char, char)>, bool)> {
        let digits = vec![('0', '9')];
        let word = vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
        let space = vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')];
        match c {
            'd' => Some((digits, false)),
            'D' => Some((digits, true)),
            'w' => Some((word, false)),
            'W' => Some((word, true)),
            's' => Some((space, false)),
            'S' => Some((space, true)),
            _ => None,
        }
    }

    fn escaped_char(c: char) -> char {
        match c {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            c => c,
        }
    }

    fn atom(&mut self) -> Result<Node, String> {
        let c = self.peek().ok_or_else(|| self.error("unexpected end"))?;
        self.pos += 1;
        Ok(match c {
            '.' => Node::Any,
            '^' => Node::LineStart,
            '$' => Node::LineEnd,
            '(' => {
                if self.chars[self.pos..].starts_with(&['?', ':']) {
                    self.pos += 2;
                }
                let alts = self.alternatives()?;
                if self.peek() != Some(')') {
                    return Err(self.error("unclosed ("));
                }
                self.pos += 1;
                Node::Group(alts)
            }
            '[' => self.class()?,
            '\\' => {
                let e = self.peek().ok_or_else(|| self.error("trailing \\"))?;
                self.pos += 1;
                match Self::escape_class(e) {
                    Some((ranges, negated)) => Node::Class(ranges, negated),
                    None => Node::Char(Self::escaped_char(e)),
                }
            }
            '*' | '+' | '?' => return Err(self.error("nothing to repeat")),
            c => Node::Char(c),
        })
    }

    fn class(&mut self) -> Result<Node, String> {
        let mut negated = false;
        if self.peek() == Some('^') {
            negated = true;
            self.pos += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.peek().ok_or_else(|| self.error("unclosed ["))?;
            self.pos += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = self.peek().ok_or_else(|| self.error("trailing \\"))?;
                self.pos += 1;
                if let Some((r, false)) = Self::escape_class(e) {
                    ranges.extend(r);
                    continue;
                }
                Self::escaped_char(e)
            } else {
                c
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']') {
                let hi = self.chars[self.pos + 1];
                self.pos += 2;
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Node::Class(ranges, negated))
    }
}

/// A compiled pattern that must match a whole text.
struct Regex(Vec<Vec<Node>>);

impl Regex {
    fn new(source: &str) -> Result<Regex, String> {
        let mut p = Parser {
            chars: source.chars().collect(),
            pos: 0,
            source,
        };
        let alts = p.alternatives()?;
        if p.pos != p.chars.len() {
            return Err(p.error("unmatched )"));
        }
        Ok(Regex(alts))
    }

    fn full_match(&self, text: &str) -> bool {
        let t: Vec<char> = text.chars().collect();
        alts(&self.0, &t, 0, &mut |p| p == t.len())
    }
}

fn alts(a: &[Vec<Node>], t: &[char], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    a.iter().any(|seq| sequence(seq, t, pos, k))
}

fn sequence(seq: &[Node], t: &[char], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match seq.split_first() {
        None => k(pos),
        Some((n, rest)) => node(n, t, pos, &mut |p| sequence(rest, t, p, k)),
    }
}

fn node(n: &Node, t: &[char], pos: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match n {
        Node::Char(c) => t.get(pos) == Some(c) && k(pos + 1),
        Node::Any => pos < t.len() && k(pos + 1),
        Node::Class(ranges, negated) => match t.get(pos) {
            Some(&c) => {
                let inside = ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                inside != *negated && k(pos + 1)
            }
            None => false,
        },
        Node::LineStart => (pos == 0 || t[pos - 1] == '\n') && k(pos),
        Node::LineEnd => (pos == t.len() || t[pos] == '\n') && k(pos),
        Node::Group(a) => alts(a, t, pos, k),
        Node::Repeat(inner, min, max, greedy) => repeat(inner, *min, *max, *greedy, 0, t, pos, k),
    }
}

#[allow(clippy::too_many_arguments)]
fn repeat(
    inner: &Node,
    min: usize,
    max: usize,
    greedy: bool,
    count: usize,
    t: &[char],
    pos: usize,
    k: &mut dyn FnMut(usize) -> bool,
) -> bool {
    // An iteration that consumes nothing is only useful to reach the minimum.
    let more = |k: &mut dyn FnMut(usize) -> bool| {
        count < max
            && node(inner, t, pos, &mut |p| {
                (p != pos || count < min) && repeat(inner, min, max, greedy, count + 1, t, p, k)
            })
    };
    // Greedy tries one more iteration before stopping here; lazy the other way round.
    if greedy && more(k) {
        return true;
    }
    if count >= min && k(pos) {
        return true;
    }
    !greedy && more(k)
}

// --- Scripts -------------------------------------------------------------------------------

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
    let regex = |p: &str| Regex::new(p);
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
fn the_regex_matcher_follows_java_full_matches() {
    let m = |p: &str, t: &str| Regex::new(p).unwrap().full_match(t);
    assert!(m("", ""));
    assert!(m("abc", "abc") && !m("ab", "abc") && !m("abc", "ab"));
    assert!(m("[A-HJ-T]\\d+|pass", "Q16") && m("[A-HJ-T]\\d+|pass", "pass"));
    assert!(!m("[A-HJ-T]\\d+|pass", "I5"));
    assert!(m(".*genmove.*", "play\ngenmove\nundo"));
    assert!(m("(?:a|b)*c", "ababc") && !m("(a|b)+c", "c"));
    assert!(m("x{2,3}", "xxx") && !m("x{2,3}", "xxxx") && m("x{2}", "xx"));
    assert!(m("B\\+\\d+(\\.5)?", "B+3.5") && m("B\\+\\d+(\\.5)?", "B+3"));
    assert!(m("(?:.*\\n)?^undo$(?:\\n.*)?", "play\nundo\nshowboard"));
    assert!(m("[^ ]+ [^ ]+", "ab cd") && !m("[^ ]+", "a b"));
    assert!(m("a.*?b", "aXXb") && m("\\[x\\]", "[x]"));
    assert!(m("(.*)*x", "aaax"));
    assert!(Regex::new("(ab").is_err() && Regex::new("*a").is_err());
}
