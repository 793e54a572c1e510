//! Row sums on threads, four chains at a time: an untiled nest whose
//! rows run in parallel around a recurrence that walks every access
//! contiguously (atax's and gesummv's `t[i] += A[i][j] * x[j]`) runs
//! strips of four rows, each strip's four sums in locals across the
//! whole recurrence loop where the strip is full; the same bytes as the
//! source, the last strip partial or the sums' loop empty.

use crate::common::prints_what_the_source_prints;
use polyc::options::{Options, PlanRequest};

/// A program over `t[n]`, `x[m]`, `a[n][m]`, sizes from its arguments,
/// whose SCoP is `kernel`; it prints `t` and `x`.
fn program(kernel: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n\
         static void f(int n, int m, double t[n], double x[m], double a[n][m]) {{\n#pragma scop\n{kernel}\n\
         #pragma endscop\n}}\n\
         int main(int argc, char **argv) {{\n  int n = atoi(argv[1]), m = atoi(argv[2]);\n  \
         double (*a)[m + 1] = malloc(sizeof(double) * n * (m + 1));\n  double *t = malloc(sizeof(double) * n), \
         *x = malloc(sizeof(double) * (m + 1));\n  \
         for (int i = 0; i < n; i++) {{ t[i] = i; for (int j = 0; j <= m; j++) a[i][j] = 1.0 / (i + j + 1); }}\n  \
         for (int j = 0; j <= m; j++) x[j] = 0.1 * j - 0.3;\n  f(n, m, t, x, (void *)a);\n  \
         for (int i = 0; i < n; i++) printf(\"%.17g\\n\", t[i]);\n  \
         for (int j = 0; j < m; j++) printf(\"%.17g\\n\", x[j]);\n  return 0;\n}}\n"
    )
}

/// polyc's default mode without its wall-clock budget.
fn optimising() -> Options {
    Options { plan: PlanRequest { time_budget: None, ..PlanRequest::optimising() }, ..Options::default() }
}

/// Sizes with a partial last strip (10 rows: 4, 4, 2), with an empty
/// sums loop, and with full strips only.
const RUNS: &[&[&str]] = &[&["10", "7"], &["10", "0"], &["8", "33"], &["3", "5"]];

#[test]
fn row_sums_on_threads_keep_four_chains_in_locals() {
    let kernel = "  for (int i = 0; i < n; i++) {\n    t[i] = t[i] * 0.5;\n    for (int j = 0; j < m; j++)\n      \
                  t[i] = t[i] + a[i][j] * x[j];\n  }";
    let [out] = &prints_what_the_source_prints("chains_rows", &program(kernel), &[("default", optimising())], RUNS)[..]
    else {
        unreachable!()
    };
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let region = lines.iter().position(|l| l.starts_with("#pragma omp parallel for")).expect("no parallel loop");
    assert!(lines[region + 1].contains(", 4)"), "the rows are not in strips of four:\n{out}");
    let sums = lines.iter().position(|l| *l == "for (int j = 0; j < m; j++) {").expect("no loop of sums");
    // Four locals before the sums loop, each chain's sum in its own.
    let loaded: Vec<&&str> =
        lines[..sums].iter().rev().take(4).filter(|l| l.starts_with("__typeof__(t[") && l.contains("= t[")).collect();
    assert_eq!(loaded.len(), 4, "the four sums are not loaded into locals:\n{out}");
    let chain = lines[sums + 4];
    assert!(chain.starts_with("polyc_t") && chain.ends_with("+ 3][j] * x[j];"), "no fourth chain in a local:\n{out}");
    assert!(lines[sums + 6].starts_with("t[") && lines[sums + 6].contains("= polyc_t"), "sums not stored:\n{out}");
}

#[test]
fn a_sum_down_columns_keeps_its_rows_apart() {
    // Each column's sum walks a column of `a`: four chains would walk
    // four columns at once. The nest is interchanged or left as it is,
    // but not put in strips of four.
    let kernel = "  for (int j = 0; j < m; j++)\n    for (int i = 0; i < n; i++)\n      x[j] = x[j] + a[i][j] * t[i];";
    let outputs = prints_what_the_source_prints("chains_columns", &program(kernel), &[("default", optimising())], RUNS);
    let regenerated = crate::common::scop_regions(&outputs[0]);
    assert!(regenerated.contains("#pragma omp parallel for"), "not transformed:\n{regenerated}");
    assert!(!regenerated.contains(", 4)"), "strips of four:\n{regenerated}");
}
