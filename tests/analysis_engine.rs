//! `tengen analysis`, KataGo's JSON analysis protocol, as a client sees it: the query file
//! `tests/analysis/queries.jsonl` (every query field and action the protocol defines, and the
//! lines it must refuse) is replayed through the release binary, and each answer is checked for
//! its shape and values: one final result per analysed turn, every requested field present
//! with the board's length, the view `reportAnalysisWinratesAs` asks for, filters kept, an
//! error line naming the field for each bad line (a malformed line, an illegal move, a 1×1, a
//! 26×26 and a rectangular board among them), a warning for each unknown field or setting,
//! and the engine still answering after all of them and exiting once the input ends.

use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary on `input` with the given flags; its output lines, each parsed as JSON.
fn replay(input: &str, flags: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("analysis")
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tengen analysis");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    // The input is closed here: the engine must finish the queued work and exit.
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(120));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({}): {}", e, l)))
        .collect()
}

fn finals<'a>(lines: &'a [Value], id: &str) -> Vec<&'a Value> {
    let mut found: Vec<&Value> = lines
        .iter()
        .filter(|l| l["id"] == id && l["isDuringSearch"] == false)
        .collect();
    found.sort_by_key(|l| l["turnNumber"].as_u64());
    found
}

fn error_for<'a>(lines: &'a [Value], id: &str) -> &'a Value {
    let errors: Vec<&Value> = lines
        .iter()
        .filter(|l| l["id"] == id && l.get("error").is_some())
        .collect();
    assert_eq!(errors.len(), 1, "one error for {}: {:?}", id, errors);
    errors[0]
}

/// The fields every analysed move carries, as KataGo's protocol names them.
const MOVE_FIELDS: &[&str] = &[
    "move",
    "visits",
    "edgeVisits",
    "winrate",
    "scoreMean",
    "scoreLead",
    "scoreStdev",
    "scoreSelfplay",
    "utility",
    "lcb",
    "prior",
    "order",
    "pv",
];

fn check_result(r: &Value, points: usize) {
    let infos = r["moveInfos"].as_array().expect("moveInfos");
    assert!(!infos.is_empty(), "{}", r);
    for (k, m) in infos.iter().enumerate() {
        for f in MOVE_FIELDS {
            assert!(m.get(*f).is_some(), "{} lacks {}: {}", r["id"], f, m);
        }
        assert_eq!(m["order"], k as u64);
        let w = m["winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        assert!((-1.0..=1.0).contains(&m["utility"].as_f64().unwrap()));
        assert!(m["scoreStdev"].as_f64().unwrap() >= 0.0);
        assert_eq!(m["pv"][0], m["move"]);
    }
    let root = &r["rootInfo"];
    for f in [
        "currentPlayer",
        "visits",
        "winrate",
        "scoreLead",
        "scoreStdev",
        "utility",
        "lcb",
    ] {
        assert!(root.get(f).is_some(), "rootInfo lacks {}: {}", f, r);
    }
    let visits: u64 = infos.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
    assert_eq!(visits, root["visits"].as_u64().unwrap());
    // The position's lead is its best move's: KaTrain reads a move's `pointsLost` as the root's
    // lead minus the move's, and its AIs refuse every move that loses too much.
    if infos[0]["visits"].as_u64().unwrap() > 0 {
        assert_eq!(root["scoreLead"], infos[0]["scoreLead"], "{}", r);
    }
    if let Some(o) = r.get("ownership") {
        assert_eq!(o.as_array().unwrap().len(), points);
    }
}

#[test]
fn query_file_gets_the_protocols_answers() {
    let input = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/analysis/queries.jsonl"),
    )
    .unwrap();
    let lines = replay(
        &input,
        &["--seed", "1", "--threads", "1", "--analysis-threads", "2"],
    );

    // Actions are echoed; the version carries tengen's.
    let version = lines.iter().find(|l| l["id"] == "version").unwrap();
    assert_eq!(version["action"], "query_version");
    assert_eq!(version["version"], env!("CARGO_PKG_VERSION"));
    for (id, action) in [
        ("cache", "clear_cache"),
        ("stop", "terminate"),
        ("end", "terminate_all"),
    ] {
        assert!(
            lines.iter().any(|l| l["id"] == id && l["action"] == action),
            "{}",
            id
        );
    }

    // The full query: three turns, every field asked for, White's view.
    let full = finals(&lines, "full");
    let turns: Vec<u64> = full
        .iter()
        .map(|r| r["turnNumber"].as_u64().unwrap())
        .collect();
    assert_eq!(turns, [0, 2, 4]);
    for r in &full {
        check_result(r, 81);
        assert_eq!(
            r["rootInfo"]["currentPlayer"], "W",
            "initialPlayer W, then W after 4 moves"
        );
        assert_eq!(r["rootInfo"]["visits"], 60);
        assert_eq!(r["ownershipStdev"].as_array().unwrap().len(), 81);
        let policy = r["policy"].as_array().unwrap();
        assert_eq!(policy.len(), 82, "every point and the pass");
        // C3 holds an initial stone: illegal.
        assert_eq!(policy[6 * 9 + 2], -1.0);
        let legal: f64 = policy
            .iter()
            .filter_map(Value::as_f64)
            .filter(|p| *p >= 0.0)
            .sum();
        assert!((legal - 1.0).abs() < 1e-3, "{}", legal);
        for m in r["moveInfos"].as_array().unwrap() {
            let pv = m["pv"].as_array().unwrap();
            assert!(pv.len() <= 4, "analysisPVLen 3: {:?}", pv);
            assert_eq!(m["pvVisits"].as_array().unwrap().len(), pv.len());
            assert_eq!(m["ownership"].as_array().unwrap().len(), 81);
        }
    }
    // The 2-stone setup with White at G7 leaves G7 White's: in White's view, positive.
    let g7 = full[0]["ownership"][2 * 9 + 6].as_f64().unwrap();
    assert!(g7 > 0.5, "G7 is White's: {}", g7);
    let warned: Vec<&str> = lines
        .iter()
        .filter(|l| l["id"] == "full" && l.get("warning").is_some())
        .map(|l| l["field"].as_str().unwrap())
        .collect();
    for field in [
        "frobnicate",
        "rootPolicyTemperature",
        "rootFpuReductionMax",
        "overrideSettings",
    ] {
        assert!(
            warned.contains(&field),
            "warning for {}: {:?}",
            field,
            warned
        );
    }

    // The same seeded search in two views: Black's is the mirror of the side to move's.
    let (side, black) = (&finals(&lines, "side")[0], &finals(&lines, "black")[0]);
    assert_eq!(side["rootInfo"]["currentPlayer"], "W");
    let (s, b) = (&side["moveInfos"][0], &black["moveInfos"][0]);
    assert_eq!(s["move"], b["move"]);
    let sum = s["winrate"].as_f64().unwrap() + b["winrate"].as_f64().unwrap();
    assert!((sum - 1.0).abs() < 1e-5, "{} {}", s, b);
    let lead = s["scoreLead"].as_f64().unwrap() + b["scoreLead"].as_f64().unwrap();
    assert!(lead.abs() < 1e-5);

    // allowMoves: Black considers only E5 and C3.
    let allow = &finals(&lines, "allow")[0];
    check_result(allow, 81);
    for m in allow["moveInfos"].as_array().unwrap() {
        assert!(m["move"] == "E5" || m["move"] == "C3", "{}", m);
    }
    // A rules object equal to Japanese rules, an (x,y) location, pre-judgement by its name
    // (White first), Black's stones as handicap (White to move), and the AGA preset.
    check_result(finals(&lines, "rulesobject")[0], 81);
    let pre = finals(&lines, "prejudgement")[0];
    assert_eq!(pre["rootInfo"]["currentPlayer"], "W");
    assert_eq!(
        finals(&lines, "handicap")[0]["rootInfo"]["currentPlayer"],
        "W"
    );
    let after = finals(&lines, "after");
    assert_eq!(after.len(), 3);
    let players: Vec<&str> = after
        .iter()
        .map(|r| r["rootInfo"]["currentPlayer"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["B", "W", "B"]);

    // Reports during the search, then exactly one final result.
    let during: Vec<&Value> = lines.iter().filter(|l| l["id"] == "during").collect();
    assert!(during.len() >= 2, "{}", during.len());
    assert_eq!(finals(&lines, "during").len(), 1);
    assert_eq!(during.last().unwrap()["isDuringSearch"], false);
    assert_eq!(during.last().unwrap()["rootInfo"]["visits"], 3000);

    // A terminated query still ends each of its turns with one final line.
    let long = finals(&lines, "long");
    assert_eq!(long.len(), 2);

    // Refusals, each naming the field, the engine answering on.
    let expect = [
        ("illegal", "moves", "Illegal move 1"),
        ("tiny", "boardXSize", "2 to 25"),
        ("huge", "boardXSize", "2 to 25"),
        ("rectangle", "boardYSize", "square"),
        ("badrules", "rules", "korean"),
        ("badobject", "rules", "SITUATIONAL"),
        ("badkomi", "komi", "half"),
        ("badturns", "analyzeTurns", "0 to 1"),
        ("offboard", "moves", "J10"),
        ("badaction", "action", "query_version"),
    ];
    for (id, field, text) in expect {
        let e = error_for(&lines, id);
        assert_eq!(e["field"], field, "{}", e);
        assert!(e["error"].as_str().unwrap().contains(text), "{}", e);
        assert!(finals(&lines, id)
            .iter()
            .all(|l| l.get("moveInfos").is_none()));
    }
    let general: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("error").is_some() && l.get("id").is_none())
        .collect();
    assert_eq!(
        general.len(),
        2,
        "the non-JSON line and the query without id: {:?}",
        general
    );
    assert!(general.iter().any(|l| l["field"] == "id"));

    // Nothing else: every line is one of the above.
    let mut ids: HashMap<String, usize> = HashMap::new();
    for l in &lines {
        *ids.entry(l["id"].as_str().unwrap_or("").to_string())
            .or_default() += 1;
    }
    assert!(!ids.contains_key("unknown"));
}

/// The input ending while long searches are queued: with --quit-without-waiting every turn
/// still gets its final line, at once.
#[test]
fn quit_without_waiting_ends_every_turn() {
    let query = r#"{"id":"q","moves":[],"rules":"chinese","boardXSize":19,"boardYSize":19,"maxVisits":100000000,"analyzeTurns":[0,0,0]}"#;
    let start = Instant::now();
    let lines = replay(
        &format!("{}\n", query),
        &[
            "--threads",
            "1",
            "--analysis-threads",
            "1",
            "--quit-without-waiting",
        ],
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    // The running one answers with what it has (or noResults), the queued ones noResults.
    assert_eq!(finals(&lines, "q").len(), 3, "{:?}", lines);
    assert!(lines.iter().all(|l| l["id"] == "q"));
}
