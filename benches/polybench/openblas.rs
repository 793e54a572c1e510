//! OpenBLAS's `cblas_dgemm` at gemm's sizes: what a tuned library reaches on
//! this machine, the physical anchor beside the polyhedral tools' gemm.

use crate::{build_driver, failure, median, speedup_text, timed, Config, KernelResult, Source, Variant, THREADS};
use serde_json::{json, Value};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// One `cblas_dgemm` at gemm.h's sizes for `-D<DATASET>_DATASET`, timed
/// after initialisation as PolyBench times its kernel; the initial values
/// follow gemm.c's init_array. Prints `NI NJ NK seconds`.
const DGEMM_DRIVER: &str = r#"#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "gemm.h"

int main(void) {
  double *A = malloc(sizeof(double) * NI * NK);
  double *B = malloc(sizeof(double) * NK * NJ);
  double *C = malloc(sizeof(double) * NI * NJ);
  if (!A || !B || !C)
    return 1;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      C[i * NJ + j] = (double) ((i * j + 1) % NI) / NI;
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i * NK + k] = (double) (i * (k + 1) % NK) / NK;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k * NJ + j] = (double) (k * (j + 2) % NJ) / NJ;
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NJ, NK, 1.5, A, NK, B, NJ, 1.2, C, NJ);
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%d %d %d %.6f\n", NI, NJ, NK, (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) * 1e-9);
  free(A);
  free(B);
  free(C);
  return 0;
}
"#;

/// OpenBLAS's dgemm at gemm's sizes: what a tuned library reaches on this
/// machine, a physical bound beside the polyhedral tools' gemm.
pub struct Dgemm {
    command: String,
    /// NI, NJ, NK as gemm.h defines them for the dataset.
    sizes: [usize; 3],
    /// Per entry of `THREADS`, every run's seconds.
    runs: Vec<Vec<f64>>,
}

/// pkg-config's flags for OpenBLAS (Debian keeps cblas.h in a directory of
/// its own), else the compiler's default paths.
fn openblas_flags() -> Vec<String> {
    Command::new("pkg-config")
        .args(["--cflags", "--libs", "openblas"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).split_whitespace().map(String::from).collect())
        .unwrap_or_else(|| vec!["-lopenblas".into()])
}

/// The driver's `NI NJ NK seconds` line.
fn run_dgemm(config: &Config, binary: &Path, threads: usize, work: &Path) -> Result<([usize; 3], f64), String> {
    let env = [("OPENBLAS_NUM_THREADS", threads.to_string()), ("OMP_NUM_THREADS", threads.to_string())];
    let (out, _) = timed(config.timeout, binary, &[], &env, work)?;
    if !out.status.success() {
        return Err(failure("the dgemm run", &out));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    parse_dgemm(&text).ok_or_else(|| format!("the dgemm driver printed `{}`", text.trim()))
}

fn parse_dgemm(text: &str) -> Option<([usize; 3], f64)> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [ni, nj, nk, s] = fields[..] else { return None };
    Some(([ni.parse().ok()?, nj.parse().ok()?, nk.parse().ok()?], s.parse().ok()?))
}

impl Dgemm {
    /// GFLOP/s of the median run per entry of `THREADS`.
    pub fn gflops(&self) -> Vec<Option<f64>> {
        let flops = 2.0 * self.sizes.iter().map(|&n| n as f64).product::<f64>();
        self.runs.iter().map(|r| median(r).map(|s| flops / s * 1e-9)).collect()
    }
}

/// `None` if gemm is not among the kernels, the reason if OpenBLAS is left out.
pub fn openblas_dgemm(config: &Config, work: &Path) -> Option<Result<Dgemm, String>> {
    let gemm = config.kernels.iter().find(|k| k.name == "gemm")?;
    let flags = [OsString::from("-I"), gemm.dir().into(), format!("-D{}_DATASET", config.dataset).into()];
    let built = build_driver(work, "openblas-dgemm", DGEMM_DRIVER, &flags, &openblas_flags());
    Some(built.and_then(|(binary, command)| {
        let mut sizes = [0; 3];
        let mut runs = vec![Vec::new(); THREADS.len()];
        // Rounds over the thread counts, as the kernels' runs are interleaved.
        for _ in 0..config.runs {
            for (t, runs) in THREADS.iter().zip(&mut runs) {
                let (n, s) = run_dgemm(config, &binary, *t, work)?;
                sizes = n;
                runs.push(s);
            }
        }
        Ok(Dgemm { command, sizes, runs })
    }))
}

/// Three significant digits at least: at MINI to MEDIUM a dgemm takes well
/// under a millisecond.
fn seconds(x: Option<f64>) -> String {
    let decimals = |x: f64| if x > 0.0 { (2 - x.log10().floor() as i32).max(3) as usize } else { 3 };
    x.map(|x| format!("{x:.*} s", decimals(x))).unwrap_or_else(|| "-".into())
}

/// gemm's median seconds: the baseline's, and polyc's per entry of `THREADS`.
fn gemm_medians(variants: &[Variant], results: &[KernelResult]) -> (Option<f64>, Vec<Option<f64>>) {
    let gemm = results.iter().find(|r| r.name == "gemm");
    let median_of = |i: Option<usize>| gemm.zip(i).and_then(|(r, i)| r.cells[i].time());
    let polyc = THREADS
        .iter()
        .map(|&t| median_of(variants.iter().position(|v| v.source == Source::Polyc && v.threads == t)))
        .collect();
    (median_of(Some(0)), polyc)
}

pub fn dgemm_line(d: &Result<Dgemm, String>, variants: &[Variant], results: &[KernelResult]) -> String {
    let d = match d {
        Ok(d) => d,
        Err(e) => return format!("OpenBLAS: left out ({e})"),
    };
    let medians: Vec<Option<f64>> = d.runs.iter().map(|r| median(r)).collect();
    let blas: Vec<String> = THREADS.iter().zip(&medians).map(|(t, m)| format!("{} ({t}t)", seconds(*m))).collect();
    let (base, polyc) = gemm_medians(variants, results);
    let over: Vec<String> = medians.iter().map(|m| speedup_text(base.zip(*m).map(|(b, m)| b / m))).collect();
    let polyc: Vec<String> = THREADS.iter().zip(polyc).map(|(t, m)| format!("{t}t {}", seconds(m))).collect();
    let [ni, nj, nk] = d.sizes;
    format!(
        "OpenBLAS dgemm at gemm's sizes (NI {ni}, NJ {nj}, NK {nk}): {}; gemm baseline {}: {}; polyc gemm: {}",
        blas.join(", "),
        seconds(base),
        over.join(", "),
        polyc.join(", ")
    )
}

pub fn dgemm_json(d: &Result<Dgemm, String>, variants: &[Variant], results: &[KernelResult]) -> Value {
    let d = match d {
        Ok(d) => d,
        Err(e) => return json!({ "left_out": e }),
    };
    let (base, polyc) = gemm_medians(variants, results);
    let threads: serde_json::Map<String, Value> = THREADS
        .iter()
        .zip(&d.runs)
        .zip(polyc)
        .map(|((&t, runs), polyc)| {
            let m = median(runs);
            (
                t.to_string(),
                json!({ "median_s": m, "runs_s": runs, "speedup_over_baseline": base.zip(m).map(|(b, m)| b / m),
                        "polyc_gemm_median_s": polyc }),
            )
        })
        .collect();
    let [ni, nj, nk] = d.sizes;
    json!({ "command": d.command, "sizes": { "NI": ni, "NJ": nj, "NK": nk }, "gemm_baseline_s": base, "threads": threads })
}
