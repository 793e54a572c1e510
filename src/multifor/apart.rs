//! Whether the loops of a multifor may run apart: no dependence links
//! two of them.

use crate::deps::{Dependences, Kind};
use crate::model::isl::IslResult;
use crate::model::{statement_index, Scop};

/// How the loops of a multifor SCoP run.
pub enum Loops {
    /// Not one multifor, or not asked to run its loops apart.
    Interleaved,
    /// The statements of each loop; no dependence links two loops.
    Apart(Vec<Vec<usize>>),
    /// Kept interleaved: a dependence links these two statements of
    /// different loops.
    Linked(usize, usize),
}

/// The statements of each loop of the SCoP's multifor, when the SCoP is
/// one multifor of two loops or more.
pub fn loops(scop: &Scop) -> Option<Vec<Vec<usize>>> {
    let (first, _) = scop.ast.stmts.first()?.component?;
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, s) in scop.ast.stmts.iter().enumerate() {
        let (multifor, loop_) = s.component?;
        if multifor != first {
            return None;
        }
        if groups.len() <= loop_ {
            groups.resize(loop_ + 1, Vec::new());
        }
        groups[loop_].push(k);
    }
    groups.retain(|g| !g.is_empty());
    (groups.len() > 1).then_some(groups)
}

/// Whether the loops of the SCoP's multifor may run apart: no flow,
/// anti or output dependence between statements of different loops.
pub fn apart(scop: &Scop, deps: &Dependences) -> IslResult<Loops> {
    let Some(groups) = loops(scop) else { return Ok(Loops::Interleaved) };
    let loop_of = |k: usize| scop.ast.stmts.get(k).and_then(|s| s.component).map(|(_, l)| l);
    let all = deps.flow.union(deps.of(Kind::Anti)?)?.union(deps.of(Kind::Output)?)?;
    for m in all.maps()? {
        let (a, b) = (statement_index(&m.domain_name()?), statement_index(&m.range_name()?));
        if loop_of(a) != loop_of(b) && !m.is_empty()? {
            return Ok(Loops::Linked(a, b));
        }
    }
    Ok(Loops::Apart(groups))
}
