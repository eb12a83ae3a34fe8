//! The `tengen` command line: subcommands for verification (`perft`) and speed (`bench`).

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Duration;
use tengen::game::Game;
use tengen::rules::Rules;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "A Monte Carlo Go engine (GTP) for Japanese, Chinese and pre-judgement komi rules"
)]
struct Cli {
    /// More log output on stderr (repeat for more); RUST_LOG overrides it.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the legal move sequences of a given length from the empty board (a pass is a move;
    /// two passes end the game; superko-illegal moves are not counted) and print the number.
    Perft {
        /// Board side, 2 to 25.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Sequence length in moves.
        #[arg(long)]
        depth: u32,
        /// Ruleset: japanese, chinese or prejudgement.
        #[arg(long, default_value = "chinese", value_parser = parse_rules)]
        rules: Rules,
    },
    /// Measure light-playout speed from the empty board: one line per board size and thread count.
    Bench {
        /// Board sides to measure.
        #[arg(long, value_delimiter = ',', default_values_t = [9, 19])]
        sizes: Vec<usize>,
        /// Worker counts to measure (default: 1 and all cores).
        #[arg(long, value_delimiter = ',')]
        threads: Vec<usize>,
        /// Wall seconds per measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Seed for the playouts' random numbers.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn parse_rules(s: &str) -> Result<Rules, String> {
    Rules::by_name(s)
        .ok_or_else(|| format!("unknown rules '{}' (use {})", s, Rules::NAMES.join(", ")))
}

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
        Some(Command::Perft { size, depth, rules }) => {
            let Some(game) = Game::new(size, rules) else {
                eprintln!("tengen: board size must be 2 to 25");
                return ExitCode::from(2);
            };
            println!("{}", tengen::perft::perft(&game, depth));
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
        }
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().ok();
            println!();
        }
    }
    ExitCode::SUCCESS
}
