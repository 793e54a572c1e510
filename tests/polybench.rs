//! PolyBench/C 4.2.1: `polyc batch` over the distribution in each mode, and
//! every one of the 30 kernels of `utilities/benchmark_list` built as it is
//! and as polyc wrote it, run on the MINI and SMALL data sets on one and two
//! OpenMP threads, and the arrays each dumps compared byte for byte. Then,
//! from each mode's JSON report: no kernel failed and no kernel's SCoP was
//! rejected.
//!
//! PolyBench is third-party data and not in the repository: it is found
//! through `POLYBENCH_DIR`, by default `../shared/polybench-4.2.1` beside
//! the crate; without it the test says so and passes.
//!
//! Everything (the six batches, gcc, the runs) goes through one queue
//! served by two worker threads. Each program is built once: a kernel
//! polyc kept unchanged is not built again (it is the original), and an
//! output two modes share is built and run once for both.

use crate::common;
use common::*;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A name, polyc's flag for it, and gcc's flags for its output besides
/// [`CFLAGS`].
const MODES: [(&str, Option<&str>, &[&str]); 6] = [
    ("default", None, &[]),
    // The loops for less work than POLYC_MIN_WORK (CFLAGS set it to 0,
    // so that the others run their new loops), their regions threaded.
    (
        "default-little-work",
        None,
        &["-UPOLYC_MIN_WORK", "-DPOLYC_MIN_WORK=1e30", "-DPOLYC_MIN_DATA=1e30", "-DPOLYC_MIN_REGION_WORK=0"],
    ),
    ("diamond", Some("--tile=diamond"), &[]),
    ("hex", Some("--tile=hex"), &[]),
    ("sica", Some("--tile=sica"), &[]),
    ("storage-best", Some("--storage=best"), &[]),
];
/// polyc's output text, the data set and the mode's gcc flags: what a
/// build and its runs depend on.
type BuildKey = (String, usize, &'static [&'static str]);
const DATASETS: [&str; 2] = ["MINI_DATASET", "SMALL_DATASET"];
const THREADS: [&str; 2] = ["1", "2"];
const WORKERS: usize = 2;
/// Every run takes well under a second; this only stops a hang.
const RUN_LIMIT: Duration = Duration::from_secs(120);
const CFLAGS: [&str; 6] = [
    "-O2",
    "-fopenmp",
    "-ffp-contract=off",
    "-DPOLYC_MIN_WORK=0",
    "-DPOLYC_MIN_REGION_WORK=0",
    "-DPOLYBENCH_DUMP_ARRAYS",
];

#[test]
fn polybench_kernels_compute_what_they_computed() {
    let start = Instant::now();
    let Some(pb) = polybench_dir() else { return };
    let kernels = benchmark_list(&pb);
    assert_eq!(kernels.len(), 30, "{}: expected the 30 kernels of PolyBench/C 4.2.1", pb.display());
    let scratch = scratch("polybench");
    let support = scratch.join("polybench.o");
    let mut cmd = Command::new("gcc");
    cmd.args(CFLAGS).arg("-I").arg(pb.join("utilities")).arg("-c").arg(pb.join("utilities/polybench.c"));
    gcc_ok(cmd.arg("-o").arg(&support)).unwrap_or_else(|e| panic!("gcc cannot build polybench.c: {e}"));

    let ctx = Ctx {
        references: (0..kernels.len() * DATASETS.len()).map(|_| OnceLock::new()).collect(),
        kernels,
        pb,
        scratch,
        support,
        reports: Mutex::new(vec![None; MODES.len()]),
        builds: Mutex::new(HashMap::new()),
        outcomes: Mutex::new(Vec::new()),
        built: AtomicUsize::new(0),
        runs: AtomicUsize::new(0),
        spent: Default::default(),
    };
    let queue = Queue::new();
    // The batches first: they take longest and every build of polyc's output waits on one.
    for mode in 0..MODES.len() {
        let ctx = &ctx;
        queue.push(Box::new(move |q: &Queue| ctx.batch(mode, q)));
    }
    for kernel in 0..ctx.kernels.len() {
        for dataset in 0..DATASETS.len() {
            let ctx = &ctx;
            queue.push(Box::new(move |_: &Queue| {
                ctx.reference(kernel, dataset);
            }));
        }
    }
    let panics = queue.serve(WORKERS);

    let problems = ctx.conclude(panics, start.elapsed());
    assert!(problems.is_empty(), "{problems}");
}

/// The kernels' paths relative to the distribution, as listed.
fn benchmark_list(pb: &Path) -> Vec<String> {
    let list = std::fs::read_to_string(pb.join("utilities/benchmark_list")).expect("benchmark_list is readable");
    list.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| l.trim_start_matches("./").to_owned()).collect()
}

/// What one worker does next; it may queue more work.
type Job<'a> = Box<dyn FnOnce(&Queue<'a>) + Send + 'a>;

/// A shared work queue: workers take jobs until it is empty and no job
/// still running could add one.
struct Queue<'a> {
    state: Mutex<(VecDeque<Job<'a>>, usize)>,
    changed: Condvar,
}

impl<'a> Queue<'a> {
    fn new() -> Self {
        Queue { state: Mutex::new((VecDeque::new(), 0)), changed: Condvar::new() }
    }

    fn push(&self, job: Job<'a>) {
        self.state.lock().expect("no poisoned lock").0.push_back(job);
        self.changed.notify_one();
    }

    /// Serve the queue on `workers` threads until it is done; a job's
    /// panic is caught (and returned) so that the others still run.
    fn serve(&self, workers: usize) -> Vec<String> {
        let panics = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(|| {
                    while let Some(job) = self.next() {
                        if let Err(p) = panic::catch_unwind(AssertUnwindSafe(|| job(self))) {
                            let message = p
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_default();
                            panics.lock().expect("no poisoned lock").push(format!("a job panicked: {message}"));
                        }
                        self.state.lock().expect("no poisoned lock").1 -= 1;
                        self.changed.notify_all();
                    }
                });
            }
        });
        panics.into_inner().expect("no poisoned lock")
    }

    fn next(&self) -> Option<Job<'a>> {
        let mut state = self.state.lock().expect("no poisoned lock");
        loop {
            if let Some(job) = state.0.pop_front() {
                state.1 += 1;
                return Some(job);
            }
            if state.1 == 0 {
                return None;
            }
            state = self.changed.wait(state).expect("no poisoned lock");
        }
    }
}

/// What the original program dumped (standard error), or why there is nothing.
type Dump = Result<Vec<u8>, String>;

/// One comparison: polyc's output of a kernel in a mode, on a data set and
/// a number of threads.
struct Outcome {
    kernel: usize,
    mode: usize,
    dataset: usize,
    threads: usize,
    verdict: Verdict,
}

#[derive(Clone)]
enum Verdict {
    /// polyc kept the file unchanged: it is the original, nothing to run.
    Unchanged,
    Same,
    /// A wrong result, a failed build or run: the message says which.
    Failed(String),
}

/// The verdicts (one per thread count) on one build of polyc's output,
/// computed by the first mode that needs them.
type Shared = Arc<OnceLock<Vec<Verdict>>>;

struct Ctx {
    pb: PathBuf,
    scratch: PathBuf,
    /// polybench.c compiled once.
    support: PathBuf,
    kernels: Vec<String>,
    /// The original's dump, by kernel and data set.
    references: Vec<OnceLock<Dump>>,
    /// Each mode's JSON report, or why there is none.
    reports: Mutex<Vec<Option<Result<Value, String>>>>,
    /// Verdicts by polyc's output text, data set and gcc flags (one per
    /// thread count), so that an output two modes share is built once.
    builds: Mutex<HashMap<BuildKey, Shared>>,
    outcomes: Mutex<Vec<Outcome>>,
    built: AtomicUsize,
    runs: AtomicUsize,
    /// Milliseconds spent (by both workers together) in each kind of work.
    spent: [AtomicU64; 3],
}

#[derive(Clone, Copy)]
enum Spent {
    Polyc,
    Gcc,
    Runs,
}

impl Ctx {
    fn spend(&self, kind: Spent, since: Instant) {
        self.spent[kind as usize].fetch_add(since.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn mode_dir(&self, mode: usize) -> PathBuf {
        self.scratch.join(MODES[mode].0)
    }

    fn report_path(&self, mode: usize) -> PathBuf {
        self.scratch.join(format!("{}.json", MODES[mode].0))
    }

    /// `polyc batch` over the distribution in one mode; then its builds.
    fn batch<'a>(&'a self, mode: usize, queue: &Queue<'a>) {
        let (name, flag, _) = MODES[mode];
        let started = Instant::now();
        let mut cmd = Command::new(polyc_bin());
        cmd.arg("batch").arg(&self.pb).arg("-o").arg(self.mode_dir(mode));
        cmd.arg("-I").arg(self.pb.join("utilities")).arg("--report").arg(self.report_path(mode));
        // One file at a time: the queue's two workers already fill the two cores.
        // No wall-clock budget: on a loaded machine it would keep slow SCoPs
        // unchanged (P0015) at random; the isl operation budget still holds.
        cmd.args(["-j", "1", "--time-budget", "0"]).args(flag);
        let finished = run_with(cmd, Duration::from_secs(900));
        self.spend(Spent::Polyc, started);
        let report = match finished {
            // 3: some file could not be compiled, which the report says.
            Ok((Some(0 | 3), _, _)) => std::fs::read_to_string(self.report_path(mode))
                .map_err(|e| format!("no report: {e}"))
                .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| format!("the report is not JSON: {e}"))),
            Ok((code, _, err)) => Err(format!("polyc batch exited with {code:?}: {}", String::from_utf8_lossy(&err))),
            Err(e) => Err(format!("polyc batch: {e}")),
        };
        match &report {
            Ok(r) => eprintln!(
                "polybench: polyc batch {name}: {} SCoPs regenerated, {} rejected, {} files failed ({:.1} s)",
                r["totals"]["scops_regenerated"],
                r["totals"]["scops_rejected"],
                r["totals"]["files_failed"],
                started.elapsed().as_secs_f64()
            ),
            Err(e) => eprintln!("polybench: polyc batch {name}: {e}"),
        }
        self.reports.lock().expect("no poisoned lock")[mode] = Some(report);
        for kernel in 0..self.kernels.len() {
            for dataset in 0..DATASETS.len() {
                queue.push(Box::new(move |_: &Queue| self.compare(kernel, mode, dataset)));
            }
        }
    }

    /// The original kernel's dump on a data set, built and run once.
    fn reference(&self, kernel: usize, dataset: usize) -> &Dump {
        self.references[kernel * DATASETS.len() + dataset].get_or_init(|| {
            let source = self.pb.join(&self.kernels[kernel]);
            let binary = self.scratch.join("original").join(DATASETS[dataset]).join(stem(&source));
            self.build(&source, kernel, dataset, &[], &binary)?;
            // The original has no OpenMP: one thread is all there is to run.
            self.run(&binary, THREADS[0])
        })
    }

    /// polyc's output of a kernel in one mode against the original on a data set.
    fn compare(&self, kernel: usize, mode: usize, dataset: usize) {
        let path = &self.kernels[kernel];
        let output = self.mode_dir(mode).join(path);
        let verdicts = match (std::fs::read_to_string(&output), std::fs::read_to_string(self.pb.join(path))) {
            (Ok(text), Ok(original)) if text == original => vec![Verdict::Unchanged; THREADS.len()],
            (Ok(text), _) => {
                let key = (text, dataset, MODES[mode].2);
                let slot = Arc::clone(self.builds.lock().expect("no poisoned lock").entry(key).or_default());
                slot.get_or_init(|| self.build_and_run(kernel, mode, dataset, &output)).clone()
            }
            (Err(e), _) => {
                vec![Verdict::Failed(format!("polyc wrote no output {}: {e}", output.display())); THREADS.len()]
            }
        };
        let mut outcomes = self.outcomes.lock().expect("no poisoned lock");
        for (threads, verdict) in verdicts.into_iter().enumerate() {
            if let Verdict::Failed(m) = &verdict {
                eprintln!("polybench: FAIL {}: {m}", self.label(kernel, mode, dataset, threads));
            }
            outcomes.push(Outcome { kernel, mode, dataset, threads, verdict });
        }
    }

    /// Build polyc's output once and run it on every thread count.
    fn build_and_run(&self, kernel: usize, mode: usize, dataset: usize, output: &Path) -> Vec<Verdict> {
        let binary = self.scratch.join("bin").join(MODES[mode].0).join(DATASETS[dataset]).join(stem(output));
        let cflags = MODES[mode].2;
        if let Err(e) = self.build(output, kernel, dataset, cflags, &binary) {
            return vec![Verdict::Failed(format!("polyc's output does not build: {e}")); THREADS.len()];
        }
        let reference = match self.reference(kernel, dataset) {
            Ok(r) => r,
            Err(e) => return vec![Verdict::Failed(format!("the original fails: {e}")); THREADS.len()],
        };
        THREADS
            .iter()
            .map(|threads| match self.run(&binary, threads) {
                Err(e) => Verdict::Failed(format!("polyc's output {e}")),
                Ok(dump) if dump == *reference => Verdict::Same,
                Ok(dump) => Verdict::Failed(format!(
                    "the dumps differ: {}\n    reproduce: {}; OMP_NUM_THREADS={threads} ./a.out 2>polyc.dump",
                    first_difference(reference, &dump),
                    self.command_line(output, kernel, dataset, cflags)
                )),
            })
            .collect()
    }

    /// gcc as the test runs it, polybench.c already compiled.
    fn build(
        &self,
        source: &Path,
        kernel: usize,
        dataset: usize,
        cflags: &[&str],
        binary: &Path,
    ) -> Result<(), String> {
        std::fs::create_dir_all(binary.parent().expect("a directory")).map_err(|e| e.to_string())?;
        let mut cmd = Command::new("gcc");
        cmd.args(CFLAGS).args(cflags).arg(format!("-D{}", DATASETS[dataset])).arg("-I").arg(self.pb.join("utilities"));
        cmd.arg("-I").arg(self.kernel_dir(kernel)).arg(source).arg(&self.support).args(["-lm", "-o"]).arg(binary);
        self.built.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let built = gcc_ok(&mut cmd);
        self.spend(Spent::Gcc, started);
        built
    }

    /// The same build as one command to paste, polybench.c included.
    fn command_line(&self, source: &Path, kernel: usize, dataset: usize, cflags: &[&str]) -> String {
        format!(
            "gcc {} -D{} -I {} -I {} {} {} -lm",
            CFLAGS.iter().chain(cflags).copied().collect::<Vec<_>>().join(" "),
            DATASETS[dataset],
            self.pb.join("utilities").display(),
            self.kernel_dir(kernel).display(),
            self.pb.join("utilities/polybench.c").display(),
            source.display()
        )
    }

    fn kernel_dir(&self, kernel: usize) -> PathBuf {
        self.pb.join(&self.kernels[kernel]).parent().expect("a kernel's directory").to_path_buf()
    }

    /// What the program dumps on standard error; it must exit with 0.
    fn run(&self, binary: &Path, threads: &str) -> Dump {
        let mut cmd = Command::new(binary);
        cmd.env("OMP_NUM_THREADS", threads);
        self.runs.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let finished = run_with(cmd, RUN_LIMIT);
        self.spend(Spent::Runs, started);
        match finished {
            Ok((Some(0), _, dump)) if dump.starts_with(b"==BEGIN DUMP_ARRAYS==") => Ok(dump),
            Ok((Some(0), _, dump)) => {
                Err(format!("dumps no arrays: {}", String::from_utf8_lossy(&dump[..dump.len().min(200)])))
            }
            Ok((code, _, err)) => Err(format!(
                "exits with {code:?} on {threads} thread(s): {}",
                String::from_utf8_lossy(&err[..err.len().min(200)])
            )),
            Err(e) => Err(format!("on {threads} thread(s): {e}")),
        }
    }

    fn seconds(&self, kind: Spent) -> f64 {
        self.spent[kind as usize].load(Ordering::Relaxed) as f64 / 1000.0
    }

    fn label(&self, kernel: usize, mode: usize, dataset: usize, threads: usize) -> String {
        format!(
            "{} mode={} -D{} OMP_NUM_THREADS={}",
            self.kernels[kernel], MODES[mode].0, DATASETS[dataset], THREADS[threads]
        )
    }

    /// The summary, and every problem: the comparisons' first, then the
    /// reports' (a failed kernel, a rejected SCoP).
    fn conclude(&self, panics: Vec<String>, elapsed: Duration) -> String {
        let mut problems = String::new();
        for p in &panics {
            let _ = writeln!(problems, "{p}");
        }
        let mut outcomes = std::mem::take(&mut *self.outcomes.lock().expect("no poisoned lock"));
        outcomes.sort_by_key(|o| (o.kernel, o.mode, o.dataset, o.threads));
        let (mut same, mut unchanged, mut failed) = (0, 0, 0);
        for o in &outcomes {
            match &o.verdict {
                Verdict::Same => same += 1,
                Verdict::Unchanged => unchanged += 1,
                Verdict::Failed(m) => {
                    failed += 1;
                    let _ = writeln!(problems, "{}: {m}", self.label(o.kernel, o.mode, o.dataset, o.threads));
                }
            }
        }
        let expected = self.kernels.len() * MODES.len() * DATASETS.len() * THREADS.len();
        if outcomes.len() != expected {
            let _ = writeln!(problems, "{} comparisons made of {expected}", outcomes.len());
        }
        for (mode, report) in self.reports.lock().expect("no poisoned lock").iter().enumerate() {
            match report {
                Some(Ok(report)) => report_problems(report, MODES[mode].0, &self.kernels, &mut problems),
                Some(Err(e)) => {
                    let _ = writeln!(problems, "mode {}: {e}", MODES[mode].0);
                }
                None => {
                    let _ = writeln!(problems, "mode {}: polyc batch did not run", MODES[mode].0);
                }
            }
        }
        eprintln!(
            "polybench: {} kernels x {} modes x {} data sets x {} thread counts: {} runs of polyc's output \
             identical to the original's, {} kept unchanged by polyc (not run), {failed} mismatches or failures; \
             {} programs built, {} runs; {:.1} s (worker time: polyc batch {:.0} s, gcc {:.0} s, runs {:.0} s)",
            self.kernels.len(),
            MODES.len(),
            DATASETS.len(),
            THREADS.len(),
            same,
            unchanged,
            self.built.load(Ordering::Relaxed),
            self.runs.load(Ordering::Relaxed),
            elapsed.as_secs_f64(),
            self.seconds(Spent::Polyc),
            self.seconds(Spent::Gcc),
            self.seconds(Spent::Runs),
        );
        problems
    }
}

/// From one mode's report: every kernel compiled, and none of its SCoPs
/// rejected. Other files of the distribution (polybench.c itself, an
/// unbuildable `Nussinov.orig.c`) are only mentioned.
fn report_problems(report: &Value, mode: &str, kernels: &[String], problems: &mut String) {
    let files = report["files"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut failed = Vec::new();
    let mut rejected = Vec::new();
    for kernel in kernels {
        let Some(entry) = files.iter().find(|f| f["path"].as_str() == Some(kernel)) else {
            failed.push(format!("{kernel}: not in the report"));
            continue;
        };
        if entry["status"] != "ok" {
            failed.push(format!("{kernel}: {}", entry["error"].as_str().unwrap_or("failed")));
            continue;
        }
        let scops = entry["scops"].as_array().map(Vec::as_slice).unwrap_or_default();
        if scops.is_empty() {
            rejected.push(format!("{kernel}: no SCoP found"));
        }
        for scop in scops.iter().filter(|s| s["status"] != "Regenerated") {
            rejected.push(format!(
                "{kernel}: {} (SCoP at line {})",
                scop["code"].as_str().unwrap_or("no code"),
                scop["line"]
            ));
        }
    }
    let others: Vec<String> = files
        .iter()
        .filter(|f| f["status"] != "ok" && !kernels.iter().any(|k| f["path"].as_str() == Some(k)))
        .map(|f| f["path"].as_str().unwrap_or_default().to_owned())
        .collect();
    if !others.is_empty() {
        eprintln!("polybench: mode {mode}: failed outside the 30 kernels (not asserted): {}", others.join(", "));
    }
    if !failed.is_empty() {
        let _ = writeln!(problems, "mode {mode}: {} of {} kernels failed:", failed.len(), kernels.len());
        for f in &failed {
            let _ = writeln!(problems, "    {f}");
        }
    }
    if !rejected.is_empty() {
        let _ = writeln!(problems, "mode {mode}: {} kernels' SCoPs rejected:", rejected.len());
        for r in &rejected {
            let _ = writeln!(problems, "    {r}");
        }
    }
}

/// The first line where two dumps differ, with both versions.
fn first_difference(original: &[u8], polyc: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(original), String::from_utf8_lossy(polyc));
    let mut a_lines = a.split('\n');
    let mut b_lines = b.split('\n');
    let mut line = 1;
    loop {
        match (a_lines.next(), b_lines.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (x, y) => {
                let show = |l: Option<&str>| l.map_or("<end of dump>".to_owned(), |l| format!("`{}`", l.trim_end()));
                return format!("line {line}: original {}, polyc {}", show(x), show(y));
            }
        }
    }
}

fn gcc_ok(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("cannot run gcc: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err.lines().take(20).collect::<Vec<_>>().join("\n"))
    }
}
