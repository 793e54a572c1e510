//! Shared by the integration tests: the corpus, gcc, running programs.

pub mod machine_code;
pub mod many_scops;
pub mod snapshots;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `POLYBENCH_DIR`, or `../shared/polybench-4.2.1` beside the crate; `None`
/// (the test is skipped) when it is not there.
pub fn polybench_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("POLYBENCH_DIR") {
        Some(d) => PathBuf::from(d),
        None => root().join("../shared/polybench-4.2.1"),
    };
    if dir.join("utilities/benchmark_list").is_file() {
        return Some(dir);
    }
    eprintln!(
        "PolyBench tests skipped: no PolyBench/C 4.2.1 at {} (no utilities/benchmark_list there); \
         set POLYBENCH_DIR to the unpacked distribution to run this test",
        dir.display()
    );
    None
}

/// Every corpus program, sorted; only those whose path contains
/// `POLYC_CORPUS_ONLY` where that is set (to rerun a few while working).
pub fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_c_files(&root().join("corpus"), &mut files);
    if let Some(only) = std::env::var_os("POLYC_CORPUS_ONLY") {
        files.retain(|f| f.to_string_lossy().contains(&*only.to_string_lossy()));
    }
    files.sort();
    files
}

/// The corpus programs gcc compiles as they are: all but the `multifor`
/// examples.
pub fn c_corpus() -> Vec<PathBuf> {
    corpus().into_iter().filter(|p| !p.starts_with(root().join("corpus/multifor"))).collect()
}

/// The `multifor` examples: each checks itself against a reference
/// version and exits with status 1 when they differ.
pub fn multifor_corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_c_files(&root().join("corpus/multifor"), &mut files);
    files.sort();
    files
}

fn collect_c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_c_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "c") {
            out.push(p);
        }
    }
}

/// A fresh scratch directory under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target").join("test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A C compiler the tests build programs with, and its optimisation.
#[derive(Clone, Copy, Debug)]
pub struct Compiler {
    pub name: &'static str,
    pub optimise: &'static str,
}

pub const GCC: Compiler = Compiler { name: "gcc", optimise: "-O2" };
pub const CLANG: Compiler = Compiler { name: "clang-19", optimise: "-O3" };

impl Compiler {
    /// Compile C source text; the error is the compiler's message. The
    /// corpus's test sizes are far below polyc's work thresholds, so
    /// `POLYC_MIN_WORK` is 0: the new loops run, not the source kept
    /// beside them (`extra` may say otherwise); and so is
    /// `POLYC_MIN_REGION_WORK`: a region gated on its own work starts
    /// threads wherever OpenMP has more than one.
    pub fn compile(&self, source: &Path, binary: &Path, extra: &[&str]) -> Result<(), String> {
        let out = Command::new(self.name)
            .args([self.optimise, "-w", "-std=gnu11", "-DPOLYC_MIN_WORK=0", "-DPOLYC_MIN_REGION_WORK=0"])
            .args(extra)
            .arg(source)
            .arg("-o")
            .arg(binary)
            .arg("-lm")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.name))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }
}

/// [`GCC`]'s [`Compiler::compile`].
pub fn gcc(source: &Path, binary: &Path, extra: &[&str]) -> Result<(), String> {
    GCC.compile(source, binary, extra)
}

/// [`CLANG`]'s [`Compiler::compile`]: OpenMP clauses the two implement
/// differently (clang ignored `lastprivate(conditional: ..)` in C until 2025).
pub fn clang(source: &Path, binary: &Path, extra: &[&str]) -> Result<(), String> {
    CLANG.compile(source, binary, extra)
}

/// gcc, and clang-19 where it compiles an OpenMP program (else skipped,
/// with the reason printed; `scripts/setup` installs it with libomp).
/// Probed once per test binary: its tests run on several threads.
pub fn compilers() -> Vec<Compiler> {
    static FOUND: std::sync::OnceLock<Vec<Compiler>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let dir = scratch(&format!("clang-probe-{}", std::process::id()));
            let probe = dir.join("probe.c");
            std::fs::write(&probe, "#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
                .expect("scratch file");
            match CLANG.compile(&probe, &dir.join("probe"), &["-fopenmp"]) {
                Ok(()) => vec![GCC, CLANG],
                Err(e) => {
                    eprintln!("clang-19 skipped: it does not build an OpenMP program here: {}", e.trim());
                    vec![GCC]
                }
            }
        })
        .clone()
}

/// Run a program to completion (at most `limit`), returning its stdout.
pub fn run(binary: &Path, limit: Duration) -> Result<Vec<u8>, String> {
    run_with(Command::new(binary), limit).and_then(|(code, out, _)| match code {
        Some(0) => Ok(out),
        other => Err(format!("{} exited with {other:?}", binary.display())),
    })
}

/// Exit code (None if killed by a signal), stdout, stderr.
pub type Finished = (Option<i32>, Vec<u8>, Vec<u8>);

/// Run a command with a time limit.
pub fn run_with(mut cmd: Command, limit: Duration) -> Result<Finished, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let out_thread = std::thread::spawn(move || read_all(stdout));
    let err_thread = std::thread::spawn(move || read_all(stderr));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("timed out after {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok((status.code(), out_thread.join().unwrap_or_default(), err_thread.join().unwrap_or_default()))
}

fn read_all(mut r: impl std::io::Read) -> Vec<u8> {
    let mut v = Vec::new();
    let _ = r.read_to_end(&mut v);
    v
}

/// Apply `f` to every item on two worker threads (the machine has two
/// cores), collecting failures.
pub fn on_workers<T: Sync>(items: &[T], f: impl Fn(&T) -> Result<(), String> + Sync) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(item) = items.get(k) else { break };
                if let Err(e) = f(item) {
                    failures.lock().expect("no poisoned lock").push(e);
                }
            });
        }
    });
    failures.into_inner().expect("no poisoned lock")
}

pub fn polyc_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_polyc"))
}

pub fn polyc_cc() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_polyc-cc"))
}

/// `program` in `dir` with `args` and `env`: its standard error, or why it failed.
pub fn tool(program: &str, dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Result<String, String> {
    let mut cmd = Command::new(program);
    cmd.current_dir(dir).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    match run_with(cmd, Duration::from_secs(600))? {
        (Some(0), _, err) => Ok(String::from_utf8_lossy(&err).into_owned()),
        (code, out, err) => Err(format!(
            "{program} {args:?} in {} exited {code:?}:\n{}{}",
            dir.display(),
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&err)
        )),
    }
}

/// `make -s` in `dir`: its standard error, or why it failed.
pub fn make(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Result<String, String> {
    tool("make", dir, &[&["-s"], args].concat(), env)
}

/// polyc on corpus/jacobi-1d.c with `args`: its status, standard output and error.
pub fn polyc_on_jacobi(args: &[&str]) -> (Option<i32>, String, String) {
    let jacobi = root().join("corpus/jacobi-1d.c");
    let out = Command::new(polyc_bin()).arg(jacobi).args(args).output().expect("polyc runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn stem(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The text strictly between the first `#pragma scop` and the last `#pragma endscop`.
pub fn scop_regions(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim();
        if t == "#pragma scop" {
            inside = true;
        } else if t == "#pragma endscop" {
            inside = false;
        } else if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// polyc's output of the program `source` under each of `modes` (a name
/// and options), compiled with `-fopenmp`, prints what `source` compiled
/// alone prints, for each set of command-line arguments of `runs`, on
/// one and two threads. Returns each mode's output text.
pub fn prints_what_the_source_prints(
    name: &str,
    source: &str,
    modes: &[(&str, polyc::options::Options)],
    runs: &[&[&str]],
) -> Vec<String> {
    let dir = scratch(name);
    let src = dir.join("source.c");
    std::fs::write(&src, source).expect("scratch file");
    gcc(&src, &dir.join("source"), &[]).unwrap_or_else(|e| panic!("{name}: the source does not compile: {e}"));
    let run = |binary: &Path, args: &[&str], threads: Option<&str>| {
        let mut cmd = Command::new(binary);
        cmd.args(args);
        if let Some(threads) = threads {
            cmd.env("OMP_NUM_THREADS", threads);
        }
        match run_with(cmd, Duration::from_secs(60)) {
            Ok((Some(0), out, _)) => String::from_utf8_lossy(&out).into_owned(),
            other => panic!("{}: {other:?}", binary.display()),
        }
    };
    let mut outputs = Vec::new();
    for (mode, options) in modes {
        let outcome = polyc::driver::compile(source.to_string(), options)
            .unwrap_or_else(|d| panic!("{name} ({mode}): {}", d.message));
        let (out, binary) = (dir.join(format!("{mode}.c")), dir.join(mode));
        std::fs::write(&out, &outcome.output).expect("scratch file");
        gcc(&out, &binary, &["-fopenmp"]).unwrap_or_else(|e| panic!("{name} ({mode}): {e}\n{}", outcome.output));
        for args in runs {
            let expected = run(&dir.join("source"), args, None);
            for threads in ["1", "2"] {
                let got = run(&binary, args, Some(threads));
                assert_eq!(got, expected, "{name} ({mode}), {args:?}, {threads} threads:\n{}", outcome.output);
            }
        }
        outputs.push(outcome.output);
    }
    outputs
}

/// The line that opens a parallel region of the loops for little work,
/// which starts threads only where its own work pays them (`emit::gate`).
pub const REGION_GATE: &str = "if (";

/// How the line that opens such a region ends.
pub const REGION_GATE_END: &str = " >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {";

/// The `#pragma omp parallel` lines of `code` (trimmed) and whether each
/// is behind a region's gate (the line before it opens one).
pub fn parallel_regions(code: &str) -> Vec<(&str, bool)> {
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    (0..lines.len())
        .filter(|&k| lines[k].starts_with("#pragma omp parallel"))
        .map(|k| (lines[k], k > 0 && lines[k - 1].starts_with(REGION_GATE) && lines[k - 1].ends_with(REGION_GATE_END)))
        .collect()
}

/// The `#pragma omp parallel` lines of `code` that start threads whatever
/// the work: not behind a region's gate.
pub fn ungated_regions(code: &str) -> Vec<&str> {
    parallel_regions(code).into_iter().filter(|(_, gated)| !gated).map(|(line, _)| line).collect()
}
