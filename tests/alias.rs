//! Pointers and array parameters that may share memory: the output
//! checks at run time that the address ranges a SCoP touches do not
//! meet, and runs the source text where they do (seed 001, SPolly).

use crate::common;
use common::*;
use polyc::options::{Options, PlanRequest};
use std::process::Command;
use std::time::Duration;

/// A program calling `kernel` (a function `f(int n, double C[n][n],
/// const double A[n][n])`) once on distinct buffers and once with both
/// arguments the same buffer, printing a checksum after each call. Each
/// run-time alias check is counted (on stderr: `distinct D overlapping
/// O`) through the output's `polyc_disjoint`, which it defines only if
/// undefined; the source never calls it.
fn program(kernel: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
#define POLYC_MIN_WORK 0
static int distinct, overlapping;
static int counted(const void *a, const void *a_end, const void *b, const void *b_end) {{
  int apart = (char *)a_end <= (char *)b || (char *)b_end <= (char *)a;
  apart ? distinct++ : overlapping++;
  return apart;
}}
#define polyc_disjoint(a, a_end, b, b_end) counted(a, a_end, b, b_end)
{kernel}
static double checksum(int n, double a[n][n]) {{
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += a[i][j] * (1 + (i + 2 * j) % 5);
  return s;
}}
int main(int argc, char **argv) {{
  int n = argc > 1 ? atoi(argv[1]) : 50;
  double (*a)[n] = malloc(sizeof(double[n][n])), (*b)[n] = malloc(sizeof(double[n][n]));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i][j] = b[i][j] = (i * 7 + j * 3) % 11;
  f(n, b, a);
  printf("%.17g\n", checksum(n, b));
  f(n, a, a);
  printf("%.17g\n", checksum(n, a));
  fprintf(stderr, "distinct %d overlapping %d\n", distinct, overlapping);
  return 0;
}}
"#
    )
}

/// `program`'s output compiled and run on `threads`: stdout and stderr.
fn run(dir: &std::path::Path, name: &str, text: &str, threads: &str) -> (String, String) {
    let (source, binary) = (dir.join(format!("{name}.c")), dir.join(name));
    std::fs::write(&source, text).expect("scratch file");
    gcc(&source, &binary, &["-fopenmp"]).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let mut cmd = Command::new(&binary);
    cmd.env("OMP_NUM_THREADS", threads);
    match run_with(cmd, Duration::from_secs(60)) {
        Ok((Some(0), out, err)) => {
            (String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
        }
        other => panic!("{name}: {other:?}"),
    }
}

fn compiled(source: &str, options: &Options) -> String {
    polyc::driver::compile(source.to_string(), options).unwrap_or_else(|d| panic!("{}", d.message)).output
}

/// Columns written from the column before, one row down: interchanged
/// (rows outermost, parallel), which is exact for distinct buffers and
/// reads values not yet written when `C` is `A`.
const COLUMNS: &str = "static void f(int n, double C[n][n], const double A[n][n]) {
#pragma scop
  for (int j = 1; j < n; j++)
    for (int i = 0; i < n - 1; i++)
      C[i][j] = A[i + 1][j - 1] * 0.5 + 1.0;
#pragma endscop
}";

#[test]
fn overlapping_parameters_run_the_source_text() {
    let dir = scratch("alias-columns");
    let source = program(COLUMNS);
    let (expected, _) = run(&dir, "source", &source, "1");
    let checked = compiled(&source, &Options::optimising());
    assert!(checked.contains("#pragma omp parallel for"), "not transformed:\n{checked}");
    for threads in ["1", "2"] {
        let (out, err) = run(&dir, "checked", &checked, threads);
        assert_eq!(out, expected, "{threads} threads:\n{checked}");
        // One check per call: the new loops for distinct buffers, the
        // source text for the shared one.
        assert_eq!(err.trim(), "distinct 1 overlapping 1", "{checked}");
    }
    // Without the check, the interchanged loops print something else for
    // the shared buffer, even on one thread: the check is what keeps it.
    let assumed = compiled(&source, &Options { assume_no_alias: true, ..Options::optimising() });
    assert!(!checks(&assumed).contains("polyc_disjoint("), "{assumed}");
    let (out, err) = run(&dir, "assumed", &assumed, "1");
    let [distinct, shared]: [&str; 2] = out.lines().collect::<Vec<_>>().try_into().expect("two checksums");
    assert_eq!(distinct, expected.lines().next().unwrap_or_default());
    assert_ne!(shared, expected.lines().nth(1).unwrap_or_default(), "the alias did not matter: the test shows nothing");
    assert_eq!(err.trim(), "distinct 0 overlapping 0");
}

/// The first `if` of the versioned output: the run-time checks that
/// choose the new loops over the source (and the work check when it is
/// the only one).
fn checks(output: &str) -> String {
    output
        .lines()
        .skip_while(|l| !l.starts_with("#pragma scop"))
        .find(|l| l.trim_start().starts_with("if ("))
        .unwrap_or("")
        .to_string()
}

#[test]
fn only_pairs_that_may_share_memory_are_checked() {
    // `G` is a global the caller may pass as `C`; `T` is a local no
    // pointer from the caller reaches; `R` is `restrict`, which keeps it
    // apart from `T` and `G` but not from `C`, a pointer that may be a
    // copy of it; `A` is only read, like `G` and `R`, so those need no
    // check between them.
    let source = "double G[100][100];
void f(int n, double C[n][n], const double A[n][n], double *restrict R) {
  double T[100][100];
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      T[i][j] = A[j][i] + G[i][j];
      C[i][j] = T[i][j] * 2.0 + R[j];
    }
#pragma endscop
}
";
    let output = compiled(source, &Options::optimising());
    let line = checks(&output);
    assert_eq!(line.matches("polyc_disjoint(").count(), 3, "{output}");
    assert!(line.contains("&C[0][0], &C[n - 1][n - 1] + 1"), "{line}");
    assert!(line.contains("&A[0][0], &A[n - 1][n - 1] + 1"), "{line}");
    assert!(line.contains("&G[0][0], &G[n - 1][n - 1] + 1"), "{line}");
    assert!(line.contains("&R[0], &R[n - 1] + 1"), "{line}");
    assert!(!line.contains("&T["), "{line}");
}

#[test]
fn arrays_with_storage_of_their_own_need_no_check() {
    let source = "double A[100][100], B[100][100];
void f(int n) {
#pragma scop
  for (int i = 1; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = B[i - 1][j] + 1.0;
#pragma endscop
}
";
    let output = compiled(source, &Options::optimising());
    assert!(output.contains("#pragma omp parallel for"), "{output}");
    assert!(!output.contains("polyc_disjoint"), "{output}");
}

#[test]
fn a_divided_subscript_gets_a_rounded_footprint() {
    // `p[i / 2]`: the hull of its cells bounds `2x <= n - 1`, rounded to
    // `x <= floor((n - 1) / 2)`.
    let source = "void f(int n, double *p, double *q) {
#pragma scop
  for (int i = 0; i < n; i++)
    q[i] = p[i / 2] + 1.0;
#pragma endscop
}
";
    let output = compiled(source, &Options::optimising());
    assert!(
        checks(&output).contains("polyc_disjoint(&p[0], &p[polyc_floord(n - 1, 2)] + 1, &q[0], &q[n - 1] + 1)"),
        "{output}"
    );
    let assumed = compiled(source, &Options { assume_no_alias: true, ..Options::optimising() });
    assert!(!checks(&assumed).contains("polyc_disjoint"), "{assumed}");
}

/// `alias checks: A apart, O overlapping` from a corpus pointer kernel's
/// stderr.
fn counted_checks(stderr: &str) -> Option<(u64, u64)> {
    let line = stderr.lines().find_map(|l| l.strip_prefix("alias checks: "))?;
    let (apart, overlapping) = line.split_once(" apart, ")?;
    Some((apart.parse().ok()?, overlapping.strip_suffix(" overlapping")?.parse().ok()?))
}

#[test]
fn every_pointer_kernel_is_transformed_for_distinct_buffers_and_not_for_overlapping_ones() {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root().join("corpus/pointers")).expect("corpus/pointers").flatten() {
        files.push(entry.path());
    }
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let failures = on_workers(&files, |path| {
        let name = stem(path);
        let dir = scratch(&format!("alias-{name}"));
        let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).map_err(|d| d.message)?;
        if !scop_regions(&outcome.output).contains("#pragma omp") {
            let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code.as_str()).collect();
            return Err(format!("{name}: not transformed ({codes:?})"));
        }
        let (expected, _) = run(&dir, "source", &source, "1");
        for threads in ["1", "2"] {
            let (out, err) = run(&dir, "polyc", &outcome.output, threads);
            if out != expected {
                return Err(format!("{name}: prints something else on {threads} threads"));
            }
            // The call on distinct buffers passes every check, the call
            // on overlapping ones fails one and runs the source text.
            match counted_checks(&err) {
                Some((apart, overlapping)) if apart >= 1 && overlapping >= 1 => {}
                other => return Err(format!("{name}: alias checks {other:?} ({err})")),
            }
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The modes a table of row pointers is checked under: the default,
/// `--storage=best` and diamond tiles.
fn table_modes() -> [(&'static str, Options); 3] {
    let best = polyc::storage::StorageOptions { method: polyc::storage::Method::Best, ..Default::default() };
    let diamond = polyc::options::TileOptions { shape: polyc::options::TileShape::Diamond, ..Default::default() };
    [
        ("default", Options::optimising()),
        ("storage", Options { storage: best, ..Options::optimising() }),
        (
            "diamond",
            Options { plan: PlanRequest { tile: Some(diamond), ..PlanRequest::optimising() }, ..Options::default() },
        ),
    ]
}

/// A program calling `kernel` (`static void kernel(double **t, double
/// **u, int n)`) on two tables whose rows `rows` (a statement run for
/// each row `i` in `0..=n`) places in one buffer `buf`, then printing a
/// checksum of the buffer.
fn table_program(kernel: &str, rows: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
{kernel}
int main(int argc, char **argv) {{
  int n = argc > 1 ? atoi(argv[1]) : 30;
  long len = 4L * (n + 2) * (n + 2);
  double *buf = malloc(sizeof(double) * len);
  double **t = malloc(sizeof(double *) * (n + 1)), **u = malloc(sizeof(double *) * (n + 1));
  for (long k = 0; k < len; k++)
    buf[k] = 1.0 + (k % 7) * 0.125;
  for (int i = 0; i <= n; i++) {{
    {rows}
  }}
  kernel(t, u, n);
  double s = 0;
  for (long k = 0; k < len; k++)
    s += buf[k] * (1 + k % 13);
  printf("%.17g\n", s);
  return 0;
}}
"#
    )
}

const TABLE_RUNS: [&[&str]; 3] = [&["64"], &["5"], &["1"]];

#[test]
fn rows_laid_out_backwards_are_not_taken_for_apart() {
    // `u[i][j]` is `t[i][j - 1]`, row 0 at the end of the buffer: the
    // first and last rows' addresses bound nothing.
    let kernel = "static void kernel(double **t, double **u, int n) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 1; j < n; j++)
      t[i][j] = u[i][j] * 0.75 + 0.5;
#pragma endscop
}";
    let rows = "t[i] = buf + 1 + (long)(n - i) * (n + 2);\n    u[i] = t[i] - 1;";
    prints_what_the_source_prints("alias-rows-backwards", &table_program(kernel, rows), &table_modes(), &TABLE_RUNS);
}

#[test]
fn overlapping_rows_of_a_written_table_run_the_source_text() {
    // Row i starts 2 elements after row i - 1: each row overlaps the next.
    let kernel = "static void kernel(double **t, double **u, int n) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        t[i][j] = t[i][j] - 0.01 * t[i][k] * t[k][j];
#pragma endscop
}";
    let rows = "t[i] = u[i] = buf + 2 * i;";
    let outputs =
        prints_what_the_source_prints("alias-rows-overlap", &table_program(kernel, rows), &table_modes(), &TABLE_RUNS);
    assert!(outputs[0].contains("polyc_t_up || polyc_t_down"), "no row check:\n{}", outputs[0]);
}

/// A kernel on a table called with no rows and NULL pointers: the
/// source reads no row pointer, nor may the output. The column walk gets
/// loops for little work (`t[j][i]` with `i` innermost), which run
/// behind the alias checks alone. `prefix` comes first.
fn zero_trip_program(prefix: &str) -> String {
    format!(
        r#"{prefix}#include <stdio.h>
#include <stdlib.h>
static void columns(double **t, double *x, int n) {{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x[i] = x[i] + t[j][i] * 0.5;
#pragma endscop
}}
int main(int argc, char **argv) {{
  int n = argc > 1 ? atoi(argv[1]) : 0;
  double **t = 0, *x = 0;
  if (n > 0) {{
    t = malloc(sizeof(double *) * n);
    x = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {{
      t[i] = malloc(sizeof(double) * n);
      x[i] = i % 3;
      for (int j = 0; j < n; j++)
        t[i][j] = 1.0 + (i * 3 + j) % 5;
    }}
  }}
  columns(t, x, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * (i + 1);
  printf("%.17g\n", s);
  return 0;
}}
"#
    )
}

#[test]
fn a_call_with_no_rows_reads_no_row_pointer() {
    // The tests' builds define POLYC_MIN_WORK as 0, so the work check
    // passes; undefined, it fails and the loops for little work are
    // chosen.
    for (name, prefix) in [("alias-rows-zero-trip", ""), ("alias-rows-zero-trip-default", "#undef POLYC_MIN_WORK\n")] {
        let outputs =
            prints_what_the_source_prints(name, &zero_trip_program(prefix), &table_modes(), &[&["0"], &["6"]]);
        assert!(outputs[0].contains("for (long polyc_row = "), "no row walk:\n{}", outputs[0]);
    }
}

#[test]
fn a_table_of_rows_apart_is_walked_and_transformed() {
    // Rows allocated one by one, one table's after the other's (rows of
    // the two interleaved would make their spans meet); the alias checks
    // are counted (see `program`), reached only when the walk found the
    // rows apart.
    let source = r#"#include <stdio.h>
#include <stdlib.h>
static int distinct, overlapping;
typedef unsigned long address;
static int counted(address a, address a_end, address b, address b_end) {
  int apart = a_end <= b || b_end <= a;
  apart ? distinct++ : overlapping++;
  return apart;
}
#define polyc_disjoint(a, a_end, b, b_end) counted((address)(a), (address)(a_end), (address)(b), (address)(b_end))
static void blur(double **out, double **in, int n) {
#pragma scop
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      out[i][j] = (in[i - 1][j] + in[i][j - 1] + in[i][j] + in[i][j + 1] + in[i + 1][j]) * 0.2;
#pragma endscop
}
int main(void) {
  int n = 40;
  double **out = malloc(sizeof(double *) * n), **in = malloc(sizeof(double *) * n);
  for (int i = 0; i < n; i++)
    out[i] = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    in[i] = malloc(sizeof(double) * n);
    for (int j = 0; j < n; j++)
      out[i][j] = in[i][j] = (i * 5 + j * 3) % 7;
  }
  blur(out, in, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += out[i][j] * (1 + (i + j) % 3);
  printf("%.17g\n", s);
  fprintf(stderr, "distinct %d overlapping %d\n", distinct, overlapping);
  return 0;
}
"#;
    let dir = scratch("alias-rows-apart");
    let (expected, _) = run(&dir, "source", source, "1");
    let output = compiled(source, &Options::optimising());
    assert!(output.contains("#pragma omp parallel for"), "not transformed:\n{output}");
    let walk = "      for (long polyc_row = 1; polyc_row <= n - 2 && (polyc_out_up || polyc_out_down); polyc_row++) {";
    assert!(output.contains(walk), "{output}");
    assert!(output.contains("for (long polyc_row = 0; polyc_row <= n - 1; polyc_row++) {"), "{output}");
    for threads in ["1", "2"] {
        let (out, err) = run(&dir, "polyc", &output, threads);
        assert_eq!(out, expected, "{threads} threads:\n{output}");
        // out's cells against its rows, in's against out's rows, in's
        // rows against out's: all apart.
        assert_eq!(err.trim(), "distinct 3 overlapping 0", "{output}");
    }
}

#[test]
fn a_table_the_walk_cannot_cover_is_kept_with_a_diagnostic() {
    // Rows 0, 2, .. and 3, 5, ..: never one interval (the walk would
    // read rows the source does not); and row pointers assigned.
    let every_other_row = "void f(double **t, int n) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      t[2 * i][j] = t[2 * i + 3][j] * 0.5 + 1.0;
#pragma endscop
}
";
    let assigned = every_other_row.replace(
        "  for (int i = 0; i < n; i++)\n    for",
        "  for (int i = 0; i < n; i++)\n    t[i] = t[i + n];\n  for (int i = 0; i < n; i++)\n    for",
    );
    // Rows read only where `n > 4` (the `?:`): a call with n = 3 and
    // a NULL table reads none.
    let under_a_condition = every_other_row
        .replace("double **t, int n", "double **t, double *x, int n")
        .replace("t[2 * i][j] = t[2 * i + 3][j] * 0.5 + 1.0", "x[i] = x[i] + (n > 4 ? t[j][i] : 1.0)");
    for (source, why) in [
        (every_other_row.to_string(), "'t' is a table of row pointers whose rows read are never one interval"),
        (under_a_condition, "'t' is a table of row pointers whose rows read are never one interval read whatever"),
        (assigned, "'t' is a table of row pointers whose accesses read its row pointers themselves"),
    ] {
        let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).expect("compiles");
        assert_eq!(outcome.output, source);
        let codes: Vec<(&str, bool)> =
            outcome.diagnostics.iter().map(|d| (d.code.as_str(), d.message.contains(why))).collect();
        assert_eq!(
            codes,
            [("P0018", true)],
            "{:?}",
            outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_global_array_of_row_pointers_is_walked_not_redeclared() {
    // `rows` is an array object (of pointers): its cells are its own,
    // and `__typeof__(rows) restrict rows` would not compile. `out`'s
    // rows are `rows`' shifted by the second argument.
    let source = r#"#include <stdio.h>
#include <stdlib.h>
#define N 50
double *rows[N + 2];
static void sweep(double **restrict out, int n) {
  int i, j;
#pragma scop
  for (i = 1; i <= n; i++)
    for (j = 1; j <= n; j++)
      out[i][j] = rows[i - 1][j] * 0.5 + rows[i][j - 1] * 0.25 + out[i][j] * 0.125;
#pragma endscop
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]), shift = atoi(argv[2]);
  long len = 2 * (N + 2) * (N + 2);
  double *buf = malloc(sizeof(double) * len);
  double **out = malloc(sizeof(double *) * (N + 2));
  for (long e = 0; e < len; e++)
    buf[e] = (e % 9) * 0.5;
  for (int i = 0; i < N + 2; i++) {
    rows[i] = buf + 4 + i * (N + 2);
    out[i] = rows[i] + shift;
  }
  sweep(out, n);
  double s = 0;
  for (long e = 0; e < len; e++)
    s += buf[e] * (1 + e % 11);
  printf("%.17g\n", s);
  return 0;
}
"#;
    let runs: [&[&str]; 4] = [&["50", "0"], &["50", "1"], &["50", "-1"], &["0", "0"]];
    let outputs = prints_what_the_source_prints("alias-rows-global", source, &table_modes()[..1], &runs);
    assert!(!outputs[0].contains("restrict rows"), "{}", outputs[0]);
    assert!(
        outputs[0].contains("polyc_disjoint(&rows[0], &rows[n] + 1, polyc_out_low, polyc_out_end)"),
        "{}",
        outputs[0]
    );
}

#[test]
fn a_copy_of_a_file_scope_restrict_pointer_is_checked_against_it() {
    // `in = out` makes `in` a pointer "based on" `out`: C allows the two
    // to reach one buffer although `out` is `restrict` (TSVC's s421 does
    // `yy = xx`). The interchanged loops (rows outermost, parallel) read
    // cells already written when they do, so only a check keeps the
    // source's result.
    let source = r#"#include <stdio.h>
#include <stdlib.h>
#define N 40
double (*restrict out)[N];
double (*in)[N];
static void f(int n) {
#pragma scop
  for (int j = 1; j < n; j++)
    for (int i = 0; i < n - 1; i++)
      out[i][j] = in[i + 1][j - 1] * 0.5 + 1.0;
#pragma endscop
}
int main(int argc, char **argv) {
  double (*a)[N] = malloc(sizeof(double[N][N])), (*b)[N] = malloc(sizeof(double[N][N]));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i][j] = b[i][j] = (i * 7 + j * 3) % 11;
  out = a;
  in = atoi(argv[1]) ? b : out;
  f(N);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) s += a[i][j] * (1 + (i + 2 * j) % 5);
  printf("%.17g\n", s);
  return 0;
}
"#;
    parallel_behind_a_check_and_exact("alias-restrict-copy", source);
}

#[test]
fn a_pointer_parameter_the_function_points_at_a_local_is_checked_against_it() {
    // A parameter cannot point to its function's locals when the call
    // starts; `if (shared) p = t;` makes it, and the interchanged loops
    // then read cells of `t` already written.
    let source = r#"#include <stdio.h>
#include <stdlib.h>
#define N 40
static double f(int shared, double (*p)[N]) {
  double t[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) t[i][j] = (i * 7 + j * 3) % 11;
  if (shared)
    p = t;
#pragma scop
  for (int j = 1; j < N; j++)
    for (int i = 0; i < N - 1; i++)
      t[i][j] = p[i + 1][j - 1] * 0.5 + 1.0;
#pragma endscop
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) s += t[i][j] * (1 + (i + 2 * j) % 5);
  return s;
}
int main(int argc, char **argv) {
  static double b[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) b[i][j] = (i * 5 + j) % 13;
  printf("%.17g\n", f(atoi(argv[1]), b));
  return 0;
}
"#;
    parallel_behind_a_check_and_exact("alias-parameter-at-local", source);
}

/// `source` (whose first argument, 0 or 1, makes two of its pointers
/// reach one buffer) comes out in parallel behind an alias check, and
/// prints what the source prints either way, on 1 and 2 threads.
fn parallel_behind_a_check_and_exact(name: &str, source: &str) {
    let runs: [&[&str]; 2] = [&["0"], &["1"]];
    let outputs = prints_what_the_source_prints(name, source, &[("default", Options::optimising())], &runs);
    assert!(outputs[0].contains("#pragma omp parallel for"), "not transformed:\n{}", outputs[0]);
    assert!(checks(&outputs[0]).contains("polyc_disjoint("), "{}", outputs[0]);
}
