//! TSVC_2 (github:UoB-HPC/TSVC_2) built by its own makefile with `CC=cc`
//! and with `CC=polyc-cc`, the same flags, timed loop by loop with TSVC's
//! own timer at 1 and 2 threads (`OMP_WAIT_POLICY=passive`). Both programs
//! are built in several code layouts (see [`LAYOUTS`]) and their runs
//! interleaved (cc, polyc-cc, per layout, per round); per loop and program
//! the minimum over the runs and layouts, and the speedup cc time /
//! polyc-cc time; the same for the project's own layout alone; and how
//! much layout alone moves cc's loops. The snapshot comes from
//! `POLYC_MIRROR` (default `../.mirror` beside the crate); the benchmark
//! is skipped, saying so, when it is absent.
//!
//! `cargo bench --bench projects [-- --iterations N --runs N --layouts N]`;
//! the environment variables `POLYC_BENCH_TSVC_ITERATIONS` (default 5000:
//! about 20 s a run), `POLYC_BENCH_RUNS` (default 2) and
//! `POLYC_BENCH_LAYOUTS` (default 4, at least 1) do the same.
//! `--npb` (or `POLYC_BENCH_NPB=1`) adds NPB3.0-omp-C (see [`npb_class`]),
//! the eight benchmarks' whole times (`CFLAGS=-O3 -fopenmp` in both builds).

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
    let (iterations, runs, layouts) = match (
        setting("--iterations", "POLYC_BENCH_TSVC_ITERATIONS", 5000),
        setting("--runs", "POLYC_BENCH_RUNS", 2),
        setting("--layouts", "POLYC_BENCH_LAYOUTS", LAYOUTS.len()),
    ) {
        (Ok(i), Ok(r), Ok(l)) if i > 0 && r > 0 && (1..=LAYOUTS.len()).contains(&l) => (i, r, l),
        (i, r, l) => {
            eprintln!("projects benchmark: bad settings: {i:?} {r:?} {l:?} (layouts: 1 to {})", LAYOUTS.len());
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
    let result = run(&git_dir, iterations, runs, layouts).and_then(|()| match npb {
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

/// A fresh copy of TSVC_2 with `iterations` repetitions, built with `cc`
/// (a command, perhaps with flags).
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

/// The code layouts both programs are built in: the same instructions
/// at other addresses. On the Zen 4 VM the same machine code of a loop
/// ran up to 2x slower or faster at another address (TSVC's s342 and
/// s244 in a loop of their own, moved by 16 bytes at a time; two plain
/// builds of TSVC in different layouts differ by more than 5% on 5 to 14
/// loops), so one layout of each program measures where the linker put
/// the loops as much as what polyc did to them (Mytkowicz et al.,
/// "Producing wrong data without doing anything obviously wrong!",
/// ASPLOS 2009). The first layout is the project's own.
const LAYOUTS: [&str; 4] =
    ["", "-falign-functions=32", "-falign-functions=64", "-falign-functions=64 -falign-loops=32"];

/// One loop's times in seconds: per program (cc, polyc-cc) the minimum
/// over all layouts and runs, and over the runs of the project's own
/// layout; cc's slowest layout over its fastest.
struct Row {
    name: String,
    best: (f64, f64),
    own: (f64, f64),
    spread: f64,
}

/// Per program, per layout: each loop's minimum time and its checksum.
type Times = Vec<BTreeMap<String, (f64, String)>>;

fn run(git_dir: &Path, iterations: usize, runs: usize, layouts: usize) -> Result<(), String> {
    println!("TSVC_2 benchmark: cc against polyc-cc (POLYC_REAL_CC=cc), both by TSVC's makefile");
    println!(
        "machine: {} cores, {}, load average at start: {}",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
        first_line("cc", "--version"),
        load_average()
    );
    println!("iterations {iterations}; layouts {:?}", &LAYOUTS[..layouts]);
    println!("{runs} interleaved runs per program, layout and thread count; minimum per loop");
    let mut binaries = Vec::new();
    for (k, flags) in LAYOUTS[..layouts].iter().enumerate() {
        let plain = build(git_dir, &format!("tsvc-plain-{k}"), iterations, format!("cc {flags}").trim())?;
        let polyc_cc = env!("CARGO_BIN_EXE_polyc-cc");
        let polyc = build(git_dir, &format!("tsvc-polyc-{k}"), iterations, format!("{polyc_cc} {flags}").trim())?;
        binaries.push([plain, polyc]);
    }
    let mut table = BTreeMap::new();
    for threads in [1, 2] {
        let mut times: [Times; 2] = [vec![BTreeMap::new(); layouts], vec![BTreeMap::new(); layouts]];
        for round in 0..runs {
            let start = Instant::now();
            for (k, pair) in binaries.iter().enumerate() {
                for (binary, program) in pair.iter().zip(times.iter_mut()) {
                    // cc's program runs with the same environment: it has no OpenMP.
                    keep_minimum(&mut program[k], timed(binary, threads)?, binary)?;
                }
            }
            println!("  {threads} thread(s), round {}: {:.1} s", round + 1, start.elapsed().as_secs_f64());
        }
        table.insert(threads, rows(&times)?);
    }
    report(&table, layouts);
    println!("load average at end: {}", load_average());
    Ok(())
}

/// `best` with each loop's time of `run` where it is lower; the
/// checksums of the runs must agree.
fn keep_minimum(
    best: &mut BTreeMap<String, (f64, String)>,
    run: BTreeMap<String, (f64, String)>,
    binary: &Path,
) -> Result<(), String> {
    for (name, (t, sum)) in run {
        let entry = best.entry(name).or_insert((f64::INFINITY, sum.clone()));
        entry.0 = entry.0.min(t);
        if entry.1 != sum {
            return Err(format!("{}: checksums of two runs differ", binary.display()));
        }
    }
    Ok(())
}

/// The rows of the report, once every checksum of polyc-cc's programs is
/// found equal to cc's.
fn rows([plain, polyc]: &[Times; 2]) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (name, (_, sum)) in &plain[0] {
        let mut per_layout = Vec::new();
        for (p, q) in plain.iter().zip(polyc) {
            match (p.get(name), q.get(name)) {
                (Some((tp, sp)), Some((tq, sq))) if sp == sum && sq == sum => per_layout.push((*tp, *tq)),
                (_, None) => return Err(format!("{name}: not in polyc-cc's output")),
                (p, q) => return Err(format!("{name}: checksums {p:?} (cc) against {q:?} (polyc-cc)")),
            }
        }
        let fastest = |pick: fn(&(f64, f64)) -> f64| per_layout.iter().map(pick).fold(f64::INFINITY, f64::min);
        let slowest_plain = per_layout.iter().map(|l| l.0).fold(0.0, f64::max);
        let best = (fastest(|l| l.0), fastest(|l| l.1));
        rows.push(Row { name: name.clone(), best, own: per_layout[0], spread: slowest_plain / best.0 });
    }
    Ok(rows)
}

/// Speedup cc / polyc-cc of a pair of times, where cc's is long enough to tell.
fn speedup((plain, polyc): (f64, f64)) -> Option<f64> {
    (plain >= MIN_SECONDS && polyc > 0.0).then_some(plain / polyc)
}

fn report(table: &BTreeMap<usize, Vec<Row>>, layouts: usize) {
    let (Some(one), Some(two)) = (table.get(&1), table.get(&2)) else { return };
    println!("\nper program the fastest layout (x), and the project's own layout alone (own x)");
    println!(
        "{:<10} {:>8} {:>8} {:>6} {:>6}   {:>8} {:>8} {:>6} {:>6}",
        "loop", "cc 1t", "polyc 1t", "x", "own x", "cc 2t", "polyc 2t", "x", "own x"
    );
    let x = |pair| speedup(pair).map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into());
    for (a, b) in one.iter().zip(two) {
        println!(
            "{:<10} {:>8.3} {:>8.3} {:>6} {:>6}   {:>8.3} {:>8.3} {:>6} {:>6}",
            a.name,
            a.best.0,
            a.best.1,
            x(a.best),
            x(a.own),
            b.best.0,
            b.best.1,
            x(b.best),
            x(b.own)
        );
    }
    for (threads, rows) in table {
        println!("\n{threads} thread(s):");
        summary("fastest of the layouts", rows, |r| r.best);
        if layouts > 1 {
            summary("the project's own layout", rows, |r| r.own);
            let moved: Vec<String> = rows
                .iter()
                .filter(|r| r.best.0 >= MIN_SECONDS && r.spread > 1.0 / 0.95)
                .map(|r| format!("{} {:.2}x", r.name, r.spread))
                .collect();
            println!(
                "  cc's code alone, slowest layout over fastest, above 1/0.95 on {} loops: {}",
                moved.len(),
                moved.join(", ")
            );
        }
    }
}

/// The geometric mean of `rows`' speedups by `pick`, how many are below
/// 0.95x, and the ten worst.
fn summary(what: &str, rows: &[Row], pick: fn(&Row) -> (f64, f64)) {
    let mut ratios: Vec<(&str, f64, (f64, f64))> =
        rows.iter().filter_map(|r| speedup(pick(r)).map(|x| (r.name.as_str(), x, pick(r)))).collect();
    let speedups: Vec<f64> = ratios.iter().map(|r| r.1).collect();
    ratios.sort_by(|a, b| a.1.total_cmp(&b.1));
    let slower = ratios.iter().filter(|r| r.1 < 0.95).count();
    let total = rows.iter().fold((0.0, 0.0), |(a, b), r| (a + pick(r).0, b + pick(r).1));
    println!(
        "  {what}: geometric mean speedup {:.3} over {} loops (cc >= {MIN_SECONDS} s; {} left out); {slower} below 0.95x; \
         total time cc {:.2} s, polyc-cc {:.2} s",
        geomean(&speedups),
        ratios.len(),
        rows.len() - ratios.len(),
        total.0,
        total.1
    );
    let worst: Vec<String> =
        ratios.iter().take(8).map(|(n, x, (p, q))| format!("{n} {x:.2}x ({p:.3}/{q:.3})")).collect();
    println!("    worst: {}", worst.join(", "));
    let best: Vec<String> = ratios.iter().rev().take(5).map(|(n, x, _)| format!("{n} {x:.2}x")).collect();
    println!("    best: {}", best.join(", "));
}

/// NPB's class per benchmark: W, or A where W runs for under 0.3 s, too
/// short for NPB's timer, which prints hundredths of a second.
fn npb_class(benchmark: &str) -> &'static str {
    match benchmark {
        "cg" | "ft" | "is" | "mg" => "A",
        _ => "W",
    }
}

/// NPB built both ways; each benchmark's time (its "Time in seconds", or
/// for IS, whose own timer prints nonsense, the process's), min of `runs`.
/// OpenMP's default wait policy: NPB's own regions meet at barriers many
/// times a second, and sleeping at each made SP 50 times slower.
fn run_npb(git_dir: &Path, runs: usize) -> Result<(), String> {
    println!(
        "\nNPB3.0-omp-C (CLASS=A: cg ft is mg; W: the others), CFLAGS=-O3 -fopenmp in both builds, load average {}",
        load_average()
    );
    let mut trees = Vec::new();
    for (name, cc) in [("npb-plain", "cc"), ("npb-polyc", env!("CARGO_BIN_EXE_polyc-cc"))] {
        let dir = unpacked(git_dir, name)?;
        npb_configured(&dir)?;
        for b in NPB_BENCHMARKS {
            make(&dir, &npb_make_args(b, npb_class(b), cc))?;
        }
        trees.push(dir);
    }
    let seconds = |binary: &Path, threads: usize| -> Result<f64, String> {
        let start = Instant::now();
        let out =
            Command::new(binary).env("OMP_NUM_THREADS", threads.to_string()).output().map_err(|e| e.to_string())?;
        let wall = start.elapsed().as_secs_f64();
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !text.contains("SUCCESSFUL") {
            return Err(format!("{} did not verify", binary.display()));
        }
        if text.contains("IS Benchmark") {
            return Ok(wall);
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
                    let binary = tree.join("bin").join(format!("{b}.{}", npb_class(b)));
                    best[i] = best[i].min(seconds(&binary, threads)?);
                }
            }
            let x = best[0] / best[1];
            ratios[k].push(x);
            cells.push_str(&format!(" {:>9.3} {:>9.3} {:>7.2}  ", best[0], best[1], x));
        }
        println!("{b:<4}{cells}");
    }
    println!("geometric mean: 1 thread {:.3}, 2 threads {:.3}", geomean(&ratios[0]), geomean(&ratios[1]));
    println!("load average at end: {}", load_average());
    Ok(())
}
