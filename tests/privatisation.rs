//! Private copies that are copied out after a parallel loop. A scalar's
//! is polyc's own: the value of the last iteration that wrote it, or none
//! (the loop the scanner makes may run iterations that write nothing),
//! never an OpenMP `lastprivate` clause (see `emit::copy_out`). An array
//! is copied out whole from the last iteration (`lastprivate`): only
//! when, in every run of the parallel loop, that iteration writes every
//! cell of the declared object. Each program here breaks a plain
//! copy-out in one way; each must print what its source prints, on one
//! and two threads, built with gcc and with clang-19.
//! The arrays are sized for the largest size run, so that every subscript
//! stays in bounds and the new loops run (not the source kept beside them).

use crate::common;
use common::*;
use polyc::options::{Options, PlanRequest};

/// A complete program around `kernel` (the lines inside `#pragma scop`):
/// `N` from the command line, arrays `X`, `Y` (2-d) and `v`, `w`, `buf`
/// (1-d) of doubles, global scalars `s`, `t` and a local one `u`, a pure
/// function `g1`; it prints a checksum of each.
fn program(kernel: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
double X[70][70], Y[70][70], v[70], w[70], buf[70];
double s = 1.5, t = 2.5;
static double g1(double x) {{ return x * 0.75 + 0.5; }}
int main(int argc, char **argv) {{
  int N = argc > 1 ? atoi(argv[1]) : 20;
  int i, j, k;
  double u = 0.5;
  for (i = 0; i < 70; i++) {{
    v[i] = (i % 7) * 0.25; w[i] = (i % 5) * 0.5; buf[i] = (i % 3) * 0.75;
    for (j = 0; j < 70; j++) {{ X[i][j] = ((i + 2 * j) % 11) * 0.125; Y[i][j] = ((2 * i + j) % 13) * 0.25; }}
  }}
#pragma scop
{kernel}
#pragma endscop
  double c = 0;
  for (i = 0; i < 70; i++) {{
    c += v[i] * (1 + i % 7) + w[i] * (1 + i % 5) + buf[i] * (1 + i % 3);
    for (j = 0; j < 70; j++) c += X[i][j] * (1 + i % 7) + Y[i][j] * (1 + j % 5);
  }}
  printf("%.17g %.17g %.17g %.17g\n", c, s, t, u);
  return 0;
}}
"#
    )
}

const RUNS: [&[&str]; 5] = [&["0"], &["5"], &["17"], &["40"], &["64"]];

/// polyc's output for `kernel`'s program, in the default mode and with
/// `--parallel` alone (the source's loops, marked: no fission or fusion
/// moves the statements apart), prints what the source prints for each
/// size, on one and two threads, built with gcc and with clang-19; the
/// `--parallel` output is returned.
fn same_output(name: &str, kernel: &str) -> String {
    let marked_only =
        Options { plan: PlanRequest { parallel: true, simd: true, ..PlanRequest::default() }, ..Options::default() };
    let modes = [("default", Options::optimising()), ("parallel", marked_only)];
    let name = format!("privatisation-{name}");
    let source = program(kernel);
    let outputs = prints_what_the_source_prints(&name, &source, &modes, &RUNS);
    for (output, (mode, _)) in outputs.iter().zip(&modes) {
        clang_prints_what_the_source_prints(&format!("{name}-clang-{mode}"), &source, output);
        assert!(!output.contains("lastprivate(conditional"), "{name} ({mode}):\n{output}");
    }
    outputs.into_iter().nth(1).unwrap_or_default()
}

/// `output` (polyc's output for `source`) built with clang-19 and OpenMP
/// prints what `source` built with gcc prints, for each of [`RUNS`], on
/// one and two threads.
fn clang_prints_what_the_source_prints(name: &str, source: &str, output: &str) {
    let dir = scratch(name);
    let (src, out) = (dir.join("source.c"), dir.join("output.c"));
    std::fs::write(&src, source).expect("scratch file");
    std::fs::write(&out, output).expect("scratch file");
    gcc(&src, &dir.join("source"), &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
    clang(&out, &dir.join("output"), &["-fopenmp"]).unwrap_or_else(|e| panic!("{name}: {e}\n{output}"));
    let run = |binary: &str, args: &[&str], threads: &str| {
        let mut cmd = std::process::Command::new(dir.join(binary));
        cmd.args(args).env("OMP_NUM_THREADS", threads);
        match run_with(cmd, std::time::Duration::from_secs(60)) {
            Ok((Some(0), out, _)) => String::from_utf8_lossy(&out).into_owned(),
            other => panic!("{name}: {binary} {args:?}: {other:?}"),
        }
    };
    for args in RUNS {
        let expected = run("source", args, "1");
        for threads in ["1", "2"] {
            assert_eq!(run("output", args, threads), expected, "{name}, {args:?}, {threads} threads:\n{output}");
        }
    }
}

/// How `output` copies `var` out of a parallel loop.
#[derive(Debug, PartialEq)]
enum CopyOut {
    /// polyc's own copy-out: the value of the last iteration that wrote it.
    Recorded,
    /// OpenMP's `lastprivate`: the last iteration's copy, whole.
    Lastprivate,
    None,
}

fn copy_out(output: &str, var: &str) -> CopyOut {
    let pragmas = output.lines().map(str::trim).filter(|l| l.starts_with("#pragma omp"));
    let mut lists = pragmas.flat_map(|p| p.split("lastprivate(").skip(1).map(|l| l.split(')').next().unwrap_or("")));
    if output.lines().any(|l| l.trim() == format!("{var} = polyc_{var}_value;")) {
        CopyOut::Recorded
    } else if lists.any(|list| list.split(", ").any(|v| v == var)) {
        CopyOut::Lastprivate
    } else {
        CopyOut::None
    }
}

#[test]
fn a_scalar_written_in_every_iteration_is_copied_out() {
    // The control case: each row writes `s` first and reads it after.
    let output = same_output(
        "every_row",
        "  for (i = 0; i < N; i++) {\n    s = v[i] * 0.5 + 1.0;\n    for (j = 0; j < N; j++)\n      \
         X[i][j] = X[i][j] * s + 1.0;\n  }",
    );
    assert_eq!(copy_out(&output, "s"), CopyOut::Recorded, "{output}");
}

#[test]
fn a_run_of_the_loop_that_never_writes_the_scalar_leaves_it_as_it_was() {
    // On odd rows of the outer (sequential) loop, no iteration of the
    // inner one writes `s`: a plain copy-out there would leave garbage.
    let output = same_output(
        "empty_run",
        "  for (k = 1; k < N; k++)\n    for (i = 0; i < N; i++) {\n      X[k][i] = X[k - 1][i] * 0.5 + 1.0;\n      \
         if (k % 2 == 0) {\n        s = X[k][i] * 0.25 + 1.0;\n        Y[k][i] = s * 0.5;\n      }\n    }",
    );
    assert_ne!(copy_out(&output, "s"), CopyOut::Lastprivate, "{output}");
}

#[test]
fn a_last_iteration_whose_inner_loop_is_empty_leaves_the_scalar_of_an_earlier_one() {
    // The last rows' inner loop is empty (j from i to N - 10), while
    // the row still runs: `t` is last written by an earlier row.
    let output = same_output(
        "empty_inner",
        "  for (i = 0; i < N; i++) {\n    v[i] = v[i] * 0.5 + 1.0;\n    for (j = i; j < N - 10; j++) {\n      \
         t = X[i][j] * 0.5 + v[i];\n      Y[i][j] = t * t;\n    }\n  }",
    );
    assert_eq!(copy_out(&output, "t"), CopyOut::Recorded, "{output}");
}

#[test]
fn a_scalar_last_written_by_another_iteration_under_a_guard_is_copied_out_conditionally() {
    // Only rows that are 1 modulo 3 write `s` (the loop the scanner makes
    // may end on rows that do not), only rows below N / 2 write `t`.
    let output = same_output(
        "guarded",
        "  for (i = 0; i < N; i++) {\n    if (i % 3 == 1) {\n      s = v[i] + 1.0;\n      w[i] = s * 0.5;\n    }\n    \
         if (2 * i < N) {\n      t = v[i] * 0.5;\n      for (j = 0; j < N; j++)\n        X[i][j] = X[i][j] + t;\n    }\n  }",
    );
    assert_eq!(copy_out(&output, "s"), CopyOut::Recorded, "{output}");
    assert_eq!(copy_out(&output, "t"), CopyOut::Recorded, "{output}");
}

#[test]
fn a_scalar_written_inside_a_simd_loop_is_copied_out_of_it_too() {
    // The SIMD loop's iterations record their writes of `s` in order:
    // it runs as a plain loop inside the parallel one.
    let output = same_output(
        "nested_simd",
        "  for (i = 2; i < N; i++)\n    if (i % 3 == 0)\n      for (j = 0; j < 3; j++)\n        s = v[j] * 0.5 + i;",
    );
    assert_eq!(copy_out(&output, "s"), CopyOut::Recorded, "{output}");
    assert!(!output.contains("#pragma omp simd"), "{output}");
}

#[test]
fn an_array_the_last_iteration_writes_only_in_part_is_not_copied_out() {
    // Each row writes the first i + 1 cells of `buf` and reads them back:
    // private per row, but the last row leaves the declared tail (and the
    // copy-out would overwrite it with indeterminate values).
    let output = same_output(
        "partial_array",
        "  for (i = 0; i < N; i++) {\n    for (j = 0; j <= i; j++)\n      buf[j] = X[i][j] * 0.5;\n    \
         for (j = 0; j <= i; j++)\n      Y[i][j] = buf[j] + buf[i - j];\n  }",
    );
    assert_eq!(copy_out(&output, "buf"), CopyOut::None, "{output}");
}

#[test]
fn an_array_written_whole_by_every_iteration_is_copied_out() {
    // `buf` declared with 70 cells, every row writes all 70 first.
    let output = same_output(
        "whole_array",
        "  for (i = 0; i < N; i++) {\n    for (j = 0; j < 70; j++)\n      buf[j] = v[j] * 0.5 + i;\n    \
         for (j = 0; j < 69; j++)\n      Y[i][j] = buf[j] + buf[j + 1];\n  }",
    );
    assert_eq!(copy_out(&output, "buf"), CopyOut::Lastprivate, "{output}");
}

#[test]
fn a_scalar_assigned_from_a_call_and_again_under_a_condition_is_copied_out() {
    // gcc 12 does not count `u = g1(..)` for `lastprivate(conditional: u)`
    // of a local `u`: it kept its value from before the loop.
    let output = same_output(
        "call",
        "  for (i = 0; i < N; i++) {\n    u = g1(v[i]);\n    if (v[i] > 1.0)\n      u = w[i];\n    buf[i] = u;\n  }",
    );
    assert_eq!(copy_out(&output, "u"), CopyOut::Recorded, "{output}");
}

#[test]
fn a_scalar_the_last_iterations_do_not_write_keeps_an_earlier_ones_value() {
    // Only rows 1 modulo 4 and rows whose `v` is large write `t`; clang
    // copies out the last row's copy, which it never wrote.
    let output = same_output(
        "not_last",
        "  for (i = 0; i < N; i++) {\n    if (i % 4 == 1)\n      t = v[i] * 0.5 + 1.0;\n    if (v[i] > 1.2)\n      \
         t = g1(w[i]);\n    X[i][0] = X[i][1] * 0.5;\n  }",
    );
    assert_eq!(copy_out(&output, "t"), CopyOut::Recorded, "{output}");
}

/// A loop whose iterations differ in work keeps its dynamic schedule
/// while it copies a scalar out (gcc 12 dropped the copy-out of
/// `lastprivate(conditional: t)` under it: difftest seed 5027).
#[test]
fn a_copy_out_holds_under_a_dynamic_schedule() {
    let output = same_output(
        "dynamic",
        "  for (i = 0; i < N; i++) {\n    t = v[i] * 2.0;\n    for (j = 0; j <= i; j++)\n      \
         for (k = 0; k < N; k++)\n        X[i][k] = X[i][k] + t * Y[j][k] * 0.001;\n  }",
    );
    assert_eq!(copy_out(&output, "t"), CopyOut::Recorded, "{output}");
    assert!(output.contains("#pragma omp for nowait schedule(dynamic) private(t)"), "{output}");
}
