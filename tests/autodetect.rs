//! `--autodetect`: SCoPs found without pragmas, and `--emit=scops`.
//!
//! PolyBench is third-party data and not in the repository: it is read
//! from `POLYBENCH_DIR` (default `../shared/polybench-4.2.1` beside the
//! crate), its pragmas removed in memory; without it those tests say so
//! and pass.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn is_pragma(line: &str, what: &str) -> bool {
    let words: Vec<&str> = line.trim().trim_start_matches('#').split_whitespace().collect();
    line.trim_start().starts_with('#') && words == ["pragma", what]
}

/// The text without its `#pragma scop`/`endscop` lines, and the lines
/// (1-based, in that text) the region's statements take.
fn without_pragmas(text: &str) -> (String, (usize, usize)) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let open = lines.iter().position(|l| is_pragma(l, "scop")).expect("a #pragma scop");
    let close = lines.iter().position(|l| is_pragma(l, "endscop")).expect("a #pragma endscop");
    let kept: String = lines.iter().enumerate().filter(|(k, _)| *k != open && *k != close).map(|(_, l)| *l).collect();
    (kept, (open + 1, close - 1))
}

fn polyc(args: &[&str], input: &Path) -> (bool, String, String) {
    let out = Command::new(polyc_bin()).args(args).arg(input).output().expect("polyc runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Build `source` with PolyBench's utilities and run it on the MINI data
/// set: the arrays it dumps (its standard error).
fn dump(pb: &Path, source: &Path, kernel_dir: &Path, binary: &Path) -> Result<Vec<u8>, String> {
    let utilities = pb.join("utilities");
    let out = Command::new("gcc")
        .args(["-O2", "-w", "-fopenmp", "-DPOLYC_MIN_WORK=0", "-DPOLYBENCH_DUMP_ARRAYS", "-DMINI_DATASET"])
        .arg("-I")
        .arg(&utilities)
        .arg("-I")
        .arg(kernel_dir)
        .arg(source)
        .arg(utilities.join("polybench.c"))
        .arg("-o")
        .arg(binary)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !out.status.success() {
        return Err(format!("gcc fails on {}: {}", source.display(), String::from_utf8_lossy(&out.stderr)));
    }
    let mut cmd = Command::new(binary);
    cmd.env("OMP_NUM_THREADS", "2");
    match run_with(cmd, Duration::from_secs(20))? {
        (Some(0), _, err) => Ok(err),
        (code, _, _) => Err(format!("{} exited with {code:?}", binary.display())),
    }
}

#[test]
fn polybench_kernels_without_pragmas_are_found_and_compute_the_same() {
    let Some(pb) = polybench_dir() else { return };
    let scratch = scratch("autodetect-polybench");
    let kernels = [
        "linear-algebra/blas/gemm/gemm.c",
        "stencils/jacobi-2d/jacobi-2d.c",
        "linear-algebra/kernels/atax/atax.c",
        "linear-algebra/solvers/lu/lu.c",
    ];
    let failures = on_workers(&kernels, |kernel| {
        let path = pb.join(kernel);
        let name = stem(&path);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{kernel}: {e}"))?;
        let (bare, (first, last)) = without_pragmas(&text);
        let input = scratch.join(format!("{name}.c"));
        std::fs::write(&input, &bare).map_err(|e| e.to_string())?;
        let include = format!("-I{}", pb.join("utilities").display());
        let dir = path.parent().unwrap_or(&pb);
        let own = format!("-I{}", dir.display());
        let (ok, listing, err) = polyc(&["--emit=scops", &include, &own], &input);
        let wanted = format!(": loop nest: accepted (region lines {first}-{last})");
        if !ok || !listing.lines().any(|l| l.contains(&format!(":{first}:")) && l.ends_with(&wanted)) {
            return Err(format!("{name}: no region at lines {first}-{last}:\n{listing}{err}"));
        }
        let output = scratch.join(format!("{name}.polyc.c"));
        let (ok, _, err) = polyc(&["--autodetect", "-q", &include, &own, "-o", output.to_str().unwrap_or("")], &input);
        if !ok {
            return Err(format!("{name}: polyc --autodetect fails: {err}"));
        }
        let written = std::fs::read_to_string(&output).map_err(|e| e.to_string())?;
        if written == bare {
            return Err(format!("{name}: nothing was transformed"));
        }
        let before = dump(&pb, &path, dir, &scratch.join(format!("{name}.orig")))?;
        let after = dump(&pb, &output, dir, &scratch.join(format!("{name}.new")))?;
        if before != after || before.is_empty() {
            return Err(format!("{name}: the dumps differ ({} and {} bytes)", before.len(), after.len()));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn polybench_utilities_are_left_as_written() {
    let Some(pb) = polybench_dir() else { return };
    let path = pb.join("utilities/polybench.c");
    let include = format!("-I{}", pb.join("utilities").display());
    let (ok, out, err) = polyc(&["--autodetect", "-q", &include], &path);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&path).expect("polybench.c is readable");
    assert_eq!(out, text, "polybench.c was transformed");
    // The flush loop runs under `#pragma omp parallel for` with OpenMP.
    let (_, listing, _) = polyc(&["--emit=scops", &include], &path);
    assert!(listing.lines().all(|l| !l.contains("accepted")), "{listing}");
}

const IO_THEN_CLEAN: &str = r#"#include <stdio.h>
double A[200][200], B[200][200], C[200];

void kernel(int n, int m)
{
  int i, j;
  for (i = 0; i < n; i++) {
    C[i] = 0.0;
    printf("%d\n", i);
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      A[i][j] = A[i][j] + B[j][i] * 2.0;
}

int main(void)
{
  int i;
  for (i = 0; i < 200; i++)
    B[i][i] = i;
  kernel(200, 200);
  printf("%f\n", A[3][3]);
  return 0;
}
"#;

#[test]
fn a_loop_with_io_is_refused_and_the_clean_nest_after_it_found() {
    let scratch = scratch("autodetect-io");
    let input = scratch.join("io.c");
    std::fs::write(&input, IO_THEN_CLEAN).expect("scratch is writable");
    let (ok, listing, err) = polyc(&["--emit=scops"], &input);
    assert!(ok, "{err}");
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 3, "{listing}");
    let io = format!(
        "{}:7:3: kernel: loop nest: rejected: I/O or side effect at {}:9:5 [P0019]",
        input.display(),
        input.display()
    );
    assert!(lines[0].starts_with(&io), "{listing}");
    assert!(
        lines[1].starts_with(&format!("{}:11:3: kernel: loop nest: accepted (region lines 11-13)", input.display())),
        "{listing}"
    );
    assert!(lines[2].contains(":19:3: main: loop nest: rejected: too little work"), "{listing}");

    let (ok, out, err) = polyc(&["--autodetect", "-q"], &input);
    assert!(ok, "{err}");
    let source_lines: Vec<&str> = IO_THEN_CLEAN.lines().collect();
    assert!(out.starts_with(&source_lines[..10].join("\n")), "the I/O loop is kept as written:\n{out}");
    assert!(out.contains("#pragma omp parallel for"), "the clean nest is transformed:\n{out}");
    assert!(out.ends_with(&source_lines[14..].join("\n").to_string().add_newline()), "main is kept:\n{out}");
    let output = scratch.join("io.polyc.c");
    std::fs::write(&output, &out).expect("scratch is writable");
    for (source, binary) in [(&input, "orig"), (&output, "new")] {
        gcc(source, &scratch.join(binary), &["-fopenmp"]).unwrap_or_else(|e| panic!("gcc: {e}"));
    }
    let before = run(&scratch.join("orig"), Duration::from_secs(10)).expect("runs");
    let after = run(&scratch.join("new"), Duration::from_secs(10)).expect("runs");
    assert_eq!(before, after);
}

trait AddNewline {
    fn add_newline(self) -> String;
}

impl AddNewline for String {
    fn add_newline(self) -> String {
        self + "\n"
    }
}

#[test]
fn without_autodetect_unmarked_functions_are_untouched() {
    let scratch = scratch("autodetect-off");
    let input = scratch.join("io.c");
    std::fs::write(&input, IO_THEN_CLEAN).expect("scratch is writable");
    let (ok, out, err) = polyc(&["-q"], &input);
    assert!(ok, "{err}");
    assert_eq!(out, IO_THEN_CLEAN);
}

const INSIDE_OPENMP: &str = "\
#define N 2000
double a[N][N], b[N][N];
void kernel(void) {
  int i, j;
#pragma omp parallel for private(j)
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = i + j;
  for (i = 1; i < N; i++)
    for (j = 0; j < N; j++)
      b[i][j] = a[i - 1][j] * 2;
}
";

#[test]
fn a_nest_inside_an_openmp_loop_gets_no_threads_of_its_own() {
    // The source's threads run the inner loop already: a parallel loop
    // there would start a team per iteration of theirs.
    let scratch = scratch("autodetect-openmp");
    let input = scratch.join("omp.c");
    std::fs::write(&input, INSIDE_OPENMP).expect("scratch is writable");
    let (ok, out, err) = polyc(&["--autodetect", "-q"], &input);
    assert!(ok, "{err}");
    let comments: Vec<&str> = out.lines().filter(|l| l.contains("/* polyc:")).collect();
    assert_eq!(comments.len(), 2, "{out}");
    assert!(!comments[0].contains("parallel"), "{}", comments[0]);
    assert!(comments[1].contains("parallel (OpenMP)"), "{}", comments[1]);
    // The source's; the second nest's waits for its own work.
    assert_eq!(ungated_regions(&out).len(), 1, "{out}");
    assert!(comments[1].contains("where a region's work pays"), "{}", comments[1]);
}
