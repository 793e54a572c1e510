//! Compile-time scaling: polyc on one file of K small SCoPs
//! (`tests/common/many_scops.rs`) for growing K. The time per SCoP
//! should stay flat: a step that reads the whole file once per SCoP
//! shows up as a time per SCoP that grows with K.
//! `cargo bench --bench scale -- [K ...]` (default 250 500 1000 2000).

#[path = "../tests/common/many_scops.rs"]
mod many_scops;

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this
    // binary without it, and the benchmark must not run as part of the tests.
    if !args.iter().any(|a| a == "--bench") {
        println!("scale benchmark: skipped (run it with `cargo bench --bench scale`)");
        return ExitCode::SUCCESS;
    }
    let given: Result<Vec<usize>, _> = args.iter().filter(|a| *a != "--bench").map(|a| a.parse()).collect();
    let counts = match given {
        Ok(counts) if counts.is_empty() => vec![250, 500, 1000, 2000],
        Ok(counts) => counts,
        Err(e) => {
            eprintln!("scale benchmark: each argument is a number of SCoPs ({e})");
            return ExitCode::from(2);
        }
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("bench");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("scale benchmark: {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    println!("{:>6} {:>10} {:>14}", "SCoPs", "seconds", "ms per SCoP");
    for k in counts {
        let (source, output) = (dir.join(format!("scale-{k}.c")), dir.join(format!("scale-{k}.out.c")));
        if let Err(e) = std::fs::write(&source, many_scops::many_scops(k)) {
            eprintln!("scale benchmark: {}: {e}", source.display());
            return ExitCode::from(2);
        }
        let start = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_polyc")).arg(&source).arg("-o").arg(&output).status();
        let seconds = start.elapsed().as_secs_f64();
        if !status.as_ref().is_ok_and(|s| s.success()) {
            eprintln!("scale benchmark: polyc failed on {}: {status:?}", source.display());
            return ExitCode::FAILURE;
        }
        println!("{k:>6} {seconds:>10.2} {:>14.2}", seconds * 1000.0 / k as f64);
    }
    ExitCode::SUCCESS
}
