//! One parallel region around a wavefront (`emit::wavefront`): where a
//! sequential loop's statements all lie in parallel loops inside it, the
//! threads start once, around it, and each step's loops are shared out
//! by `#pragma omp for`. The corpus equivalence test runs these outputs
//! on one and two threads against the source.

use crate::common;
use polyc::driver;
use polyc::options::Options;
use std::path::Path;

fn default_output(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(format!("{name}.c"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let outcome = driver::compile(text, &Options::optimising()).unwrap_or_else(|d| panic!("{name}: {}", d.message));
    assert!(outcome.diagnostics.is_empty(), "{name}: {:?}", outcome.diagnostics[0].message);
    outcome.output
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Each `#pragma omp for` line of `code` with the `#pragma omp parallel`
/// line of the region it is in, if there is one: the nearest line
/// before it, less indented, whose statement (the next line and those
/// indented further) reaches down to it.
fn worksharing_loops(code: &str) -> Vec<(usize, Option<usize>)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (k, line) in lines.iter().enumerate().filter(|(_, l)| l.trim_start().starts_with("#pragma omp for")) {
        let mut region = None;
        for r in (0..k).rev() {
            let opens = lines[r].trim() == "#pragma omp parallel" && indent(lines[r]) < indent(line);
            // The region's statement is the line after it, and what that holds is indented further.
            if opens && lines[r + 2..k].iter().all(|l| indent(l) > indent(lines[r]) || l.trim().is_empty()) {
                region = Some(r);
                break;
            }
        }
        found.push((k, region));
    }
    found
}

/// Diamond tiles' time steps (jacobi-1d, heat-3d) and the pivot steps of
/// floyd-warshall and seidel-2d's wavefront: one team per run of the
/// step loop, no region per step.
#[test]
fn a_wavefront_starts_its_threads_once() {
    for name in ["jacobi-1d", "heat-3d", "floyd-warshall", "seidel-2d"] {
        let code = default_output(name);
        let lines: Vec<&str> = code.lines().collect();
        let shared = worksharing_loops(&code);
        assert!(!shared.is_empty(), "{name}: no loop shared out in a region:\n{code}");
        for (k, region) in shared {
            let r = region.unwrap_or_else(|| panic!("{name}: line {k} outside a region:\n{code}"));
            assert!(lines[r + 1].trim_start().starts_with("for ("), "{name}: the region is not a loop's:\n{code}");
        }
    }
}

/// What a step runs outside its parallel loops runs on one thread of the
/// team (fdtd-2d's boundary row under its tiles' wavefront, in the piece
/// of the scanner's guard `NX <= -31`), and the step stays in the region.
#[test]
fn work_outside_a_steps_parallel_loops_runs_on_one_thread() {
    let code = default_output("fdtd-2d");
    let lines: Vec<&str> = code.lines().collect();
    let (k, region) = worksharing_loops(&code)[0];
    let r = region.unwrap_or_else(|| {
        panic!(
            "line {k} outside a region:
{code}"
        )
    });
    let end = (r + 2..lines.len()).find(|&e| indent(lines[e]) <= indent(lines[r])).unwrap_or(lines.len());
    let single = (r..end).find(|&s| lines[s].trim() == "#pragma omp single").expect("no single in the region");
    let block = (single + 2..end).find(|&e| indent(lines[e]) == indent(lines[single])).unwrap();
    assert_eq!(lines[single + 1].trim(), "{", "{code}");
    assert!(lines[single..block].iter().any(|l| l.trim() == "ey[0][j] = fict[t];"), "{code}");
}

/// A step's own statement (a running sum the step's rows read) between
/// its parallel loops: on one thread, then the rows shared out, and the
/// program prints what the source prints on one and two threads (600 x
/// 600 x 30 instances pass `POLYC_MIN_WORK`: the new loops run).
#[test]
fn a_steps_own_statement_runs_once_before_its_rows() {
    let source = r#"#include <stdio.h>
#include <stdlib.h>

static void steps(int n, int m, double A[n][n], double s[m + 1]) {
#pragma scop
  for (int t = 0; t < m; t++) {
    s[t + 1] = A[t % 2][1] * 0.5 + s[t];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        A[i][j] = A[i][j] * 0.25 + s[t + 1];
  }
#pragma endscop
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]), m = atoi(argv[2]);
  double (*A)[n] = malloc(sizeof(double[n][n])), *s = calloc(m + 1, sizeof *s);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = (i * 7 + j * 3) % 11 / 3.0;
  steps(n, m, A, s);
  for (int i = 0; i < n; i++)
    printf("%.17g %.17g\n", A[i][(i * 5) % n], s[i % (m + 1)]);
  return 0;
}
"#;
    let modes = [("default", Options::optimising())];
    let outputs =
        common::prints_what_the_source_prints("wavefront_single", source, &modes, &[&["600", "30"], &["5", "3"]]);
    let lines: Vec<&str> = outputs[0].lines().map(str::trim).collect();
    let single = lines.iter().position(|l| *l == "#pragma omp single").expect("no single");
    assert_eq!(lines[single - 2], "#pragma omp parallel", "{}", outputs[0]);
    assert_eq!(lines[single + 2], "s[t + 1] = A[t % 2][1] * 0.5 + s[t];", "{}", outputs[0]);
    assert!(lines[single + 4].starts_with("#pragma omp for"), "{}", outputs[0]);
}
