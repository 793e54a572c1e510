//! Runs one generated program through gcc alone (the reference) and
//! through polyc then gcc with OpenMP, in one polyc mode, and compares
//! what they print.

use crate::common::{polyc_bin, run_with};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A polyc command line, and gcc's flags for its output besides
/// `-O1 -fopenmp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    pub name: &'static str,
    pub args: &'static [&'static str],
    pub cflags: &'static [&'static str],
}

/// The new loops at any size: no work check keeps the source text or
/// the loops for little work.
const NEW_LOOPS: &[&str] = &["-DPOLYC_MIN_WORK=0", "-DPOLYC_MIN_REGION_WORK=0"];

/// What runs below the work check at any size: the loops for little
/// work (or the source text), their regions threaded.
const LITTLE_WORK: &[&str] = &["-DPOLYC_MIN_WORK=1e30", "-DPOLYC_MIN_DATA=1e30", "-DPOLYC_MIN_REGION_WORK=0"];

/// The modes every run checks. `default`: no flags (the optimising mode);
/// `diamond`: diamond tiles with the auto schedule, parallel and simd
/// (what `--tile=diamond --parallel --simd` selects); `storage`: the
/// optimising mode with `--storage=best` (tests/equivalence.rs's
/// `default-storage`).
pub const MODES: [Mode; 3] = [
    Mode { name: "default", args: &[], cflags: NEW_LOOPS },
    Mode { name: "diamond", args: &["--tile=diamond", "--parallel", "--simd"], cflags: NEW_LOOPS },
    Mode { name: "storage", args: &["--storage=best"], cflags: NEW_LOOPS },
];

/// Modes only asked for by name (`scripts/fuzz --modes`): hexagonal and
/// SICA tiles, and the default mode's output below its work check.
const MORE_MODES: [Mode; 3] = [
    Mode { name: "hex", args: &["--tile=hex", "--parallel", "--simd"], cflags: NEW_LOOPS },
    Mode { name: "sica", args: &["--tile=sica", "--parallel", "--simd"], cflags: NEW_LOOPS },
    Mode { name: "little-work", args: &[], cflags: LITTLE_WORK },
];

pub fn mode(name: &str) -> Option<Mode> {
    MODES.iter().chain(&MORE_MODES).copied().find(|m| m.name == name)
}

pub const THREADS: [u32; 2] = [1, 2];

/// Limits: polyc's wall clock, and each run of a compiled program.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub polyc: Duration,
    pub program: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { polyc: Duration::from_secs(60), program: Duration::from_secs(20) }
    }
}

/// What happened to one program in one mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Same,
    /// The output of polyc's program differs (or it crashed, or ran too long).
    Differs(String),
    /// polyc ran past its limit.
    Timeout(String),
    /// polyc failed (nonzero exit, panic).
    Error(String),
    /// gcc rejects polyc's output.
    NoCompile(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Same,
    Differs,
    Timeout,
    Error,
    NoCompile,
}

impl Verdict {
    pub fn kind(&self) -> Kind {
        match self {
            Verdict::Same => Kind::Same,
            Verdict::Differs(_) => Kind::Differs,
            Verdict::Timeout(_) => Kind::Timeout,
            Verdict::Error(_) => Kind::Error,
            Verdict::NoCompile(_) => Kind::NoCompile,
        }
    }
}

/// The triage hint [`check`] adds to a difference.
pub const LASTPRIVATE_HINT: &str = "[polyc's output has lastprivate(";

impl Verdict {
    /// Whether polyc's output had a `lastprivate` clause (a difference only).
    pub fn lastprivate(&self) -> bool {
        matches!(self, Verdict::Differs(d) if d.contains(LASTPRIVATE_HINT))
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind() {
            Kind::Same => "same",
            Kind::Differs => "differs",
            Kind::Timeout => "timeout",
            Kind::Error => "error",
            Kind::NoCompile => "nocompile",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Verdict::Same => write!(f, "same output"),
            Verdict::Differs(d) => write!(f, "output differs: {d}"),
            Verdict::Timeout(d) => write!(f, "polyc timeout: {d}"),
            Verdict::Error(d) => write!(f, "polyc error: {d}"),
            Verdict::NoCompile(d) => write!(f, "polyc's output does not compile: {d}"),
        }
    }
}

/// The parameter values a seed's programs run with: the defaults, small
/// values and the largest.
pub fn param_sets(seed: u64, defaults: &[i64]) -> Vec<Vec<i64>> {
    let mut rng = super::gen::Rng::new(seed.wrapping_mul(31).wrapping_add(7));
    let small: Vec<i64> = defaults.iter().map(|_| rng.range(0, 7)).collect();
    let large: Vec<i64> = defaults.iter().map(|_| super::gen::MAXP - rng.range(0, 3)).collect();
    vec![defaults.to_vec(), small, large]
}

/// gcc on `src`, with OpenMP and `mode`'s flags if given.
fn gcc(src: &Path, binary: &Path, mode: Option<Mode>) -> Result<(), String> {
    let mut cmd = Command::new("gcc");
    cmd.args(["-O1", "-w"]);
    if let Some(mode) = mode {
        cmd.arg("-fopenmp").args(mode.cflags);
    }
    cmd.arg(src).arg("-o").arg(binary).arg("-lm");
    match run_with(cmd, Duration::from_secs(120))? {
        (Some(0), _, _) => Ok(()),
        (_, _, err) => Err(first_lines(&err, 6)),
    }
}

fn first_lines(bytes: &[u8], n: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().take(n).collect();
    lines.join(" | ")
}

/// Run a binary with parameters (and threads): its stdout, or why it failed.
fn execute(binary: &Path, params: &[i64], threads: Option<u32>, limit: Duration) -> Result<Vec<u8>, String> {
    let mut cmd = Command::new(binary);
    cmd.args(params.iter().map(|p| p.to_string()));
    if let Some(n) = threads {
        cmd.env("OMP_NUM_THREADS", n.to_string());
    }
    match run_with(cmd, limit)? {
        (Some(0), out, _) => Ok(out),
        (code, _, err) => Err(format!("exited with {code:?}: {}", first_lines(&err, 3))),
    }
}

/// The reference outputs of a program: one per parameter set.
pub struct Reference {
    pub params: Vec<Vec<i64>>,
    pub outputs: Vec<Vec<u8>>,
}

/// Compile `src` with gcc alone and run it on every parameter set. A
/// failure here is the generator's bug.
pub fn reference(src: &Path, params: Vec<Vec<i64>>, limits: Limits) -> Result<Reference, String> {
    let binary = src.with_extension("ref");
    gcc(src, &binary, None).map_err(|e| format!("the reference does not compile: {e}"))?;
    let mut outputs = Vec::new();
    for p in &params {
        let out = execute(&binary, p, None, limits.program).map_err(|e| format!("the reference {p:?} {e}"))?;
        if out.is_empty() {
            return Err("the reference prints nothing".into());
        }
        outputs.push(out);
    }
    Ok(Reference { params, outputs })
}

/// Where polyc's output for `src` in `mode` goes.
pub fn output_path(src: &Path, mode: Mode) -> PathBuf {
    let stem = src.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    src.with_file_name(format!("{stem}.{}.c", mode.name))
}

/// polyc on `src` in `mode`, then gcc, then every parameter set on 1 and
/// 2 threads, compared with the reference.
pub fn check(src: &Path, mode: Mode, reference: &Reference, limits: Limits) -> Verdict {
    match regenerate(src, mode, limits) {
        Ok(out_src) => judge(&out_src, mode, reference, limits),
        Err(verdict) => verdict,
    }
}

/// polyc on `src` in `mode`: the output's path, or the verdict on polyc.
pub fn regenerate(src: &Path, mode: Mode, limits: Limits) -> Result<PathBuf, Verdict> {
    let out_src = output_path(src, mode);
    let mut cmd = Command::new(polyc_bin());
    cmd.arg(src).arg("-o").arg(&out_src).args(mode.args);
    match run_with(cmd, limits.polyc) {
        Err(e) if e.contains("timed out") => Err(Verdict::Timeout(format!("no output after {:?}", limits.polyc))),
        Err(e) => Err(Verdict::Error(e)),
        Ok((Some(0), _, _)) => Ok(out_src),
        Ok((code, _, err)) => Err(Verdict::Error(format!("exit {code:?}: {}", first_lines(&err, 4)))),
    }
}

/// polyc's output `out_src` built by gcc with `mode`'s flags and run on
/// every parameter set on 1 and 2 threads, compared with the reference.
pub fn judge(out_src: &Path, mode: Mode, reference: &Reference, limits: Limits) -> Verdict {
    let binary = out_src.with_extension("bin");
    if let Err(e) = gcc(out_src, &binary, Some(mode)) {
        return Verdict::NoCompile(e);
    }
    // A hint for triage: the known miscompiles come with `lastprivate`.
    let text = std::fs::read_to_string(out_src).unwrap_or_default();
    let hint = match text.find("lastprivate(") {
        Some(at) => {
            let clause = &text[at..];
            let clause = &clause["lastprivate(".len()..];
            format!(" {LASTPRIVATE_HINT}{}]", &clause[..clause.find(')').map_or(clause.len(), |e| e + 1)])
        }
        None => String::new(),
    };
    for (params, expected) in reference.params.iter().zip(&reference.outputs) {
        for threads in THREADS {
            let what = format!("threads={threads} params={params:?}");
            match execute(&binary, params, Some(threads), limits.program) {
                Ok(got) if &got == expected => {}
                Ok(got) => return Verdict::Differs(format!("{what}: {}{hint}", first_difference(expected, &got))),
                Err(e) => return Verdict::Differs(format!("{what}: {e}{hint}")),
            }
        }
    }
    Verdict::Same
}

/// The first line that differs, expected then got.
pub fn first_difference(expected: &[u8], got: &[u8]) -> String {
    let (e, g) = (String::from_utf8_lossy(expected), String::from_utf8_lossy(got));
    let mut el = e.lines();
    let mut gl = g.lines();
    loop {
        match (el.next(), gl.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (x, y) => return format!("expected `{}`, got `{}`", x.unwrap_or("<end>"), y.unwrap_or("<end>")),
        }
    }
}

/// Write a program and its reference: the source path and the reference,
/// or why the reference fails.
pub fn prepare(text: &str, src: &Path, params: Vec<Vec<i64>>, limits: Limits) -> Result<Reference, String> {
    std::fs::write(src, text).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    reference(src, params, limits)
}
