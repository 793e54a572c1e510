//! Runtime benchmark: every corpus kernel at its benchmark size, gcc on the
//! original against gcc on polyc's output, plus the time polyc itself takes.
//! `cargo bench --bench runtime -- --help` lists the options; benches/README.md
//! says what is measured and how to read the table.

use serde_json::{json, Value};
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const USAGE: &str = "\
usage: cargo bench --bench runtime -- [options]

  --kernels LIST      comma-separated corpus kernels (default: every corpus/*.c,
                      corpus/pointers/*.c and corpus/dynamic/*.c)
  --runs N            runs of each binary per thread count (default 3)
  --threads LIST      OMP_NUM_THREADS values for polyc's output (default 1,2);
                      the first is the base of the thread-scaling ratios
  --polyc-flags STR   flags for polyc (default: none, i.e. polyc's defaults)
  --cflags STR        gcc flags for both programs (default \"-O3 -march=native\");
                      polyc's output also gets -fopenmp
  --json PATH         where to write the JSON (default target/bench/runtime.json);
                      the text report goes next to it with the extension .txt
  --min-ms MS         only kernels whose original takes at least MS ms enter the
                      geometric means (default 10)
  --timeout SECS      limit for one run of one program (default 300)

Each option can also be set by an environment variable: POLYC_BENCH_KERNELS,
POLYC_BENCH_RUNS, POLYC_BENCH_THREADS, POLYC_BENCH_POLYC_FLAGS,
POLYC_BENCH_CFLAGS, POLYC_BENCH_JSON, POLYC_BENCH_MIN_MS, POLYC_BENCH_TIMEOUT.
Arguments win over the environment.
";

/// The line the corpus programs print on stderr when built with -DPOLYC_BENCH_TIME.
const TIME_TAG: &str = "polyc-bench-time:";

struct Config {
    kernels: Vec<String>,
    runs: usize,
    threads: Vec<usize>,
    polyc_flags: Vec<String>,
    cflags: Vec<String>,
    json: PathBuf,
    min_ms: f64,
    timeout: Duration,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes --bench; `cargo test --all-targets` runs this binary
    // without it, and the benchmark must not run as part of the tests.
    if !args.iter().any(|a| a == "--bench") {
        println!("runtime benchmark: skipped (run it with `cargo bench --bench runtime`)");
        return ExitCode::SUCCESS;
    }
    let args: Vec<String> = args.into_iter().filter(|a| a != "--bench").collect();
    let config = match parse_config(&args) {
        Ok(Some(c)) => c,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("runtime benchmark: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run_benchmark(&config) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("runtime benchmark: {e}");
            ExitCode::from(2)
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn polyc_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_polyc"))
}

/// The target directory: the polyc binary is `<target>/<profile>/polyc`.
fn target_dir() -> PathBuf {
    polyc_binary().parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_else(|| root().join("target"))
}

/// The directories whose programs are kernels: the corpus, its pointer
/// versions and its kernels with data-dependent conditions (each named by
/// its file's stem, all distinct).
const KERNEL_DIRS: [&str; 3] = ["corpus", "corpus/pointers", "corpus/dynamic"];

fn corpus_kernels() -> Vec<String> {
    let mut names: Vec<String> = KERNEL_DIRS
        .iter()
        .filter_map(|dir| std::fs::read_dir(root().join(dir)).ok())
        .flat_map(|dir| dir.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

/// The source of kernel `name`.
fn kernel_source(name: &str) -> PathBuf {
    let file = format!("{name}.c");
    KERNEL_DIRS
        .iter()
        .map(|dir| root().join(dir).join(&file))
        .find(|p| p.exists())
        .unwrap_or_else(|| root().join("corpus").join(file))
}

fn split_list(s: &str) -> Vec<String> {
    s.split(',').map(str::trim).filter(|x| !x.is_empty()).map(String::from).collect()
}

fn parse_config(args: &[String]) -> Result<Option<Config>, String> {
    const OPTIONS: [&str; 8] = ["kernels", "runs", "threads", "polyc-flags", "cflags", "json", "min-ms", "timeout"];
    let mut values: Vec<(&str, String)> = Vec::new();
    for name in OPTIONS {
        let var = format!("POLYC_BENCH_{}", name.to_uppercase().replace('-', "_"));
        if let Ok(v) = std::env::var(&var) {
            values.push((name, v));
        }
    }
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--help" || arg == "-h" {
            return Ok(None);
        }
        let Some(opt) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument `{arg}`"));
        };
        let (name, value) = match opt.split_once('=') {
            Some((n, v)) => (n, v.to_string()),
            None => {
                i += 1;
                let v = args.get(i).ok_or_else(|| format!("--{opt} needs a value"))?;
                (opt, v.clone())
            }
        };
        let name = OPTIONS.iter().find(|o| **o == name).ok_or_else(|| format!("unknown option `--{name}`"))?;
        values.push((name, value));
        i += 1;
    }
    let get = |name: &str| values.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.as_str());

    let all = corpus_kernels();
    if all.is_empty() {
        return Err(format!("no corpus programs in {}", root().join("corpus").display()));
    }
    let kernels = match get("kernels") {
        Some(list) => {
            let list = split_list(list);
            for k in &list {
                if !all.contains(k) {
                    return Err(format!("`{k}` is not a corpus kernel (corpus/{k}.c does not exist)"));
                }
            }
            if list.is_empty() {
                return Err("--kernels is empty".into());
            }
            list
        }
        None => all,
    };
    let runs = match get("runs") {
        Some(v) => v.parse::<usize>().ok().filter(|n| *n >= 1).ok_or_else(|| format!("bad --runs `{v}`"))?,
        None => 3,
    };
    let threads = match get("threads") {
        Some(v) => {
            let t: Option<Vec<usize>> =
                split_list(v).iter().map(|x| x.parse::<usize>().ok().filter(|n| *n >= 1)).collect();
            t.filter(|t| !t.is_empty()).ok_or_else(|| format!("bad --threads `{v}`"))?
        }
        None => vec![1, 2],
    };
    let polyc_flags = get("polyc-flags").map(|v| v.split_whitespace().map(String::from).collect()).unwrap_or_default();
    let cflags: Vec<String> =
        get("cflags").unwrap_or("-O3 -march=native").split_whitespace().map(String::from).collect();
    let json = get("json").map(PathBuf::from).unwrap_or_else(|| target_dir().join("bench").join("runtime.json"));
    let min_ms = match get("min-ms") {
        Some(v) => v.parse::<f64>().ok().filter(|x| *x >= 0.0).ok_or_else(|| format!("bad --min-ms `{v}`"))?,
        None => 10.0,
    };
    let timeout = match get("timeout") {
        Some(v) => v.parse::<f64>().ok().filter(|x| *x > 0.0).ok_or_else(|| format!("bad --timeout `{v}`"))?,
        None => 300.0,
    };
    Ok(Some(Config {
        kernels,
        runs,
        threads,
        polyc_flags,
        cflags,
        json,
        min_ms,
        timeout: Duration::from_secs_f64(timeout),
    }))
}

/// A finished process: exit code (None if killed), stdout, stderr, wall time.
struct Finished {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    wall: Duration,
}

fn run_process(mut cmd: Command, limit: Duration) -> Result<Finished, String> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    // Wait without polling: a parent waking every few milliseconds takes
    // a core from a two-thread OpenMP run at its barriers (adi on two
    // threads measured 3.3 s here, 1.5 s alone).
    let pid = child.id();
    let (done, finished) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    let (status, timed_out) = match finished.recv_timeout(limit) {
        Ok(status) => (status, false),
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            (finished.recv().map_err(|e| format!("wait: {e}"))?, true)
        }
    };
    let status = status.map_err(|e| format!("wait: {e}"))?;
    let _ = waiter.join();
    let wall = start.elapsed();
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    if timed_out {
        return Err(format!("killed after {:.0} s (--timeout)", limit.as_secs_f64()));
    }
    Ok(Finished { code: status.code(), stdout, stderr, wall })
}

fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    if line.chars().count() > 160 {
        format!("{}...", line.chars().take(160).collect::<String>())
    } else {
        line.to_string()
    }
}

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The 1-minute load average: other work on the machine skews the times.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

fn machine_info() -> Value {
    let nproc = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.to_string()))
        .and_then(|l| l.split_once(':').map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "unknown".into());
    let gcc = command_output("gcc", &["--version"])
        .and_then(|s| s.lines().next().map(String::from))
        .unwrap_or_else(|| "unknown".into());
    let os = command_output("uname", &["-srm"]).unwrap_or_else(|| "unknown".into());
    json!({ "nproc": nproc, "cpu": cpu, "gcc": gcc, "os": os })
}

fn git_info() -> Value {
    let dir = root();
    let dir = dir.to_string_lossy();
    let commit = command_output("git", &["-C", &dir, "rev-parse", "HEAD"]);
    let dirty = command_output("git", &["-C", &dir, "status", "--porcelain", "--untracked-files=no"]);
    json!({ "commit": commit, "dirty": dirty.map(|s| !s.is_empty()) })
}

/// The `-D` flags of the `/* polyc-bench: ... */` line of a corpus file.
fn bench_flags(source: &str) -> Result<Vec<String>, String> {
    let lines: Vec<&str> = source.lines().filter(|l| l.contains("polyc-bench:")).collect();
    match lines.as_slice() {
        [line] => {
            let rest = line.split_once("polyc-bench:").map(|(_, r)| r).unwrap_or("");
            let rest = rest.split("*/").next().unwrap_or("");
            let flags: Vec<String> = rest.split_whitespace().map(String::from).collect();
            if flags.is_empty() || flags.iter().any(|f| !f.starts_with("-D")) {
                Err(format!("malformed polyc-bench line `{}`", line.trim()))
            } else {
                Ok(flags)
            }
        }
        [] => Err("no `/* polyc-bench: ... */` line".into()),
        _ => Err("more than one `polyc-bench:` line".into()),
    }
}

fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 })
}

fn geomean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
}

/// FNV-1a, to name an output in the JSON without storing it.
fn fnv64(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// 1-based line of the first difference between two outputs.
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    1 + a[..at].iter().filter(|c| **c == b'\n').count()
}

/// polyc on one corpus file: its output file, wall time, exit code and warnings.
struct PolycRun {
    name: String,
    output: PathBuf,
    seconds: f64,
    code: Option<i32>,
    error: Option<String>,
    warnings: String,
}

fn run_polyc(config: &Config, name: &str, work: &Path) -> PolycRun {
    let source = kernel_source(name);
    let output = work.join(format!("{name}.polyc.c"));
    let _ = std::fs::remove_file(&output);
    let mut cmd = Command::new(polyc_binary());
    cmd.args(&config.polyc_flags).arg(&source).arg("-o").arg(&output).current_dir(root());
    match run_process(cmd, config.timeout) {
        Ok(f) => {
            let error = match f.code {
                Some(0) if output.is_file() => None,
                Some(0) => Some("polyc wrote no output".to_string()),
                Some(code) => Some(format!("polyc exited with status {code}: {}", first_line(&f.stderr))),
                None => Some(format!("polyc killed by a signal: {}", first_line(&f.stderr))),
            };
            PolycRun {
                name: name.into(),
                output,
                seconds: f.wall.as_secs_f64(),
                code: f.code,
                error,
                warnings: String::from_utf8_lossy(&f.stderr).trim().to_string(),
            }
        }
        Err(e) => PolycRun {
            name: name.into(),
            output,
            seconds: config.timeout.as_secs_f64(),
            code: None,
            error: Some(format!("polyc: {e}")),
            warnings: String::new(),
        },
    }
}

fn gcc(cflags: &[String], openmp: bool, defines: &[String], source: &Path, binary: &Path) -> Result<(), String> {
    let mut cmd = Command::new("gcc");
    cmd.args(cflags);
    if openmp {
        cmd.arg("-fopenmp");
    }
    cmd.arg("-DPOLYC_BENCH_TIME").args(defines).arg(source).arg("-o").arg(binary).arg("-lm");
    let out = cmd.output().map_err(|e| format!("cannot run gcc: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("gcc failed on {}: {}", source.display(), first_line(&out.stderr)))
    }
}

/// One run of a benchmark binary: its stdout and the kernel time it reported.
fn run_binary(binary: &Path, threads: usize, limit: Duration) -> Result<(Vec<u8>, f64, f64), String> {
    let mut cmd = Command::new(binary);
    cmd.env("OMP_NUM_THREADS", threads.to_string());
    let f = run_process(cmd, limit)?;
    if f.code != Some(0) {
        return Err(match f.code {
            Some(code) => format!("exited with status {code}: {}", first_line(&f.stderr)),
            None => format!("killed by a signal: {}", first_line(&f.stderr)),
        });
    }
    let stderr = String::from_utf8_lossy(&f.stderr);
    let time = stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix(TIME_TAG))
        .map(|t| t.trim().parse::<f64>())
        .next_back()
        .ok_or_else(|| format!("no `{TIME_TAG}` line on stderr (timing hook missing?)"))?
        .map_err(|e| format!("bad `{TIME_TAG}` line: {e}"))?;
    Ok((f.stdout, time, f.wall.as_secs_f64()))
}

#[derive(Clone, Copy, PartialEq)]
enum Status {
    Ok,
    PolycFailed,
    CompileFailed,
    RunFailed,
    OutputDiffers,
    /// The outputs differ with gcc's default `-ffp-contract=fast`, and are
    /// identical with `-ffp-contract=off`: gcc fused multiplies and adds
    /// differently in the two programs (it sees more of polyc's loops), C's
    /// evaluation of every expression is the same.
    FmaOnly,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::PolycFailed => "POLYC FAILED",
            Status::CompileFailed => "COMPILE FAILED",
            Status::RunFailed => "RUN FAILED",
            Status::OutputDiffers => "OUTPUT DIFFERS",
            Status::FmaOnly => "ok (FMA)",
        }
    }

    /// Whether polyc's output computes what the original computes.
    fn matches(self) -> bool {
        matches!(self, Status::Ok | Status::FmaOnly)
    }
}

struct KernelResult {
    name: String,
    defines: Vec<String>,
    status: Status,
    detail: String,
    orig_runs: Vec<f64>,
    orig_process: Vec<f64>,
    /// Per entry of `config.threads`: kernel times and whole-process times.
    polyc_runs: Vec<Vec<f64>>,
    polyc_process: Vec<Vec<f64>>,
    output_bytes: usize,
    output_hash: String,
    polyc_warnings: bool,
    /// polyc's output has an OpenMP parallel loop: what a second thread
    /// can speed up.
    runs_in_parallel: bool,
}

impl KernelResult {
    fn orig(&self) -> Option<f64> {
        median(&self.orig_runs)
    }
    fn polyc(&self, t: usize) -> Option<f64> {
        median(&self.polyc_runs[t])
    }
    /// orig / polyc with the t-th thread count.
    fn speedup(&self, t: usize) -> Option<f64> {
        Some(self.orig()? / self.polyc(t)?)
    }
    /// polyc with the first thread count / polyc with the t-th.
    fn scaling(&self, t: usize) -> Option<f64> {
        Some(self.polyc(0)? / self.polyc(t)?)
    }
    fn in_geomean(&self, min_ms: f64) -> bool {
        self.status.matches() && self.orig().is_some_and(|o| o * 1000.0 >= min_ms)
    }
}

fn bench_kernel(config: &Config, polyc: &PolycRun, work: &Path) -> KernelResult {
    let name = polyc.name.clone();
    let mut r = KernelResult {
        name: name.clone(),
        defines: Vec::new(),
        status: Status::Ok,
        detail: String::new(),
        orig_runs: Vec::new(),
        orig_process: Vec::new(),
        polyc_runs: vec![Vec::new(); config.threads.len()],
        polyc_process: vec![Vec::new(); config.threads.len()],
        output_bytes: 0,
        output_hash: String::new(),
        polyc_warnings: polyc.error.is_none() && !polyc.warnings.is_empty(),
        runs_in_parallel: std::fs::read_to_string(&polyc.output).is_ok_and(|t| t.contains("#pragma omp parallel")),
    };
    let source = kernel_source(&name);
    let text = match std::fs::read_to_string(&source) {
        Ok(t) => t,
        Err(e) => {
            r.status = Status::CompileFailed;
            r.detail = format!("cannot read {}: {e}", source.display());
            return r;
        }
    };
    match bench_flags(&text) {
        Ok(d) => r.defines = d,
        Err(e) => {
            r.status = Status::CompileFailed;
            r.detail = e;
            return r;
        }
    }
    if let Some(e) = &polyc.error {
        r.status = Status::PolycFailed;
        r.detail = e.clone();
        return r;
    }
    let orig_bin = work.join(format!("{name}.orig"));
    let polyc_bin = work.join(format!("{name}.polyc"));
    let built = gcc(&config.cflags, false, &r.defines, &source, &orig_bin)
        .and_then(|_| gcc(&config.cflags, true, &r.defines, &polyc.output, &polyc_bin));
    if let Err(e) = built {
        r.status = Status::CompileFailed;
        r.detail = e;
        return r;
    }

    // Runs interleave original and polyc output so that drift in the
    // machine's speed affects all of them alike.
    let mut reference: Option<Vec<u8>> = None;
    let mut diff_threads = 0;
    for _ in 0..config.runs {
        match run_binary(&orig_bin, 1, config.timeout) {
            Ok((out, t, wall)) => {
                match &reference {
                    None => {
                        r.output_bytes = out.len();
                        r.output_hash = fnv64(&out);
                        reference = Some(out);
                    }
                    Some(refout) if *refout != out => {
                        r.status = Status::RunFailed;
                        r.detail = format!(
                            "the original's output differs between runs (line {})",
                            first_difference(refout, &out)
                        );
                        return r;
                    }
                    Some(_) => {}
                }
                r.orig_runs.push(t);
                r.orig_process.push(wall);
            }
            Err(e) => {
                r.status = Status::RunFailed;
                r.detail = format!("original: {e}");
                return r;
            }
        }
        let refout = reference.as_deref().unwrap_or_default();
        for (ti, &threads) in config.threads.iter().enumerate() {
            match run_binary(&polyc_bin, threads, config.timeout) {
                Ok((out, t, wall)) => {
                    if out != refout && r.status == Status::Ok {
                        r.status = Status::OutputDiffers;
                        diff_threads = threads;
                        r.detail = format!(
                            "polyc output with {threads} thread(s) differs from the original from stdout line {} \
                             ({} vs {} bytes)",
                            first_difference(refout, &out),
                            out.len(),
                            refout.len()
                        );
                    }
                    r.polyc_runs[ti].push(t);
                    r.polyc_process[ti].push(wall);
                }
                Err(e) => {
                    r.status = Status::RunFailed;
                    r.detail = format!("polyc output with {threads} thread(s): {e}");
                    return r;
                }
            }
        }
    }
    if r.status == Status::OutputDiffers {
        let (identical, detail) = fp_contract_check(config, &r, &source, &polyc.output, work, diff_threads);
        r.detail.push_str(&detail);
        if identical {
            r.status = Status::FmaOnly;
        }
    }
    r
}

/// After a difference: are the outputs identical once gcc may not contract
/// floating-point expressions (FMA) in either program? With what to add
/// to the difference's description.
fn fp_contract_check(
    config: &Config,
    r: &KernelResult,
    source: &Path,
    polyc_source: &Path,
    work: &Path,
    threads: usize,
) -> (bool, String) {
    if config.cflags.iter().any(|f| f == "-ffp-contract=off") {
        return (false, String::new());
    }
    let mut cflags = config.cflags.clone();
    cflags.push("-ffp-contract=off".into());
    let a = work.join(format!("{}.orig-nofma", r.name));
    let b = work.join(format!("{}.polyc-nofma", r.name));
    let outcome = gcc(&cflags, false, &r.defines, source, &a)
        .and_then(|_| gcc(&cflags, true, &r.defines, polyc_source, &b))
        .and_then(|_| {
            let (x, _, _) = run_binary(&a, 1, config.timeout)?;
            let (y, _, _) = run_binary(&b, threads, config.timeout)?;
            Ok(x == y)
        });
    match outcome {
        Ok(true) => (
            true,
            format!(
                "; identical with -ffp-contract=off (FMA contraction: rerun with --cflags \"{} -ffp-contract=off\")",
                config.cflags.join(" ")
            ),
        ),
        Ok(false) => (false, "; differs with -ffp-contract=off too".into()),
        Err(e) => (false, format!("; -ffp-contract=off check failed: {e}")),
    }
}

fn ms(x: Option<f64>) -> String {
    x.map(|s| format!("{:.1}", s * 1000.0)).unwrap_or_else(|| "-".into())
}

fn ratio(x: Option<f64>) -> String {
    x.map(|r| format!("{r:.2}x")).unwrap_or_else(|| "-".into())
}

fn table_header(config: &Config) -> String {
    let mut h = format!("{:<18} {:>10}", "kernel", "orig ms");
    for t in &config.threads {
        let _ = write!(h, " {:>10}", format!("polyc{t} ms"));
    }
    for t in &config.threads {
        let _ = write!(h, " {:>9}", format!("orig/p{t}"));
    }
    for t in config.threads.iter().skip(1) {
        let _ = write!(h, " {:>7}", format!("p{}/p{t}", config.threads[0]));
    }
    h.push_str("  status");
    h
}

fn table_row(config: &Config, r: &KernelResult) -> String {
    let mut s = format!("{:<18} {:>10}", r.name, ms(r.orig()));
    for t in 0..config.threads.len() {
        let _ = write!(s, " {:>10}", ms(r.polyc(t)));
    }
    for t in 0..config.threads.len() {
        let _ = write!(s, " {:>9}", ratio(r.speedup(t)));
    }
    for t in 1..config.threads.len() {
        let _ = write!(s, " {:>7}", ratio(r.scaling(t)));
    }
    let _ = write!(s, "  {}", r.status.label());
    if r.status.matches() && !r.in_geomean(config.min_ms) && r.orig().is_some() {
        let _ = write!(s, " (< {} ms)", config.min_ms);
    }
    if r.polyc_warnings {
        s.push_str(" [polyc warnings]");
    }
    s
}

/// Report text is printed as it is produced and kept for the .txt copy.
struct Report {
    text: String,
}

impl Report {
    fn line(&mut self, s: &str) {
        println!("{s}");
        let _ = std::io::stdout().flush();
        self.text.push_str(s);
        self.text.push('\n');
    }
}

fn run_benchmark(config: &Config) -> Result<bool, String> {
    let started = Instant::now();
    let polyc = polyc_binary();
    if !polyc.is_file() {
        return Err(format!("polyc binary not found at {}", polyc.display()));
    }
    let work = target_dir().join("bench").join("work");
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let machine = machine_info();
    let mut report = Report { text: String::new() };
    let mut polyc_cflags = config.cflags.clone();
    polyc_cflags.push("-fopenmp".into());

    report.line("polyc runtime benchmark");
    report.line(&format!(
        "machine: {} ({} cores), {}, {}",
        machine["cpu"].as_str().unwrap_or(""),
        machine["nproc"],
        machine["os"].as_str().unwrap_or(""),
        machine["gcc"].as_str().unwrap_or("")
    ));
    report.line(&format!("polyc: {} {}", polyc.display(), config.polyc_flags.join(" ")));
    report.line(&format!(
        "gcc: original `{}`, polyc output `{}` (both with -DPOLYC_BENCH_TIME and the polyc-bench sizes)",
        config.cflags.join(" "),
        polyc_cflags.join(" ")
    ));
    report.line(&format!(
        "runs: {} per binary; OMP_NUM_THREADS for polyc output: {}; times are medians of the kernel alone",
        config.runs,
        config.threads.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
    ));
    let load_start = load_average();
    if let Some(load) = load_start {
        report.line(&format!("load average (1 min) at start: {load:.2}"));
    }
    if let Some(&t) = config.threads.iter().find(|t| **t > machine["nproc"].as_u64().unwrap_or(0) as usize) {
        report.line(&format!("warning: {t} threads but only {} cores", machine["nproc"]));
    }
    report.line("");

    // polyc itself, on every selected file, one after the other.
    report.line(&format!("polyc compile time ({} files)", config.kernels.len()));
    let mut compiles = Vec::new();
    for name in &config.kernels {
        let c = run_polyc(config, name, &work);
        let note = match (&c.error, c.warnings.is_empty()) {
            (Some(e), _) => format!("  FAILED: {e}"),
            (None, false) => "  (warnings)".into(),
            (None, true) => String::new(),
        };
        report.line(&format!("  {:<18} {:>9.1} ms{note}", c.name, c.seconds * 1000.0));
        compiles.push(c);
    }
    let compile_total: f64 = compiles.iter().map(|c| c.seconds).sum();
    report.line(&format!("  {:<18} {:>9.1} ms", "total", compile_total * 1000.0));
    report.line("");

    report.line(&table_header(config));
    let mut results = Vec::new();
    for c in &compiles {
        let r = bench_kernel(config, c, &work);
        report.line(&table_row(config, &r));
        results.push(r);
    }
    report.line("");

    // Summary.
    let in_mean: Vec<&KernelResult> = results.iter().filter(|r| r.in_geomean(config.min_ms)).collect();
    let ok: Vec<&KernelResult> = results.iter().filter(|r| r.status.matches()).collect();
    let failures: Vec<&KernelResult> = results.iter().filter(|r| !r.status.matches()).collect();
    let t0 = config.threads[0];
    let mean_of = |set: &[&KernelResult], f: &dyn Fn(&KernelResult) -> Option<f64>| -> Option<f64> {
        geomean(&set.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
    };
    report.line(&format!(
        "geometric means over the {} kernels whose original takes >= {} ms (and whose outputs match):",
        in_mean.len(),
        config.min_ms
    ));
    let mut geo_json = serde_json::Map::new();
    let mut geo_all_json = serde_json::Map::new();
    for (ti, t) in config.threads.iter().enumerate() {
        let g = mean_of(&in_mean, &|r| r.speedup(ti));
        let ga = mean_of(&ok, &|r| r.speedup(ti));
        report.line(&format!(
            "  speedup orig/polyc, {t} thread(s): {}   (all {} matching kernels: {})",
            ratio(g),
            ok.len(),
            ratio(ga)
        ));
        geo_json.insert(format!("speedup_{t}"), json!(g));
        geo_all_json.insert(format!("speedup_{t}"), json!(ga));
    }
    for (ti, t) in config.threads.iter().enumerate().skip(1) {
        let g = mean_of(&in_mean, &|r| r.scaling(ti));
        let ga = mean_of(&ok, &|r| r.scaling(ti));
        report.line(&format!(
            "  polyc {t0} thread(s) / polyc {t} threads:  {}   (all {} matching kernels: {})",
            ratio(g),
            ok.len(),
            ratio(ga)
        ));
        geo_json.insert(format!("scaling_{t}"), json!(g));
        geo_all_json.insert(format!("scaling_{t}"), json!(ga));
    }
    let parallel: Vec<&KernelResult> = in_mean.iter().copied().filter(|r| r.runs_in_parallel).collect();
    let serial: Vec<&str> = in_mean.iter().filter(|r| !r.runs_in_parallel).map(|r| r.name.as_str()).collect();
    for (ti, t) in config.threads.iter().enumerate().skip(1) {
        let g = mean_of(&parallel, &|r| r.scaling(ti));
        report.line(&format!(
            "  polyc {t0} thread(s) / polyc {t} threads over the {} of them with a parallel loop: {}",
            parallel.len(),
            ratio(g)
        ));
        geo_json.insert(format!("scaling_{t}_parallel_kernels"), json!(g));
    }
    if config.threads.len() > 1 {
        report.line(&format!("  kernels polyc runs without a parallel loop: {}", serial.join(", ")));
    }
    let mut slow_json = serde_json::Map::new();
    for (ti, t) in config.threads.iter().enumerate() {
        let slow: Vec<String> = ok
            .iter()
            .filter(|r| r.speedup(ti).is_some_and(|s| s < 0.95))
            .map(|r| {
                let small = if r.in_geomean(config.min_ms) { "" } else { ", < min-ms" };
                format!("{} ({:.3}x{small})", r.name, r.speedup(ti).unwrap_or(0.0))
            })
            .collect();
        report.line(&format!(
            "below 0.95x with {t} thread(s): {}",
            if slow.is_empty() { "none".to_string() } else { slow.join(", ") }
        ));
        slow_json.insert(
            format!("speedup_{t}"),
            json!(ok
                .iter()
                .filter(|r| r.speedup(ti).is_some_and(|s| s < 0.95))
                .map(|r| r.name.clone())
                .collect::<Vec<_>>()),
        );
    }
    for r in results.iter().filter(|r| r.status == Status::FmaOnly) {
        report.line(&format!("  {}: outputs differ only by FMA contraction{}", r.name, r.detail));
    }
    if failures.is_empty() {
        report.line(&format!("failures: none ({} kernels)", results.len()));
    } else {
        report.line(&format!("FAILURES: {} of {} kernels", failures.len(), results.len()));
        for r in &failures {
            report.line(&format!("  {}: {}: {}", r.name, r.status.label(), r.detail));
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let load_end = load_average();
    if let Some(load) = load_end {
        report.line(&format!("load average (1 min) at the end: {load:.2}"));
    }
    report.line(&format!(
        "polyc compile time, total: {:.1} ms; benchmark wall time: {:.0} s",
        compile_total * 1000.0,
        wall
    ));

    // JSON and the text copy.
    let kernels_json: Vec<Value> = results
        .iter()
        .map(|r| {
            let compile = compiles.iter().find(|c| c.name == r.name);
            let polyc_json: Vec<Value> = config
                .threads
                .iter()
                .enumerate()
                .map(|(ti, t)| {
                    json!({
                        "threads": t,
                        "median_s": r.polyc(ti),
                        "runs_s": r.polyc_runs[ti],
                        "process_runs_s": r.polyc_process[ti],
                    })
                })
                .collect();
            let speedup: serde_json::Map<String, Value> =
                config.threads.iter().enumerate().map(|(ti, t)| (t.to_string(), json!(r.speedup(ti)))).collect();
            let scaling: serde_json::Map<String, Value> = config
                .threads
                .iter()
                .enumerate()
                .skip(1)
                .map(|(ti, t)| (t.to_string(), json!(r.scaling(ti))))
                .collect();
            json!({
                "name": r.name,
                "bench_flags": r.defines,
                "status": r.status.label().to_lowercase(),
                "detail": r.detail,
                "orig": { "median_s": r.orig(), "runs_s": r.orig_runs, "process_runs_s": r.orig_process },
                "polyc": polyc_json,
                "speedup": speedup,
                "scaling": scaling,
                "in_geomean": r.in_geomean(config.min_ms),
                "output": { "bytes": r.output_bytes, "fnv1a64": r.output_hash },
                "polyc_compile_s": compile.map(|c| c.seconds),
                "polyc_warnings": compile.map(|c| c.warnings.clone()),
                "runs_in_parallel": r.runs_in_parallel,
            })
        })
        .collect();
    let names = |set: &[&KernelResult]| set.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    let failures_json: Vec<Value> = failures
        .iter()
        .map(|r| json!({ "name": r.name, "status": r.status.label().to_lowercase(), "detail": r.detail }))
        .collect();
    let compiles_json: Vec<Value> = compiles
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "seconds": c.seconds,
                "exit": c.code,
                "error": c.error,
                "warnings": !c.warnings.is_empty(),
            })
        })
        .collect();
    let doc = json!({
        "benchmark": "polyc runtime",
        "timestamp_unix": SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        "machine": machine,
        "git": git_info(),
        "config": {
            "runs": config.runs,
            "threads": config.threads,
            "cflags_original": config.cflags,
            "cflags_polyc": polyc_cflags,
            "defines_both": ["-DPOLYC_BENCH_TIME"],
            "polyc": polyc.display().to_string(),
            "polyc_flags": config.polyc_flags,
            "min_ms_for_geomean": config.min_ms,
            "kernels": config.kernels,
        },
        "notes": {
            "times": "seconds; runs_s: the kernel alone, as the program measured it (polyc-bench-time); \
                      process_runs_s: the whole process",
            "speedup": "original median / polyc median, keyed by OMP_NUM_THREADS",
            "scaling": format!("polyc median with {t0} thread(s) / polyc median, keyed by OMP_NUM_THREADS"),
            "geomean": "over kernels with status ok and original median >= min_ms_for_geomean",
        },
        "kernels": kernels_json,
        "geomean": { "kernels": names(&in_mean), "values": geo_json },
        "geomean_all_ok": { "kernels": names(&ok), "values": geo_all_json },
        "below_0_95": slow_json,
        "failures": failures_json,
        "polyc_compile": {
            "flags": config.polyc_flags,
            "files": compiles_json,
            "total_s": compile_total,
        },
        "wall_s": wall,
        "load_average_1min": { "start": load_start, "end": load_end },
    });
    if let Some(dir) = config.json.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(&doc).map_err(|e| format!("JSON: {e}"))? + "\n";
    std::fs::write(&config.json, text).map_err(|e| format!("cannot write {}: {e}", config.json.display()))?;
    let txt = config.json.with_extension("txt");
    std::fs::write(&txt, &report.text).map_err(|e| format!("cannot write {}: {e}", txt.display()))?;
    println!("wrote {} and {}", config.json.display(), txt.display());
    Ok(failures.is_empty())
}
