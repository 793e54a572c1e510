//! UOV-guided index-set splitting (Yuki and Rajopadhye, Section 6,
//! Algorithm 1): a flow that exists only on a boundary of its writer's
//! domain (its producers satisfy an equality the domain does not) can
//! make every value of the array live longer than it needs. Such
//! boundaries become pieces of the array's cells, stored apart from the
//! rest, each with its own mapping.
//!
//! A boundary flow whose distance the main flows already cover (within
//! their element-wise maximum, Theorem 1) would not shorten anything and
//! makes no piece; boundary flows whose cells overlap make one piece.
//!
//! The rest of the cells is one more piece, and every access's cells join
//! the pieces they touch, so that each access keeps to one piece. Each
//! piece is mapped on its own (conflicts between its cells only:
//! `lifetime::conflicts` with a piece) and becomes an array of its own
//! (`Contraction::accesses` names the accesses it takes); the split is kept
//! only if the pieces hold fewer cells in all (quov_split's `X`: N + 1
//! cells as one array, two scalars split).

use super::quov::{DataFlow, TimeSpace};
use crate::model::isl::{IslResult, Set};
use crate::model::Scop;

/// Arrays whose values flow along more distances than this are not split:
/// each distance's producers cost a few isl operations, and a boundary is
/// a matter of a few flows.
const MAX_FLOWS: usize = 64;

/// The pieces `array`'s cells split into: the boundary groups, then the
/// rest (`None`: no boundary flow asks for a split, or the flows are not
/// uniform).
pub fn pieces(scop: &Scop, array: &str) -> IslResult<Option<Vec<Set>>> {
    let Some(space) = TimeSpace::of(scop, array)? else {
        return Ok(None);
    };
    let Some(flows) = space.dataflows(scop, array)?.filter(|f| f.len() <= MAX_FLOWS) else {
        return Ok(None);
    };
    // The array's cells play the part of the paper's statement domain:
    // several statements may write it (a boundary and a main one).
    let cells = written(&space)?;
    let full = cells.dimension()?;
    let (mut boundary, mut main) = (Vec::new(), Vec::new());
    for flow in flows {
        if cells_of(scop, &space, &flow)?.dimension()? < full {
            boundary.push(flow);
        } else {
            main.push(space.reduced(&flow.vector));
        }
    }
    let covered = element_wise_maximum(&main);
    let mut groups: Vec<Set> = Vec::new();
    for flow in boundary.iter().filter(|f| !within(&space.reduced(&f.vector), covered.as_deref())) {
        add_to_groups(&mut groups, cells_of(scop, &space, flow)?)?;
    }
    if groups.is_empty() {
        return Ok(None);
    }
    let mut rest = cells;
    for group in &groups {
        rest = rest.subtract(group)?;
    }
    if !rest.is_empty()? {
        groups.push(rest);
    }
    for access in scop.statements.iter().flat_map(|s| &s.accesses).filter(|a| a.array == array) {
        add_to_groups(&mut groups, access.relation.range()?)?;
    }
    if groups.len() < 2 {
        return Ok(None);
    }
    groups.iter().map(Set::coalesce).collect::<IslResult<Vec<Set>>>().map(Some)
}

/// The element-wise maximum of `vectors` (`None` if there are none).
fn element_wise_maximum(vectors: &[Vec<i64>]) -> Option<Vec<i64>> {
    let first = vectors.first()?;
    Some((0..first.len()).map(|d| vectors.iter().map(|v| v[d]).max().unwrap_or(0)).collect())
}

/// Whether `v` is no longer than `bound` in any dimension.
fn within(v: &[i64], bound: Option<&[i64]>) -> bool {
    bound.is_some_and(|b| v.iter().zip(b).all(|(x, y)| x <= y))
}

/// The cells the flow's producers write.
fn cells_of(scop: &Scop, space: &TimeSpace, flow: &DataFlow) -> IslResult<Set> {
    match space.writers.iter().find(|(k, _)| *k == flow.writer) {
        Some((_, write)) => write.intersect_domain(&flow.producers(scop)?)?.range(),
        None => Err(crate::model::isl::IslError(format!("S{} writes nothing", flow.writer))),
    }
}

/// Every cell the array's writers write.
fn written(space: &TimeSpace) -> IslResult<Set> {
    let mut cells: Option<Set> = None;
    for (_, write) in &space.writers {
        let range = write.range()?;
        cells = Some(match cells {
            Some(c) => c.union(&range)?,
            None => range,
        });
    }
    cells.ok_or_else(|| crate::model::isl::IslError("no writer".into()))
}

/// `cells` merged with every group it overlaps, or a group of its own:
/// the boundary flows' cells form groups so, and every access's cells
/// then join the groups they touch, so that each access keeps to one
/// piece (a corner and the edge it ends become one piece when a read
/// reaches both).
fn add_to_groups(groups: &mut Vec<Set>, cells: Set) -> IslResult<()> {
    let mut merged = cells;
    let mut kept = Vec::new();
    for group in groups.drain(..) {
        if group.intersect(&merged)?.is_empty()? {
            kept.push(group);
        } else {
            merged = merged.union(&group)?;
        }
    }
    kept.push(merged);
    *groups = kept;
    Ok(())
}
