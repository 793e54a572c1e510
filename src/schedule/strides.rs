//! How the elements a scattering's accesses touch move along its
//! dimensions: whether a loop walks an access contiguously (a vector
//! loop), keeps touching one element (a reduction's sum), or runs so much
//! between two uses of an element that the cache may lose it (tiles pay).
//!
//! [`Strides`] keeps the moves along each dimension of one scattering
//! once computed: the planner asks about its current scattering again at
//! each step (deriche: 152 questions about 59 dimensions, 8% of its
//! compile time). A scattering only looked at once (a candidate) is asked
//! through [`contiguous_accesses`].

use super::scattering::Scattering;
use crate::frontend::AccessKind;
use crate::model::isl::{set_text, IslResult, Map, Set};
use crate::model::Scop;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

/// The element moves of one scattering's accesses, by dimension, each
/// computed when first asked for.
#[derive(Clone)]
pub struct Strides {
    sc: Scattering,
    by_dim: RefCell<HashMap<usize, Rc<Vec<Set>>>>,
    /// By dimension, once known: whether each access moves by one element
    /// of its last subscript at most (what contiguity and reuse ask).
    near: RefCell<HashMap<usize, Rc<Vec<bool>>>>,
}

impl Strides {
    pub fn new(sc: &Scattering) -> Strides {
        Strides { sc: sc.clone(), by_dim: RefCell::default(), near: RefCell::default() }
    }

    /// [`element_moves`] along `k`, once.
    fn moves(&self, scop: &Scop, k: usize) -> IslResult<Rc<Vec<Set>>> {
        if let Some(known) = self.by_dim.borrow().get(&k) {
            return Ok(known.clone());
        }
        let moves = Rc::new(element_moves(scop, &self.sc, k)?);
        self.by_dim.borrow_mut().insert(k, moves.clone());
        Ok(moves)
    }

    /// [`moves_by_one_at_most`] along `k`, once.
    fn near(&self, scop: &Scop, k: usize) -> IslResult<Rc<Vec<bool>>> {
        if let Some(known) = self.near.borrow().get(&k) {
            return Ok(known.clone());
        }
        let near = Rc::new(moves_by_one_at_most(&self.moves(scop, k)?, scop.ast.params.len())?);
        self.near.borrow_mut().insert(k, near.clone());
        Ok(near)
    }

    /// How many accesses of `scop` move by at most one element of their
    /// innermost subscript (and not at all in the others) when dimension
    /// `k` advances, and how many do not: a vector loop over `k` reads or
    /// writes the former contiguously.
    pub fn contiguous_accesses(&self, scop: &Scop, k: usize) -> IslResult<(usize, usize)> {
        let near = self.near(scop, k)?;
        let contiguous = near.iter().filter(|&&n| n).count();
        Ok((contiguous, near.len() - contiguous))
    }

    /// Whether some write of `scop` touches one element all along
    /// dimension `k` (the others fixed): the loop's iterations update one
    /// cell in turn, a reduction's sum.
    pub fn some_write_stays_put(&self, scop: &Scop, k: usize) -> IslResult<bool> {
        let kinds = self.sc.statements(scop).flat_map(|(_, st)| st.accesses.iter().map(|a| a.kind));
        for (m, kind) in self.moves(scop, k)?.iter().zip(kinds) {
            if kind == AccessKind::Write && stays_put(m)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// For each access of `scop`, how many leading subscripts stay the
    /// same along dimension `k` (all of them for an element that stays
    /// put), summed: the larger, the closer in memory the elements a loop
    /// over `k` walks (in row-major arrays).
    pub fn unmoved_subscripts(&self, scop: &Scop, k: usize) -> IslResult<usize> {
        let n_params = scop.ast.params.len();
        let mut total = 0;
        for m in self.moves(scop, k)?.iter() {
            let rank = m.n_dims()?;
            let mut unmoved = 0;
            while unmoved < rank {
                let fixed = zero_prefix(unmoved + 1);
                if !m.is_subset_of(&Set::parse(&set_text(n_params, rank, fixed.trim_end_matches(" and ")))?)? {
                    break;
                }
                unmoved += 1;
            }
            total += unmoved;
        }
        Ok(total)
    }

    /// Whether some access of a statement that loops over all of `band`
    /// touches the same element on consecutive iterations of one member
    /// but not of another, and the loops inside the innermost such member
    /// touch so much between two uses that the cache may lose it: two or
    /// more loops, or one that walks some access other than contiguously
    /// (a column walk maps its lines onto a few cache sets). A single
    /// contiguous inner loop streams one row of each array, which stays
    /// cached, and tiles only break its streams (`G[i][j] = b[i] * a[j]`
    /// measured 0.79x tiled, 1.0x untiled). Data invariant along the whole
    /// band (a filter's coefficients) stays in cache anyway, and
    /// statements outside part of the band (a 1-d statement fused into a
    /// 2-d band) do not justify tiling it.
    pub fn band_has_reuse(&self, scop: &Scop, band: Range<usize>) -> IslResult<bool> {
        let sc = &self.sc;
        // Per access: its statement's index in `sc`, and whether it spans the band.
        let (mut owner, mut in_band) = (Vec::new(), Vec::new());
        for (s, (time, st)) in sc.statements(scop).enumerate() {
            let mut spans = true;
            for j in band.clone() {
                spans &= !time.out_is_constant(j)?;
            }
            owner.extend(std::iter::repeat_n(s, st.accesses.len()));
            in_band.extend(std::iter::repeat_n(spans, st.accesses.len()));
        }
        // For each member, then each access: whether the element stays put.
        let mut stays = Vec::new();
        for k in band.clone() {
            stays.push(self.moves(scop, k)?.iter().map(stays_put).collect::<IslResult<Vec<bool>>>()?);
        }
        // Per statement, its loop dimensions.
        let mut loops = Vec::new();
        for time in &sc.maps {
            let mut own = Vec::new();
            for d in 0..sc.dims {
                if !time.out_is_constant(d)? {
                    own.push(d);
                }
            }
            loops.push(own);
        }
        for a in (0..in_band.len()).filter(|&a| in_band[a] && stays.iter().any(|along| !along[a])) {
            let Some(p) = (0..stays.len()).rev().find(|&p| stays[p][a]) else { continue };
            // What runs between two uses: each spanning statement's loops
            // inside member `p`.
            for (s, own_loops) in loops.iter().enumerate() {
                let spans = owner.iter().zip(&in_band).any(|(&o, &spans)| o == s && spans);
                let inner: Vec<usize> = own_loops.iter().copied().filter(|&d| d > band.start + p).collect();
                let far = match inner.as_slice() {
                    _ if !spans => false,
                    [] => false,
                    [only] => {
                        let near = self.near(scop, *only)?;
                        near.iter().zip(&owner).any(|(&n, &o)| o == s && !n)
                    }
                    _ => true,
                };
                if far {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// Whether some write of `scop` keeps its element along one of its
/// statement's loops in the source's order (a reduction into it), or isl
/// cannot tell.
pub fn some_write_stays_put_in_source(scop: &Scop) -> bool {
    let original = Scattering::original(scop);
    let strides = Strides::new(&original);
    let mut loops = (0..original.dims).filter(|&k| original.varies(k));
    loops.any(|k| strides.some_write_stays_put(scop, k).unwrap_or(true))
}

/// [`Strides::contiguous_accesses`] of a scattering asked about once.
pub fn contiguous_accesses(scop: &Scop, sc: &Scattering, k: usize) -> IslResult<(usize, usize)> {
    Strides::new(sc).contiguous_accesses(scop, k)
}

/// For each access of `scop`, how the element it touches moves when
/// dimension `k` of `sc` advances by one (other dimensions fixed): a set
/// of subscript differences, empty when the access has no next instance.
fn element_moves(scop: &Scop, sc: &Scattering, k: usize) -> IslResult<Vec<Set>> {
    let step = step_along(scop.ast.params.len(), sc.dims, k)?;
    let mut moves = Vec::new();
    for (time, st) in sc.statements(scop) {
        // Each instance to the next along `k`, composed with the schedule
        // once per statement rather than once per access (heat-3d's ten).
        let next = time.apply_range(&step)?.apply_range(&time.reverse()?)?;
        for a in &st.accesses {
            moves.push(a.relation.reverse()?.apply_range(&next)?.apply_range(&a.relation)?.deltas()?);
        }
    }
    Ok(moves)
}

/// Whether an access's element moves (`m`, see [`element_moves`]) are
/// none: it stays put along the dimension (and has a next instance).
fn stays_put(m: &Set) -> IslResult<bool> {
    let rank = m.n_dims()?;
    Ok(rank > 0 && !m.is_empty()? && m.is_subset_of(&moves_within(m.n_params()?, rank, 0)?)?)
}

/// For each access's element moves, whether it moves by one element of
/// its last subscript at most.
fn moves_by_one_at_most(moves: &[Set], n_params: usize) -> IslResult<Vec<bool>> {
    let mut near = Vec::new();
    for m in moves {
        let rank = m.n_dims()?;
        near.push(rank == 0 || m.is_subset_of(&moves_within(n_params, rank, 1)?)?);
    }
    Ok(near)
}

/// `c0 = 0 and .. and c(k-1) = 0 and `, the start of an isl conjunction.
pub(super) fn zero_prefix(k: usize) -> String {
    (0..k).map(|j| format!("c{j} = 0 and ")).collect()
}

/// `[c] -> [c + e_k]`.
pub fn step_along(n_params: usize, dims: usize, k: usize) -> IslResult<Map> {
    let from: Vec<String> = (0..dims).map(|j| format!("c{j}")).collect();
    let to: Vec<String> = (0..dims).map(|j| if j == k { format!("c{j} + 1") } else { format!("c{j}") }).collect();
    Map::parse(&format!(
        "{} -> {{ [{}] -> [{}] }}",
        crate::model::params_decl(n_params),
        from.join(", "),
        to.join(", ")
    ))
}

/// Element moves of at most `reach` in the last subscript only.
fn moves_within(n_params: usize, rank: usize, reach: i64) -> IslResult<Set> {
    let mut body = zero_prefix(rank - 1);
    body.push_str(&format!("-{reach} <= c{} <= {reach}", rank - 1));
    Set::parse(&set_text(n_params, rank, &body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Source;

    fn scop_of(body: &str) -> Scop {
        let text = format!(
            "void f(int n, double A[n][n], double B[n][n], double C[n][n], double x[n]) {{\n  double s;\n#pragma scop\n{body}\n#pragma endscop\n}}\n"
        );
        let source = Source::parse(text).unwrap();
        Scop::build(source.scops().scops.remove(0)).unwrap()
    }

    #[test]
    fn a_reduction_into_an_element_keeps_it_along_its_loop_in_the_source() {
        let product = "for (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++)\n    for (int k = 0; k < n; k++)\n      C[i][j] += A[i][k] * B[k][j];";
        assert!(some_write_stays_put_in_source(&scop_of(product)));
        let row_sums = "for (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++)\n    x[i] = x[i] + A[i][j];";
        assert!(some_write_stays_put_in_source(&scop_of(row_sums)));
        // What the element is, not which iterators its subscripts spell.
        let spelled = "for (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++)\n    C[i - i][j] = A[i][j];";
        assert!(some_write_stays_put_in_source(&scop_of(spelled)));
    }

    #[test]
    fn writes_that_move_with_every_loop_or_into_scalars_keep_nothing() {
        let stencil = "for (int i = 1; i < n - 1; i++)\n  for (int j = 1; j < n - 1; j++)\n    B[i][j] = A[i - 1][j] + A[i][j + 1];";
        assert!(!some_write_stays_put_in_source(&scop_of(stencil)));
        let sum = "for (int i = 0; i < n; i++)\n  s += x[i];\nfor (int i = 0; i < n; i++)\n  x[i] = s;";
        assert!(!some_write_stays_put_in_source(&scop_of(sum)));
        let diagonal = "for (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++)\n    C[i + j - j][j] = A[i][j];";
        assert!(!some_write_stays_put_in_source(&scop_of(diagonal)));
    }
}
