//! `tengen analysis`: KataGo's JSON analysis-engine protocol, for KaTrain and batch-review
//! tools. One JSON query per input line asks for some turns of a game to be analysed; each
//! turn becomes a task in one queue, and `analysis_threads` workers (each with its own
//! [`Player`], searching one position at a time with its own threads) take the tasks by
//! priority, then by arrival. Each task answers one JSON line, `isDuringSearch: false`, when its
//! search ends (and others before it, `isDuringSearch: true`, when the query asks for reports
//! during the search); results of different tasks come in the order they finish.
//!
//! Invariants: stdout carries protocol lines only, each written whole and flushed under one
//! lock (logs go to stderr); a line that cannot be read, a bad field or an illegal move gets
//! an error line and nothing of it is queued, and the engine reads on; every task queued ends
//! with exactly one final line (its result, or `noResults` when terminated before any); when
//! the input ends the queued work is finished before the engine returns (unless it was told to
//! quit without waiting). Every search starts from a fresh tree: a result depends on its own
//! query alone, never on which worker ran it or what that worker searched before.

mod fields;
pub mod query;
pub mod result;

use crate::search::analysis::pattern_policy;
use crate::search::{Analysis, Config, Player, Watch};
use query::{ActionKind, Defaults, Query, Request};
use serde_json::{json, Value};
use std::collections::BinaryHeap;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex};

/// How the engine runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Each position's search: threads, memory, seed, score weight.
    pub search: Config,
    /// Positions searched at once.
    pub analysis_threads: usize,
    /// What a query leaves out.
    pub defaults: Defaults,
    /// At the end of the input, stop the searches running and drop the queued ones instead of
    /// finishing them.
    pub quit_without_waiting: bool,
}

/// One turn of one query, queued.
struct Task {
    query: Arc<Query>,
    turn: usize,
    priority: i64,
    /// Arrival order: among equal priorities the earlier goes first.
    seq: u64,
    stop: Arc<AtomicBool>,
}

impl PartialEq for Task {
    fn eq(&self, other: &Task) -> bool {
        self.seq == other.seq
    }
}
impl Eq for Task {}
impl PartialOrd for Task {
    fn partial_cmp(&self, other: &Task) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Task {
    /// The heap's greatest first: the highest priority, then the earliest.
    fn cmp(&self, other: &Task) -> std::cmp::Ordering {
        self.priority
            .cmp(&other.priority)
            .then(other.seq.cmp(&self.seq))
    }
}

/// The queue and the tasks being searched.
#[derive(Default)]
struct Queue {
    waiting: BinaryHeap<Task>,
    /// (query id, turn, stop flag) of each task a worker is searching.
    running: Vec<(String, usize, Arc<AtomicBool>)>,
    /// No more tasks will come.
    closed: bool,
}

/// What the reader and the workers share.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    out: Mutex<Box<dyn Write + Send>>,
    /// Set when the output is gone: everything stops.
    broken: AtomicBool,
}

impl Shared {
    /// Writes one protocol line whole and flushes it; a failed write stops the engine.
    fn emit(&self, line: &Value) {
        let text = format!("{}\n", line);
        let mut out = match self.out.lock() {
            Ok(out) => out,
            Err(poisoned) => poisoned.into_inner(),
        };
        if out
            .write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            if !self.broken.swap(true, Relaxed) {
                log::warn!("analysis output closed; stopping");
            }
            self.stop_everything();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        match self.queue.lock() {
            Ok(q) => q,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Stops the running searches and drops the queued tasks, which it returns.
    fn stop_everything(&self) -> Vec<Task> {
        let mut q = self.lock();
        let mut dropped = std::mem::take(&mut q.waiting).into_vec();
        q.closed = true;
        for (_, _, stop) in &q.running {
            stop.store(true, Relaxed);
        }
        self.ready.notify_all();
        dropped.sort_by_key(|t| t.seq);
        dropped
    }
}

/// Runs the protocol: queries from `input` until it ends, results to `output`.
pub fn run(options: &Options, input: impl BufRead, output: Box<dyn Write + Send>) {
    let shared = Shared {
        queue: Mutex::new(Queue::default()),
        ready: Condvar::new(),
        out: Mutex::new(output),
        broken: AtomicBool::new(false),
    };
    let workers = options.analysis_threads.max(1);
    let mut config = options.search.clone();
    // The tree's memory is shared out among the positions searched at once.
    config.max_memory_mb = (config.max_memory_mb / workers).max(16);
    std::thread::scope(|scope| {
        for index in 0..workers {
            let (shared, config) = (&shared, config.clone());
            std::thread::Builder::new()
                .name(format!("analysis-{}", index))
                .spawn_scoped(scope, move || work(shared, config))
                .map_err(|e| log::error!("cannot start an analysis thread: {}", e))
                .ok();
        }
        read(options, input, &shared);
        if options.quit_without_waiting {
            for t in shared.stop_everything() {
                shared.emit(&result::no_results(&t.query.id, t.turn));
            }
        } else {
            let mut q = shared.lock();
            q.closed = true;
            shared.ready.notify_all();
        }
    });
}

/// The reader: every input line answered or queued.
fn read(options: &Options, mut input: impl BufRead, shared: &Shared) {
    let seq = AtomicU64::new(0);
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                log::warn!("analysis input failed: {}", e);
                return;
            }
        }
        if shared.broken.load(Relaxed) {
            return;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let (request, warnings) = query::parse(text, options.defaults);
        for w in &warnings {
            shared.emit(&result::problem(w, true));
        }
        match request {
            Err(e) => shared.emit(&result::problem(&e, false)),
            Ok(Request::Action(action)) => act(action, shared),
            Ok(Request::Query(q)) => {
                let q = Arc::new(q);
                let mut queue = shared.lock();
                for &(turn, priority) in &q.turns {
                    queue.waiting.push(Task {
                        query: q.clone(),
                        turn,
                        priority,
                        seq: seq.fetch_add(1, Relaxed),
                        stop: Arc::new(AtomicBool::new(false)),
                    });
                }
                shared.ready.notify_all();
            }
        }
    }
}

/// An action, answered by echoing it (with the version for `query_version`).
fn act(action: query::Action, shared: &Shared) {
    let mut echo = Value::Object(action.line);
    match action.kind {
        ActionKind::QueryVersion => {
            echo["version"] = json!(env!("CARGO_PKG_VERSION"));
            echo["git_hash"] = json!("<omitted>");
            echo["name"] = json!("tengen");
        }
        // Every search starts from a fresh tree: there is no cache to empty.
        ActionKind::ClearCache => {}
        ActionKind::Terminate { id, turns } => {
            let hit = |task_id: &str, turn: usize| {
                id.as_deref().is_none_or(|i| i == task_id)
                    && turns.as_ref().is_none_or(|t| t.contains(&turn))
            };
            let dropped: Vec<Task> = {
                let mut q = shared.lock();
                for (task_id, turn, stop) in &q.running {
                    if hit(task_id, *turn) {
                        stop.store(true, Relaxed);
                    }
                }
                let (dropped, kept): (Vec<Task>, Vec<Task>) = std::mem::take(&mut q.waiting)
                    .into_iter()
                    .partition(|t| hit(&t.query.id, t.turn));
                q.waiting = kept.into_iter().collect();
                dropped
            };
            let mut dropped = dropped;
            dropped.sort_by_key(|t| t.seq);
            for t in dropped {
                shared.emit(&result::no_results(&t.query.id, t.turn));
            }
        }
    }
    log::debug!("action {} answered", action.id);
    shared.emit(&echo);
}

/// A worker: tasks from the queue until it is closed and empty.
fn work(shared: &Shared, config: Config) {
    let mut player = Player::new(config);
    loop {
        let task = {
            let mut q = shared.lock();
            loop {
                if let Some(task) = q.waiting.pop() {
                    q.running
                        .push((task.query.id.clone(), task.turn, task.stop.clone()));
                    break task;
                }
                if q.closed {
                    return;
                }
                q = match shared.ready.wait(q) {
                    Ok(q) => q,
                    Err(poisoned) => poisoned.into_inner(),
                };
            }
        };
        let line = analyse(&mut player, &task, shared);
        shared
            .lock()
            .running
            .retain(|r| !Arc::ptr_eq(&r.2, &task.stop));
        shared.emit(&line);
    }
}

/// Searches one task's position; its final line.
fn analyse(player: &mut Player, task: &Task, shared: &Shared) -> Value {
    let query = &task.query;
    let game = match query.game_at(task.turn) {
        Ok(game) => game,
        // Checked when the query was read; kept as an error line rather than trusted.
        Err(e) => {
            return result::problem(
                &query::Problem {
                    message: e,
                    field: Some("moves".to_string()),
                    id: Some(query.id.clone()),
                },
                false,
            )
        }
    };
    let color = game.to_move();
    let board = game.board().clone();
    let policy = query.policy.then(|| pattern_policy(&game, color));
    let stop = task.stop.clone();
    let interrupted = move || stop.load(Relaxed);
    let mut report = |a: &Analysis| {
        if a.has_results() {
            shared.emit(&result::position(
                query,
                task.turn,
                &board,
                color,
                a,
                true,
                policy.as_deref(),
            ));
        }
    };
    let mut watch = Watch {
        interrupted: &interrupted,
        min_playouts: 0,
        progress: query
            .report_every
            .map(|every| (every, &mut report as &mut dyn FnMut(&Analysis))),
        ownership_detail: query.ownership_stdev || query.moves_ownership,
    };
    player.forget();
    let analysis = player
        .analyse_watched(&game, color, query.limits, &query.filters, &mut watch)
        .clone();
    if task.stop.load(Relaxed) && !analysis.has_results() {
        return result::no_results(&query.id, task.turn);
    }
    result::position(
        query,
        task.turn,
        &board,
        color,
        &analysis,
        false,
        policy.as_deref(),
    )
}
