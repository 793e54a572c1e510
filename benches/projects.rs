//! TSVC_2 (github:UoB-HPC/TSVC_2) built by its own makefile with `CC=cc`
//! and with `CC=polyc-cc`, the same flags, timed loop by loop with TSVC's
//! own timer at 1 and 2 threads (`OMP_WAIT_POLICY=passive`): the two
//! programs' runs interleaved (cc, polyc-cc, cc, polyc-cc, ...), the
//! minimum of the runs per loop, and the speedup cc time / polyc-cc time.
//! The snapshot comes from `POLYC_MIRROR` (default `../.mirror` beside
//! the crate); the benchmark is skipped, saying so, when it is absent.
//!
//! `cargo bench --bench projects [-- --iterations N --runs N]`; the
//! environment variables `POLYC_BENCH_TSVC_ITERATIONS` (default 5000:
//! about 20 s a run) and `POLYC_BENCH_RUNS` (default 2) do the same.
//! `--npb` (or `POLYC_BENCH_NPB=1`) adds NPB3.0-omp-C at CLASS=W, the
//! eight benchmarks' whole times (`CFLAGS=-O3 -fopenmp` in both builds).

#[path = "../tests/common/snapshots.rs"]
mod snapshots;

use snapshots::{
    npb_configured, npb_make_args, snapshot, tsvc_iterations, tsvc_make_args, unpack, NPB, NPB_BENCHMARKS, TSVC,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Loops whose cc time is under this many seconds are left out of the
/// ratios: TSVC prints milliseconds.
const MIN_SECONDS: f64 = 0.02;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo test --all-targets` runs bench binaries too, without --bench.
    if !args.iter().any(|a| a == "--bench") {
        println!("projects benchmark: skipped (run it with `cargo bench --bench projects`)");
        return ExitCode::SUCCESS;
    }
    let setting = |flag: &str, var: &str, default: usize| -> Result<usize, String> {
        let given = args.iter().position(|a| a == flag).map(|i| args.get(i + 1).cloned().unwrap_or_default());
        match given.or_else(|| std::env::var(var).ok()) {
            Some(v) => v.parse().map_err(|_| format!("{flag}: not a number: {v}")),
            None => Ok(default),
        }
    };
    let (iterations, runs) = match (
        setting("--iterations", "POLYC_BENCH_TSVC_ITERATIONS", 5000),
        setting("--runs", "POLYC_BENCH_RUNS", 2),
    ) {
        (Ok(i), Ok(r)) if i > 0 && r > 0 => (i, r),
        (i, r) => {
            eprintln!("projects benchmark: bad settings: {i:?} {r:?}");
            return ExitCode::from(2);
        }
    };
    let git_dir = match snapshot(TSVC) {
        Ok(g) => g,
        Err(why) => {
            println!("projects benchmark: skipped: {why}");
            return ExitCode::SUCCESS;
        }
    };
    let npb = args.iter().any(|a| a == "--npb") || std::env::var_os("POLYC_BENCH_NPB").is_some();
    let result = run(&git_dir, iterations, runs).and_then(|()| match npb {
        true => snapshot(NPB).and_then(|npb_dir| run_npb(&npb_dir, runs)),
        false => Ok(()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("projects benchmark: {e}");
            ExitCode::FAILURE
        }
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|s| s.trim().to_string()).unwrap_or_else(|_| "?".into())
}

fn first_line(program: &str, arg: &str) -> String {
    Command::new(program)
        .arg(arg)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A fresh copy of the snapshot's HEAD in `target/bench/projects/NAME`.
fn unpacked(git_dir: &Path, name: &str) -> Result<PathBuf, String> {
    let dir = root().join("target/bench/projects").join(name);
    unpack(git_dir, &dir)?;
    Ok(dir)
}

/// make's messages, checked for polyc-cc's warnings (printed).
fn make(dir: &Path, args: &[String]) -> Result<(), String> {
    let out = Command::new("make").current_dir(dir).arg("-s").args(args).output().map_err(|e| e.to_string())?;
    let messages = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("make {args:?} in {} failed:\n{messages}", dir.display()));
    }
    for w in messages.lines().filter(|l| l.contains("polyc-cc")) {
        println!("  {w}");
    }
    Ok(())
}

/// A fresh copy of TSVC_2 with `iterations` repetitions, built with `cc`.
fn build(git_dir: &Path, name: &str, iterations: usize, cc: &str) -> Result<PathBuf, String> {
    let dir = unpacked(git_dir, name)?;
    tsvc_iterations(&dir, iterations)?;
    let start = Instant::now();
    make(&dir, &tsvc_make_args(cc))?;
    println!("built {name} in {:.1} s", start.elapsed().as_secs_f64());
    Ok(dir.join("bin/GNU/tsvc_vec_default"))
}

/// One run: each loop's time and checksum.
fn timed(binary: &Path, threads: usize) -> Result<BTreeMap<String, (f64, String)>, String> {
    let out = Command::new(binary)
        .env("OMP_NUM_THREADS", threads.to_string())
        .env("OMP_WAIT_POLICY", "passive")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("{} exited {:?}", binary.display(), out.status.code()));
    }
    let mut loops = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
        if let [name, time, checksum] = cols[..] {
            if let Ok(t) = time.parse::<f64>() {
                loops.insert(name.to_string(), (t, checksum.to_string()));
            }
        }
    }
    Ok(loops)
}

fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len().max(1) as f64).exp()
}

fn run(git_dir: &Path, iterations: usize, runs: usize) -> Result<(), String> {
    println!("TSVC_2 benchmark: cc against polyc-cc (POLYC_REAL_CC=cc), both by TSVC's makefile");
    println!(
        "machine: {} cores, {}, load average at start: {}",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
        first_line("cc", "--version"),
        load_average()
    );
    println!("iterations {iterations}, {runs} interleaved runs per program and thread count, minimum per loop");
    let plain = build(git_dir, "tsvc-plain", iterations, "cc")?;
    let polyc = build(git_dir, "tsvc-polyc", iterations, env!("CARGO_BIN_EXE_polyc-cc"))?;
    let mut table: BTreeMap<usize, Vec<(String, f64, f64)>> = BTreeMap::new();
    for threads in [1, 2] {
        let (mut best_plain, mut best_polyc) = (BTreeMap::new(), BTreeMap::new());
        for round in 0..runs {
            for (binary, best) in [(&plain, &mut best_plain), (&polyc, &mut best_polyc)] {
                let start = Instant::now();
                // cc's program runs with the same environment: it has no OpenMP.
                for (name, (t, sum)) in timed(binary, threads)? {
                    let entry = best.entry(name).or_insert((f64::INFINITY, sum.clone()));
                    entry.0 = entry.0.min(t);
                    if entry.1 != sum {
                        return Err(format!("{}: checksums of two runs differ", binary.display()));
                    }
                }
                println!(
                    "  {threads} thread(s), round {}: {} in {:.1} s",
                    round + 1,
                    short(binary),
                    start.elapsed().as_secs_f64()
                );
            }
        }
        let mut rows = Vec::new();
        for (name, (t_plain, sum_plain)) in &best_plain {
            let Some((t_polyc, sum_polyc)) = best_polyc.get(name) else {
                return Err(format!("{name}: not in polyc-cc's output"));
            };
            if sum_plain != sum_polyc {
                return Err(format!("{name}: checksum {sum_plain} (cc) against {sum_polyc} (polyc-cc)"));
            }
            rows.push((name.clone(), *t_plain, *t_polyc));
        }
        table.insert(threads, rows);
    }
    report(&table);
    println!("load average at end: {}", load_average());
    Ok(())
}

fn short(binary: &Path) -> String {
    binary
        .parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.parent())
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

fn report(table: &BTreeMap<usize, Vec<(String, f64, f64)>>) {
    let (Some(one), Some(two)) = (table.get(&1), table.get(&2)) else { return };
    println!(
        "\n{:<10} {:>9} {:>9} {:>7}   {:>9} {:>9} {:>7}",
        "loop", "cc 1t", "polyc 1t", "x", "cc 2t", "polyc 2t", "x"
    );
    for ((name, p1, q1), (_, p2, q2)) in one.iter().zip(two) {
        let x = |p: f64, q: f64| if p >= MIN_SECONDS && q > 0.0 { format!("{:.2}", p / q) } else { "-".into() };
        println!("{name:<10} {p1:>9.3} {q1:>9.3} {:>7}   {p2:>9.3} {q2:>9.3} {:>7}", x(*p1, *q1), x(*p2, *q2));
    }
    for (threads, rows) in table {
        let mut ratios: Vec<(&str, f64, f64, f64)> = rows
            .iter()
            .filter(|(_, p, q)| *p >= MIN_SECONDS && *q > 0.0)
            .map(|(n, p, q)| (n.as_str(), p / q, *p, *q))
            .collect();
        let speedups: Vec<f64> = ratios.iter().map(|r| r.1).collect();
        ratios.sort_by(|a, b| a.1.total_cmp(&b.1));
        let slower = ratios.iter().filter(|r| r.1 < 0.95).count();
        let total: (f64, f64) = rows.iter().fold((0.0, 0.0), |(a, b), (_, p, q)| (a + p, b + q));
        println!(
            "\n{threads} thread(s): geometric mean speedup {:.3} over {} loops (cc >= {MIN_SECONDS} s; {} left out); \
             {slower} below 0.95x; total time cc {:.2} s, polyc-cc {:.2} s",
            geomean(&speedups),
            ratios.len(),
            rows.len() - ratios.len(),
            total.0,
            total.1
        );
        println!(
            "  worst 10: {}",
            ratios
                .iter()
                .take(10)
                .map(|(n, x, p, q)| format!("{n} {x:.2}x ({p:.3}/{q:.3})"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        println!(
            "  best 5: {}",
            ratios.iter().rev().take(5).map(|(n, x, _, _)| format!("{n} {x:.2}x")).collect::<Vec<_>>().join(", ")
        );
    }
}

/// NPB at CLASS=W built both ways; each benchmark's whole time (its
/// "Time in seconds"; IS's own timer is unreliable), min of `runs`.
fn run_npb(git_dir: &Path, runs: usize) -> Result<(), String> {
    println!("\nNPB3.0-omp-C CLASS=W, CFLAGS=-O3 -fopenmp in both builds, load average {}", load_average());
    let mut trees = Vec::new();
    for (name, cc) in [("npb-plain", "cc"), ("npb-polyc", env!("CARGO_BIN_EXE_polyc-cc"))] {
        let dir = unpacked(git_dir, name)?;
        npb_configured(&dir)?;
        for b in NPB_BENCHMARKS {
            make(&dir, &npb_make_args(b, "W", cc))?;
        }
        trees.push(dir);
    }
    let seconds = |binary: &Path, threads: usize| -> Result<f64, String> {
        let out = Command::new(binary)
            .env("OMP_NUM_THREADS", threads.to_string())
            .env("OMP_WAIT_POLICY", "passive")
            .output()
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !text.contains("SUCCESSFUL") {
            return Err(format!("{} did not verify", binary.display()));
        }
        let line = text.lines().find(|l| l.contains("Time in seconds")).unwrap_or_default();
        line.rsplit('=').next().and_then(|t| t.trim().parse().ok()).ok_or_else(|| format!("no time in {line}"))
    };
    println!("{:<4} {:>9} {:>9} {:>7}   {:>9} {:>9} {:>7}", "", "cc 1t", "polyc 1t", "x", "cc 2t", "polyc 2t", "x");
    let mut ratios: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for b in NPB_BENCHMARKS {
        let mut cells = String::new();
        for (k, threads) in [1, 2].into_iter().enumerate() {
            let mut best = [f64::INFINITY; 2];
            for _ in 0..runs {
                for (i, tree) in trees.iter().enumerate() {
                    best[i] = best[i].min(seconds(&tree.join("bin").join(format!("{b}.W")), threads)?);
                }
            }
            let x = if b != "is" && best[1] > 0.0 { best[0] / best[1] } else { f64::NAN };
            if x.is_finite() {
                ratios[k].push(x);
            }
            cells.push_str(&format!(" {:>9.3} {:>9.3} {:>7.2}  ", best[0], best[1], x));
        }
        println!("{b:<4}{cells}");
    }
    println!("geometric mean (IS left out): 1 thread {:.3}, 2 threads {:.3}", geomean(&ratios[0]), geomean(&ratios[1]));
    println!("load average at end: {}", load_average());
    Ok(())
}
