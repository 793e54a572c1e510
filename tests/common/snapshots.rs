//! The public projects `tests/projects.rs` and `benches/projects.rs`
//! build: where their snapshots are (`POLYC_MIRROR`, default `../.mirror`
//! beside the crate, where the `fetch` tool puts them), a fresh copy of
//! one, and the arguments their own makefiles take.

use std::path::{Path, PathBuf};
use std::process::Command;

pub const TSVC: &str = "UoB-HPC+TSVC_2";
pub const NPB: &str = "benchmark-subsetting+NPB3.0-omp-C";

/// NPB's benchmarks (all eight build with gcc).
pub const NPB_BENCHMARKS: [&str; 8] = ["bt", "cg", "ep", "ft", "is", "lu", "mg", "sp"];

/// The git directory of the snapshot `name` (`owner+repo`), or why there is none.
pub fn snapshot(name: &str) -> Result<PathBuf, String> {
    let mirror = match std::env::var_os("POLYC_MIRROR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.mirror"),
    };
    let repo = mirror.join(name).join("repo");
    [repo.join(".git"), repo.clone()].into_iter().find(|g| g.join("HEAD").is_file()).ok_or_else(|| {
        format!("no snapshot of {name} at {} (set POLYC_MIRROR to the directory holding {name}/repo)", repo.display())
    })
}

/// The snapshot's HEAD unpacked into `dest`, emptied first.
pub fn unpack(git_dir: &Path, dest: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dest);
    std::fs::create_dir_all(dest).map_err(|e| e.to_string())?;
    let status = Command::new("sh")
        .arg("-c")
        .arg("git --git-dir=\"$1\" archive HEAD | tar -x -C \"$2\"")
        .arg("sh")
        .arg(git_dir)
        .arg(dest)
        .status()
        .map_err(|e| e.to_string())?;
    status.success().then_some(()).ok_or_else(|| format!("cannot unpack {}", git_dir.display()))
}

/// TSVC_2 in `dir` repeating each loop `iterations` times (its header's
/// constant, 100000, takes minutes a run).
pub fn tsvc_iterations(dir: &Path, iterations: usize) -> Result<(), String> {
    let common_h = dir.join("src/common.h");
    let text = std::fs::read_to_string(&common_h).map_err(|e| e.to_string())?;
    let fewer = text.replace("#define iterations 100000\n", &format!("#define iterations {iterations}\n"));
    if fewer == text {
        return Err("src/common.h no longer defines iterations as 100000".into());
    }
    std::fs::write(&common_h, fewer).map_err(|e| e.to_string())
}

/// make's arguments for TSVC_2's default build with compiler `cc`.
pub fn tsvc_make_args(cc: &str) -> Vec<String> {
    let fixed = ["-C", "src", "COMPILER=GNU", "NO_OMP=1", "SUFFIX=_default"];
    fixed.iter().map(|s| s.to_string()).chain([format!("CC={cc}")]).collect()
}

/// NPB in `dir` ready for make: its configuration and its `bin`.
pub fn npb_configured(dir: &Path) -> Result<(), String> {
    std::fs::copy(dir.join("config/make.def.template"), dir.join("config/make.def")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join("bin")).map_err(|e| e.to_string())
}

/// make's arguments for NPB's `benchmark` of `class` with compiler `cc`,
/// its own OpenMP on (polyc-cc would turn it on only in the files polyc
/// transforms).
pub fn npb_make_args(benchmark: &str, class: &str, cc: &str) -> Vec<String> {
    let flags = ["CFLAGS=-O3 -fopenmp", "CLINKFLAGS=-fopenmp", "C_LIB=-lm"];
    let own = [benchmark.to_string(), format!("CLASS={class}"), format!("CC={cc}"), format!("CLINK={cc}")];
    own.into_iter().chain(flags.iter().map(|s| s.to_string())).collect()
}
