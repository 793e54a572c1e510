//! What polyc-cc reads from the environment: a build passes `CC` and
//! flags, nothing else (docs/polyc-cc.md lists the variables).

use std::path::PathBuf;
use std::time::Duration;

/// Set in the environment of every process polyc-cc starts.
pub const ACTIVE: &str = "POLYC_CC_ACTIVE";

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
