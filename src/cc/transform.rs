//! One C file through polyc: run as a process of its own (a crash, a
//! hang or a bug in polyc is that file's fallback, never the build's),
//! with the command's preprocessor flags, `--line-directives` (the lines
//! after each region keep their numbers) and a time limit; its new text
//! and its record land in the build's temporary directory.

use super::command::Command;
use super::settings::Settings;
use crate::batch::FileReport;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// What polyc made of one C file.
pub struct Transformed {
    /// The new text, in the temporary directory; `None` when polyc left
    /// the file as written (nothing found, or nothing worth changing).
    pub text: Option<PathBuf>,
    /// Whether the new text is to be compiled with OpenMP: it uses it,
    /// and the source did not (turning OpenMP on would also turn on the
    /// source's own pragmas, which its build leaves off).
    pub openmp: bool,
    /// polyc's record of the file.
    pub record: Option<FileReport>,
    pub elapsed: Duration,
}

/// Why polyc gave nothing for a file: one line.
pub type Failure = String;

/// Run polyc on `input` (the `k`-th C input of `command`), writing into `dir`.
pub fn transform(
    input: &Path,
    k: usize,
    command: &Command,
    settings: &Settings,
    dir: &Path,
) -> Result<Transformed, Failure> {
    let start = Instant::now();
    let unit = dir.join(k.to_string());
    std::fs::create_dir_all(&unit).map_err(|e| format!("cannot create `{}`: {e}", unit.display()))?;
    let name = input.file_name().map_or_else(|| "input.c".into(), |n| n.to_os_string());
    let output = unit.join(name);
    let report = unit.join("polyc.json");
    let mut polyc = Process::new(&settings.polyc);
    polyc.arg(input).arg("-o").arg(&output).arg("--report").arg(&report).args(["-q", "--line-directives"]);
    if settings.autodetect {
        polyc.arg("--autodetect");
    }
    polyc.args(&settings.polyc_flags).args(command.polyc_preprocessor_args());
    // polyc's preprocessor is the real compiler, never this driver again.
    polyc.env("CC", settings.real_cc.join(" "));
    polyc.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = polyc.spawn().map_err(|e| format!("cannot run polyc `{}`: {e}", settings.polyc.display()))?;
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stderr {
            use std::io::Read;
            let _ = s.read_to_string(&mut text);
        }
        text
    });
    let status = match child.wait_timeout(settings.timeout) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("polyc took more than {} s", settings.timeout.as_secs()));
        }
        Err(e) => return Err(format!("cannot wait for polyc: {e}")),
    };
    let complaint = reader.join().unwrap_or_default();
    if !status.success() {
        let first = complaint.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(format!("polyc failed ({status}): {first}"));
    }
    let record = std::fs::read_to_string(&report).ok().and_then(|j| serde_json::from_str(&j).ok());
    let new = std::fs::read(&output).map_err(|e| format!("polyc wrote no output: {e}"))?;
    let old = std::fs::read(input).map_err(|e| format!("cannot read `{}`: {e}", input.display()))?;
    let openmp = contains(&new, b"#pragma omp") && !contains(&old, b"#pragma omp");
    let text = (new != old).then_some(output);
    Ok(Transformed { text, openmp, record, elapsed: start.elapsed() })
}

/// Whether `haystack` holds `needle`.
pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
