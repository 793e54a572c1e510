//! The `multifor` construct: every example of corpus/multifor agrees with
//! its ordinary-loop reference once lowered (sequential, `--parallel`,
//! polyc's default optimisation; 1 and 2 threads), the paper's header
//! examples run their bodies in the order the paper describes, rank
//! mappings of several shapes keep both nests in order, and each
//! malformed header of tests/multifor gets its diagnostic.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const MODES: [&[&str]; 3] = [&["--schedule=identity"], &["--parallel"], &[]];

/// polyc `args` on `input`, written to `output`: its exit status and
/// standard error.
fn polyc(input: &Path, output: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(polyc_bin()).args(args).arg(input).arg("-o").arg(output).output().expect("polyc runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Lower `example` with `mode`, compile it with OpenMP, and run it on 1
/// and 2 threads: it must exit with 0 (its multifor and reference
/// results agree).
fn agrees_with_reference(example: &Path, mode: &[&str], dir: &Path) -> Result<(), String> {
    let name = format!("{}{}", stem(example), mode.join("").replace(['-', '='], "_"));
    let lowered = dir.join(format!("{name}.c"));
    let (status, err) = polyc(example, &lowered, mode);
    if status != Some(0) {
        return Err(format!("{name}: polyc exited with {status:?}: {err}"));
    }
    let binary = dir.join(&name);
    gcc(&lowered, &binary, &["-fopenmp"]).map_err(|e| format!("{name}: gcc: {e}"))?;
    for threads in ["1", "2"] {
        let mut cmd = Command::new(&binary);
        cmd.env("OMP_NUM_THREADS", threads);
        let (code, out, _) = run_with(cmd, Duration::from_secs(60))?;
        let out = String::from_utf8_lossy(&out);
        if code != Some(0) || !out.contains("multifor") || !out.contains("reference") {
            return Err(format!("{name} on {threads} threads: exit {code:?}, printed {out}"));
        }
    }
    Ok(())
}

#[test]
fn every_example_agrees_with_its_reference_in_every_mode() {
    let dir = scratch("multifor-examples");
    let examples = multifor_corpus();
    assert!(examples.len() >= 8, "{examples:?}");
    let runs: Vec<(&Path, &[&str])> =
        examples.iter().flat_map(|e| MODES.iter().map(move |m| (e.as_path(), *m))).collect();
    let failures = on_workers(&runs, |(example, mode)| agrees_with_reference(example, mode, &dir));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The statements a lowered, traced example runs, in order: `S<k> i...`.
fn trace(example: &str) -> (String, Vec<String>) {
    let dir = scratch(&format!("multifor-trace-{example}"));
    let lowered = dir.join("traced.c");
    let input = root().join(format!("corpus/multifor/{example}.c"));
    let (status, err) = polyc(&input, &lowered, &["--schedule=identity", "--trace"]);
    assert_eq!(status, Some(0), "{err}");
    let binary = dir.join("traced");
    gcc(&lowered, &binary, &[]).unwrap();
    let out = String::from_utf8(run_with(Command::new(&binary), Duration::from_secs(20)).unwrap().1).unwrap();
    let lines = out.lines().filter(|l| l.starts_with('S')).map(str::to_string).collect();
    let (status, err) = polyc(&input, &dir.join("plain.c"), &["--schedule=identity"]);
    assert_eq!(status, Some(0), "{err}");
    (std::fs::read_to_string(dir.join("plain.c")).unwrap(), lines)
}

/// The first function's trace: the multifor's (the reference has no
/// SCoP, so its statements print nothing).
fn expect_trace(got: &[String], expected: &[(usize, i64)]) {
    let expected: Vec<String> = expected.iter().map(|(s, i)| format!("S{s} {i}")).collect();
    assert_eq!(got, expected);
}

#[test]
fn offset_two_runs_the_second_body_first_at_the_third_referential_iteration() {
    let (_, got) = trace("offset2");
    // r = 0, 1: only i1; r = 2: i1 = 2, then i2 = 10; ... r = 6: i2 = 14.
    let mut expected = vec![(0, 0), (0, 1)];
    for r in 2..7 {
        expected.extend([(0, r), (1, r + 8)]);
    }
    expected.extend((7..10).map(|r| (0, r)));
    expect_trace(&got, &expected);
}

#[test]
fn grain_four_runs_four_i1_iterations_per_i2_iteration_and_compresses_the_rest() {
    let (lowered, got) = trace("grain4");
    let mut expected = Vec::new();
    for r in 0..10 {
        expected.push((0, r));
        if r % 4 == 0 {
            expected.push((1, 10 + r / 4));
        }
    }
    expected.extend([(1, 13), (1, 14)]);
    expect_trace(&got, &expected);
    // Past i1's end only i2 runs: one referential iteration in four.
    assert!(lowered.contains("c1 = 12; c1 <= 16; c1 += 4"), "{lowered}");
}

#[test]
fn independent_loops_run_in_parallel_sections_and_dependent_ones_stay_interleaved() {
    let dir = scratch("multifor-sections");
    let matmul = root().join("corpus/multifor/blocked_matmul.c");
    let (status, err) = polyc(&matmul, &dir.join("matmul.c"), &["--parallel"]);
    assert_eq!(status, Some(0), "{err}");
    let lowered = std::fs::read_to_string(dir.join("matmul.c")).unwrap();
    assert_eq!(lowered.matches("#pragma omp parallel sections").count(), 1, "{lowered}");
    assert_eq!(lowered.matches("#pragma omp section\n").count(), 4, "{lowered}");
    assert!(!err.contains("M0004"), "{err}");

    let cipher = root().join("corpus/multifor/cipher.c");
    let (status, err) = polyc(&cipher, &dir.join("cipher.c"), &["--parallel"]);
    assert_eq!(status, Some(0), "{err}");
    assert!(err.contains("warning[M0004]: multifor loops kept interleaved: a dependence links"), "{err}");
    assert!(!std::fs::read_to_string(dir.join("cipher.c")).unwrap().contains("sections"));
}

#[test]
fn malformed_headers_get_their_diagnostic_and_nothing_is_written() {
    let cases = [
        ("group_mismatch", "5:29: error[M0001]: 1 conditions for 2 loops"),
        ("grain_zero", "5:62: error[M0001]: a grain must be an integer constant >= 1"),
        ("offset_negative", "5:65: error[M0001]: an offset must be an integer constant >= 0"),
        ("wrong_increment", "5:47: error[M0001]: the increment must be"),
        ("nested_width", "6:15: error[M0001]: this multifor has 3 loops inside a multifor of 2"),
        ("prefix_out_of_range", "7:5: error[M0002]: prefix 2 names no loop: this multifor has 2 (0 to 1)"),
        ("unknown_index", "6:11: error[M0002]: unknown index `k1`"),
        ("foreign_index", "7:11: error[M0002]: `i1` is the index of loop 0 of the multifor; this belongs to loop 1"),
        ("index_list_without_prefix_list", "6:11: error[M0002]: an index list needs a prefix list"),
        ("nested_in_statement", "7:7: error[M0002]: a multifor inside a statement of loop 0"),
        ("outside_function", "2:1: error[M0003]: a multifor outside any function"),
        (
            "rank_shrinking",
            "6:29: error[M0003]: rows of a rank-mapped nest must have a length affine in its outer index",
        ),
        ("rank_dependent", "5:3: error[M0003]: multifor not lowered: its two nests run in an order of their own"),
    ];
    let dir = scratch("multifor-malformed");
    let mut failures = Vec::new();
    for (name, expected) in cases {
        let output = dir.join(format!("{name}.c"));
        let (status, err) = polyc(&root().join(format!("tests/multifor/{name}.c")), &output, &[]);
        if status == Some(0) || output.exists() || !err.contains(&format!("{name}.c:{expected}")) {
            failures.push(format!("{name}: status {status:?}, written {}, stderr:\n{err}", output.exists()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rank_mappings_of_several_shapes_keep_both_nests_in_order() {
    // Rows growing by 0, 1 or 2, starting where the outer index says,
    // empty first rows, `<=` bounds, either nest longer, either prefix.
    let dir = scratch("multifor-rank");
    let lowered = dir.join("rank_shapes.c");
    let (status, err) = polyc(&root().join("tests/multifor/rank_shapes.c"), &lowered, &[]);
    assert_eq!(status, Some(0), "{err}");
    let binary = dir.join("rank_shapes");
    gcc(&lowered, &binary, &[]).unwrap();
    let (code, out, _) = run_with(Command::new(&binary), Duration::from_secs(20)).unwrap();
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.lines().count(), 5, "{out}");
}
