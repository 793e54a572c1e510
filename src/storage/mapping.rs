//! Modulo storage mappings: each row a hyperplane over an array's
//! indices, wrapped modulo a size where that saves room, and their proof
//! against an array's conflicts.
//!
//! A row is a hyperplane over the cells and, where that saves room, a
//! modulus: it wraps unless its range over the written cells is known to
//! be no larger. The successive modulo (Heuristic 3) builds rows along a
//! basis, each modulo one more than the largest difference left
//! unresolved: along the axes (`--storage=modulo`), or along the bases
//! `bases` gives (`lattice`: the small unimodular ones, and two computed
//! from DS). [`Mapping::is_valid`] is the proof every candidate passes,
//! from every method: no difference in DS maps to zero (exact with
//! constant moduli; sufficient, and affine, with parametric ones). Among
//! proven mappings the smallest wins, compared at sample values of the
//! unknown parameters (`storage::best_mapping`).

use super::lifetime::Conflicts;
use crate::model::affine::{signed_sum, LinExpr};
use crate::model::isl::{IslResult, Map, Set};
use crate::model::{array_tuple, bounds, params_decl};

/// One dimension of the contracted array: `normal . c`, taken modulo
/// `modulus`, or shifted to start at 0 when there is none.
#[derive(Clone, Debug)]
pub struct Row {
    pub normal: Vec<i64>,
    pub modulus: Option<LinExpr>,
    /// Bounds of `normal . c` over the written cells.
    pub range: (LinExpr, LinExpr),
}

/// `A[c] -> A'[row_0(c), row_1(c), ...]`.
#[derive(Clone, Debug)]
pub struct Mapping {
    pub rows: Vec<Row>,
}

impl Row {
    /// The number of cells the row's dimension holds.
    pub fn extent(&self) -> LinExpr {
        self.modulus.clone().unwrap_or_else(|| self.range.1.sub(&self.range.0).add(&LinExpr::constant(1)))
    }

    /// Whether the dimension holds one cell: it needs no index.
    pub fn is_one_cell(&self) -> bool {
        let e = self.extent();
        e.is_constant() && e.constant == 1
    }

    /// Wraps the row modulo `modulus`, unless its range is known to be
    /// no larger (see [`saves_room`]).
    pub fn wrap(&mut self, modulus: Option<LinExpr>) {
        let extent = self.range.1.sub(&self.range.0).add(&LinExpr::constant(1));
        self.modulus = modulus.filter(|m| saves_room(m, &extent));
    }
}

impl Mapping {
    /// The extents of the new array's dimensions: those of the rows with
    /// more than one cell (the others need no index).
    pub fn stored_extents(&self) -> Vec<LinExpr> {
        self.rows.iter().filter(|r| !r.is_one_cell()).map(Row::extent).collect()
    }

    /// Whether the whole array folds onto one cell: a scalar.
    pub fn is_one_cell(&self) -> bool {
        self.rows.iter().all(Row::is_one_cell)
    }

    /// The number of cells each dimension of the new array holds.
    pub fn extents(&self) -> Vec<LinExpr> {
        self.rows.iter().map(Row::extent).collect()
    }

    /// Whether no two conflicting cells land in one place: no difference
    /// of conflicting cells is a multiple of every row's modulus (zero
    /// for a row without). With every modulus a constant, the test is
    /// exact; with a parametric one, it asks instead for some row to
    /// keep the difference nonzero and below its modulus (sufficient, and
    /// affine).
    pub fn is_valid(&self, conflicts: &Conflicts, n_params: usize) -> IslResult<bool> {
        let exact = self.rows.iter().all(|r| r.modulus.as_ref().is_none_or(LinExpr::is_constant));
        let mut same_place = Vec::new();
        for row in &self.rows {
            let image = dot(&row.normal);
            same_place.push(match &row.modulus {
                None => format!("{image} = 0"),
                Some(m) if exact => format!("({image}) mod {} = 0", m.constant),
                Some(m) => {
                    let m = m.to_isl_text();
                    format!("({image} = 0 or {image} >= {m} or {image} <= -({m}))")
                }
            });
        }
        let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
        let collide = Set::parse(&format!(
            "{} -> {{ [{}] : {} }}",
            params_decl(n_params),
            dims.join(", "),
            if same_place.is_empty() { "true".to_string() } else { same_place.join(" and ") }
        ))?;
        conflicts.differences.intersect(&collide)?.is_empty()
    }

    /// `A[i0, i1] -> A[i0 mod N, i1]`, parameters by name.
    pub fn text(&self, array: &str, rank: usize, params: &[String]) -> String {
        let indices: Vec<String> = (0..rank).map(|d| format!("i{d}")).collect();
        let by_name = |e: &LinExpr| e.param_text(params).unwrap_or_else(|| e.to_isl_text());
        let rows: Vec<String> = self
            .rows
            .iter()
            .filter(|r| !r.is_one_cell())
            .map(|r| {
                let image = combination(&r.normal, &indices);
                match &r.modulus {
                    Some(m) => format!("{} mod {}", parenthesised(&image), parenthesised(&by_name(m))),
                    None if r.range.0.is_constant() && r.range.0.constant == 0 => image,
                    None => {
                        let shift = by_name(&r.range.0.scale(-1));
                        match shift.strip_prefix('-') {
                            Some(negative) => format!("{image} - {negative}"),
                            None => format!("{image} + {shift}"),
                        }
                    }
                }
            })
            .collect();
        let target = if rows.is_empty() { array.to_string() } else { format!("{array}[{}]", rows.join(", ")) };
        format!("{array}[{}] -> {target}", indices.join(", "))
    }
}

/// The array as it is: a row per axis, shifted to start at 0.
pub fn canonical(conflicts: &Conflicts, array: &str, n_params: usize) -> IslResult<Option<Mapping>> {
    along(conflicts, array, n_params, &unit_basis(conflicts.rank))
}

/// Rows along `basis`, without moduli; `None` if a row's range over the
/// written cells is not affine in the parameters.
pub(super) fn along(
    conflicts: &Conflicts,
    array: &str,
    n_params: usize,
    basis: &[Vec<i64>],
) -> IslResult<Option<Mapping>> {
    let mut rows = Vec::new();
    for normal in basis {
        let Some(range) = image_range(conflicts, array, normal, n_params)? else {
            return Ok(None);
        };
        rows.push(Row { normal: normal.clone(), modulus: None, range });
    }
    Ok(Some(Mapping { rows }))
}

pub(super) fn unit_basis(rank: usize) -> Vec<Vec<i64>> {
    (0..rank).map(|p| (0..rank).map(|d| i64::from(d == p)).collect()).collect()
}

/// Lefebvre and Feautrier's successive modulo along the canonical axes
/// (SMO's Section 2.1).
pub fn successive_modulo(conflicts: &Conflicts, array: &str, n_params: usize) -> IslResult<Option<Mapping>> {
    successive_modulo_along(conflicts, array, n_params, &unit_basis(conflicts.rank))
}

/// The successive modulo along independent integer vectors `basis`
/// (Darte, Schreiber and Villard's Heuristic 3, as in Bee+Cl@k): row `k`
/// wraps modulo one more than the largest `c_k . d` over the differences
/// `d` of conflicting cells with `c_j . d = 0` for the rows before. A row
/// keeps its range when that is known to be no larger than the modulus.
pub fn successive_modulo_along(
    conflicts: &Conflicts,
    array: &str,
    n_params: usize,
    basis: &[Vec<i64>],
) -> IslResult<Option<Mapping>> {
    let mut unresolved = nonzero_differences(conflicts, n_params)?;
    let mut rows = Vec::new();
    for normal in basis {
        let Some(row) = wrapped_row(conflicts, array, n_params, normal, &unresolved)? else {
            return Ok(None);
        };
        unresolved = unresolved.intersect(&orthogonal(normal, conflicts.rank, n_params)?)?;
        rows.push(row);
    }
    Ok(Some(Mapping { rows }))
}

/// DS without 0: the differences a mapping must keep apart.
pub(super) fn nonzero_differences(conflicts: &Conflicts, n_params: usize) -> IslResult<Set> {
    let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
    let zero: Vec<String> = dims.iter().map(|d| format!("{d} = 0")).collect();
    let origin = Set::parse(&format!(
        "{} -> {{ [{}] : {} }}",
        params_decl(n_params),
        dims.join(", "),
        if zero.is_empty() { "true".to_string() } else { zero.join(" and ") }
    ))?;
    conflicts.differences.subtract(&origin)
}

/// The differences `d` with `normal . d = 0`: those a row along
/// `normal` leaves unresolved.
pub(super) fn orthogonal(normal: &[i64], rank: usize, n_params: usize) -> IslResult<Set> {
    let dims: Vec<String> = (0..rank).map(|d| format!("c{d}")).collect();
    Set::parse(&format!("{} -> {{ [{}] : {} = 0 }}", params_decl(n_params), dims.join(", "), dot(normal)))
}

/// The row along `normal` that keeps the differences `unresolved` apart:
/// modulo one more than the largest `normal . d` among them (1 if there
/// is none), unless its range over the written cells is known to be no
/// larger; `None` if a bound is not affine in the parameters.
pub(super) fn wrapped_row(
    conflicts: &Conflicts,
    array: &str,
    n_params: usize,
    normal: &[i64],
    unresolved: &Set,
) -> IslResult<Option<Row>> {
    let Some(range) = image_range(conflicts, array, normal, n_params)? else {
        return Ok(None);
    };
    let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
    let decl = params_decl(n_params);
    let image = dot(normal);
    let positive = Set::parse(&format!("{decl} -> {{ [{}] : {image} > 0 }}", dims.join(", ")))?;
    let separated = unresolved.intersect(&positive)?;
    let modulus = if separated.is_empty()? {
        Some(LinExpr::constant(1))
    } else {
        let project = Map::parse(&format!("{decl} -> {{ [{}] -> [{image}] }}", dims.join(", ")))?;
        bounds(&project.intersect_domain(&separated)?.range()?)?.map(|(_, largest)| largest.add(&LinExpr::constant(1)))
    };
    let mut row = Row { normal: normal.to_vec(), modulus: None, range };
    row.wrap(modulus);
    Ok(Some(row))
}

/// Whether a row should wrap modulo `m` rather than span its `extent`:
/// unless the extent is known to be no larger. A modulus comes from how
/// far apart live values are, an extent from how far the writes reach;
/// when they cannot be compared (`2N + 1` against `M + 2N - 2`), the
/// window of live values is the better bet.
pub(super) fn saves_room(m: &LinExpr, extent: &LinExpr) -> bool {
    let gap = extent.sub(m);
    let no_larger = (gap.is_constant() && gap.constant <= 0) || (extent.is_constant() && !m.is_constant());
    !no_larger
}

/// Bounds over the parameters of `normal . c` over the written cells.
fn image_range(
    conflicts: &Conflicts,
    array: &str,
    normal: &[i64],
    n_params: usize,
) -> IslResult<Option<(LinExpr, LinExpr)>> {
    let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
    let project = Map::parse(&format!(
        "{} -> {{ {}[{}] -> [{}] }}",
        params_decl(n_params),
        array_tuple(array),
        dims.join(", "),
        dot(normal)
    ))?;
    bounds(&project.intersect_domain(&conflicts.written)?.range()?)
}

/// `normal . (c0, c1, ...)` in isl syntax.
fn dot(normal: &[i64]) -> String {
    let terms: Vec<String> = normal
        .iter()
        .enumerate()
        .filter(|(_, &a)| a != 0)
        .map(|(d, &a)| if a == 1 { format!("c{d}") } else { format!("{a}*c{d}") })
        .collect();
    if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join(" + ")
    }
}

/// `normal . names` as text: `i1 - i0`, `2i0 + i1`.
fn combination(normal: &[i64], names: &[String]) -> String {
    let text = signed_sum(normal.iter().zip(names).map(|(&a, name)| (a, name.as_str())), "");
    if text.is_empty() {
        "0".to_string()
    } else {
        text
    }
}

fn parenthesised(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        text.to_string()
    } else {
        format!("({text})")
    }
}
