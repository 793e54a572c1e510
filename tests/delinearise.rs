//! Kernels written on pointers with linear subscripts (`C[i*n + j]`):
//! polyc recovers the multi-dimensional accesses (the split checked at
//! run time) and turns products of parameters into parameters of their
//! own. Each program, compiled by gcc as written and after polyc, must
//! print the same on one and two threads.

use crate::common;
use common::*;
use std::process::Command;
use std::time::Duration;

/// A complete program: sizes `n`, `m`, `p` from the command line (at
/// most 40 each), arrays `A`, `B`, `C` of `41^3 + 64` doubles behind
/// pointers, `kernel` (a function `kernel(int n, int m, int p, double
/// *A, double *B, double *C)` holding the SCoP) called once; it prints a
/// checksum of each array.
fn program(kernel: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
{kernel}
int main(int argc, char **argv) {{
  int n = argc > 1 ? atoi(argv[1]) : 20, m = argc > 2 ? atoi(argv[2]) : 16, p = argc > 3 ? atoi(argv[3]) : 12;
  if (n > 40) n = 40;
  if (m > 40) m = 40;
  if (p > 40) p = 40;
  long size = 41L * 41 * 41 + 64;
  double *A = malloc(sizeof(double) * size), *B = malloc(sizeof(double) * size), *C = malloc(sizeof(double) * size);
  for (long i = 0; i < size; i++) {{
    A[i] = (i % 7) * 0.25;
    B[i] = (i % 5) * 0.125 + 1;
    C[i] = (i % 3) * 0.5;
  }}
  kernel(n, m, p, A, B, C);
  double a = 0, b = 0, c = 0;
  for (long i = 0; i < size; i++) {{
    a += A[i] * (1 + i % 5);
    b += B[i] * (1 + i % 7);
    c += C[i] * (1 + i % 3);
  }}
  printf("%.17g %.17g %.17g\n", a, b, c);
  free(A);
  free(B);
  free(C);
  return 0;
}}
"#
    )
}

/// polyc's output for `source` (the binary, default options) and its
/// standard error; gcc builds both with `-fopenmp`, and each run of
/// `runs` prints the same, on one and two threads.
fn prints_the_same(name: &str, source: &str, runs: &[&[&str]]) -> (String, String) {
    prints_the_same_built(name, source, runs, &["-fopenmp"])
}

/// [`prints_the_same`], gcc given `cflags`.
fn prints_the_same_built(name: &str, source: &str, runs: &[&[&str]], cflags: &[&str]) -> (String, String) {
    let dir = scratch(&format!("delinearise-{name}"));
    let (input, output) = (dir.join("source.c"), dir.join("polyc.c"));
    std::fs::write(&input, source).expect("scratch file");
    let run = Command::new(polyc_bin()).arg(&input).arg("-o").arg(&output).output().expect("polyc runs");
    let warnings = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(0), "{name}: {warnings}");
    let text = std::fs::read_to_string(&output).expect("polyc's output");
    gcc(&input, &dir.join("source"), cflags).unwrap_or_else(|e| panic!("{name}: the source: {e}"));
    gcc(&output, &dir.join("polyc"), cflags).unwrap_or_else(|e| panic!("{name}: polyc's output: {e}\n{text}"));
    for args in runs {
        for threads in ["1", "2"] {
            let printed = |binary: &str| {
                let mut cmd = Command::new(dir.join(binary));
                cmd.args(*args).env("OMP_NUM_THREADS", threads);
                match run_with(cmd, Duration::from_secs(30)) {
                    Ok((Some(0), out, _)) => String::from_utf8_lossy(&out).into_owned(),
                    other => panic!("{name}: {binary} {args:?}: {other:?}"),
                }
            };
            assert_eq!(printed("polyc"), printed("source"), "{name} {args:?} on {threads} threads:\n{text}");
        }
    }
    (text, warnings)
}

/// The regenerated loops of a versioned region (the source text follows
/// in its `else` branch).
fn regenerated(text: &str) -> String {
    scop_regions(text).split("} else {").next().unwrap_or_default().to_string()
}

const RUNS: [&[&str]; 4] = [&["20", "16", "12"], &["1", "1", "1"], &["33", "7", "5"], &["0", "3", "2"]];

#[test]
fn a_matrix_product_on_pointers_is_tiled_and_parallel() {
    let kernel = "void kernel(int n, int m, int p, double *C, double *A, double *B) {
#pragma scop
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) for (int k = 0; k < n; k++)
    C[i*n + j] += A[i*n + k] * B[k*n + j];
#pragma endscop
}";
    let (text, warnings) = prints_the_same("mm", &program(kernel), &RUNS);
    assert!(!warnings.contains("P0002"), "{warnings}");
    let loops = regenerated(&text);
    assert!(loops.contains("#pragma omp parallel for"), "not parallel:\n{text}");
    assert!(loops.contains("polyc_floord(n - 1, 32)"), "not tiled:\n{text}");
    // The statements keep their linear spelling, iterators substituted.
    assert!(loops.contains("C[i*n + j] +="), "{text}");
}

#[test]
fn a_three_dimensional_view_is_recovered() {
    let kernel = "void kernel(int n, int m, int p, double *A, double *B, double *C) {
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++)
        A[(i*m + j)*p + k] = A[((i - 1)*m + j)*p + k] * 0.5 + B[i*m*p + j*p + k];
#pragma endscop
}";
    let (text, warnings) = prints_the_same("3d", &program(kernel), &RUNS);
    assert!(!warnings.contains("P0002"), "{warnings}");
    let loops = regenerated(&text);
    let lines: Vec<&str> = loops.lines().map(str::trim).collect();
    let parallel =
        lines.windows(2).any(|w| w == ["#pragma omp parallel for schedule(static)", "for (int j = 0; j < m; j++)"]);
    assert!(parallel, "j is not parallel:\n{text}");
}

#[test]
fn rows_that_may_overlap_are_checked_at_run_time() {
    // Row `i` has `m` elements, rows are `n` apart: the new loops are
    // right only where `m <= n`, which the output checks (m > n in the
    // second and third runs, where rows overlap and the order of the
    // updates matters).
    let kernel = "void kernel(int n, int m, int p, double *A, double *B, double *C) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i*n + j] = A[i*n + j] * 0.5 + i + B[j*n + i];
#pragma endscop
}";
    let runs: [&[&str]; 3] = [&["30", "20", "1"], &["10", "25", "1"], &["3", "40", "1"]];
    let (text, warnings) = prints_the_same("overlap", &program(kernel), &runs);
    assert!(!warnings.contains("P0002"), "{warnings}");
    assert!(regenerated(&text).contains("n >= m"), "no run-time check of the rows:\n{text}");
}

#[test]
fn a_product_of_parameters_in_a_bound_becomes_a_parameter() {
    let kernel = "void kernel(int n, int m, int p, double *A, double *B, double *C) {
#pragma scop
  for (int i = 0; i < n*m; i++)
    for (int t = 0; t < p; t++)
      A[i] = A[i] * 0.5 + B[i] + C[i / 2 + n/2];
#pragma endscop
}";
    let (text, warnings) = prints_the_same("bound", &program(kernel), &RUNS);
    assert!(!warnings.contains("P0003"), "{warnings}");
    assert!(text.contains("const long polyc_n_m = n * m;"), "no definition:\n{text}");
    // The rows `i` in strips of columns, inside the time steps `t`.
    assert!(regenerated(&text).contains("polyc_n_m - 1)"), "the bound is not the parameter:\n{text}");
    assert!(regenerated(&text).contains("#pragma omp"), "not parallel nor vectorised:\n{text}");
}

#[test]
fn accesses_of_different_shapes_keep_the_source() {
    let kernel = "void kernel(int n, int m, int p, double *A, double *B, double *C) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i*n + j] = A[j] + B[i*n + j];
#pragma endscop
}";
    let source = program(kernel);
    let (text, warnings) = prints_the_same("shapes", &source, &RUNS[..1]);
    assert!(warnings.contains("P0002") && warnings.contains("`A` is accessed as [*][n]"), "{warnings}");
    assert_eq!(scop_regions(&text), scop_regions(&source), "the region was rewritten");
}

#[test]
fn a_jammed_product_keeps_its_element_in_a_local_and_reads_a_row_once() {
    // gcc cannot tell C from A and B, so without help it stores C[i][j]
    // after every jammed copy and reloads A[i][k + u] in every iteration.
    let kernel = "void kernel(int n, int m, int p, double *C, double *A, double *B) {
#pragma scop
  for (int i = 0; i < n; i++) for (int k = 0; k < n; k++) for (int j = 0; j < n; j++)
    C[i*n + j] += A[i*n + k] * B[k*n + j];
#pragma endscop
}";
    let (text, _) = prints_the_same("promoted", &program(kernel), &RUNS);
    let loops = regenerated(&text);
    // `polyc_C` is the `restrict` copy of the pointer C: one authority
    // names both, so the local is `polyc_C_`.
    assert!(loops.contains("__typeof__(C[i*n + j]) polyc_C_ = C[i*n + j];"), "C not kept in a local:\n{text}");
    assert!(loops.contains("C[i*n + j] = polyc_C_;"), "C not stored back:\n{text}");
    assert!(loops.contains("polyc_C_ += polyc_A_1 * B[(k + 1)*n + j];"), "copies not on the local:\n{text}");
    assert!(loops.contains("const __typeof__(A[i*n + (k + 1)]) polyc_A_1 = A[i*n + (k + 1)];"), "{text}");
}

#[test]
fn a_read_moved_out_of_a_loop_is_made_only_if_the_loop_runs() {
    // Row i - 1 of A exists only where the j loop runs (i >= 1). The
    // scanner's loops run empty only where tile bounds over-approximate,
    // so the guard is checked in the text, and the whole program under
    // the address sanitizer.
    let kernel = "void kernel(int n, int m, int p, double *B, double *A, double *C) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      B[i*n + j] = A[(i - 1)*n + 1] * 0.5 + C[j];
#pragma endscop
}";
    let sanitized = ["-fopenmp", "-fsanitize=address", "-fno-omit-frame-pointer"];
    let (text, _) = prints_the_same_built("guarded", &program(kernel), &RUNS, &sanitized);
    let loops = regenerated(&text);
    assert!(loops.contains("if (0 < i) {"), "the hoisted read is not guarded:\n{text}");
    assert!(loops.contains("const __typeof__(A[(i - 1)*n + 1]) polyc_A"), "A not read before the loop:\n{text}");
}
