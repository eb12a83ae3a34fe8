//! KaTrain, installed from PyPI, reviewing a finished 19×19 game and choosing AI moves through
//! `tengen analysis` with its own engine code (`tests/katrain/review.py` says how).
//!
//! Needs Python 3 with `venv` and network access to PyPI the first time: the pinned KaTrain
//! (and its dependencies, Kivy among them) is installed into `target/katrain-venv`, which later
//! runs reuse. Fails (not skips) when they are missing.

use std::path::Path;
use std::process::Command;

/// The KaTrain release the test drives.
const KATRAIN: &str = "katrain==1.20.0";

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run {} ({}): install python3 and python3-venv",
            what, e
        )
    });
    let text = format!(
        "{} ({})\n--- stdout ---\n{}--- stderr ---\n{}",
        what,
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{}", text);
    text
}

#[test]
fn katrain_reviews_a_game_and_plays_through_tengen_analysis() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = root.join("target/katrain-venv");
    let python = venv.join("bin/python");
    let marker = venv.join(KATRAIN);
    if !marker.exists() {
        run(
            Command::new("python3").arg("-m").arg("venv").arg(&venv),
            "python3 -m venv",
        );
        run(
            Command::new(&python).args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                KATRAIN,
            ]),
            "pip install katrain",
        );
        std::fs::write(&marker, b"installed\n").unwrap();
    }
    let home = root.join("target/katrain-home");
    std::fs::create_dir_all(&home).unwrap();
    let out = run(
        Command::new(&python)
            .arg(root.join("tests/katrain/review.py"))
            .arg(env!("CARGO_BIN_EXE_tengen"))
            .arg(root.join("gtp-scripts/race_crowded.sgf"))
            // KaTrain keeps its settings and logs under the home directory.
            .env("HOME", &home)
            .current_dir(&home),
        "KaTrain's engine code",
    );
    assert!(out.contains("\nok\n"), "{}", out);
    eprintln!("{}", out);
}
