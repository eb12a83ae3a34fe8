//! The `tengen` command line: the GTP engine (the default action, `gtp`), engine-against-engine
//! matches (`match`), KataGo's JSON analysis protocol (`analysis`), and subcommands for verification (`perft`), speed (`bench`) and
//! learning move patterns from game records (`train-patterns`) and the playout policy's weights
//! from the engine's own values (`train-playouts`). The flags are [`args`]'; this file runs them.
//!
//! The engine's flags may come before or after `gtp`; where both give one, `gtp`'s wins.

mod args;

use args::{AnalysisArgs, Cli, Command, EngineArgs, ReviewArgs};
use clap::{CommandFactory, Parser};
use std::process::ExitCode;
use std::time::Duration;
use tengen::game::Game;
use tengen::gtp::{self, Engine};
use tengen::match_play::{self, MatchConfig};
use tengen::rules::{HalfPoints, Rules};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .target(env_logger::Target::Stderr)
        .init();
    match cli.command {
        None => return run_gtp(cli.engine),
        Some(Command::Gtp(args)) => return run_gtp(args.or(cli.engine)),
        Some(Command::Match(m)) => {
            if m.fischer.as_ref().is_some_and(|f| f[0] == 0.0) {
                // Every move would take longer than a clock of nothing.
                Cli::command()
                    .error(
                        clap::error::ErrorKind::ValueValidation,
                        "--fischer: a main time of 0 s loses the first move on time",
                    )
                    .exit();
            }
            let sprt = match m.sprt.as_deref() {
                Some(&[elo0, elo1]) => match match_play::Sprt::new(elo0, elo1) {
                    Ok(t) => Some(t),
                    Err(e) => Cli::command()
                        .error(clap::error::ErrorKind::ValueValidation, e)
                        .exit(),
                },
                _ => None,
            };
            let handicap = m.handicap.unwrap_or(0);
            let config = MatchConfig {
                black: m.black,
                white: m.white,
                games: m.games.unwrap_or(if sprt.is_some() { 1000 } else { 2 }) as usize,
                size: m.size as usize,
                // Handicap games are commonly played with half a point of komi.
                komi: m.komi.unwrap_or(if handicap > 0 {
                    HalfPoints(1)
                } else {
                    m.rules.default_komi
                }),
                rules: m.rules,
                time: m.time.map(Duration::from_secs_f64),
                fischer: m.fischer.map(|f| match_play::Fischer {
                    main: Duration::from_secs_f64(f[0]),
                    increment: Duration::from_secs_f64(f[1]),
                }),
                move_timeout: m.move_timeout.map(Duration::from_secs_f64),
                max_moves: m.max_moves.map(|n| n.min(usize::MAX as u64) as usize),
                sgf_dir: m.sgf_dir,
                referee: m.referee,
                seed: m.seed,
                handicap,
                fixed_colours: m.fixed_colours,
                sprt,
                openings: m.openings,
                opening_moves: m.opening_moves.map(|n| n as usize),
                concurrency: m.concurrency as usize,
            };
            return match match_play::run(&config, &mut std::io::stdout()) {
                // The shell's convention for a program ended by SIGINT.
                Ok(_) if match_play::stop_requested() => ExitCode::from(130),
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tengen match: {}", e);
                    ExitCode::FAILURE
                }
            };
        }
        Some(Command::Perft {
            size,
            depth,
            rules,
            limit,
        }) => {
            let Some(game) = Game::new(size, rules) else {
                eprintln!("tengen: board size must be 2 to 25");
                return ExitCode::from(2);
            };
            match tengen::perft::perft_limited(&game, depth.into(), limit) {
                Ok(count) => println!("{}", count),
                Err(e) => {
                    eprintln!("tengen perft: {} (raise it with --limit)", e);
                    return ExitCode::FAILURE;
                }
            }
        }
        Some(Command::Bench {
            sizes,
            threads,
            seconds,
            seed,
        }) => {
            let threads = if threads.is_empty() {
                let all = std::thread::available_parallelism().map_or(1, |n| n.get());
                if all > 1 {
                    vec![1, all]
                } else {
                    vec![1]
                }
            } else {
                threads
            };
            if sizes
                .iter()
                .any(|&s| Game::new(s, Rules::chinese()).is_none())
                || threads.contains(&0)
                || !(seconds > 0.0 && seconds.is_finite())
            {
                eprintln!("tengen: sizes must be 2 to 25, threads at least 1, seconds positive");
                return ExitCode::from(2);
            }
            let duration = Duration::from_secs_f64(seconds);
            for &size in &sizes {
                for &t in &threads {
                    let r = tengen::bench::light_rate(size, t, duration, seed);
                    println!("{}", tengen::bench::light_line(size, t, &r));
                }
            }
            for &size in &sizes {
                for &t in &threads {
                    let r = tengen::bench::search_rate(size, t, duration, seed);
                    println!("{}", tengen::bench::search_line(size, t, &r));
                }
            }
        }
        Some(Command::TrainPlayouts(args)) => {
            use tengen::train_patterns::balance;
            let config = balance::BalanceConfig {
                games: args.games,
                targets: args.targets,
                target_playouts: args.target_playouts,
                komi: args.komi,
                hold_out_every: args.hold_out_every,
                iterations: args.iterations,
                batch: args.batch,
                value_playouts: args.value_playouts,
                gradient_playouts: args.gradient_playouts,
                step: args.step,
                eval_playouts: args.eval_playouts,
                eval_positions: args.eval_positions,
                report_every: args.report_every,
                seed: args.seed,
                out: args.out,
            };
            let start = tengen::search::playout_weights::PlayoutWeights::default();
            if let Err(e) = balance::run_balance(&config, &start, &mut std::io::stdout()) {
                eprintln!("tengen train-playouts: {}", e);
                return ExitCode::FAILURE;
            }
        }
        Some(Command::Review(args)) => return run_review(args, cli.engine),
        Some(Command::Analysis(args)) => return run_analysis(args, cli.engine),
        Some(Command::TrainPatterns(args)) => {
            use tengen::train_patterns;
            let config = train_patterns::RunConfig {
                data_dir: args.data,
                tygem: args.tygem,
                out: args.out,
                weights: args.weights,
                hold_out_every: args.hold_out_every,
                train_games: args.train_games,
                held_out_games: args.held_out_games,
                train: train_patterns::TrainConfig {
                    iterations: args.iterations,
                    position_stride: args.position_stride,
                    min_spatial_played: args.min_spatial_played,
                    max_spatials: args.max_spatials,
                    ..train_patterns::TrainConfig::default()
                },
            };
            if let Err(e) = train_patterns::run(&config, &mut std::io::stdout()) {
                eprintln!("tengen train-patterns: {}", e);
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Serves GTP on stdin/stdout with the engine the flags describe.
fn run_gtp(args: EngineArgs) -> ExitCode {
    let options = match args.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tengen: {}", e);
            return ExitCode::from(2);
        }
    };
    let Some(engine) = Engine::new(&options) else {
        eprintln!("tengen: board size must be 2 to 25");
        return ExitCode::from(2);
    };
    log::info!(
        "GTP engine ready: rules {}, size {}, {} threads",
        options.rules.name,
        options.size,
        options.search.threads
    );
    match gtp::serve(engine, std::io::stdin(), std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // The controller closed the engine's output: nobody is left to answer, as when it
        // closes the input.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            log::info!("the controller closed the output; ending");
            ExitCode::SUCCESS
        }
        Err(e) => {
            log::error!("GTP output failed: {}", e);
            ExitCode::FAILURE
        }
    }
}

/// Runs the JSON analysis engine on stdin and stdout until the input ends.
fn run_analysis(args: AnalysisArgs, outer: EngineArgs) -> ExitCode {
    use tengen::analysis_engine::{self, query::Defaults, query::Perspective};
    let engine = args.engine.or(outer);
    let mut options = match engine.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tengen analysis: {}", e);
            return ExitCode::from(2);
        }
    };
    // Positions are searched side by side, one thread each unless told otherwise.
    if engine.threads.is_none() {
        options.search.threads = 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let options = analysis_engine::Options {
        analysis_threads: args.analysis_threads.map_or(cores, |n| n as usize),
        defaults: Defaults {
            visits: options.search.visits.unwrap_or(500),
            perspective: args.report_winrates_as.unwrap_or(Perspective::Black),
        },
        search: options.search,
        quit_without_waiting: args.quit_without_waiting,
    };
    analysis_engine::run(
        &options,
        std::io::stdin().lock(),
        Box::new(std::io::stdout()),
    );
    ExitCode::SUCCESS
}

/// Reviews a record and writes the annotated copy; progress and the swings go to stderr.
fn run_review(args: ReviewArgs, outer: EngineArgs) -> ExitCode {
    use std::io::{IsTerminal, Write};
    let engine = args.engine.or(outer);
    let options = match engine.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tengen review: {}", e);
            return ExitCode::from(2);
        }
    };
    // The record is read as `loadsgf` reads it, and where the review goes is checked before
    // the first search, not found wanting hours later.
    let text = match tengen::sgf::read_file(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("tengen review: cannot read {}", e);
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = tengen::files::check_writable(&args.out) {
        eprintln!("tengen review: cannot write {}", e);
        return ExitCode::FAILURE;
    }
    let config = tengen::review::ReviewConfig {
        rules: options.rules,
        komi: options.komi,
        search: options.search,
    };
    let terminal = std::io::stderr().is_terminal();
    let start = std::time::Instant::now();
    let mut last_tenth = 0;
    let mut progress = |done: usize, total: usize| {
        let seconds = start.elapsed().as_secs_f64();
        let left = seconds / done as f64 * (total - done) as f64;
        let line = format!(
            "review: position {}/{}, {:.0} s, about {:.0} s left",
            done, total, seconds, left
        );
        // On a terminal one line redrawn; in a log a line every tenth of the record.
        if terminal {
            eprint!("\r{}\x1b[K", line);
            if done == total {
                eprintln!();
            }
        } else if done * 10 / total > last_tenth || done == total {
            last_tenth = done * 10 / total;
            eprintln!("{}", line);
        }
        let _ = std::io::stderr().flush();
    };
    let review = match tengen::review::review(&text, &config, &mut progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tengen review: {}: {}", args.file.display(), e);
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = tengen::files::write(&args.out, review.sgf.as_bytes()) {
        eprintln!("tengen review: cannot write {}", e);
        return ExitCode::FAILURE;
    }
    let board = tengen::board::Board::new(review.size).expect("the record's size");
    eprintln!(
        "review: {} moves in {:.1} s ({} rules, komi {}), written to {}\n{}",
        review.moves.len(),
        review.seconds,
        review.rules.name,
        review.komi,
        args.out.display(),
        tengen::review::swings_text(&board, &review.moves, &review.swings)
    );
    ExitCode::SUCCESS
}
