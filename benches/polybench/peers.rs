//! polyc against the virtual best peer at each thread count: per kernel
//! the fastest of gcc and of the peers (Polly, PLUTO) that ran it
//! correctly, the geometric means and where polyc trails.

use crate::*;

/// One kernel in `AgainstBest`: speedups over the baseline.
pub(crate) struct BestOfKernel {
    pub(crate) name: String,
    pub(crate) polyc: f64,
    pub(crate) best: f64,
    /// The variant the best speedup is from (`baseline` for gcc's 1.0x).
    pub(crate) best_of: &'static str,
}

/// polyc at one thread count against the virtual best peer: per kernel the
/// fastest of gcc (1.0x) and of the peers that ran it correctly at that count.
pub(crate) struct AgainstBest {
    pub(crate) threads: usize,
    pub(crate) peers: Vec<&'static str>,
    /// The kernels polyc ran correctly at `threads`.
    pub(crate) kernels: Vec<BestOfKernel>,
    /// The kernels with no polyc speedup at `threads` (polyc or the baseline
    /// failed or was WRONG), which no figure counts.
    pub(crate) left_out: Vec<String>,
}

impl AgainstBest {
    pub(crate) fn polyc_geomean(&self) -> Option<f64> {
        geomean(&self.kernels.iter().map(|k| k.polyc).collect::<Vec<_>>())
    }

    pub(crate) fn best_geomean(&self) -> Option<f64> {
        geomean(&self.kernels.iter().map(|k| k.best).collect::<Vec<_>>())
    }

    pub(crate) fn ratio(&self) -> Option<f64> {
        Some(self.polyc_geomean()? / self.best_geomean()?)
    }

    pub(crate) fn at_least_best(&self) -> usize {
        self.kernels.iter().filter(|k| k.polyc >= k.best).count()
    }

    /// The kernels on which polyc loses more than noise to plain gcc.
    pub(crate) fn below_gcc(&self) -> Vec<&str> {
        self.kernels.iter().filter(|k| k.polyc < 0.95).map(|k| k.name.as_str()).collect()
    }
}

pub(crate) fn against_virtual_best(
    variants: &[Variant],
    results: &[KernelResult],
    threads: usize,
) -> Option<AgainstBest> {
    let polyc = variants.iter().position(|v| v.source == Source::Polyc && v.threads == threads)?;
    let peers: Vec<usize> =
        (0..variants.len()).filter(|&i| variants[i].is_peer() && variants[i].threads == threads).collect();
    let mut kernels = Vec::new();
    let mut left_out = Vec::new();
    for r in results {
        let Some(p) = r.speedup(polyc) else {
            left_out.push(r.name.clone());
            continue;
        };
        let (best, best_of) = peers
            .iter()
            .filter_map(|&i| r.speedup(i).map(|s| (s, variants[i].key)))
            .fold((1.0, variants[0].key), |a, b| if b.0 > a.0 { b } else { a });
        kernels.push(BestOfKernel { name: r.name.clone(), polyc: p, best, best_of });
    }
    Some(AgainstBest { threads, peers: peers.iter().map(|&i| variants[i].key).collect(), kernels, left_out })
}

pub(crate) fn virtual_best_heading(config: &Config) -> String {
    let peers: Vec<&str> = [("Polly", config.clang.is_some()), ("PLUTO", config.polycc.is_some())]
        .into_iter()
        .filter_map(|(name, present)| present.then_some(name))
        .collect();
    let best = if peers.is_empty() {
        "gcc alone (1.0x): neither Polly nor PLUTO is there".to_string()
    } else {
        format!("per kernel the fastest of gcc (1.0x), {} at the same thread count", peers.join(" and "))
    };
    format!("against the virtual best peer, {best}; over the kernels polyc ran correctly at that thread count:")
}

pub(crate) fn against_best_lines(a: &AgainstBest) -> [String; 2] {
    let t = a.threads;
    let mut count = format!(
        "polyc/{t}: >= virtual best on {}/{}; below 0.95x of gcc: {}",
        a.at_least_best(),
        a.kernels.len(),
        Some(a.below_gcc().join(", ")).filter(|s| !s.is_empty()).unwrap_or_else(|| "none".into())
    );
    if !a.left_out.is_empty() {
        let _ = write!(count, "; not counted (polyc {t}t not timed): {}", a.left_out.join(", "));
    }
    let means = format!(
        "virtual-best/{t} {}, polyc/{t} {}, polyc/virtual-best {} over {} kernels",
        speedup_text(a.best_geomean()),
        speedup_text(a.polyc_geomean()),
        a.ratio().map(|r| format!("{r:.3}")).unwrap_or_else(|| "-".into()),
        a.kernels.len()
    );
    [means, count]
}

pub(crate) fn against_best_json(a: &AgainstBest) -> Value {
    let kernels: Vec<Value> = a
        .kernels
        .iter()
        .map(|k| json!({ "name": k.name, "polyc": k.polyc, "virtual_best": k.best, "best_of": k.best_of }))
        .collect();
    json!({
        "threads": a.threads,
        "peers": a.peers,
        "virtual_best_geomean": a.best_geomean(),
        "polyc_geomean": a.polyc_geomean(),
        "polyc_over_virtual_best": a.ratio(),
        "at_least_virtual_best": a.at_least_best(),
        "kernels_counted": a.kernels.len(),
        "below_0_95_of_gcc": a.below_gcc(),
        "not_counted": a.left_out,
        "per_kernel": kernels,
    })
}
