//! `polyc-cc`: a C compiler driver that behaves like `cc`, for builds
//! (`make CC=polyc-cc`, `cmake -DCMAKE_C_COMPILER=polyc-cc`). Each C file
//! a command compiles goes through polyc (`transform`), and the real
//! compiler compiles the new text in its place (`build`); everything else
//! goes to the real compiler untouched.
//!
//! Invariants:
//! - A build that builds with the real compiler builds with polyc-cc: the
//!   command runs as given first, and whatever fails later (polyc, its
//!   text, the relink) leaves that run's result, with one warning line.
//! - The real compiler's messages, exit status and dependency files are
//!   those of the sources as written.
//! - Nothing is written outside the command's own outputs but in a
//!   temporary directory of the system's, removed after (`make -j` safe).
//! - The same command on the same files gives the same bytes (ccache).
//! - polyc-cc never calls itself: polyc's preprocessor and every compile
//!   run `POLYC_REAL_CC`, and a command that reaches polyc-cc again from
//!   them stops with an error.
//!
//! Its settings come from the environment ([`Settings::from_env`]): a
//! build passes `CC` and flags, nothing else.

mod build;
pub mod command;
pub mod record;
pub mod summary;
mod transform;

use std::path::PathBuf;
use std::time::Duration;

/// Set in the environment of every process polyc-cc starts.
const ACTIVE: &str = "POLYC_CC_ACTIVE";

/// How long polyc may spend on one file unless `POLYC_TIMEOUT` says otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// What polyc-cc reads from the environment.
pub struct Settings {
    /// `POLYC_REAL_CC`: the compiler, with its own arguments (`ccache gcc`).
    pub real_cc: Vec<String>,
    /// `POLYC`: the polyc to run (default: the one beside polyc-cc).
    pub polyc: PathBuf,
    /// `POLYC_FLAGS`: more arguments for polyc (`--schedule=identity`).
    pub polyc_flags: Vec<String>,
    /// Unless `POLYC_AUTODETECT=0`: loop nests without pragmas too.
    pub autodetect: bool,
    /// `POLYC_TIMEOUT`, in seconds.
    pub timeout: Duration,
    /// `POLYC_REPORT`: where each file's record goes.
    pub report_dir: Option<PathBuf>,
    /// `POLYC_REMARKS=1`: a remark per region and per loop nest refused.
    pub remarks: bool,
}

impl Settings {
    pub fn from_env() -> Settings {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let words = |v: String| v.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let beside = std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.join("polyc")));
        Settings {
            real_cc: var("POLYC_REAL_CC").map(words).unwrap_or_else(|| vec!["cc".to_string()]),
            polyc: var("POLYC").map(PathBuf::from).or(beside.filter(|p| p.is_file())).unwrap_or("polyc".into()),
            polyc_flags: var("POLYC_FLAGS").map(words).unwrap_or_default(),
            autodetect: var("POLYC_AUTODETECT").is_none_or(|v| v != "0"),
            timeout: var("POLYC_TIMEOUT")
                .and_then(|t| t.parse::<f64>().ok())
                .filter(|t| t.is_finite() && *t > 0.0)
                .map_or(DEFAULT_TIMEOUT, Duration::from_secs_f64),
            report_dir: var("POLYC_REPORT").map(PathBuf::from),
            remarks: var("POLYC_REMARKS").is_some_and(|v| v != "0"),
        }
    }
}

/// Run one compiler command (`args` without the program's name); the
/// exit status to give.
pub fn main(args: Vec<String>) -> i32 {
    if std::env::var_os(ACTIVE).is_some() {
        eprintln!(
            "polyc-cc: the real compiler runs polyc-cc again; set POLYC_REAL_CC to a compiler (gcc, clang), not polyc-cc"
        );
        return 1;
    }
    let settings = Settings::from_env();
    let command = command::Command::parse(&command::expand_response_files(args));
    build::run(&command, &settings)
}
