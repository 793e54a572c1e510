//! Unroll-and-jam where it keeps a value in a register, and only there: a
//! loop whose iterations update one cell in turn (a reduction) is jammed;
//! one whose iterations each write a cell of their own, reading the one
//! before (a recurrence down the rows), is not, as its copies would share
//! only a load the cache serves anyway (TSVC's s1119, s231, s233, s2233
//! and s235 ran 1.1x to 1.5x slower jammed).

use polyc::driver;
use polyc::options::{Options, PlanRequest};

/// polyc's default mode, without its wall-clock budget, on a SCoP of
/// `kernel` over `float a[256][256], b[256][256], c[256][256]`.
fn optimised(kernel: &str) -> String {
    let source = format!(
        "float a[256][256], b[256][256], c[256][256];\nvoid f(void) {{\n  int i, j, k;\n#pragma scop\n{kernel}\n#pragma endscop\n}}\n"
    );
    let options =
        Options { plan: PlanRequest { time_budget: None, ..PlanRequest::optimising() }, ..Options::default() };
    let outcome = driver::compile(source, &options).unwrap_or_else(|d| panic!("{}", d.message));
    let transforms: Vec<&String> = outcome.scops.iter().flat_map(|s| &s.transforms).collect();
    format!("{transforms:?}\n{}", outcome.output)
}

#[test]
fn a_recurrence_down_the_rows_is_not_jammed() {
    let out =
        optimised("  for (i = 1; i < 256; i++)\n    for (j = 0; j < 256; j++)\n      a[i][j] = a[i - 1][j] + b[i][j];");
    assert!(out.contains("\"simd\""), "the row is no vector loop:\n{out}");
    assert!(!out.contains("unroll-jam"), "jammed:\n{out}");
}

#[test]
fn a_reduction_is_jammed() {
    let out = optimised(
        "  for (i = 0; i < 256; i++)\n    for (k = 0; k < 256; k++)\n      for (j = 0; j < 256; j++)\n        \
         c[i][j] += a[i][k] * b[k][j];",
    );
    assert!(out.contains("unroll-jam"), "not jammed:\n{out}");
}
