//! Modulo storage mappings: each row a hyperplane over an array's
//! indices, wrapped modulo a size where that saves room, and their proof
//! against an array's conflicts.

use super::lifetime::Conflicts;
use crate::model::affine::LinExpr;
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
}

impl Mapping {
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
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| {
                let image = named(&dot(&r.normal), &indices);
                match &r.modulus {
                    Some(m) => format!(
                        "{} mod {}",
                        parenthesised(&image),
                        parenthesised(&m.param_text(params).unwrap_or_else(|| m.to_isl_text()))
                    ),
                    None if r.range.0.is_constant() && r.range.0.constant == 0 => image,
                    None => format!(
                        "{} - {}",
                        parenthesised(&image),
                        parenthesised(&r.range.0.param_text(params).unwrap_or_else(|| r.range.0.to_isl_text()))
                    ),
                }
            })
            .collect();
        format!("{array}[{}] -> {array}[{}]", indices.join(", "), rows.join(", "))
    }
}

/// The array as it is: a row per axis, shifted to start at 0.
pub fn canonical(conflicts: &Conflicts, array: &str, n_params: usize) -> IslResult<Option<Mapping>> {
    let mut rows = Vec::new();
    for p in 0..conflicts.rank {
        let normal: Vec<i64> = (0..conflicts.rank).map(|d| i64::from(d == p)).collect();
        let Some(range) = image_range(conflicts, array, &normal, n_params)? else {
            return Ok(None);
        };
        rows.push(Row { normal, modulus: None, range });
    }
    Ok(Some(Mapping { rows }))
}

/// Lefebvre and Feautrier's successive modulo along the canonical axes
/// (SMO's Section 2.1): along axis `p`, one more than the largest
/// distance between conflicting cells equal on the axes before it. An
/// axis keeps its indices when that modulus would not be smaller than
/// its extent (or cannot be compared with it).
pub fn successive_modulo(conflicts: &Conflicts, array: &str, n_params: usize) -> IslResult<Option<Mapping>> {
    let Some(mut mapping) = canonical(conflicts, array, n_params)? else {
        return Ok(None);
    };
    let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
    for (p, row) in mapping.rows.iter_mut().enumerate() {
        let prefix: Vec<String> = (0..p).map(|d| format!("c{d} = 0")).chain([format!("c{p} > 0")]).collect();
        let along = Set::parse(&format!(
            "{} -> {{ [{}] : {} }}",
            params_decl(n_params),
            dims.join(", "),
            prefix.join(" and ")
        ))?;
        let ds_p = conflicts.differences.intersect(&along)?;
        let modulus = if ds_p.is_empty()? {
            Some(LinExpr::constant(1))
        } else {
            let project = Map::parse(&format!("{} -> {{ [{}] -> [c{p}] }}", params_decl(n_params), dims.join(", ")))?;
            bounds(&project.intersect_domain(&ds_p)?.range()?)?.map(|(_, largest)| largest.add(&LinExpr::constant(1)))
        };
        let extent = row.range.1.sub(&row.range.0).add(&LinExpr::constant(1));
        row.modulus = modulus.filter(|m| saves_room(m, &extent));
    }
    Ok(Some(mapping))
}

/// Whether a modulus `m` is known to be smaller than `extent`.
fn saves_room(m: &LinExpr, extent: &LinExpr) -> bool {
    let gap = extent.sub(m);
    (gap.is_constant() && gap.constant > 0) || (m.is_constant() && !extent.is_constant())
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

/// `text` (isl syntax over `c<d>`) with the dimensions named `names`.
fn named(text: &str, names: &[String]) -> String {
    let mut out = text.replace("+ -", "- ").replace('*', "");
    for (d, name) in names.iter().enumerate().rev() {
        out = out.replace(&format!("c{d}"), name);
    }
    out
}

fn parenthesised(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        text.to_string()
    } else {
        format!("({text})")
    }
}
