//! The stencils against memory bandwidth: a STREAM-like triad measures what
//! this machine's memory delivers, and again on arrays that fit the last
//! level cache (PolyBench's LARGE grids are at most about 30 MiB), and each
//! stencil's time is turned into the bandwidth a sweep-by-sweep schedule
//! would need to run that fast.
//!
//! The traffic counted is the one of the source's schedule with no reuse
//! between sweeps: every sweep reads and writes its arrays once from memory
//! (no write-allocate, as STREAM counts). A time-tiled schedule reuses data in
//! cache between sweeps, so its effective bandwidth may exceed the triad's; a
//! figure below the triad says how far the code is from that bound.

use crate::{build_driver, failure, timed, Config, KernelResult, Source, Variant, GCC, THREADS};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// `a[i] = b[i] + s * c[i]` over arrays of `LEN` doubles, each pass
/// timed, the best kept; prints the bandwidth in GB/s (24 bytes an element).
const TRIAD_DRIVER: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

int main(void) {
  double *a = malloc(sizeof(double) * LEN), *b = malloc(sizeof(double) * LEN), *c = malloc(sizeof(double) * LEN);
  if (!a || !b || !c)
    return 1;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < LEN; i++) {
    a[i] = 0.0;
    b[i] = 1.0 + (double) (i % 7);
    c[i] = 2.0 - (double) (i % 5);
  }
  double best = 1e30, s = 3.0;
  for (int p = 0; p < PASSES; p++) {
    double t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < LEN; i++)
      a[i] = b[i] + s * c[i];
    t = omp_get_wtime() - t;
    if (t < best)
      best = t;
  }
  double check = 0.0;
  for (long i = 0; i < LEN; i += 4096)
    check += a[i];
  printf("%.3f %.1f\n", 24.0 * LEN / best * 1e-9, check);
  free(a);
  free(b);
  free(c);
  return 0;
}
"#;

/// The triads: from memory (arrays of 256 MiB, well beyond any cache) and
/// from the last level cache (4 MiB each, 12 in all: within a 16 or 32 MiB
/// L3, beyond any L2), with their passes, of which the best counts.
const TRIADS: [Triad; 2] =
    [Triad { name: "memory", len_log2: 25, passes: 10 }, Triad { name: "L3", len_log2: 19, passes: 400 }];

struct Triad {
    name: &'static str,
    len_log2: u32,
    passes: u32,
}

impl Triad {
    fn described(&self) -> String {
        let mib = (8u64 << self.len_log2) >> 20;
        format!("{} (3 arrays of {mib} MiB, best of {} passes)", self.name, self.passes)
    }
}

/// A stencil's traffic per time step: `streamed` arrays of the grid read or
/// written once each, the grid `dims` (macros of the kernel's header), over
/// `steps` (a macro) time steps.
struct Stencil {
    kernel: &'static str,
    steps: &'static str,
    streamed: usize,
    dims: &'static [&'static str],
}

/// jacobi: two sweeps a step, each reads one array and writes the other;
/// seidel-2d updates one array in place; fdtd-2d's three updates stream
/// 3 + 3 + 4 arrays.
const STENCILS: [Stencil; 5] = [
    Stencil { kernel: "jacobi-1d", steps: "TSTEPS", streamed: 4, dims: &["N"] },
    Stencil { kernel: "jacobi-2d", steps: "TSTEPS", streamed: 4, dims: &["N", "N"] },
    Stencil { kernel: "heat-3d", steps: "TSTEPS", streamed: 4, dims: &["N", "N", "N"] },
    Stencil { kernel: "seidel-2d", steps: "TSTEPS", streamed: 2, dims: &["N", "N"] },
    Stencil { kernel: "fdtd-2d", steps: "TMAX", streamed: 10, dims: &["NX", "NY"] },
];

pub struct Bandwidth {
    /// Per entry of `TRIADS`, GB/s per entry of `THREADS`, or why they are missing.
    triads: Result<Vec<Vec<f64>>, String>,
    stencils: Vec<StencilBandwidth>,
}

struct StencilBandwidth {
    kernel: &'static str,
    bytes: f64,
    /// Effective GB/s of the baseline, then of polyc per entry of `THREADS`.
    baseline: Option<f64>,
    polyc: Vec<Option<f64>>,
}

/// The macros `gcc -E -dM` finds in a kernel's header for its dataset.
pub fn header_macros(config: &Config, header: &Path) -> HashMap<String, String> {
    let kernel = header.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let out = Command::new(GCC[0])
        .args(["-E", "-dM", &format!("-D{}_DATASET", config.dataset_of(kernel))])
        .arg("-I")
        .arg(config.pb.join("utilities"))
        .arg(header)
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else { return HashMap::new() };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut w = l.strip_prefix("#define ")?.split_whitespace();
            Some((w.next()?.to_string(), w.next()?.to_string()))
        })
        .collect()
}

fn stencil_bytes(config: &Config, s: &Stencil) -> Option<f64> {
    let kernel = config.kernels.iter().find(|k| k.name == s.kernel)?;
    let macros = header_macros(config, &kernel.source.with_extension("h"));
    let value = |name: &str| macros.get(name)?.parse::<f64>().ok();
    let points: f64 = s.dims.iter().map(|d| value(d)).product::<Option<f64>>()?;
    Some(value(s.steps)? * s.streamed as f64 * points * 8.0)
}

fn run_triad(config: &Config, work: &Path, triad: &Triad) -> Result<Vec<f64>, String> {
    let flags = [
        "-fopenmp".into(),
        format!("-DLEN=(1L<<{})", triad.len_log2).into(),
        format!("-DPASSES={}", triad.passes).into(),
    ];
    let (binary, _) = build_driver(work, &format!("triad-{}", triad.name), TRIAD_DRIVER, &flags, &[])?;
    THREADS
        .iter()
        .map(|t| {
            let (out, _) = timed(config.timeout, &binary, &[], &[("OMP_NUM_THREADS", t.to_string())], work)?;
            if !out.status.success() {
                return Err(failure("the triad", &out));
            }
            let text = String::from_utf8_lossy(&out.stdout);
            text.split_whitespace().next().and_then(|g| g.parse().ok()).ok_or(format!("the triad printed `{text}`"))
        })
        .collect()
}

/// `None` if no stencil is among the kernels.
pub fn measure(config: &Config, variants: &[Variant], results: &[KernelResult], work: &Path) -> Option<Bandwidth> {
    let median_of = |r: &KernelResult, i: Option<usize>| i.and_then(|i| r.cells[i].time());
    let stencils: Vec<StencilBandwidth> = STENCILS
        .iter()
        .filter_map(|s| {
            let r = results.iter().find(|r| r.name == s.kernel)?;
            let bytes = stencil_bytes(config, s)?;
            let gbs = |t: Option<f64>| t.map(|t| bytes / t * 1e-9);
            let polyc = THREADS
                .iter()
                .map(|&t| gbs(median_of(r, variants.iter().position(|v| v.source == Source::Polyc && v.threads == t))))
                .collect();
            Some(StencilBandwidth { kernel: s.kernel, bytes, baseline: gbs(median_of(r, Some(0))), polyc })
        })
        .collect();
    if stencils.is_empty() {
        return None;
    }
    let triads = TRIADS.iter().map(|t| run_triad(config, work, t)).collect();
    Some(Bandwidth { triads, stencils })
}

fn gbs_text(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.1} GB/s")).unwrap_or_else(|| "-".into())
}

pub fn lines(b: &Bandwidth) -> Vec<String> {
    let triads = match &b.triads {
        Ok(t) => t,
        Err(e) => return vec![format!("memory bandwidth: left out ({e})")],
    };
    let mut out = vec!["bandwidth, STREAM-like triad:".to_string()];
    for (triad, gbs) in TRIADS.iter().zip(triads) {
        let per_thread: Vec<String> = THREADS.iter().zip(gbs).map(|(t, g)| format!("{t}t {g:.1} GB/s")).collect();
        out.push(format!("  {}: {}", triad.described(), per_thread.join(", ")));
    }
    out.push(
        "stencils' effective bandwidth (what an untiled sweep-by-sweep schedule moves, over the time; above a \
         triad means reuse across sweeps; in brackets, against the memory triad and the L3 one):"
            .into(),
    );
    for s in &b.stencils {
        let mut line =
            format!("  {:<10} {:>7.2} GB moved: baseline {}", s.kernel, s.bytes * 1e-9, gbs_text(s.baseline));
        for (at, (t, g)) in THREADS.iter().zip(&s.polyc).enumerate() {
            let _ = write!(line, ", polyc {t}t {}", gbs_text(*g));
            if let Some(g) = g {
                let shares: Vec<String> = triads.iter().map(|gbs| format!("{:.2}x", g / gbs[at])).collect();
                let _ = write!(line, " ({})", shares.join(", "));
            }
        }
        out.push(line);
    }
    out
}

pub fn to_json(b: &Bandwidth) -> Value {
    let per_thread = |gbs: &[f64]| -> Value {
        json!(THREADS.iter().zip(gbs).map(|(t, g)| (t.to_string(), json!(g))).collect::<serde_json::Map<_, _>>())
    };
    let (triad, l3) = match &b.triads {
        Ok(t) => (per_thread(&t[0]), per_thread(&t[1])),
        Err(e) => (json!({ "left_out": e }), json!({ "left_out": e })),
    };
    let stencils: Vec<Value> = b
        .stencils
        .iter()
        .map(|s| {
            json!({ "kernel": s.kernel, "bytes": s.bytes, "baseline_gb_s": s.baseline,
                    "polyc_gb_s": THREADS.iter().zip(&s.polyc).map(|(t, g)| (t.to_string(), json!(g))).collect::<serde_json::Map<_, _>>() })
        })
        .collect();
    json!({ "triad_gb_s": triad, "l3_triad_gb_s": l3, "stencils": stencils })
}
