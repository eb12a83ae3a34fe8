//! Replays the GTP sessions a real GoGui 1.6 had with tengen, recorded byte for byte between the
//! two programs (`tests/gogui/*.gtp`, each with a header saying what was done in the GUI), and
//! checks every answer the way GoGui reads it.
//!
//! GoGui sends one command at a time, without numbers, and waits for its answer; the one line
//! it sends while a command runs is `# interrupt` (Program > Interrupt), which it sends only to
//! engines that answer `gogui-interrupt`, and after which it expects the answer soon. It builds
//! its Analyze window from `gogui-analyze_commands` (`type/label/command` lines) and reads each
//! entry's answer by its type: `gfx` draw commands (`INFLUENCE` a value in [-1, 1] per point,
//! `LABEL`, `MARK`, `TEXT`, …), `var` a move sequence, `plist` a point list, `string` text. Its
//! score dialog marks the stones `final_status_list dead` lists.

mod common;

use common::gui::{is_vertex, session_lines, Answer, RawEngine};
use std::time::{Duration, Instant};

/// The sessions and the engine flags GoGui started tengen with in each.
const SESSIONS: &[(&str, &[&str])] = &[
    ("analyze-commands.gtp", &["--threads", "1", "--time", "1"]),
    ("interrupt.gtp", &["--threads", "1", "--time", "10"]),
];

/// The longest any one command may take (a search is given at most 10 s in these sessions).
const DEADLINE: Duration = Duration::from_secs(60);

/// How long a command runs before the replay sends GoGui's interrupt.
const INTERRUPT_AFTER: Duration = Duration::from_millis(500);

/// How soon an interrupted command must answer.
const INTERRUPT_ANSWER: Duration = Duration::from_secs(3);

/// GoGui's analyze command types (its `AnalyzeType`).
const ANALYZE_TYPES: &[&str] = &[
    "bwboard", "cboard", "dboard", "eplist", "gfx", "hpstring", "hstring", "none", "param",
    "plist", "pspairs", "pstring", "sboard", "string", "var", "varb", "varc", "varp", "varpo",
    "varw",
];

/// What the session has told the checks so far.
struct Session {
    size: usize,
    /// `list_commands`'s answer.
    commands: Vec<String>,
    /// The type of each analyze command, by its command word.
    analyze: Vec<(String, String)>,
}

fn check_points(words: &[&str], size: usize, what: &str) {
    for w in words {
        assert!(is_vertex(w, size), "{}: {:?} is not a point", what, w);
    }
}

/// A `gfx` answer as GoGui's `GuiBoardUtil.updateFromGoGuiText` reads it.
fn check_gfx(text: &str, size: usize, what: &str) {
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&keyword, args)) = words.split_first() else {
            continue;
        };
        match keyword {
            "INFLUENCE" | "LABEL" => {
                assert!(args.len() % 2 == 0, "{}: {} needs pairs", what, keyword);
                let points: Vec<&str> = args.iter().step_by(2).copied().collect();
                check_points(&points, size, what);
                if keyword == "INFLUENCE" {
                    for v in args.iter().skip(1).step_by(2) {
                        let value: f64 = v.parse().expect("an influence value");
                        assert!((-1.0..=1.0).contains(&value), "{}: influence {}", what, v);
                    }
                    let mut sorted = points.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), size * size, "{}: one value per point", what);
                }
            }
            "BLACK" | "CIRCLE" | "MARK" | "SQUARE" | "TRIANGLE" | "WHITE" => {
                check_points(args, size, what)
            }
            "VAR" => {
                assert!(args.len() % 2 == 0, "{}: VAR needs colour and point", what);
                for pair in args.chunks(2) {
                    assert!(matches!(pair[0], "b" | "w" | "B" | "W"), "{}: VAR", what);
                    check_points(&pair[1..], size, what);
                }
            }
            "TEXT" | "COLOR" | "CLEAR" => {}
            other => panic!("{}: GoGui does not draw {:?}", what, other),
        }
    }
}

/// Checks one answer by the command it answers.
fn check(session: &mut Session, command: &str, answer: &Answer, what: &str) {
    assert!(answer.ok, "{}: refused: {}", what, answer.text);
    assert_eq!(answer.id, None, "{}: GoGui sent no number", what);
    let text = std::iter::once(answer.text.as_str())
        .chain(answer.more.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("\n");
    let words: Vec<&str> = command.split_whitespace().collect();
    let analyze_type = session
        .analyze
        .iter()
        .find(|(c, _)| c == words[0])
        .map(|(_, t)| t.clone());
    match words[0] {
        "name" | "version" => assert!(!text.is_empty(), "{}: empty", what),
        "protocol_version" => assert_eq!(text, "2", "{}", what),
        "list_commands" => {
            session.commands = text.lines().map(str::to_string).collect();
            for needed in [
                "gogui-interrupt",
                "gogui-analyze_commands",
                "final_status_list",
            ] {
                assert!(
                    session.commands.iter().any(|c| c == needed),
                    "{}: {}",
                    what,
                    needed
                );
            }
        }
        "gogui-analyze_commands" => {
            for line in text.lines() {
                let fields: Vec<&str> = line.split('/').collect();
                assert_eq!(
                    fields.len(),
                    3,
                    "{}: {:?} is not type/label/command",
                    what,
                    line
                );
                assert!(
                    ANALYZE_TYPES.contains(&fields[0]),
                    "{}: type {:?}",
                    what,
                    line
                );
                let word = fields[2].split_whitespace().next().unwrap_or("");
                assert!(
                    session.commands.iter().any(|c| c == word),
                    "{}: {:?} is not listed by list_commands",
                    what,
                    word
                );
                session
                    .analyze
                    .push((word.to_string(), fields[0].to_string()));
            }
        }
        "boardsize" => {
            session.size = words[1].parse().unwrap();
            assert!(text.is_empty(), "{}: {:?}", what, text);
        }
        "genmove" => assert!(
            text == "resign" || is_vertex(&text, session.size),
            "{}: GoGui cannot play {:?}",
            what,
            text
        ),
        "final_status_list" => {
            let points: Vec<&str> = text.split_whitespace().collect();
            check_points(&points, session.size, what);
        }
        _ => match analyze_type.as_deref() {
            Some("gfx") => check_gfx(&text, session.size, what),
            Some("var") => {
                let moves: Vec<&str> = text.split_whitespace().collect();
                assert!(!moves.is_empty(), "{}: no moves", what);
                check_points(&moves, session.size, what);
            }
            Some("string") => assert!(!text.is_empty(), "{}: empty", what),
            Some(other) => panic!("{}: no check for type {}", what, other),
            None => assert!(text.is_empty(), "{}: unexpected answer {:?}", what, text),
        },
    }
}

/// Replays one session as GoGui sent it and checks every answer.
fn replay(file: &str, flags: &[&str]) {
    let lines = session_lines("gogui", file);
    assert!(!lines.is_empty(), "{}: no commands", file);
    let mut engine = RawEngine::spawn(flags);
    let mut session = Session {
        size: 19,
        commands: Vec::new(),
        analyze: Vec::new(),
    };
    let mut quit = false;
    let mut i = 0;
    while i < lines.len() {
        let command = &lines[i];
        assert!(
            !command.starts_with('#'),
            "{}: {:?} with no command running",
            file,
            command
        );
        let what = format!("{}:{} {}", file, i + 1, command);
        engine.send(command);
        let interrupted = lines.get(i + 1).is_some_and(|l| l == "# interrupt");
        let answer = if interrupted {
            std::thread::sleep(INTERRUPT_AFTER);
            engine.send("# interrupt");
            let sent = Instant::now();
            let answer = engine.answer(Instant::now() + DEADLINE);
            assert!(
                sent.elapsed() < INTERRUPT_ANSWER,
                "{}: answered {:?} after the interrupt",
                what,
                sent.elapsed()
            );
            i += 1;
            answer
        } else {
            engine.answer(Instant::now() + DEADLINE)
        };
        check(&mut session, command, &answer, &what);
        quit |= command == "quit";
        i += 1;
    }
    assert!(quit, "{}: the session ends with quit", file);
    let (rest, success) = engine.rest(Duration::from_secs(5));
    assert!(
        rest.iter().all(|l| l.is_empty()),
        "{}: after quit: {:?}",
        file,
        rest
    );
    assert!(success, "{}: tengen's exit status after quit", file);
}

#[test]
fn gogui_sessions_replay_with_every_answer_as_gogui_reads_it() {
    for &(file, flags) in SESSIONS {
        replay(file, flags);
    }
}

#[test]
fn the_gfx_checker_refuses_what_gogui_cannot_draw() {
    check_gfx("LABEL A1 5% B2 7%\nTEXT anything goes", 3, "labels");
    let values: Vec<String> = ["A1", "B1", "A2", "B2"]
        .iter()
        .map(|p| format!("{} 0.5", p))
        .collect();
    check_gfx(&format!("INFLUENCE {}", values.join(" ")), 2, "influence");
    for bad in [
        "INFLUENCE A1 0.5 B1 1.5 A2 0 B2 0",
        "INFLUENCE A1 0.5",
        "LABEL A1",
        "MARK C3",
        "ARROW A1 B2",
    ] {
        let result = std::panic::catch_unwind(|| check_gfx(bad, 2, "bad"));
        assert!(result.is_err(), "{:?} passed", bad);
    }
}
