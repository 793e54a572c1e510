//! Full tiles apart: the tiles of a statement where the loops around its
//! innermost one have bounds free of each other (their points form a
//! box, `tile::full_tiles`; the innermost loop's bounds may still move,
//! which `emit::ragged` handles) printed as a piece of their own, with
//! marks of their own, where that gains a loop to jam or a register
//! block: a mark the statement lacks, or the bounds a register block
//! needs.
//!
//! trmm's rows `i` are not parallel in the tiles on its diagonal, where
//! a row reads the rows below it that the tile writes too; off the
//! diagonal, no dependence joins two of a tile's rows, and eight of them
//! around four copies of `k` keep a block of `B` in registers as gemm's
//! does (0.065-0.090 s -> 0.039 s at LARGE on one thread). symm's sum over
//! `k < i` is a register block in name only: its `k` loop ends at each
//! row's `i`; off the diagonal it ends at the tile's edge (0.120 s ->
//! 0.082 s). syrk's and covariance's triangles bound only their
//! innermost loop, whose rows the printer blocks already.
//!
//! A piece is made of whole tiles, so that a dependence between it and
//! the statement's other instances joins two tiles: the loops over tiles
//! carry it, and the marks of the loops inside a tile, read off the
//! piece's own dependences, are exact. The loops over tiles keep the
//! statement's marks; inside them, the piece adds only what its
//! dependences allow beyond the statement's (`jam` and `block`), so that
//! no new parallel region starts. The schedule is the plan's: the scanner
//! takes a piece as a statement of its own (`Plan::pieces`, after the
//! SCoP's statements) inside its statement's loops over tiles, and runs
//! its instances when the statement's would run.

use super::analyses::Analyses;
use super::marks::LoopMark;
use super::planner::Planner;
use crate::frontend::AccessKind;
use crate::model::isl::{IslResult, Map};
use crate::schedule::Scattering;
use crate::tile::{self, Tiles};

/// Instances of a statement printed apart from the others (see the
/// module's doc): those of its full tiles.
#[derive(Clone)]
pub struct Piece {
    pub stmt: usize,
    /// How many leading time dimensions name the statement's tiles.
    pub tile_dims: usize,
    /// Its full tiles, and its other ones, over those dimensions.
    pub tiles: Tiles,
    /// The pairs of its accesses (positions among the statement's, the
    /// first less), to one array, one a write and the two not alike, that
    /// meet at no element within one tile of the piece: the printer may
    /// keep the elements its copies write in locals (`emit::promote`), as
    /// no other access reaches them there.
    pub apart: Vec<(usize, usize)>,
}

/// The pieces of the statements `sc` schedules that gain marks (each
/// statement's `marks`, and how many leading time dimensions name its
/// rectangular tiles, `rect_prefix`: 0 where it has none), with their
/// marks.
pub(super) fn full_tiles(
    analyses: &Analyses,
    sc: &Scattering,
    marks: &[Vec<LoopMark>],
    rect_prefix: &[usize],
) -> IslResult<Vec<(Piece, Vec<LoopMark>)>> {
    let mut found = Vec::new();
    for (pos, &stmt) in sc.stmts.iter().enumerate() {
        if rect_prefix[stmt] > 0 {
            found.extend(piece_of(analyses, sc, pos, &marks[stmt], rect_prefix[stmt])?);
        }
    }
    Ok(found)
}

/// The piece of the statement at `pos` of `sc` (its `whole` marks, its
/// tiles named by the first `prefix` time dimensions) and the piece's
/// marks, if it gains a register block.
fn piece_of(
    analyses: &Analyses,
    sc: &Scattering,
    pos: usize,
    whole: &[LoopMark],
    prefix: usize,
) -> IslResult<Option<(Piece, Vec<LoopMark>)>> {
    let (scop, time, stmt) = (analyses.scop(), &sc.maps[pos], sc.stmts[pos]);
    let Some(innermost) = (prefix..sc.dims).rev().find(|&k| !time.out_is_constant(k).unwrap_or(false)) else {
        return Ok(None);
    };
    // Around the innermost (vector) loop, a loop that neither jams nor
    // blocks may gain a mark; a register block, bounds free of its rows.
    let wanting: Vec<usize> = (prefix..innermost).filter(|&d| !whole[d].jam && !whole[d].block).collect();
    let blocked = registers_blocked(&whole[prefix..innermost]);
    if wanting.is_empty() && !blocked {
        return Ok(None);
    }
    // The innermost loop's bounds may move with a register block's rows
    // (`emit::ragged` runs each row's own end), those of the loops around
    // it with none.
    let domain = &scop.statements[stmt].domain;
    let points = time.intersect_domain(domain)?.range()?.keep_leading_dims(innermost + 1)?;
    let rows = (prefix..innermost).find(|&d| whole[d].jam).unwrap_or(prefix);
    let Some(tiles) = tile::full_tiles(&points, prefix, rows, scop.ast.params.len())? else { return Ok(None) };
    let in_full = time.intersect_range(&tiles.full.add_dims(sc.dims - prefix)?)?;
    let mut own = whole.to_vec();
    if !wanting.is_empty() {
        for (d, gain) in gained_marks(analyses, sc, pos, &in_full, &wanting)? {
            own[d] = LoopMark { block: gain == Gain::Block, jam: gain == Gain::Jam, ..own[d] };
        }
    }
    if !registers_blocked(&own[prefix..innermost]) {
        return Ok(None);
    }
    let apart = accesses_apart_in_tiles(analyses, stmt, &in_full, prefix)?;
    Ok(Some((Piece { stmt, tile_dims: prefix, tiles, apart }, own)))
}

/// Whether `marks`, of the point loops around a tile's innermost loop,
/// ask for a register block: a loop to block around one to jam. Where the
/// jammed loop's bounds move with the rows (symm's `k < i`), the printer
/// blocks only with the bounds of a full tile.
fn registers_blocked(marks: &[LoopMark]) -> bool {
    marks.iter().enumerate().any(|(d, m)| m.block && marks[d + 1..].iter().any(|inner| inner.jam))
}

/// What a loop inside a piece's tiles gains there.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gain {
    Block,
    Jam,
}

/// Of the time dimensions `wanting`, those where the statement at `pos`
/// of `sc`, scheduled by `time` (its map, on fewer instances), gets a
/// `block` or a `jam` mark (see `Planner::mark`): its nest analysed again
/// with them.
fn gained_marks(
    analyses: &Analyses,
    sc: &Scattering,
    pos: usize,
    time: &Map,
    wanting: &[usize],
) -> IslResult<Vec<(usize, Gain)>> {
    let (scop, deps) = (analyses.scop(), analyses.deps()?);
    let legality = deps.generators()?;
    let mut restricted = sc.clone();
    restricted.maps[pos] = time.clone();
    let stmt = sc.stmts[pos];
    let mut gained = Vec::new();
    for nest in restricted.nests(scop.ast.params.len())? {
        if !nest.scattering.stmts.contains(&stmt) {
            continue;
        }
        let offset = nest.prefix.len();
        let planner = Planner::for_nest(scop, deps, &legality, nest, None, false)?;
        for &d in wanting {
            let k = d - offset;
            if !planner.analysis.is_loop(k) {
                continue;
            }
            if planner.analysis.is_parallel(k)? {
                gained.push((d, Gain::Block));
            } else if planner.jams(k)? {
                gained.push((d, Gain::Jam));
            }
        }
    }
    Ok(gained)
}

/// The pairs of accesses by `stmt` (its instances those `time` schedules)
/// to one array, one of them a write and the two not alike, that meet at
/// no element within one tile (the first `prefix` time dimensions).
fn accesses_apart_in_tiles(
    analyses: &Analyses,
    stmt: usize,
    time: &Map,
    prefix: usize,
) -> IslResult<Vec<(usize, usize)>> {
    let accesses = &analyses.scop().statements[stmt].accesses;
    let tile = time.keep_leading_out(prefix)?;
    let same_tile = tile.apply_range(&tile.reverse()?)?;
    let mut apart = Vec::new();
    for (x, a) in accesses.iter().enumerate() {
        for (y, b) in accesses.iter().enumerate().skip(x + 1).filter(|(_, b)| b.array == a.array) {
            if a.kind == AccessKind::Read && b.kind == AccessKind::Read || a.relation.is_equal(&b.relation)? {
                continue;
            }
            if a.relation.apply_range(&b.relation.reverse()?)?.intersect(&same_tile)?.is_empty()? {
                apart.push((x, y));
            }
        }
    }
    Ok(apart)
}
