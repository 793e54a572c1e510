//! Whether a second thread pays: first on this machine (a spin loop each
//! thread runs alone, which scales unless the cores are shared or busy),
//! then on polyc's output for every kernel with a parallel region.

use crate::{build_driver, failure, geomean, speedup_text, timed, Config, KernelResult, Source, Variant};
use std::path::Path;

/// Scaling is judged against this: two threads that pay nearly double.
const SCALING: f64 = 1.8;

/// Each thread runs the same chain of dependent multiply-adds, touching no
/// memory; the best of five rounds, in seconds. With two cores to itself,
/// two threads take as long as one, so twice the work runs in that time.
const SPIN_DRIVER: &str = r#"#include <stdio.h>
#include <omp.h>

#define STEPS 100000000L
#define ROUNDS 5

int main(void) {
  double best = 1e30, sink = 0.0;
  for (int r = 0; r < ROUNDS; r++) {
    double t = omp_get_wtime();
#pragma omp parallel reduction(+ : sink)
    {
      double x = 1.0 + 1e-3 * omp_get_thread_num();
      for (long i = 0; i < STEPS; i++)
        x = x * 0.999999 + 1e-6;
      sink += x;
    }
    t = omp_get_wtime() - t;
    if (t < best)
      best = t;
  }
  printf("%.6f %.3f\n", best, sink);
  return 0;
}
"#;

/// The spin loop's throughput on two threads over one's (2.0 where both
/// cores are free).
pub fn spin_loop(config: &Config, work: &Path) -> Result<f64, String> {
    let (binary, _) = build_driver(work, "spin", SPIN_DRIVER, &["-fopenmp".into()], &[])?;
    let seconds = |threads: usize| -> Result<f64, String> {
        let env = [("OMP_NUM_THREADS", threads.to_string())];
        let (out, _) = timed(config.timeout, &binary, &[], &env, work)?;
        if !out.status.success() {
            return Err(failure("the spin loop", &out));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        text.split_whitespace().next().and_then(|s| s.parse().ok()).ok_or(format!("the spin loop printed `{text}`"))
    };
    let (one, two) = (seconds(1)?, seconds(2)?);
    Ok(2.0 * one / two)
}

pub fn spin_line(spin: &Result<f64, String>) -> String {
    match spin {
        Ok(x) if *x >= SCALING => format!("2-thread spin loop: {x:.2}x the 1-thread one (the cores scale)"),
        Ok(x) => format!(
            "2-thread spin loop: {x:.2}x the 1-thread one: the cores are shared or busy, \
             so no 2-thread figure below says what polyc's threads do"
        ),
        Err(e) => format!("2-thread spin loop: left out ({e})"),
    }
}

/// polyc's 2-thread speedup over its 1-thread one, on the kernels whose
/// output has an OpenMP parallel region (the others run one thread anyway).
pub fn two_threads_over_one<'a>(variants: &[Variant], results: &'a [KernelResult]) -> Vec<(&'a str, f64)> {
    let at = |t: usize| variants.iter().position(|v| v.source == Source::Polyc && v.threads == t);
    let (Some(one), Some(two)) = (at(1), at(2)) else { return Vec::new() };
    results
        .iter()
        .filter(|r| {
            r.polyc.error.is_none()
                && std::fs::read_to_string(&r.polyc.output).is_ok_and(|c| c.contains("#pragma omp parallel"))
        })
        .filter_map(|r| Some((r.name.as_str(), r.speedup(two)? / r.speedup(one)?)))
        .collect()
}

pub fn scaling_line(scaling: &[(&str, f64)]) -> String {
    let below: Vec<String> =
        scaling.iter().filter(|(_, x)| *x < SCALING).map(|(k, x)| format!("{k} {x:.2}x")).collect();
    format!(
        "polyc 2t over 1t, on the {} kernels whose output has a parallel region: geomean {}; below {SCALING}x: {}",
        scaling.len(),
        speedup_text(geomean(&scaling.iter().map(|(_, x)| *x).collect::<Vec<_>>())),
        if below.is_empty() { "none".to_string() } else { below.join(", ") }
    )
}
