//! Generators of hostile GTP lines shared by the fuzz tests, and what GTP's preprocessing
//! makes of a line: whether it is answered, with which id, and whether it would end the session.

use tengen::gtp::MAX_LINE;

/// What GTP's preprocessing leaves of a line: whether a response is due, and the id if any.
pub fn expectation(line: &[u8]) -> Option<Option<String>> {
    if line.len() > MAX_LINE {
        // Refused whole; the id is echoed when it survives in the part the engine keeps.
        let kept = clean(&line[..MAX_LINE]);
        return Some(first_word_id(&kept));
    }
    let kept = clean(line);
    if kept.iter().all(|&b| b == b' ') {
        return None;
    }
    Some(first_word_id(&kept))
}

pub fn clean(line: &[u8]) -> Vec<u8> {
    let mut kept = Vec::new();
    for &b in line {
        match b {
            b'#' => break,
            b'\t' => kept.push(b' '),
            0..=31 | 127 => {}
            _ => kept.push(b),
        }
    }
    kept
}

pub fn first_word_id(kept: &[u8]) -> Option<String> {
    let word: Vec<u8> = kept
        .iter()
        .copied()
        .skip_while(|&b| b == b' ')
        .take_while(|&b| b != b' ')
        .collect();
    (!word.is_empty() && word.iter().all(|b| b.is_ascii_digit()))
        .then(|| String::from_utf8(word).unwrap())
}

/// Whether the line would be a `quit` (never sent: the engine must stay up).
pub fn is_quit(line: &[u8]) -> bool {
    let kept = String::from_utf8_lossy(&clean(line)).into_owned();
    let mut words = kept.split(' ').filter(|w| !w.is_empty());
    match words.next() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next() == Some("quit"),
        Some(w) => w == "quit",
        None => false,
    }
}

/// Argument values, good and bad, for every command.
pub const ARGS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "5",
    "9",
    "13",
    "19",
    "25",
    "26",
    "-1",
    "-3.5",
    "6.5",
    "7",
    "1e400",
    "nan",
    "inf",
    "-0",
    "99999999999999999999999",
    "4294967296",
    "b",
    "w",
    "B",
    "White",
    "black",
    "x",
    "pass",
    "PASS",
    "resign",
    "a1",
    "A1",
    "e5",
    "E5",
    "j9",
    "T19",
    "Z25",
    "z26",
    "i5",
    "A0",
    "a-1",
    "c3",
    "d4",
    "Q16",
    "alive",
    "dead",
    "seki",
    "japanese",
    "chinese",
    "prejudgement",
    "aga",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "/",
    ".",
    "..",
    "/dev/null",
    "/dev/zero",
    "no-such.sgf",
    "out.sgf",
    "/etc/hostname",
    "天元",
    "\u{00a0}",
    "\u{0085}",
    "%s%n",
    "{}",
    "\\",
];

/// Commands not sent with random arguments: `quit` ends the session.
pub fn fuzz_commands(listed: &[String]) -> Vec<String> {
    listed.iter().filter(|c| *c != "quit").cloned().collect()
}

pub fn random_bytes(rng: &mut fastrand::Rng, max: usize) -> Vec<u8> {
    let n = rng.usize(0..max);
    (0..n).map(|_| rng.u8(..)).filter(|&b| b != b'\n').collect()
}

pub fn random_command(rng: &mut fastrand::Rng, commands: &[String]) -> Vec<u8> {
    let mut words: Vec<String> = Vec::new();
    if rng.u8(..4) == 0 {
        words.push(rng.u64(..1_000_000).to_string());
    }
    words.push(commands[rng.usize(..commands.len())].clone());
    let n = rng.usize(0..5);
    for _ in 0..n {
        words.push(ARGS[rng.usize(..ARGS.len())].to_string());
    }
    words.join(" ").into_bytes()
}

/// A valid-looking command line, then damaged.
pub fn mutated(rng: &mut fastrand::Rng, commands: &[String]) -> Vec<u8> {
    let mut line = random_command(rng, commands);
    for _ in 0..rng.usize(1..4) {
        let at = rng.usize(..=line.len());
        match rng.u8(..8) {
            0 if !line.is_empty() => {
                let i = rng.usize(..line.len());
                line[i] ^= 1 << rng.u8(..8);
            }
            1 if !line.is_empty() => {
                line.remove(rng.usize(..line.len()));
            }
            2 => line.insert(at, rng.u8(..)),
            3 => line.insert(at, b'#'),
            4 => line.insert(at, b'\t'),
            5 => line.insert(at, b'\r'),
            6 => {
                let id = "9".repeat(rng.usize(1..40));
                line.splice(0..0, format!("{} ", id).into_bytes());
            }
            _ => line.insert(at, [0u8, 27, 127, 8][rng.usize(..4)]),
        }
    }
    line.retain(|&b| b != b'\n');
    line
}

pub fn long_line(rng: &mut fastrand::Rng, commands: &[String]) -> Vec<u8> {
    let mut line = random_command(rng, commands);
    let target = if rng.bool() {
        MAX_LINE * 2
    } else {
        MAX_LINE - 10
    };
    while line.len() < target {
        line.push(b' ');
        line.extend_from_slice(ARGS[rng.usize(..ARGS.len())].as_bytes());
    }
    line.truncate(target);
    line
}

/// The id and the command name GTP's preprocessing finds in a line, as the engine splits it.
pub fn id_and_command(line: &[u8]) -> (Option<String>, Option<String>) {
    let kept = String::from_utf8_lossy(&clean(line)).into_owned();
    let mut words = kept.split(' ').filter(|w| !w.is_empty());
    match words.next() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
            (Some(w.to_string()), words.next().map(str::to_string))
        }
        w => (None, w.map(str::to_string)),
    }
}

/// The line, or, when it is a `printsgf` with a file name, the same command writing `file`
/// instead: the tests may run as root, and a fuzzed name such as `/etc/hostname` must not be
/// written over.
pub fn writing_only(line: Vec<u8>, file: &str) -> Vec<u8> {
    if line.len() > MAX_LINE {
        return line;
    }
    let (id, command) = id_and_command(&line);
    if command.as_deref() != Some("printsgf") {
        return line;
    }
    let kept = String::from_utf8_lossy(&clean(&line)).into_owned();
    let words = kept.split(' ').filter(|w| !w.is_empty()).count();
    if words <= 1 + usize::from(id.is_some()) {
        return line;
    }
    match id {
        Some(id) => format!("{} printsgf {}", id, file).into_bytes(),
        None => format!("printsgf {}", file).into_bytes(),
    }
}
