//! `--emit=deps`: the dependences in isl notation, by kind and statement pair.

use crate::deps::Kind;
use crate::model::{readable, statement_index, ModelError};
use crate::plan::Analyses;
use std::collections::BTreeMap;

/// `--emit=deps`: each kind, then each (source, sink) statement pair, in
/// isl notation with the program's names.
pub fn text(analyses: &Analyses) -> Result<String, ModelError> {
    let (scop, deps) = (analyses.scop(), analyses.deps()?);
    let mut out = String::new();
    for kind in Kind::ALL {
        let mut by_pair: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
        for m in deps.of(kind)?.coalesce()?.maps()? {
            let pair = (statement_index(&m.domain_name()?), statement_index(&m.range_name()?));
            by_pair.entry(pair).or_default().push(readable(&m.to_text()?, &scop.ast.params));
        }
        out.push_str(&format!("{} dependences: {}\n", kind.as_str(), by_pair.len()));
        for ((src, dst), relations) in by_pair {
            // A flow from a write that may not happen: the conditions it runs under.
            let under = match scop.ast.stmts.get(src).filter(|s| kind == Kind::Flow && s.may_skip_writes()) {
                Some(s) => {
                    let literals: Vec<String> =
                        s.filters.iter().map(|(v, holds)| if *holds { v.clone() } else { format!("!{v}") }).collect();
                    format!(" under {}", literals.join(" && "))
                }
                None => String::new(),
            };
            for r in relations {
                out.push_str(&format!("  S{src} -> S{dst}: {r}{under}\n"));
            }
        }
    }
    Ok(out)
}
