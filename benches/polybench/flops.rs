//! The contractions' arithmetic rate: each kernel's floating-point
//! operations over its time, in GFLOP/s, beside OpenBLAS's dgemm where it
//! ran (else polyc's own gemm): what a tuned library reaches on this
//! machine, the bar for every contraction.
//!
//! Operations are counted as BLAS counts them: two per multiply-add of the
//! contraction, the scaling and the other loops left out.

use crate::bandwidth::header_macros;
use crate::openblas::Dgemm;
use crate::{Config, KernelResult, Source, Variant, THREADS};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// A kernel's operations from its header's sizes (`size` reads a macro).
type Count = fn(&dyn Fn(&str) -> Option<f64>) -> Option<f64>;

const CONTRACTIONS: [(&str, Count); 11] = [
    ("gemm", |n| Some(2.0 * n("NI")? * n("NJ")? * n("NK")?)),
    ("2mm", |n| Some(2.0 * n("NI")? * n("NJ")? * (n("NK")? + n("NL")?))),
    ("3mm", |n| {
        Some(2.0 * (n("NI")? * n("NJ")? * n("NK")? + n("NJ")? * n("NL")? * n("NM")? + n("NI")? * n("NL")? * n("NJ")?))
    }),
    // j <= i: N (N + 1) / 2 dot products of length M.
    ("syrk", |n| Some(n("N")? * (n("N")? + 1.0) * n("M")?)),
    ("syr2k", |n| Some(2.0 * n("N")? * (n("N")? + 1.0) * n("M")?)),
    // Two multiply-adds for each k < i.
    ("symm", |n| Some(2.0 * n("M")? * (n("M")? - 1.0) * n("N")?)),
    ("trmm", |n| Some(n("M")? * (n("M")? - 1.0) * n("N")?)),
    ("doitgen", |n| Some(2.0 * n("NR")? * n("NQ")? * n("NP")? * n("NP")?)),
    // For each k, the columns j > k: a dot product and an update of length M.
    ("gramschmidt", |n| Some(2.0 * n("M")? * n("N")? * (n("N")? - 1.0))),
    ("covariance", |n| Some(n("M")? * (n("M")? + 1.0) * n("N")?)),
    ("correlation", |n| Some(n("M")? * (n("M")? - 1.0) * n("N")?)),
];

/// A contraction's name, the baseline's GFLOP/s and polyc's per entry of
/// `THREADS`.
type KernelRate = (&'static str, Option<f64>, Vec<Option<f64>>);

pub struct Rates {
    /// Per contraction among the kernels.
    kernels: Vec<KernelRate>,
    /// The bar per entry of `THREADS`, and what it is.
    bar: (Vec<Option<f64>>, &'static str),
}

/// `None` if no contraction is among the kernels.
pub fn measure(
    config: &Config,
    variants: &[Variant],
    results: &[KernelResult],
    dgemm: Option<&Dgemm>,
) -> Option<Rates> {
    let polyc_at = |t: usize| variants.iter().position(|v| v.source == Source::Polyc && v.threads == t);
    let kernels: Vec<_> = CONTRACTIONS
        .iter()
        .filter_map(|(name, count)| {
            let r = results.iter().find(|r| r.name == *name)?;
            let kernel = config.kernels.iter().find(|k| k.name == *name)?;
            let macros = header_macros(config, &kernel.source.with_extension("h"));
            let flops = count(&|m| macros.get(m)?.parse::<f64>().ok())?;
            let rate = |i: Option<usize>| i.and_then(|i| r.cells[i].time()).map(|s| flops / s * 1e-9);
            Some((*name, rate(Some(0)), THREADS.iter().map(|&t| rate(polyc_at(t))).collect::<Vec<_>>()))
        })
        .collect();
    let bar = match dgemm {
        Some(d) => (d.gflops(), "OpenBLAS dgemm"),
        None => {
            let gemm = kernels.iter().find(|k| k.0 == "gemm");
            (THREADS.iter().enumerate().map(|(i, _)| gemm.and_then(|g| g.2[i])).collect(), "polyc's gemm")
        }
    };
    (!kernels.is_empty()).then_some(Rates { kernels, bar })
}

fn rate_text(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.1}")).unwrap_or_else(|| "-".into())
}

/// The report's lines; `peak`: the vector FMA loop's GFLOP/s per entry of
/// `THREADS` (the arithmetic peak), where it ran.
pub fn lines(r: &Rates, peak: Option<[f64; 2]>) -> Vec<String> {
    let bars: Vec<String> = THREADS.iter().zip(&r.bar.0).map(|(t, g)| format!("{t}t {}", rate_text(*g))).collect();
    let mut head = format!("contractions, GFLOP/s (two per multiply-add); the bar, {}: {}", r.bar.1, bars.join(", "));
    if let Some(peak) = peak {
        let peaks: Vec<String> = THREADS.iter().zip(peak).map(|(t, g)| format!("{t}t {g:.1}")).collect();
        let _ = write!(
            head,
            "; the peak, the vector FMA loop: {} (in brackets: % of the bar, of the peak)",
            peaks.join(", ")
        );
    }
    let mut out = vec![head];
    for (name, baseline, polyc) in &r.kernels {
        let mut line = format!("  {name:<12} baseline {:>5}", rate_text(*baseline));
        for (i, (t, g)) in THREADS.iter().zip(polyc).enumerate() {
            let _ = write!(line, ", polyc {t}t {:>5}", rate_text(*g));
            let shares: Vec<String> = [r.bar.0[i], peak.map(|p| p[i])]
                .iter()
                .filter_map(|bar| Some(format!("{:>3.0}%", 100.0 * (*g)? / (*bar)?)))
                .collect();
            if !shares.is_empty() {
                let _ = write!(line, " ({})", shares.join(", "));
            }
        }
        out.push(line);
    }
    out
}

pub fn to_json(r: &Rates) -> Value {
    let per_thread = |v: &[Option<f64>]| {
        THREADS.iter().zip(v).map(|(t, g)| (t.to_string(), json!(g))).collect::<serde_json::Map<_, _>>()
    };
    let kernels: Vec<Value> = r
        .kernels
        .iter()
        .map(|(name, baseline, polyc)| json!({ "kernel": name, "baseline": baseline, "polyc": per_thread(polyc) }))
        .collect();
    json!({ "unit": "GFLOP/s", "bar": r.bar.1, "bar_gflop_s": per_thread(&r.bar.0), "kernels": kernels })
}
