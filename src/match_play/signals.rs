//! SIGINT and SIGTERM during a match: they raise a flag instead of ending the process, so the
//! match can stop its engines, write the games in progress and print its summary. The same
//! flag stops the games in progress when the match needs no more (the SPRT has decided, or a
//! game showed the configuration cannot be played, while other games were being played beside
//! it). Engines' clients wait in short slices while the flag is down (see
//! [`super::client::Client::stop_when`]).

use std::sync::atomic::{AtomicBool, Ordering};

/// Up once the games in progress are to stop: a signal arrived, or the match is over.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// Up once SIGINT or SIGTERM has arrived.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// Whether the match was asked to stop by a signal.
pub fn stop_requested() -> bool {
    SIGNALLED.load(Ordering::Relaxed)
}

/// Whether the games in progress are to stop (a signal, or the match needs no more games).
pub(super) fn games_stopped() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Stops the games in progress: the match needs no more.
pub(super) fn stop_games() {
    STOP.store(true, Ordering::Relaxed);
}

/// Lets games run again, at the start of a match (the flag may be up from an earlier match in
/// the same process that ended by a decision; a signal's stays).
pub(super) fn allow_games() {
    STOP.store(SIGNALLED.load(Ordering::Relaxed), Ordering::Relaxed);
}

/// Makes SIGINT and SIGTERM raise [`STOP`] instead of ending the process, so the match can stop
/// its engines and report. std has no way to install a signal handler and the allowed crates
/// offer none, hence the C `signal` call (one of the match tool's two `unsafe` calls; the other
/// is `kill(2)` in the client).
#[cfg(unix)]
pub(super) fn stop_on_signals() {
    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;
    extern "C" fn raise_stop(_signal: i32) {
        // Only atomic stores: async-signal-safe.
        SIGNALLED.store(true, Ordering::Relaxed);
        STOP.store(true, Ordering::Relaxed);
    }
    extern "C" {
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }
    for signum in [SIGINT, SIGTERM] {
        // SAFETY: `signal` is the C library's; the handler only stores to atomics, which is
        // async-signal-safe, and lives for the whole program.
        unsafe {
            signal(signum, raise_stop);
        }
    }
}

#[cfg(not(unix))]
pub(super) fn stop_on_signals() {}
