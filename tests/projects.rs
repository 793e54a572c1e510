//! `polyc-cc` on two public projects, each built by its own build system:
//! TSVC_2 (github:UoB-HPC/TSVC_2, 151 loops in one file) and the NAS
//! Parallel Benchmarks 3.0 in OpenMP C (github:benchmark-subsetting/
//! NPB3.0-omp-C, CLASS=S). Each is built twice, with `CC=cc` and with
//! `CC=polyc-cc`, with the same flags; polyc-cc's programs must print what
//! cc's print (timings masked), on 1 and 2 threads, polyc must have
//! transformed files, and no file may have fallen back.
//!
//! The projects are not in the repository: the test unpacks the git
//! snapshots in `POLYC_MIRROR` (default `../.mirror` beside the crate,
//! where the `fetch` tool puts them) into the scratch directory, and is
//! skipped, saying so, when they are absent. See docs/testing.md.

use crate::common;
use common::snapshots::*;
use common::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The snapshot, or `None` with the reason the test is skipped.
fn present(snapshot: Result<PathBuf, String>) -> Option<PathBuf> {
    snapshot.map_err(|why| eprintln!("skipped: {why}")).ok()
}

fn words(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// polyc-cc's warnings among make's messages: none is allowed (a file
/// that falls back is compiled as written, which hides a polyc failure).
fn assert_no_fallback(project: &str, messages: &str) {
    let warnings: Vec<&str> = messages.lines().filter(|l| l.contains("polyc-cc")).collect();
    assert!(warnings.is_empty(), "{project}: polyc-cc warned:\n{}", warnings.join("\n"));
}

/// `polyc report DIR`'s counts: files compiled, transformed, fallen back.
fn report(dir: &Path) -> (usize, usize, usize, String) {
    let out = Command::new(polyc_bin()).arg("report").arg(dir).output().expect("polyc report runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("C files compiled: ")).unwrap_or_default().to_string();
    let numbers: Vec<usize> =
        line.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).filter_map(|w| w.parse().ok()).collect();
    match numbers[..] {
        [compiled, transformed, _, fell_back] => (compiled, transformed, fell_back, text),
        _ => panic!("unexpected report:\n{text}"),
    }
}

/// The program's standard output with `threads` OpenMP threads (passive
/// waiting: the machine has two cores and other tests run).
fn output(binary: &Path, threads: &str) -> String {
    let mut cmd = Command::new(binary);
    cmd.current_dir(binary.parent().unwrap_or(Path::new(".")))
        .env("OMP_NUM_THREADS", threads)
        .env("OMP_WAIT_POLICY", "passive");
    match run_with(cmd, Duration::from_secs(300)) {
        Ok((Some(0), out, _)) => String::from_utf8_lossy(&out).into_owned(),
        other => panic!("{} on {threads} threads: {other:?}", binary.display()),
    }
}

/// TSVC's lines without the time column: `name\tchecksum`.
fn tsvc_checksums(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols.len() == 3).then(|| format!("{}\t{}", cols[0].trim(), cols[2].trim()))
        })
        .collect()
}

#[test]
fn tsvc_built_by_its_makefile_with_polyc_cc_prints_cc_s_checksums() {
    let Some(git_dir) = present(snapshot(TSVC)) else { return };
    let trees = ["projects-tsvc-plain", "projects-tsvc-polyc"].map(|name| {
        let dir = scratch(name);
        unpack(&git_dir, &dir).unwrap();
        // 1000 repetitions of each loop: about 3 s a run.
        tsvc_iterations(&dir, 1000).unwrap();
        dir
    });
    let reports = scratch("projects-tsvc-report");
    let polyc = polyc_cc().display().to_string();
    make(&trees[0], &words(&tsvc_make_args("cc")), &[]).unwrap();
    let env = [("POLYC_REPORT", reports.as_path())];
    let messages = make(&trees[1], &words(&tsvc_make_args(&polyc)), &env).unwrap();
    assert_no_fallback("TSVC_2", &messages);

    let (compiled, transformed, fell_back, summary) = report(&reports);
    eprintln!("TSVC_2: {compiled} C files compiled, {transformed} transformed, {fell_back} fell back");
    // tsvc.c twice (vec, novec) and common.c; dummy.c has no loop.
    assert!(compiled == 4 && transformed >= 3 && fell_back == 0, "{summary}");

    for program in ["tsvc_vec_default", "tsvc_novec_default"] {
        let expected = tsvc_checksums(&output(&trees[0].join("bin/GNU").join(program), "1"));
        assert_eq!(expected.len(), 152, "{program}: a heading and 151 loops expected");
        for threads in ["1", "2"] {
            let got = tsvc_checksums(&output(&trees[1].join("bin/GNU").join(program), threads));
            let differing: Vec<String> = expected
                .iter()
                .zip(&got)
                .filter(|(e, g)| e != g)
                .map(|(e, g)| format!("cc {e} polyc-cc {g}"))
                .collect();
            assert!(
                got.len() == expected.len() && differing.is_empty(),
                "{program}, {threads} threads: checksums differ:\n{}",
                differing.join("\n")
            );
        }
    }
}

/// The lines of the regions polyc rewrote, from polyc-cc's records (a
/// region regenerated without a transformation keeps its text).
fn rewritten_lines(reports: &Path) -> Vec<usize> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(reports).expect("the records are written").flatten() {
        let text = std::fs::read_to_string(entry.path()).expect("a record reads");
        let record: serde_json::Value = serde_json::from_str(&text).expect("a record is JSON");
        let scops = record["polyc"]["scops"].as_array().cloned().unwrap_or_default();
        let rewritten = scops
            .iter()
            .filter(|s| s["status"] == "Regenerated" && s["transforms"].as_array().is_some_and(|t| !t.is_empty()));
        lines.extend(rewritten.filter_map(|s| s["line"].as_u64()).map(|l| l as usize));
    }
    lines
}

/// A loop polyc leaves as written must run as fast as in cc's build: the
/// same flags must give the same machine code for it. gcc decides some
/// things per file (how much it inlines grows with the file), so polyc's
/// text could change functions it never touched; this says it does not.
/// What remains between the two builds is where the code sits, which on
/// its own moves some of TSVC's loops by up to 2x (benches/projects.rs).
#[test]
fn tsvc_functions_polyc_leaves_as_written_compile_to_cc_s_machine_code() {
    let Some(git_dir) = present(snapshot(TSVC)) else { return };
    let dir = scratch("projects-tsvc-code");
    unpack(&git_dir, &dir).unwrap();
    let reports = scratch("projects-tsvc-code-report");
    let object = dir.join("src/tsvc_vec.o");
    let compile = |cc: &str, env: &[(&str, &Path)]| {
        let _ = std::fs::remove_file(&object);
        make(&dir, &words(&[tsvc_make_args(cc), vec!["tsvc_vec.o".into()]].concat()), env).unwrap();
        machine_code::functions(&object).unwrap()
    };
    let cc = compile("cc", &[]);
    let polyc = compile(&polyc_cc().display().to_string(), &[("POLYC_REPORT", reports.as_path())]);

    let source = std::fs::read_to_string(dir.join("src/tsvc.c")).unwrap();
    let rewritten: BTreeSet<String> =
        machine_code::functions_around(&source, &rewritten_lines(&reports)).into_iter().collect();
    let symbols: BTreeSet<&String> = cc.keys().chain(polyc.keys()).collect();
    let changed: BTreeSet<&str> =
        symbols.into_iter().filter(|s| cc.get(*s) != polyc.get(*s)).map(|s| machine_code::base_symbol(s)).collect();
    let untouched_but_changed: Vec<&&str> = changed.iter().filter(|f| !rewritten.contains(**f)).collect();
    eprintln!(
        "TSVC_2: {} functions, {} with regions polyc rewrote, {} compile to other code: {changed:?}",
        cc.len(),
        rewritten.len(),
        changed.len()
    );
    assert!(rewritten.len() >= 50 && cc.len() >= 150, "{rewritten:?}");
    assert!(
        untouched_but_changed.is_empty(),
        "code changed in functions polyc left as written: {untouched_but_changed:?}"
    );
}

/// NPB's result lines without timings, dates and the thread count.
fn npb_masked(text: &str) -> String {
    const TIMING: [&str; 6] =
        ["Time in seconds", "Mop/s", "CPU Time", "Initialization time", "Compile date", "Threads"];
    text.lines().filter(|l| !TIMING.iter().any(|t| l.contains(t))).map(|l| format!("{l}\n")).collect()
}

#[test]
fn npb_built_by_its_makefiles_with_polyc_cc_verifies_and_prints_what_cc_s_build_prints() {
    let Some(git_dir) = present(snapshot(NPB)) else { return };
    let reports = scratch("projects-npb-report");
    let cc = polyc_cc().display().to_string();
    let mut trees = Vec::new();
    for (name, compiler) in [("projects-npb-plain", "cc"), ("projects-npb-polyc", cc.as_str())] {
        let dir = scratch(name);
        unpack(&git_dir, &dir).and_then(|()| npb_configured(&dir)).unwrap();
        for b in NPB_BENCHMARKS {
            let args = npb_make_args(b, "S", compiler);
            let env: &[(&str, &Path)] = if compiler == "cc" { &[] } else { &[("POLYC_REPORT", reports.as_path())] };
            let messages = make(&dir, &words(&args), env).unwrap_or_else(|e| panic!("NPB {b} ({compiler}): {e}"));
            assert_no_fallback(&format!("NPB {b}"), &messages);
        }
        trees.push(dir);
    }

    let (compiled, transformed, fell_back, summary) = report(&reports);
    eprintln!("NPB: {compiled} C files compiled, {transformed} transformed, {fell_back} fell back");
    // The eight benchmarks' files and four of common/.
    assert!(compiled == 12 && transformed >= 6 && fell_back == 0, "{summary}");

    let mut failures = Vec::new();
    for b in NPB_BENCHMARKS {
        let binary = |tree: &Path| tree.join("bin").join(format!("{b}.S"));
        for threads in ["1", "2"] {
            let expected = output(&binary(&trees[0]), threads);
            let got = output(&binary(&trees[1]), threads);
            if !got.contains("Verification    =               SUCCESSFUL") {
                failures.push(format!("{b}, {threads} threads: polyc-cc's build does not verify:\n{got}"));
            } else if npb_masked(&got) != npb_masked(&expected) {
                failures.push(format!("{b}, {threads} threads: cc's build printed\n{expected}\npolyc-cc's\n{got}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
