//! Differential testing: random static-control programs (tests/difftest)
//! compiled by gcc as written and after polyc, in the `default`,
//! `diamond` and `storage` modes, on 1 and 2 threads and three parameter
//! sets, must print the same bytes. The CI test runs a fixed seed set;
//! `scripts/fuzz` drives `fuzz` (ignored) through environment variables.

use crate::common;
use crate::difftest;

use difftest::gen::{generate, Profile, Program};
use difftest::run::{self, Kind, Limits, Mode, Verdict};
use difftest::shrink::shrink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The CI seed set and its programs' size (about a second of polyc per
/// program and mode on this machine).
const CI_SEEDS: std::ops::Range<u64> = 0..102;
const CI_PROFILE: Profile = Profile::TINY;
/// Programs on tables of row pointers in CI.
const CI_ROW_SEEDS: u64 = 16;

/// One failing (seed, mode).
struct Failure {
    seed: u64,
    mode: Mode,
    verdict: Verdict,
    program: PathBuf,
}

/// The verdicts of one program in every mode, or why its reference
/// failed (the generator's bug).
fn run_seed(seed: u64, profile: Profile, modes: &[Mode], dir: &Path, limits: Limits) -> Result<Vec<Failure>, String> {
    let program = generate(seed, profile);
    run_program(seed, &program.to_c(), &program.defaults, &dir.join(format!("seed{seed}.c")), modes, limits)
}

/// The verdicts of the program `text` (written to `src`) of `seed`.
fn run_program(
    seed: u64,
    text: &str,
    defaults: &[i64],
    src: &Path,
    modes: &[Mode],
    limits: Limits,
) -> Result<Vec<Failure>, String> {
    let src = src.to_path_buf();
    let reference = run::prepare(text, &src, run::param_sets(seed, defaults), limits)
        .map_err(|e| format!("seed {seed}: {e} ({})", src.display()))?;
    let mut failures = Vec::new();
    // Outputs judged already under the same gcc flags, with their
    // verdicts: most programs come out the same in every mode (no diamond
    // fits, nothing to contract).
    let mut judged: Vec<(String, &[&str], Verdict)> = Vec::new();
    for &mode in modes {
        let verdict = match run::regenerate(&src, mode, limits) {
            Ok(out_src) => {
                let text = std::fs::read_to_string(&out_src).ok();
                match judged.iter().find(|(t, flags, _)| text.as_ref() == Some(t) && *flags == mode.cflags) {
                    Some((_, _, verdict)) => verdict.clone(),
                    None => {
                        let verdict = run::judge(&out_src, mode, &reference, limits);
                        judged.extend(text.map(|t| (t, mode.cflags, verdict.clone())));
                        verdict
                    }
                }
            }
            Err(verdict) => verdict,
        };
        if verdict != Verdict::Same {
            failures.push(Failure { seed, mode, verdict, program: src.clone() });
        }
    }
    Ok(failures)
}

/// Apply `f` to every item on `jobs` threads.
fn on_jobs<T: Sync, R: Send>(jobs: usize, items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(k) else { break };
                let r = f(k, item);
                results.lock().expect("no poisoned lock").push((k, r));
            });
        }
    });
    let mut results = results.into_inner().expect("no poisoned lock");
    results.sort_by_key(|(k, _)| *k);
    results.into_iter().map(|(_, r)| r).collect()
}

/// `N programs, D differences, T timeouts, E errors`.
fn summary(programs: usize, failures: &[Failure], generator_errors: usize) -> String {
    let count = |k: Kind| failures.iter().filter(|f| f.verdict.kind() == k).count();
    let errors = count(Kind::Error) + count(Kind::NoCompile) + generator_errors;
    format!(
        "{programs} programs, {} differences, {} timeouts, {errors} errors",
        count(Kind::Differs),
        count(Kind::Timeout)
    )
}

/// A line per failure (`what SEED [MODE]: ...`) and per generator error
/// of `results`, after their summary on stderr.
fn failure_lines(results: Vec<Result<Vec<Failure>, String>>, what: &str, start: Instant) -> Vec<String> {
    let programs = results.len();
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    for r in results {
        match r {
            Ok(f) => failures.extend(f),
            Err(e) => lines.push(format!("generator: {e}")),
        }
    }
    for f in &failures {
        lines.push(format!("{what} {} [{}]: {} ({})", f.seed, f.mode.name, f.verdict, f.program.display()));
    }
    eprintln!("{} in {:.0?}", summary(programs, &failures, lines.len() - failures.len()), start.elapsed());
    lines
}

#[test]
fn random_programs_print_the_same_bytes_after_polyc() {
    let dir = common::scratch("differential");
    let seeds: Vec<u64> = CI_SEEDS.collect();
    let start = Instant::now();
    let results = on_jobs(2, &seeds, |_, &seed| run_seed(seed, CI_PROFILE, &run::MODES, &dir, Limits::default()));
    let lines = failure_lines(results, "seed", start);
    assert!(
        lines.is_empty(),
        "{} failures (reproduce one with `scripts/fuzz --seeds 1 --start SEED --profile tiny`):\n{}",
        lines.len(),
        lines.join("\n")
    );
}

/// Programs on tables of row pointers (tests/difftest/rows.rs): the CI
/// runs `CI_ROW_SEEDS` of them; `DIFFTEST_ROW_SEEDS=N` runs N.
#[test]
fn random_programs_on_tables_of_rows_print_the_same_bytes_after_polyc() {
    let dir = common::scratch("differential-rows");
    let seeds: Vec<u64> = (0..env_or("DIFFTEST_ROW_SEEDS", CI_ROW_SEEDS)).collect();
    let start = Instant::now();
    let results = on_jobs(2, &seeds, |_, &seed| {
        let program = difftest::rows::generate(seed);
        let src = dir.join(format!("rows{seed}.c"));
        run_program(seed, &program.text, &program.defaults, &src, &run::MODES, Limits::default())
    });
    let lines = failure_lines(results, "rows seed", start);
    assert!(lines.is_empty(), "{} failures:\n{}", lines.len(), lines.join("\n"));
}

/// The CI seed set exercises scalars assigned from a call (gcc 12 left
/// them out of `lastprivate(conditional: ..)`), some assigned again under
/// a guard on the next line.
#[test]
fn ci_programs_assign_scalars_from_calls_and_again_under_guards() {
    let texts: Vec<String> = CI_SEEDS.map(|seed| generate(seed, CI_PROFILE).to_c()).collect();
    let call = |line: &str| ["s", "t", "u"].iter().any(|v| line.trim().starts_with(&format!("{v} = g1(")));
    let called = texts.iter().filter(|t| t.lines().any(call)).count();
    let guarded_again = texts
        .iter()
        .filter(|t| {
            let lines: Vec<&str> = t.lines().collect();
            lines.windows(3).any(|w| call(w[0]) && w[1].trim().starts_with("if (") && w[2].contains(" = "))
        })
        .count();
    eprintln!("{called} programs call g1, {guarded_again} reassign under a guard");
    assert!(called >= 10 && guarded_again >= 3, "{called} programs call g1, {guarded_again} reassign under a guard");
}

/// Every reproducer the fuzzer found (`tests/difftest/found`) prints what
/// its source prints in the mode and for the parameters its opening
/// comment names.
/// The CI set runs deep and long right-hand sides through polyc (a
/// hundred parentheses or more, sums of a hundred terms or more).
#[test]
fn ci_programs_hold_deep_and_long_expressions() {
    let seeds_where = |holds: &dyn Fn(&str) -> bool| -> Vec<u64> {
        CI_SEEDS.filter(|&seed| holds(&generate(seed, CI_PROFILE).to_c())).collect()
    };
    let deep = seeds_where(&|c| c.contains(&"(".repeat(100)));
    let long = seeds_where(&|c| c.lines().any(|l| l.matches(" + ").count() >= 100));
    println!("seeds with deep expressions {deep:?}, with long ones {long:?}");
    assert!(deep.len() >= 3 && long.len() >= 3);
}

#[test]
fn every_reproducer_found_prints_the_same_in_its_mode() {
    let found = common::root().join("tests/difftest/found");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&found)
        .expect("tests/difftest/found")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no reproducers under {}", found.display());
    let dir = common::scratch("differential-found");
    let failures: Vec<String> = on_jobs(2, &files, |_, path| {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let (mode, params) =
            reproducer_header(&text).ok_or_else(|| format!("{}: no mode or parameters", path.display()))?;
        let src = dir.join(path.file_name().expect("a file name"));
        let reference = run::prepare(&text, &src, params, Limits::default())?;
        match run::check(&src, mode, &reference, Limits::default()) {
            Verdict::Same => Ok(()),
            verdict => Err(format!("{} [{}]: {verdict}", path.display(), mode.name)),
        }
    })
    .into_iter()
    .filter_map(Result::err)
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The mode and parameter sets a reproducer's opening comment names
/// (`mode default (...`, `parameter sets (argv): [[20, 16], [4, 3]]`).
fn reproducer_header(text: &str) -> Option<(Mode, Vec<Vec<i64>>)> {
    let mode = text.split("mode ").nth(1)?.split_whitespace().next().and_then(run::mode)?;
    let sets = text.split("parameter sets (argv): [[").nth(1)?.split("]]").next()?;
    let params = sets
        .split("], [")
        .map(|set| set.split(", ").map(|v| v.trim().parse().ok()).collect::<Option<Vec<i64>>>())
        .collect::<Option<Vec<_>>>()?;
    Some((mode, params))
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} does not parse")),
        Err(_) => default,
    }
}

/// A reproducer: the program with a comment saying how it fails.
fn reproducer_text(p: &Program, mode: Mode, verdict: &Verdict, original: &Verdict) -> String {
    let args = if mode.args.is_empty() { "(none)".to_string() } else { mode.args.join(" ") };
    let cflags = mode.cflags.join(" ");
    let params = run::param_sets(p.seed, &p.defaults);
    format!(
        "/* polyc differential test, shrunk reproducer.\n   seed {}, mode {} (polyc flags: {args})\n   \
         reference: gcc -O1; polyc's output: gcc -O1 -fopenmp {cflags}, OMP_NUM_THREADS=1 and 2\n   \
         parameter sets (argv): {params:?}\n   shrunk: {verdict}\n   original: {original} */\n{}",
        p.seed,
        mode.name,
        p.to_c()
    )
}

/// Shrink one failure; the path of the reproducer.
fn shrink_failure(f: &Failure, profile: Profile, out: &Path, budget: Duration, limits: Limits) -> PathBuf {
    let kind = f.verdict.kind();
    let dir = common::root().join("target/test-scratch/shrink").join(format!("seed{}-{}", f.seed, f.mode.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("shrink directory");
    let program = generate(f.seed, profile);
    let params = run::param_sets(f.seed, &program.defaults);
    let mut last = f.verdict.clone();
    let mut attempt = 0;
    let mut fails = |cand: &Program| {
        attempt += 1;
        let src = dir.join(format!("try{attempt}.c"));
        let Ok(reference) = run::prepare(&cand.to_c(), &src, params.clone(), limits) else { return false };
        let v = run::check(&src, f.mode, &reference, limits);
        // A difference without `lastprivate` must not slip into the known
        // lastprivate miscompiles while shrinking.
        let same_kind = v.kind() == kind && v.lastprivate() == f.verdict.lastprivate();
        if same_kind {
            last = v;
        }
        same_kind
    };
    let (small, tried) = shrink(&program, Instant::now() + budget, &mut fails);
    let path = out.join(format!("seed{}-{}-{}.c", f.seed, f.mode.name, f.verdict.kind_name()));
    std::fs::create_dir_all(out).expect("reproducer directory");
    std::fs::write(&path, reproducer_text(&small, f.mode, &last, &f.verdict)).expect("reproducer written");
    eprintln!("shrunk seed {} [{}] in {tried} tries: {}", f.seed, f.mode.name, path.display());
    path
}

/// `scripts/fuzz`: DIFFTEST_SEEDS programs from DIFFTEST_START, in
/// DIFFTEST_MODES (comma-separated), on DIFFTEST_JOBS workers, of
/// DIFFTEST_PROFILE size (tiny, medium, small, deep, large); each failure
/// shrunk for at most DIFFTEST_SHRINK_SECS seconds (0: no shrinking) into
/// DIFFTEST_OUT.
#[test]
#[ignore]
fn fuzz() {
    let count: u64 = env_or("DIFFTEST_SEEDS", 100);
    let first: u64 = env_or("DIFFTEST_START", 0);
    let jobs: usize = env_or("DIFFTEST_JOBS", 2);
    let profile_name: String = env_or("DIFFTEST_PROFILE", "tiny".to_string());
    let profile = Profile::named(&profile_name).unwrap_or_else(|| panic!("unknown profile {profile_name}"));
    let modes: Vec<Mode> = env_or("DIFFTEST_MODES", "default,diamond,storage".to_string())
        .split(',')
        .map(|m| run::mode(m.trim()).unwrap_or_else(|| panic!("unknown mode {m}")))
        .collect();
    let shrink_secs: u64 = env_or("DIFFTEST_SHRINK_SECS", 600);
    let out = PathBuf::from(env_or("DIFFTEST_OUT", common::root().join("target/difftest").display().to_string()));
    let polyc_secs: u64 = env_or("DIFFTEST_POLYC_SECS", 60);
    let limits = Limits { polyc: Duration::from_secs(polyc_secs), ..Limits::default() };
    let dir = common::root().join("target/test-scratch/fuzz");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let seeds: Vec<u64> = (first..first + count).collect();
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let results = on_jobs(jobs, &seeds, |_, &seed| {
        let r = run_seed(seed, profile, &modes, &dir, limits);
        let k = done.fetch_add(1, Ordering::SeqCst) + 1;
        let status = match &r {
            Ok(f) if f.is_empty() => "ok".to_string(),
            Ok(f) => f.iter().map(|f| format!("{}: {}", f.mode.name, f.verdict)).collect::<Vec<_>>().join("; "),
            Err(e) => format!("generator: {e}"),
        };
        eprintln!("[{k}/{}] {:.0?} seed {seed}: {status}", seeds.len(), start.elapsed());
        r
    });
    let mut failures = Vec::new();
    let mut generator_errors = 0;
    for r in results {
        match r {
            Ok(f) => failures.extend(f),
            Err(_) => generator_errors += 1,
        }
    }
    let line = summary(seeds.len(), &failures, generator_errors);
    eprintln!("{line} (before shrinking, {:.0?})", start.elapsed());
    if shrink_secs > 0 {
        let budget = Duration::from_secs(shrink_secs);
        let paths = on_jobs(jobs, &failures, |_, f| shrink_failure(f, profile, &out, budget, limits));
        for (f, p) in failures.iter().zip(&paths) {
            println!("reproducer: seed {} [{}] {}: {}", f.seed, f.mode.name, f.verdict.kind_name(), p.display());
        }
    }
    // scripts/fuzz prints the summary last and sets the exit status from it.
    if let Ok(path) = std::env::var("DIFFTEST_SUMMARY") {
        std::fs::write(path, format!("{line}\n")).expect("summary written");
        return;
    }
    println!("{line}");
    assert!(failures.is_empty() && generator_errors == 0, "{line}");
}
