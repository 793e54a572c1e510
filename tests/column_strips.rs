//! Strips of columns on threads: a nest whose one parallel loop is the
//! innermost, inside sequential rows (bicg's and atax's column sums),
//! runs strips of 256 columns outermost, in parallel, each over every
//! row; only where no dependence goes to an earlier column's strip, and
//! only with threads.

use polyc::driver;
use polyc::options::{Options, PlanRequest};

/// Whether `line` is the loop over strips of 256 of `m` columns.
fn is_strip_loop(line: &str) -> bool {
    ["c0", "c1"].iter().any(|c| line == format!("for (int {c} = 0; {c} <= polyc_floord(m - 1, 256); {c}++)"))
}

/// polyc's default mode (`parallel` as given), without its wall-clock
/// budget, on a SCoP of `kernel` over `s[m]`, `r[n]`, `a[n][m]`,
/// `b[n][m]`: the applied transformations, then the output.
fn compiled(kernel: &str, parallel: bool) -> String {
    let source = format!(
        "void f(int n, int m, double s[m], double r[n], double a[n][m], double b[n][m]) {{\n#pragma scop\n{kernel}\n\
         #pragma endscop\n}}\n"
    );
    let plan = PlanRequest { time_budget: None, parallel, ..PlanRequest::optimising() };
    let outcome =
        driver::compile(source, &Options { plan, ..Options::default() }).unwrap_or_else(|d| panic!("{}", d.message));
    let transforms: Vec<&String> = outcome.scops.iter().flat_map(|s| &s.transforms).collect();
    format!("{transforms:?}\n{}", outcome.output)
}

/// The lines of `out`, trimmed.
fn lines(out: &str) -> Vec<&str> {
    out.lines().map(str::trim).collect()
}

#[test]
fn column_sums_over_rows_run_strips_of_columns_on_threads() {
    let out = compiled(
        "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < m; j++)\n      s[j] = s[j] + r[i] * a[i][j];",
        true,
    );
    let lines = lines(&out);
    let strips: Vec<usize> = (0..lines.len()).filter(|&k| is_strip_loop(lines[k])).collect();
    // Printed once, rows jammed by 4: on threads where the region's work
    // pays them, else on one, with no work check.
    assert_eq!(strips.len(), 2, "not two strip loops:\n{out}");
    let gate = "if ((double)polyc_max(n, 0) * (double)polyc_max(m, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {";
    assert_eq!(lines[strips[0] - 2..strips[0]], [gate, "#pragma omp parallel for schedule(static)"], "{out}");
    assert_eq!(lines[strips[1] - 1], "} else {", "{out}");
    assert!(!out.contains("POLYC_MIN_WORK"), "a work check:\n{out}");
    let row_in_strip = "for (int j = 256 * c0; j <= j_end; j++) {";
    let jammed = "polyc_s_ = polyc_s_ + polyc_r_3 * a[i + 3][j];";
    for &strip in &strips {
        let rows = lines[strip..].iter().position(|l| *l == row_in_strip).expect("columns within the strip");
        assert!(lines[strip + rows..].contains(&jammed), "rows not jammed by 4 inside the strip:\n{out}");
    }
}

#[test]
fn a_dependence_to_an_earlier_column_keeps_the_rows_whole() {
    // Row i reads row i - 1 one column to the left and one to the right
    // (no skew makes a loop inside the rows parallel): a strip of columns
    // would need the next strip's last row first.
    let out = compiled(
        "  for (int i = 1; i < n; i++)\n    for (int j = 1; j < m - 1; j++)\n      \
         a[i][j] = a[i - 1][j + 1] + a[i - 1][j - 1] + b[i][j];",
        true,
    );
    assert!(out.contains("\"simd\""), "the columns are no vector loop:\n{out}");
    assert!(!out.contains("column-strips") && !out.contains(", 256)"), "stripped:\n{out}");
}

#[test]
fn without_threads_the_rows_stay_whole() {
    let out = compiled(
        "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < m; j++)\n      s[j] = s[j] + r[i] * a[i][j];",
        false,
    );
    assert!(!out.lines().any(|l| is_strip_loop(l.trim())), "stripped on one thread:\n{out}");
}
