//! Private copies that OpenMP copies out (`lastprivate`). A scalar's is
//! conditional: the value of the last iteration that wrote it, or none
//! (the loop the scanner makes may run iterations that write nothing).
//! An array is copied out whole from the last iteration: only when, in
//! every run of the parallel loop, that iteration writes every cell of
//! the declared object. Each program here breaks a plain copy-out in one
//! way; each must print what its source prints, on one and two threads.
//! The arrays are sized for the largest size run, so that every subscript
//! stays in bounds and the new loops run (not the source kept beside them).

mod common;
use common::*;
use polyc::driver::Options;

/// A complete program around `kernel` (the lines inside `#pragma scop`):
/// `N` from the command line, arrays `X`, `Y` (2-d) and `v`, `w`, `buf`
/// (1-d) of doubles, scalars `s`, `t`; it prints a checksum of each.
fn program(kernel: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
double X[70][70], Y[70][70], v[70], w[70], buf[70];
double s = 1.5, t = 2.5;
int main(int argc, char **argv) {{
  int N = argc > 1 ? atoi(argv[1]) : 20;
  int i, j, k;
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
  printf("%.17g %.17g %.17g\n", c, s, t);
  return 0;
}}
"#
    )
}

/// polyc's output for `kernel`'s program, in the default mode and with
/// `--parallel` alone (the source's loops, marked: no fission or fusion
/// moves the statements apart), prints what the source prints for each
/// size, on one and two threads; the `#pragma omp` lines of the
/// `--parallel` output are returned.
fn same_output(name: &str, kernel: &str) -> Vec<String> {
    let marked_only = Options { parallel: true, simd: true, ..Options::default() };
    let modes = [("default", Options::optimising()), ("parallel", marked_only)];
    let runs: [&[&str]; 4] = [&["5"], &["17"], &["40"], &["64"]];
    let outputs = prints_what_the_source_prints(&format!("privatisation-{name}"), &program(kernel), &modes, &runs);
    outputs[1].lines().map(str::trim).filter(|l| l.starts_with("#pragma omp")).map(String::from).collect()
}

/// How some pragma copies `var` out: `Some(true)` conditionally (the
/// value of the last iteration that wrote it), `Some(false)` from the
/// last iteration, `None` not at all.
fn copy_out(pragmas: &[String], var: &str) -> Option<bool> {
    pragmas.iter().flat_map(|p| p.split("lastprivate(").skip(1)).find_map(|list| {
        let list = list.split(')').next().unwrap_or("");
        let (conditional, names) = match list.strip_prefix("conditional: ") {
            Some(names) => (true, names),
            None => (false, list),
        };
        names.split(", ").any(|v| v == var).then_some(conditional)
    })
}

#[test]
fn a_scalar_written_in_every_iteration_is_copied_out() {
    // The control case: each row writes `s` first and reads it after.
    let pragmas = same_output(
        "every_row",
        "  for (i = 0; i < N; i++) {\n    s = v[i] * 0.5 + 1.0;\n    for (j = 0; j < N; j++)\n      \
         X[i][j] = X[i][j] * s + 1.0;\n  }",
    );
    assert_eq!(copy_out(&pragmas, "s"), Some(true), "{pragmas:?}");
}

#[test]
fn a_run_of_the_loop_that_never_writes_the_scalar_leaves_it_as_it_was() {
    // On odd rows of the outer (sequential) loop, no iteration of the
    // inner one writes `s`: a plain copy-out there would leave garbage.
    let pragmas = same_output(
        "empty_run",
        "  for (k = 1; k < N; k++)\n    for (i = 0; i < N; i++) {\n      X[k][i] = X[k - 1][i] * 0.5 + 1.0;\n      \
         if (k % 2 == 0) {\n        s = X[k][i] * 0.25 + 1.0;\n        Y[k][i] = s * 0.5;\n      }\n    }",
    );
    assert_ne!(copy_out(&pragmas, "s"), Some(false), "{pragmas:?}");
}

#[test]
fn a_last_iteration_whose_inner_loop_is_empty_leaves_the_scalar_of_an_earlier_one() {
    // The last rows' inner loop is empty (j from i to N - 10), while
    // the row still runs: `t` is last written by an earlier row.
    let pragmas = same_output(
        "empty_inner",
        "  for (i = 0; i < N; i++) {\n    v[i] = v[i] * 0.5 + 1.0;\n    for (j = i; j < N - 10; j++) {\n      \
         t = X[i][j] * 0.5 + v[i];\n      Y[i][j] = t * t;\n    }\n  }",
    );
    assert_ne!(copy_out(&pragmas, "t"), Some(false), "{pragmas:?}");
}

#[test]
fn a_scalar_last_written_by_another_iteration_under_a_guard_is_copied_out_conditionally() {
    // Only rows that are 1 modulo 3 write `s` (the loop the scanner makes
    // may end on rows that do not), only rows below N / 2 write `t`.
    let pragmas = same_output(
        "guarded",
        "  for (i = 0; i < N; i++) {\n    if (i % 3 == 1) {\n      s = v[i] + 1.0;\n      w[i] = s * 0.5;\n    }\n    \
         if (2 * i < N) {\n      t = v[i] * 0.5;\n      for (j = 0; j < N; j++)\n        X[i][j] = X[i][j] + t;\n    }\n  }",
    );
    assert_ne!(copy_out(&pragmas, "s"), Some(false), "{pragmas:?}");
    assert_ne!(copy_out(&pragmas, "t"), Some(false), "{pragmas:?}");
}

#[test]
fn a_scalar_written_inside_a_simd_loop_is_copied_out_of_it_too() {
    // gcc's conditional copy-out of the parallel loop does not see the
    // writes of a SIMD loop inside it: that loop copies `s` out as well.
    let pragmas = same_output(
        "nested_simd",
        "  for (i = 2; i < N; i++)\n    if (i % 3 == 0)\n      for (j = 0; j < 3; j++)\n        s = v[j] * 0.5 + i;",
    );
    let simd = pragmas.iter().filter(|p| p.starts_with("#pragma omp simd"));
    assert!(simd.clone().all(|p| p.contains("lastprivate(conditional: s)")), "{pragmas:?}");
}

#[test]
fn an_array_the_last_iteration_writes_only_in_part_is_not_copied_out() {
    // Each row writes the first i + 1 cells of `buf` and reads them back:
    // private per row, but the last row leaves the declared tail (and the
    // copy-out would overwrite it with indeterminate values).
    let pragmas = same_output(
        "partial_array",
        "  for (i = 0; i < N; i++) {\n    for (j = 0; j <= i; j++)\n      buf[j] = X[i][j] * 0.5;\n    \
         for (j = 0; j <= i; j++)\n      Y[i][j] = buf[j] + buf[i - j];\n  }",
    );
    assert_eq!(copy_out(&pragmas, "buf"), None, "{pragmas:?}");
}

#[test]
fn an_array_written_whole_by_every_iteration_is_copied_out() {
    // `buf` declared with 70 cells, every row writes all 70 first.
    let pragmas = same_output(
        "whole_array",
        "  for (i = 0; i < N; i++) {\n    for (j = 0; j < 70; j++)\n      buf[j] = v[j] * 0.5 + i;\n    \
         for (j = 0; j < 69; j++)\n      Y[i][j] = buf[j] + buf[j + 1];\n  }",
    );
    assert_eq!(copy_out(&pragmas, "buf"), Some(false), "{pragmas:?}");
}

/// gcc 12 drops a conditional copy-out under a dynamic schedule (the
/// scalar keeps the value it had before the loop), so a parallel loop
/// with `lastprivate(conditional: ..)` is never `schedule(dynamic)`,
/// even where its iterations differ in work (difftest seed 5027).
#[test]
fn a_conditional_copy_out_keeps_the_static_schedule() {
    let text = "#define N 3000\ndouble A[N][N], B[N][N], x[N];\ndouble t;\nvoid f(void) {\n  int i, j, k;\n\
                #pragma scop\n  for (i = 0; i < N; i++) {\n    t = x[i] * 2.0;\n    for (j = 0; j <= i; j++)\n      \
                for (k = 0; k < N; k++)\n        A[i][k] = A[i][k] + t * B[j][k];\n  }\n#pragma endscop\n}\n";
    let output = polyc::driver::compile(text.to_string(), &polyc::driver::Options::optimising()).unwrap().output;
    let copied: Vec<&str> = output.lines().filter(|l| l.contains("lastprivate(conditional: t)")).collect();
    assert!(!copied.is_empty(), "t is not privatised:\n{output}");
    assert!(copied.iter().all(|l| !l.contains("schedule(dynamic)")), "{output}");
}
