//! The loops of a plan: scanned within the planning budget (falling back
//! to rectangles, then to the original schedule, with the reason), with
//! the temporaries contracted for it.

use crate::emit;
use crate::frontend::Stmt;
use crate::model::affine::{Constraint, LinExpr};
use crate::model::isl::{self, IslResult, Set};
use crate::model::Scop;
use crate::names::FreshNames;
use crate::options::{Options, PlanRequest, TileOptions, TileShape};
use crate::plan::{self, Analyses, Piece, Plan};
use crate::scan::{self, ast::Node, ScanStmt};
use crate::schedule::Scattering;
use crate::storage;

/// Temporary arrays contracted for a plan, and the SCoP's statements
/// rewritten onto them.
#[derive(Default)]
pub struct Contracted {
    pub arrays: Vec<storage::Contraction>,
    pub stmts: Vec<Stmt>,
}

/// The temporary arrays `options.storage` contracts under `plan`'s
/// schedule (an array whose accesses cannot all be rewritten keeps its
/// storage); none, with the reason noted in `plan`, on an isl error.
fn contracted(scop: &Scop, plan: &mut Plan, names: &mut FreshNames, options: &Options) -> Contracted {
    if options.storage.method == storage::Method::None || options.trace || scop.ast.has_filters() {
        return Contracted::default();
    }
    let _phase = isl::phase("storage contraction");
    let found = match storage::contractions(scop, &plan.run_order(scop), &options.storage, &options.params, names) {
        Ok(found) => found,
        Err(e) => {
            plan.notes.refused(format!("storage contraction not applied: {e}"));
            return Contracted::default();
        }
    };
    let mut done = Contracted { arrays: Vec::new(), stmts: scop.ast.stmts.clone() };
    for c in found {
        let rewritten: Option<Vec<Stmt>> = done
            .stmts
            .iter()
            .enumerate()
            .map(|(k, s)| storage::rewrite::contracted_statement(k, s, &c, &scop.ast.params))
            .collect();
        if let Some(rewritten) = rewritten {
            done.stmts = rewritten;
            done.arrays.push(c);
        }
    }
    done
}

/// The isl operations allowed for scanning a transformed schedule: the
/// planning budget, but a sixth of the SCoP's for diamonds and hexagons,
/// whose bounds cost the scanner more (heat-3d's hexagons: about 3
/// million operations, 3.5 s). Operations are not time: fdtd-2d's
/// hexagons ran 230 s on a quarter before they gave up, 6 s on a sixth.
fn scanning_budget(request: &PlanRequest, plan: &Plan) -> u64 {
    match plan.starts_concurrently() {
        true => request.isl_budget / 6,
        false => plan::planning_budget(request),
    }
}

/// The loop AST of `plan`, within the planning budget when it transforms
/// anything; if that fails, of the original schedule, with the reason.
/// No AST when the SCoP keeps its source text (except for `--trace`,
/// which regenerates it). With it, the temporaries contracted for the
/// plan returned (computed once: the lifetime analysis is costly).
/// The names the contraction for a plan mints are kept in `names` only
/// with that plan, which `request` asked for.
pub fn scan_planned(
    analyses: &Analyses,
    mut plan: Plan,
    names: &mut FreshNames,
    options: &Options,
    request: &PlanRequest,
) -> IslResult<(Plan, Option<Scanned>, Contracted)> {
    let scop = analyses.scop();
    // Contraction needs the loops regenerated, gain or not.
    let mut minted = names.clone();
    let contraction = contracted(scop, &mut plan, &mut minted, options);
    let contracts = !contraction.arrays.is_empty();
    let keeps_source = |plan: &Plan, contracts: bool| plan.keep_source && !options.trace && !contracts;
    if keeps_source(&plan, contracts) {
        *names = minted;
        return Ok((plan, None, contraction));
    }
    if plan.notes.applied.is_empty() && plan.marks.is_empty() {
        let scanned = scan_scop(scop, &plan.scattering)?;
        *names = minted;
        return Ok((plan, Some(scanned), contraction));
    }
    if !contracts {
        plan = plan.with_full_tiles_apart(analyses, request);
    }
    let concurrent = plan.starts_concurrently();
    let mut scanned = scan_within_budget(scop, &plan, request);
    if !plan.pieces.is_empty() && !matches!(scanned.0, Ok(Some(_))) {
        // The statements whole may cost the scanner less than their pieces.
        plan = plan.without_pieces();
        scanned = scan_within_budget(scop, &plan, request);
    }
    let (scanned, out_of_budget) = scanned;
    let limit = match &scanned {
        Ok(None) => "out of time",
        _ if out_of_budget => "out of isl budget",
        _ => "scanner limitation",
    };
    let scanned = scanned.and_then(|s| s.ok_or_else(|| isl::IslError("scanning took too long".into())));
    let why = match scanned {
        Ok(scanned)
            if !request.optimises() || contracts || plan.tiles() || emit::marks_some_loop(&plan.marks, &scanned.0) =>
        {
            *names = minted;
            return Ok((plan, Some(scanned), contraction));
        }
        // What the planner marked shares no loop (adi's parallel rows sit
        // in loops with statements not worth a region): no gain.
        Ok(_) => None,
        Err(e) if concurrent => {
            // The scanner gives up on some tile shapes it could scan as rectangles.
            let rect = PlanRequest {
                tile: request.tile.clone().map(|t| TileOptions { shape: TileShape::Rect, ..t }),
                ..request.clone()
            };
            let mut again = plan::plan(analyses, &rect);
            let instead = if again.tiles() {
                "tiled with rectangles instead"
            } else {
                "planned again as for --tile=rect, which tiles no band here"
            };
            let mut earlier = plan.notes;
            // `auto` asked for no shape in particular.
            if request.tile.as_ref().is_some_and(|t| t.shape != TileShape::Auto) {
                earlier.not_applied(
                    format!("concurrent-start tiles: loops not generated ({limit}: {e}); {instead}"),
                    out_of_budget,
                );
            }
            again.notes.follow(earlier);
            return scan_planned(analyses, again, names, options, &rect);
        }
        Err(e) => Some(format!("transformed loops not generated ({limit}: {e}); original schedule kept")),
    };
    let mut original = Plan::original(scop);
    original.keep_source = !scop.ast.has_multifor();
    let mut earlier = plan.notes;
    if let Some(why) = why {
        earlier.not_applied(why, out_of_budget);
    }
    original.notes.follow(earlier);
    // The contraction was proven for the other schedule.
    let contraction = contracted(scop, &mut original, names, options);
    if keeps_source(&original, !contraction.arrays.is_empty()) {
        return Ok((original, None, contraction));
    }
    let scanned = scan_scop(scop, &original.scattering)?;
    Ok((original, Some(scanned), contraction))
}

/// `plan`'s loops scanned within the scanning budget and the planning
/// time (`None`: out of time), and whether an error was running out of
/// the budget.
fn scan_within_budget(scop: &Scop, plan: &Plan, request: &PlanRequest) -> (IslResult<Option<Scanned>>, bool) {
    let _budget = isl::budget(scanning_budget(request, plan));
    let scanned = isl::within_time(plan::planning_time(request), || scan_plan(scop, plan));
    let out_of_budget = scanned.is_err() && isl::out_of_budget();
    (scanned, out_of_budget)
}

/// Each statement's iterator extents over the parameters (upper minus
/// lower bound plus one, from the hull of its domain), for the run-time
/// choice between the new loops and the source (see
/// [`emit::Program::work`]); `None` if some bound is not affine in the
/// parameters.
pub fn work_estimate(scop: &Scop) -> IslResult<Option<Vec<Vec<LinExpr>>>> {
    let mut work = Vec::new();
    for (k, st) in scop.ast.stmts.iter().enumerate() {
        let mut extents = Vec::new();
        for d in 0..st.iterators.len() {
            let Some((lo, hi)) = scop.iterator_range(&[k], d)? else {
                return Ok(None);
            };
            extents.push(hi.sub(&lo).add(&LinExpr::constant(1)));
        }
        work.push(extents);
    }
    Ok(Some(work))
}

/// A loop AST and the number of dimensions it scans.
pub type Scanned = (Vec<Node>, usize);

/// Each statement as points `[time, iterators, 0...]` of one common
/// space, scanned in time order.
pub fn scan_scop(scop: &Scop, scattering: &Scattering) -> IslResult<Scanned> {
    scan_with_pieces(scop, scattering, &[])
}

/// [`scan_scop`] for `plan`, its pieces as statements of their own (see
/// [`Plan::pieces`]).
fn scan_plan(scop: &Scop, plan: &Plan) -> IslResult<Scanned> {
    scan_with_pieces(scop, &plan.scattering, &plan.pieces)
}

/// [`scan_scop`] with `pieces` apart (one at most per statement), in the
/// loops over their statement's tiles: piece `p` is statement `n + p`,
/// the rest of its statement keeps the statement's number.
fn scan_with_pieces(scop: &Scop, scattering: &Scattering, pieces: &[Piece]) -> IslResult<Scanned> {
    let _phase = isl::phase("scanning");
    let n_params = scop.ast.params.len();
    let dims = scattering.dims + scop.ast.max_depth();
    let n = scop.statements.len();
    let mut stmts = Vec::new();
    for (&id, time) in scattering.stmts.iter().zip(&scattering.maps) {
        let set = scan_set(time, &scop.statements[id].domain, n_params, dims)?;
        let mut stmt = ScanStmt::new(id, set.clone());
        if let Some(p) = pieces.iter().position(|piece| piece.stmt == id) {
            let Piece { tile_dims, tiles, .. } = &pieces[p];
            let of = |tiles: &Set| set.intersect(&tiles.add_dims(dims - tile_dims)?);
            let parts = vec![ScanStmt::new(n + p, of(&tiles.full)?), ScanStmt::new(id, of(&tiles.partial)?)];
            stmt.split = Some(scan::Split { at: tile_dims - 1, parts });
        }
        stmts.push(stmt);
    }
    let context = Set::parse(&isl::set_text(n_params, 0, ""))?;
    Ok((scan::scan(stmts, dims, n_params, &context)?, dims))
}

/// The instances `domain` of a statement scheduled by `time`, as points
/// `[time, iterators, 0...]` of a `dims`-dimensional space.
fn scan_set(time: &isl::Map, domain: &Set, n_params: usize, dims: usize) -> IslResult<Set> {
    let points = time.intersect_domain(domain)?.range_then_domain()?;
    let used = points.n_dims()?;
    let padding: Vec<Constraint> = (used..dims).map(|d| Constraint::eq(LinExpr::dim(d))).collect();
    points.add_dims(dims - used)?.intersect(&Set::from_constraints(n_params, dims, &padding)?)
}
