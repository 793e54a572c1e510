//! The wall-clock budget (`--time-budget`): whatever isl does, a SCoP
//! comes out within it, transformed or as written, and the output prints
//! what the source prints; and running out of isl operations is never
//! reported as a syntax error.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Seven statements in two nests of one loop, all reading and writing
/// three small 1-d arrays, under guards that cut the iteration domains
/// (`i >= n / 2 - 3`, `j <= i + 5`, `i <= 5`): the exact dataflow comes
/// out in dozens of fragments, and isl's scheduler, building and solving
/// its linear programs over them in ever larger integers, takes 1.6 s
/// (12.7 s before isl kept small integers inline; the issue's nine
/// statements: 70 s) within its operation budget. A budget of 0.05 s
/// runs out before the scheduler starts, on any machine: the SCoP is kept
/// with P0015.
const FRAGMENTED: &str = r#"#include <stdio.h>
double X[80], Y[80], Z[80];
int main(int argc, char **argv) {
  int n = argc > 100 ? argc : 30;
  int i, j, k;
  for (i = 0; i < 80; i++) { X[i] = i % 5; Y[i] = i % 3; Z[i] = i % 7; }
#pragma scop
  for (i = 1; i < n - 2; i++) {
    for (j = 2; j < n - 1; j++) {
      if (i >= n / 2 - 3)
        Z[10 + j] += Y[10 + i];
      X[10 + j - 1] += 0.5 * (X[10 + j + 2] + Z[10 + i + 1]);
      if (j <= i + 5)
        Y[10 + i + 2] += X[10 + i + 1];
    }
    for (j = 1; j < n - 2; j++) {
      Z[10 + i - 2] += 0.25 * Z[10 + i + 1];
      for (k = 0; k < j + 3; k++) {
        Y[10 + k + 2] = Y[10 + j - 2] + 1.0;
        if (i <= 5)
          Z[10 + j + 2] += X[10 + k - 1] - X[10 + i + 2];
      }
    }
    Y[10 + i + 1] += 0.5 * Y[10 + i - 1];
  }
#pragma endscop
  double s = 0;
  for (i = 0; i < 80; i++) s += (X[i] + 2 * Y[i] + 3 * Z[i]) * (1 + i % 7);
  printf("%.17g\n", s);
  return 0;
}
"#;

/// polyc on `input` with `args`: status, the output file's text, stderr, and the time it took.
fn polyc(input: &Path, output: &Path, args: &[&str]) -> (Option<i32>, String, String, Duration) {
    let start = Instant::now();
    let mut cmd = Command::new(polyc_bin());
    cmd.arg(input).arg("-o").arg(output).args(args);
    let (code, _, err) = run_with(cmd, Duration::from_secs(120)).expect("polyc finishes");
    let text = std::fs::read_to_string(output).unwrap_or_default();
    (code, text, String::from_utf8_lossy(&err).into_owned(), start.elapsed())
}

/// What a program prints, compiled with OpenMP and run on `threads` threads.
fn prints(source: &Path, threads: &str) -> Vec<u8> {
    let binary = source.with_extension(format!("t{threads}"));
    gcc(source, &binary, &["-fopenmp"]).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
    let mut cmd = Command::new(&binary);
    cmd.env("OMP_NUM_THREADS", threads);
    match run_with(cmd, Duration::from_secs(60)) {
        Ok((Some(0), out, _)) => out,
        other => panic!("{}: {other:?}", binary.display()),
    }
}

#[test]
fn fragmented_dependences_compile_within_the_time_budget() {
    let dir = scratch("budget-fragmented");
    let input = dir.join("fragmented.c");
    std::fs::write(&input, FRAGMENTED).unwrap();
    let output = dir.join("fragmented.polyc.c");
    let (code, text, err, took) = polyc(&input, &output, &[]);
    assert_eq!(code, Some(0), "{err}");
    // The default budget is 10 s a SCoP (planning gets half).
    assert!(took < Duration::from_secs(10), "took {took:?}\n{err}");
    let expected = prints(&input, "1");
    assert!(!text.is_empty());
    for threads in ["1", "2"] {
        assert_eq!(prints(&output, threads), expected, "{threads} threads\n{text}");
    }
}

#[test]
fn a_scop_out_of_time_keeps_its_source_with_p0015_naming_the_phase() {
    let dir = scratch("budget-short");
    let input = dir.join("fragmented.c");
    std::fs::write(&input, FRAGMENTED).unwrap();
    let output = dir.join("fragmented.polyc.c");
    let (code, text, err, took) = polyc(&input, &output, &["--time-budget", "0.05"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(took < Duration::from_secs(3), "took {took:?}\n{err}");
    assert_eq!(text, FRAGMENTED);
    assert!(err.contains("P0015") && err.contains("out of its time budget (0.05 s) in "), "{err}");
    // The batch mode takes the same flag.
    let out_dir = dir.join("out");
    let mut cmd = Command::new(polyc_bin());
    cmd.arg("batch").arg(&dir).arg("-o").arg(&out_dir).args(["--time-budget", "0.05", "--jobs", "1"]);
    let (code, _, err) = run_with(cmd, Duration::from_secs(60)).expect("batch finishes");
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&err));
    assert_eq!(std::fs::read_to_string(out_dir.join("fragmented.c")).unwrap(), FRAGMENTED);
}

#[test]
fn the_library_entry_point_honours_the_time_budget() {
    let plan = polyc::options::PlanRequest {
        time_budget: Some(Duration::from_millis(50)),
        ..polyc::options::PlanRequest::optimising()
    };
    let options = polyc::options::Options { plan, ..polyc::options::Options::default() };
    let start = Instant::now();
    let out = polyc::driver::compile(FRAGMENTED.to_string(), &options).expect("it parses");
    assert!(start.elapsed() < Duration::from_secs(3));
    assert_eq!(out.output, FRAGMENTED);
    assert!(out.diagnostics.iter().any(|d| d.code == polyc::diagnostics::Code::P0015));
    // The thread's isl context works again for the next SCoP.
    let plain = polyc::options::Options::default();
    let again = polyc::driver::compile(FRAGMENTED.to_string(), &plain).expect("it parses");
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
}

/// A complete ADI (PolyBench's adi, macros expanded: two sweeps of four
/// statements, coefficients from the sizes `N` and `TSTEPS`) under
/// operation budgets that run out in planning or in scanning: isl's
/// parser, out of operations, says "syntax error", which P0014 used to
/// report as "out of isl budget: [Invalid] syntax error".
#[test]
fn adi_out_of_isl_operations_is_never_a_syntax_error() {
    let dir = scratch("budget-adi");
    let input = dir.join("adi.c");
    std::fs::write(&input, ADI).unwrap();
    let inputs: Vec<&str> = vec!["3000000", "6000000", "8500000", "20000000"];
    let failures = on_workers(&inputs, |budget| {
        let output = dir.join(format!("adi.{budget}.c"));
        let (code, text, err, _) = polyc(&input, &output, &["--isl-budget", budget, "--time-budget", "0"]);
        if code != Some(0) || err.contains("syntax error") || err.contains("does not read") || text.is_empty() {
            return Err(format!("budget {budget}: exit {code:?}\n{err}"));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const ADI: &str = r#"#include <stdio.h>
#define TSTEPS 20
#define N 40
static double u[N][N], v[N][N], p[N][N], q[N][N];
static void kernel_adi(double u[N][N], double v[N][N], double p[N][N], double q[N][N])
{
  int t, i, j;
  double DX, DY, DT, B1, B2, mul1, mul2, a, b, c, d, e, f;
#pragma scop
  DX = 1.0/(double)N;
  DY = 1.0/(double)N;
  DT = 1.0/(double)TSTEPS;
  B1 = 2.0;
  B2 = 1.0;
  mul1 = B1 * DT / (DX * DX);
  mul2 = B2 * DT / (DY * DY);
  a = -mul1 /  2.0;
  b = 1.0+mul1;
  c = a;
  d = -mul2 / 2.0;
  e = 1.0+mul2;
  f = d;
  for (t=1; t<=TSTEPS; t++) {
    for (i=1; i<N-1; i++) {
      v[0][i] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = v[0][i];
      for (j=1; j<N-1; j++) {
        p[i][j] = -c / (a*p[i][j-1]+b);
        q[i][j] = (-d*u[j][i-1]+(1.0+2.0*d)*u[j][i] - f*u[j][i+1]-a*q[i][j-1])/(a*p[i][j-1]+b);
      }
      v[N-1][i] = 1.0;
      for (j=N-2; j>=1; j--)
        v[j][i] = p[i][j] * v[j+1][i] + q[i][j];
    }
    for (i=1; i<N-1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (j=1; j<N-1; j++) {
        p[i][j] = -f / (d*p[i][j-1]+e);
        q[i][j] = (-a*v[i-1][j]+(1.0+2.0*a)*v[i][j] - c*v[i+1][j]-d*q[i][j-1])/(d*p[i][j-1]+e);
      }
      u[i][N-1] = 1.0;
      for (j=N-2; j>=1; j--)
        u[i][j] = p[i][j] * u[i][j+1] + q[i][j];
    }
  }
#pragma endscop
}
int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      u[i][j] = (double)(i + N - j) / N;
  kernel_adi(u, v, p, q);
  double s = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      s += u[i][j] * ((i * 7 + j) % 13);
  printf("%.10e\n", s);
  return 0;
}
"#;
