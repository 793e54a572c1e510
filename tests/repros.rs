//! The programs polyc once got wrong or crashed on, as their reporters
//! wrote them (`../shared/repros/`, or `POLYC_REPROS`; never copied
//! here): each prints what its source prints under polyc's default,
//! `--storage=best`, `--tile=diamond`, `--tile=hex` and `--tile=sica`,
//! built with gcc and with clang (`-O3`, OpenMP), with and without
//! `-DPOLYC_MIN_WORK=0`, on 1 and 2 threads; a mode whose output another
//! mode wrote is built once. Each construct also has a test of its own
//! in the project; this one keeps the reporters' programs honest. A file
//! without `main` is only compiled.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const MODES: &[&[&str]] = &[&[], &["--storage=best"], &["--tile=diamond"], &["--tile=hex"], &["--tile=sica"]];
const WORK: &[&[&str]] = &[&[], &["-DPOLYC_MIN_WORK=0"]];

fn repros() -> Option<Vec<PathBuf>> {
    let dir = std::env::var_os("POLYC_REPROS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("..").join("shared").join("repros"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    Some(files)
}

/// The C compilers of the check: gcc, and clang-19 where installed.
fn compilers() -> Vec<Vec<&'static str>> {
    let mut ccs = vec![vec!["gcc", "-O3", "-march=native", "-fopenmp"]];
    if Command::new("clang-19").arg("--version").output().is_ok_and(|o| o.status.success()) {
        ccs.push(vec!["clang-19", "-O3", "-fopenmp"]);
    } else {
        eprintln!("repros: clang-19 is not installed; gcc only");
    }
    ccs
}

fn has_main(text: &str) -> bool {
    text.contains("int main(")
}

/// Compile `source` with `cc` and `extra` into `binary` (an object file
/// without `main`).
fn build(cc: &[&str], source: &Path, binary: &Path, extra: &[&str], link: bool) -> Result<(), String> {
    let mut cmd = Command::new(cc[0]);
    cmd.args(&cc[1..]).args(["-w"]).args(extra).arg(source).arg("-o").arg(binary);
    if link {
        cmd.arg("-lm");
    } else {
        cmd.arg("-c");
    }
    let out = cmd.output().map_err(|e| format!("cannot run {}: {e}", cc[0]))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).chars().take(600).collect())
    }
}

fn output_of(binary: &Path, threads: &str) -> Result<Vec<u8>, String> {
    let mut cmd = Command::new(binary);
    cmd.env("OMP_NUM_THREADS", threads);
    match run_with(cmd, Duration::from_secs(120))? {
        (Some(0), out, _) => Ok(out),
        (code, out, err) => Err(format!(
            "exit {code:?}: {}{}",
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&err).chars().take(300).collect::<String>()
        )),
    }
}

/// Every mode and build of one reproducer against its source.
fn check(path: &Path, compilers: &[Vec<&str>]) -> Result<(), String> {
    let name = stem(path);
    let dir = scratch(&format!("reproducers/{name}"));
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let link = has_main(&text);
    let mut failures = Vec::new();
    let mut outputs = Vec::new();
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for (m, mode) in MODES.iter().enumerate() {
        let out = dir.join(format!("mode{m}.c"));
        let polyc = Command::new(polyc_bin()).arg(path).arg("-o").arg(&out).args(*mode).output();
        match polyc {
            // An output another mode wrote already (nothing to contract,
            // no diamond fits) is checked by that mode's builds.
            Ok(o) if o.status.success() => {
                let text = std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))?;
                if !texts.contains(&text) {
                    texts.push(text);
                    outputs.push((mode, out));
                }
            }
            Ok(o) => failures.push(format!(
                "{name} {mode:?}: polyc exited {:?}: {}",
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).chars().take(400).collect::<String>()
            )),
            Err(e) => failures.push(format!("{name}: cannot run polyc: {e}")),
        }
    }
    for cc in compilers {
        let source_binary = dir.join(format!("source-{}", cc[0]));
        if let Err(e) = build(cc, path, &source_binary, &[], link) {
            eprintln!("repros: {name}: {} does not compile the source; skipped: {e}", cc[0]);
            continue;
        }
        let expected = if link { Some(output_of(&source_binary, "1")?) } else { None };
        for (mode, out) in &outputs {
            for work in WORK {
                let binary = dir.join(format!("out-{}-{}", cc[0], work.len()));
                if let Err(e) = build(cc, out, &binary, work, link) {
                    failures.push(format!("{name} {mode:?} {cc:?} {work:?}: the output does not compile: {e}"));
                    continue;
                }
                let Some(expected) = &expected else { continue };
                for threads in ["1", "2"] {
                    match output_of(&binary, threads) {
                        Ok(got) if got == *expected => {}
                        Ok(got) => failures.push(format!(
                            "{name} {mode:?} {cc:?} {work:?} {threads} threads: printed {:?}, the source {:?}",
                            String::from_utf8_lossy(&got),
                            String::from_utf8_lossy(expected)
                        )),
                        Err(e) => failures.push(format!("{name} {mode:?} {cc:?} {work:?} {threads} threads: {e}")),
                    }
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

#[test]
fn every_reproducer_prints_what_its_source_prints() {
    let Some(files) = repros() else {
        eprintln!("repros: no ../shared/repros (set POLYC_REPROS); nothing to check");
        return;
    };
    let compilers = compilers();
    let failures = on_workers(&files, |path| check(path, &compilers));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
