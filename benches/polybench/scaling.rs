//! Whether a second thread pays: first on this machine (two loops each
//! thread runs alone, touching no memory: a scalar chain, which scales
//! unless the cores are shared or busy, and vector multiply-adds, which
//! scale unless the two cores also share their vector units), then on
//! polyc's output for every kernel with a parallel region.

use crate::{build_driver, failure, geomean, speedup_text, timed, Config, KernelResult, Source, Variant};
use serde_json::{json, Value};
use std::path::Path;

/// Scaling is judged against this: two threads that pay nearly double.
const SCALING: f64 = 1.8;

/// Each thread runs `CHAINS` independent chains of dependent multiply-adds
/// of `STEPS` steps, touching no memory; the best of five rounds, in
/// seconds, and each thread's floating-point operations. With two cores to
/// itself, two threads take as long as one, so twice the work runs in that
/// time. One chain is the spin loop; 32 chains gcc -O3 -march=native keeps
/// in vector registers (eight 4-wide FMA chains with AVX2, enough to hide
/// the FMA latency on two pipes): the arithmetic peak of a core, what a
/// contraction at BLAS speed approaches. Two vCPUs that share one core's
/// vector units scale on the spin loop and not on the vector one.
const DRIVER: &str = r#"#include <stdio.h>
#include <omp.h>

#define ROUNDS 5

int main(void) {
  double best = 1e30, sink = 0.0;
  for (int r = 0; r < ROUNDS; r++) {
    double t = omp_get_wtime();
#pragma omp parallel reduction(+ : sink)
    {
      double x[CHAINS];
      for (int c = 0; c < CHAINS; c++)
        x[c] = 1.0 + 1e-3 * (c + omp_get_thread_num());
      for (long i = 0; i < STEPS; i++)
        for (int c = 0; c < CHAINS; c++)
          x[c] = x[c] * 0.999999 + 1e-6;
      for (int c = 0; c < CHAINS; c++)
        sink += x[c];
    }
    t = omp_get_wtime() - t;
    if (t < best)
      best = t;
  }
  printf("%.6f %.0f %.3f\n", best, 2.0 * CHAINS * STEPS, sink);
  return 0;
}
"#;

/// A loop that touches no memory, run on 1 and on 2 threads.
pub struct Probe {
    /// What the report calls it.
    name: &'static str,
    /// What a 2-thread figure is worth where this loop does not scale.
    below: &'static str,
    /// The best time on 1 and on 2 threads, in seconds.
    seconds: [f64; 2],
    /// Floating-point operations of one thread.
    flops: f64,
}

impl Probe {
    /// Throughput on two threads over one (2.0 where both cores are free).
    pub fn two_over_one(&self) -> f64 {
        2.0 * self.seconds[0] / self.seconds[1]
    }

    /// GFLOP/s on 1 and on 2 threads.
    pub fn gflops(&self) -> [f64; 2] {
        [self.flops / self.seconds[0] * 1e-9, 2.0 * self.flops / self.seconds[1] * 1e-9]
    }
}

/// The scalar chain: whether two threads run at once at all.
pub fn spin_loop(config: &Config, work: &Path) -> Result<Probe, String> {
    let below = "the cores are shared or busy, so no 2-thread figure below says what polyc's threads do";
    probe(config, work, ("spin loop", below), [1, 100_000_000])
}

/// The vector multiply-adds: whether two threads compute at once.
pub fn fma_loop(config: &Config, work: &Path) -> Result<Probe, String> {
    let below = "the two vCPUs share vector units, so a vectorised kernel cannot double on 2 threads here";
    probe(config, work, ("vector FMA loop", below), [32, 50_000_000])
}

/// [`DRIVER`] with `[CHAINS, STEPS]`, run on 1 and on 2 threads.
fn probe(
    config: &Config,
    work: &Path,
    (name, below): (&'static str, &'static str),
    [chains, steps]: [u64; 2],
) -> Result<Probe, String> {
    let stem = name.replace(' ', "-");
    let flags = ["-fopenmp".into(), format!("-DCHAINS={chains}").into(), format!("-DSTEPS={steps}L").into()];
    let (binary, _) = build_driver(work, &stem, DRIVER, &flags, &[])?;
    let run = |threads: usize| -> Result<(f64, f64), String> {
        let env = [("OMP_NUM_THREADS", threads.to_string())];
        let (out, _) = timed(config.timeout, &binary, &[], &env, work)?;
        if !out.status.success() {
            return Err(failure(&format!("the {name}"), &out));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let mut fields = text.split_whitespace().map(str::parse::<f64>);
        match (fields.next(), fields.next()) {
            (Some(Ok(seconds)), Some(Ok(flops))) if seconds > 0.0 => Ok((seconds, flops)),
            _ => Err(format!("the {name} printed `{}`", text.trim())),
        }
    };
    let ((one, flops), (two, _)) = (run(1)?, run(2)?);
    Ok(Probe { name, below, seconds: [one, two], flops })
}

pub fn probe_line(probe: &Result<Probe, String>) -> String {
    let p = match probe {
        Ok(p) => p,
        Err(e) => return format!("machine: a probe left out ({e})"),
    };
    let [g1, g2] = p.gflops();
    let verdict = if p.two_over_one() >= SCALING { "it scales" } else { p.below };
    format!(
        "2-thread {}: {:.2}x the 1-thread one, {g1:.1} GFLOP/s on 1 thread, {g2:.1} on 2 ({verdict})",
        p.name,
        p.two_over_one()
    )
}

pub fn probe_json(probe: &Result<Probe, String>) -> Value {
    match probe {
        Ok(p) => {
            let [g1, g2] = p.gflops();
            json!({ "2t_over_1t": p.two_over_one(), "gflop_s": { "1": g1, "2": g2 }, "seconds": p.seconds })
        }
        Err(e) => json!({ "error": e }),
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
