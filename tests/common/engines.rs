//! Stand-in GTP engines for the match tool's tests: small sh scripts that answer every command
//! with an empty success except the ones a test scripts, written to a temporary directory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes an executable sh engine and returns its path: `prelude` runs at start-up, then each
/// command is read as `id cmd rest`; `cases` are extra arms of the `case "$cmd"` (with `$id`
/// set, e.g. `genmove) printf '=%s pass\n\n' "$id";;`); `quit` answers and exits; anything
/// else gets an empty success.
pub fn script_engine(dir: &Path, name: &str, prelude: &str, cases: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n{}\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    {}\n    \
         quit) printf '=%s\\n\\n' \"$id\"; exit 0;;\n    \
         *) printf '=%s\\n\\n' \"$id\";;\n  esac\ndone\n",
        prelude, cases
    );
    std::fs::write(&path, script).unwrap();
    Command::new("chmod")
        .arg("755")
        .arg(&path)
        .status()
        .unwrap();
    path.to_string_lossy().into_owned()
}
