//! SIGINT and SIGTERM during a match: they raise a flag instead of ending the process, so the
//! match can stop its engines, write the game in progress and print its summary. Engines'
//! clients wait in short slices while the flag is down (see [`super::client::Client::stop_when`]).

use std::sync::atomic::{AtomicBool, Ordering};

/// Up once SIGINT or SIGTERM has arrived.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// Whether the match was asked to stop.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
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
        // Only an atomic store: async-signal-safe.
        STOP.store(true, Ordering::Relaxed);
    }
    extern "C" {
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }
    for signum in [SIGINT, SIGTERM] {
        // SAFETY: `signal` is the C library's; the handler only stores to an atomic, which is
        // async-signal-safe, and lives for the whole program.
        unsafe {
            signal(signum, raise_stop);
        }
    }
}

#[cfg(not(unix))]
pub(super) fn stop_on_signals() {}
