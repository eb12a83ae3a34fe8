//! Hostile input through the release binary: a controller that floods the engine with lines
//! while it cannot read them must not make it hold them all (its peak resident memory, `VmHWM` in
//! `/proc/<pid>/status`, stays put), and `loadsgf`/`printsgf` judge the file they open, not the
//! name: no writing through a symbolic link or into `/proc`, no reading of the kernel's
//! pseudo-files. Linux only, like `/proc`.
#![cfg(target_os = "linux")]

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The longest any one response may take here.
const DEADLINE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The engine's output, one complete response at a time, once reading has started.
    responses: Option<Receiver<String>>,
    /// The engine's output before reading starts: until then nothing is read and the engine
    /// blocks once the pipe is full.
    unread: Option<ChildStdout>,
}

impl Engine {
    fn start(dir: &std::path::Path) -> Engine {
        let mut child = common::spawn_tengen(&["--threads", "1", "--size", "19"], Some(dir));
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        Engine {
            child,
            stdin,
            responses: None,
            unread: Some(stdout),
        }
    }

    fn read_output(&mut self) {
        if let Some(stdout) = self.unread.take() {
            self.responses = Some(common::gtp_responses(stdout));
        }
    }

    fn one(&mut self, command: &str) -> String {
        self.read_output();
        writeln!(self.stdin, "{}", command).unwrap();
        self.stdin.flush().unwrap();
        self.responses
            .as_ref()
            .expect("reading started")
            .recv_timeout(DEADLINE)
            .unwrap_or_else(|_| panic!("no response to {:?} (engine gone?)", command))
    }

    fn status(&self, field: &str) -> String {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the engine is running");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .expect("the field")
            .trim()
            .to_string()
    }

    /// The engine's peak resident memory so far, in MB.
    fn peak_mb(&self) -> f64 {
        let kb: f64 = self
            .status("VmHWM:")
            .split_whitespace()
            .next()
            .and_then(|v| v.parse().ok())
            .expect("a VmHWM figure");
        kb / 1024.0
    }

    fn quit(mut self) {
        assert_eq!(self.one("quit"), "= \n");
        self.child.wait().unwrap();
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-hostile-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn lines_sent_while_the_engine_is_busy_are_not_all_held() {
    let dir = scratch_dir("flood");
    let mut e = Engine::start(&dir);
    // Answers nobody reads yet (the engine's output is not read until `read_output`): once the
    // pipe is full the engine waits to write, as it would in a long `genmove`, and runs no
    // further command.
    let busy = "showboard\n".repeat(200);
    e.stdin.write_all(busy.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let before = e.peak_mb();
    // Then eight million empty lines (8 MB, over 300 MB once queued one by one), from a thread:
    // the engine may block the sender.
    let mut stdin = e.stdin.try_clone_for_test();
    let (done_tx, done) = mpsc::channel();
    let flood = std::thread::spawn(move || {
        let chunk = vec![b'\n'; 64 * 1024];
        for _ in 0..128 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.flush().unwrap();
        let _ = done_tx.send(());
    });
    // Give the engine time to read what it would read: the whole flood, unbounded.
    let start = Instant::now();
    while done.try_recv().is_err() && start.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let during = e.peak_mb();
    println!(
        "peak resident memory {:.1} MB before, {:.1} MB with the flood",
        before, during
    );
    // Now read: every showboard is answered, the empty lines are not.
    e.read_output();
    for i in 0..200 {
        let r = e
            .responses
            .as_ref()
            .expect("reading started")
            .recv_timeout(DEADLINE)
            .unwrap_or_else(|_| {
                panic!("showboard {} unanswered", i);
            });
        assert!(r.starts_with("= \n"), "{}", r);
    }
    flood.join().unwrap();
    assert_eq!(e.one("name"), "= tengen\n");
    assert!(
        during - before < 20.0,
        "{:.1} MB more while lines were queued",
        during - before
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A second handle on the engine's input, for a writer thread.
trait CloneForTest {
    fn try_clone_for_test(&self) -> std::fs::File;
}

impl CloneForTest for ChildStdin {
    fn try_clone_for_test(&self) -> std::fs::File {
        use std::os::fd::AsFd;
        std::fs::File::from(self.as_fd().try_clone_to_owned().unwrap())
    }
}

#[test]
fn printsgf_never_writes_through_a_link_nor_into_proc() {
    let dir = scratch_dir("links");
    let target = dir.join("target.sgf");
    std::fs::write(&target, "keep me").unwrap();
    std::os::unix::fs::symlink(&target, dir.join("link.sgf")).unwrap();
    let mut e = Engine::start(&dir);
    assert_eq!(e.one("play b d4"), "= \n");

    let r = e.one("printsgf link.sgf");
    assert!(r.starts_with("? cannot write file"), "{}", r);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(dir.join("link.sgf"))
        .unwrap()
        .file_type()
        .is_symlink());

    // The process's name is a regular file in /proc that takes writes.
    let name = e.status("Name:");
    let r = e.one("printsgf /proc/self/comm");
    assert!(r.starts_with("? cannot write file"), "{}", r);
    assert_eq!(e.status("Name:"), name);

    // A plain file is still written, and replaced whole by the next record.
    assert_eq!(e.one("printsgf target.sgf"), "= \n");
    let first = std::fs::read_to_string(&target).unwrap();
    assert!(first.contains(";B[dp]"), "{}", first);
    assert_eq!(e.one("play w q16"), "= \n");
    assert_eq!(e.one("printsgf target.sgf"), "= \n");
    let second = std::fs::read_to_string(&target).unwrap();
    assert!(
        second.contains(";B[dp] ;W[pd]") || second.contains(";B[dp];W[pd]"),
        "{}",
        second
    );
    // No temporary file is left beside it.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["link.sgf", "target.sgf"]);
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loadsgf_refuses_files_that_do_not_tell_their_size() {
    let dir = scratch_dir("proc");
    std::fs::write(dir.join("empty.sgf"), "").unwrap();
    let mut e = Engine::start(&dir);
    assert_eq!(e.one("play b d4"), "= \n");
    let before = e.one("printsgf");
    // Regular files that say they are empty, but are not (or, as /proc/kmsg, block for ever).
    for path in ["/proc/self/status", "/proc/self/comm", "empty.sgf"] {
        let r = e.one(&format!("loadsgf {}", path));
        assert_eq!(
            r,
            format!(
                "? cannot load file: {}: empty, or a file that does not tell its size\n",
                path
            )
        );
    }
    assert_eq!(e.one("printsgf"), before, "the game changed");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bytes_from_a_record_never_reach_an_answer_as_control_bytes() {
    // A terminal escape (ESC [2J clears the screen) and a UTF-16 file (a NUL after every
    // letter): answers quote what the file holds, but must stay printable text.
    let dir = scratch_dir("control");
    std::fs::write(dir.join("esc.sgf"), b"(;SZ[9]\x1b[2J;B[ee])").unwrap();
    std::fs::write(dir.join("esc_value.sgf"), b"(;SZ[\x1b[2J\x07])").unwrap();
    let utf16: Vec<u8> = "\u{feff}(;SZ[9];B[ee])"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    std::fs::write(dir.join("utf16.sgf"), utf16).unwrap();
    let mut e = Engine::start(&dir);
    for file in ["esc.sgf", "esc_value.sgf", "utf16.sgf"] {
        let r = e.one(&format!("loadsgf {}", file));
        assert!(r.starts_with("? cannot load file"), "{}: {:?}", file, r);
        assert!(
            !r.trim_end_matches('\n')
                .chars()
                .any(|c| c.is_control() && c != '\n'),
            "{}: a control character in {:?}",
            file,
            r
        );
    }
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_perft_subcommand_refuses_what_it_cannot_count_soon() {
    // `tengen perft --depth 30 --size 2` has some 1e20 sequences: refused at once, as
    // `tengen-perft` refuses it, instead of counting for ever.
    let start = Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["perft", "--depth", "30", "--size", "2"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still counting after 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!status.success(), "{:?}", out);
    assert!(stderr.contains("too deep"), "{}", stderr);
    // What it can count it still counts.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "perft", "--depth", "3", "--size", "3", "--rules", "japanese",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", out);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "738");
}
