//! Which variables of a SCoP may share memory, and the run-time checks
//! that they do not (seed 001, SPolly's alias checks).
//!
//! The dependences treat every variable as its own memory, which C does
//! not promise: `rows(n, a, a)` passes one buffer as two array
//! parameters. A variable with storage of its own (a global, a local, a
//! scalar) is distinct from every other such variable, and a function's
//! pointer parameters cannot point to its automatic locals; a `restrict`
//! pointer shares nothing with what else the function reaches while one
//! of them is written. Every other pair the SCoP touches, one of them
//! written, may overlap, and gets a check: the address intervals each
//! touches do not meet.
//!
//! An interval runs from the address of the lowest corner of the cells
//! an array's accesses reach (each subscript at its minimum over the
//! parameters) to one past the highest corner. An address grows with
//! each subscript (every stride is positive), so every cell touched lies
//! inside, whether or not the subscripts stay within their extents.
//!
//! Not across a pointer load: the rows of a table of row pointers
//! (`double **a`) lie anywhere. Such a table is two footprints: its own
//! cells (the row pointers, only read), and the cells behind its rows,
//! whose interval the output finds by walking the rows (`model::rows`);
//! any pointer may have been stored in the table, so the rows may
//! overlap anything but what a `restrict` pointer reaches.

use super::isl::{IslResult, Map, Set};
use super::rows::RowTable;
use super::{array_tuple, bounds, extent_in_isl, params_decl, Scop};
use crate::frontend::decls::VarDecl;
use crate::frontend::AccessKind;
use crate::model::affine::{Constraint, LinExpr, Term};

/// The cells of one variable a SCoP may touch: per subscript, the
/// bounds whose minimum (`low`) and maximum (`high`) enclose its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Footprint {
    pub array: String,
    pub low: Vec<Vec<LinExpr>>,
    pub high: Vec<Vec<LinExpr>>,
    /// A linearly indexed pointer seen as a multi-dimensional array: its
    /// extents, outermost first (see `VarDecl::delinearised`).
    pub delinearised: Option<Vec<String>>,
    /// The cells behind a table's row pointers (`model::rows`): their
    /// addresses are known only once the output has walked the rows.
    pub through_rows: bool,
}

impl Footprint {
    /// The C address of the cell at `corner` (one printed subscript per
    /// dimension, in the model's dimensions).
    pub fn address(&self, corner: &[String]) -> String {
        if corner.is_empty() {
            return format!("&{}", self.array);
        }
        match &self.delinearised {
            Some(extents) => {
                let mut linear = format!("({})", corner[0]);
                for (extent, sub) in extents.iter().zip(corner).skip(1) {
                    linear = format!("{linear} * ({extent}) + ({sub})");
                }
                format!("&{}[{linear}]", self.array)
            }
            None => format!("&{}{}", self.array, corner.iter().map(|s| format!("[{s}]")).collect::<String>()),
        }
    }
}

impl Footprint {
    /// `C[0..n - 1][min(0, m)..n]`, with the program's parameter names.
    pub fn describe(&self, params: &[String]) -> String {
        let text = |bounds: &[LinExpr], pick: &str| {
            let texts: Vec<String> =
                bounds.iter().map(|b| b.param_text(params).unwrap_or_else(|| "?".into())).collect();
            if texts.len() == 1 {
                texts[0].clone()
            } else {
                format!("{pick}({})", texts.join(", "))
            }
        };
        let ranges: String =
            self.low.iter().zip(&self.high).map(|(l, h)| format!("[{}..{}]", text(l, "min"), text(h, "max"))).collect();
        format!("{}{ranges}", self.array)
    }
}

/// Two variables that may overlap, whose footprints must not.
#[derive(Clone, Debug, PartialEq)]
pub struct AliasCheck {
    pub first: Footprint,
    pub second: Footprint,
}

/// Where a variable's cells live, as far as aliasing goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Home {
    /// Storage of its own; `automatic`: a local of the SCoP's function
    /// (or a scalar parameter), which no pointer from its caller reaches.
    Own { automatic: bool },
    /// Wherever a pointer (or array parameter) points.
    Pointer { parameter: bool, restrict: bool },
}

fn home(decl: &VarDecl) -> Home {
    let array_parameter = decl.is_parameter && !decl.extents.is_empty();
    if decl.is_pointer_variable() || array_parameter {
        Home::Pointer { parameter: decl.is_parameter, restrict: decl.is_restrict }
    } else {
        Home::Own { automatic: (decl.is_local && !decl.is_static) || decl.is_parameter }
    }
}

fn may_overlap(a: Home, b: Home) -> bool {
    !matches!(
        (a, b),
        (Home::Own { .. }, Home::Own { .. })
            | (Home::Pointer { restrict: true, .. }, _)
            | (_, Home::Pointer { restrict: true, .. })
            | (Home::Pointer { parameter: true, .. }, Home::Own { automatic: true })
            | (Home::Own { automatic: true }, Home::Pointer { parameter: true, .. })
    )
}

/// What the output checks before its new loops run: pairs of
/// footprints apart, and the tables of row pointers walked to find
/// theirs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AliasChecks {
    pub pairs: Vec<AliasCheck>,
    pub tables: Vec<RowTable>,
}

/// Memory a SCoP touches that may be checked against other memory: a
/// variable's cells, or those behind a table's rows.
struct Region<'a> {
    array: &'a str,
    home: Home,
    written: bool,
    /// Computed when a check needs it (`None` inside: no affine bounds).
    footprint: Option<Option<Footprint>>,
}

impl Scop {
    /// The checks that the variables of the SCoP that may share memory do
    /// not; `Err` names a pair no check can decide (a footprint without
    /// affine bounds), or a table of row pointers the output cannot walk.
    pub fn alias_checks(&self) -> IslResult<Result<AliasChecks, String>> {
        let written = |name: &str| {
            self.statements.iter().flat_map(|s| &s.accesses).any(|a| a.array == name && a.kind == AccessKind::Write)
        };
        let mut regions = Vec::new();
        let mut tables = Vec::new();
        for (name, decl) in &self.ast.arrays {
            let region = |home, written, footprint| Region { array: name, home, written, footprint };
            match self.row_table(name, decl, written(name))? {
                Err(why) => return Ok(Err(why)),
                Ok(None) => regions.push(region(home(decl), written(name), None)),
                Ok(Some(table)) => {
                    // Any pointer may have been stored in the table, a
                    // `restrict` one's included.
                    let rows = Home::Pointer { parameter: false, restrict: false };
                    regions.push(region(home(decl), false, Some(Some(table.pointers()))));
                    regions.push(region(rows, table.written, Some(Some(table.footprint.clone()))));
                    tables.push(table);
                }
            }
        }
        let mut pairs = Vec::new();
        for i in 0..regions.len() {
            for j in i + 1..regions.len() {
                let (a, b) = (&regions[i], &regions[j]);
                if !may_overlap(a.home, b.home) || !(a.written || b.written) {
                    continue;
                }
                let (a, b) = (a.array, b.array);
                for k in [i, j] {
                    if regions[k].footprint.is_none() {
                        let decl = &self.ast.arrays.iter().find(|(n, _)| n == regions[k].array).expect("an array").1;
                        regions[k].footprint = Some(self.footprint(regions[k].array, decl)?);
                    }
                }
                match (&regions[i].footprint, &regions[j].footprint) {
                    (Some(Some(first)), Some(Some(second))) => {
                        pairs.push(AliasCheck { first: first.clone(), second: second.clone() })
                    }
                    _ => {
                        return Ok(Err(format!(
                            "'{a}' and '{b}' may share memory, and polyc cannot bound what the SCoP touches of both"
                        )))
                    }
                }
            }
        }
        // A table only read matters only against what it is checked with.
        let checked = |t: &RowTable| pairs.iter().any(|p| p.first == t.footprint || p.second == t.footprint);
        tables.retain(|t| t.written || checked(t));
        Ok(Ok(AliasChecks { pairs, tables }))
    }

    /// The pointers (and array parameters) the SCoP reaches that are not
    /// `restrict`: where the checks hold, nothing else reaches what they
    /// point to, and the new loops may say so to the C compiler.
    pub fn unrestricted_pointers(&self) -> Vec<String> {
        let pointer = |decl: &VarDecl| matches!(home(decl), Home::Pointer { restrict: false, .. });
        self.ast.arrays.iter().filter(|(_, decl)| pointer(decl)).map(|(name, _)| name.clone()).collect()
    }

    /// What the SCoP's accesses to `array` reach, subscript by subscript;
    /// else its declared extents (within which the in-bounds check keeps
    /// the subscripts); `None` if neither has affine bounds.
    pub(super) fn footprint(&self, array: &str, decl: &VarDecl) -> IslResult<Option<Footprint>> {
        let accesses: Vec<&Map> = self
            .statements
            .iter()
            .flat_map(|s| &s.accesses)
            .filter(|a| a.array == array)
            .map(|a| &a.relation)
            .collect();
        let rank = match accesses.first() {
            Some(r) => r.n_out()?,
            None => return Ok(None),
        };
        let mut footprint = Footprint {
            array: array.to_string(),
            low: vec![Vec::new(); rank],
            high: vec![Vec::new(); rank],
            delinearised: decl.delinearised.clone(),
            through_rows: false,
        };
        for relation in accesses {
            if relation.n_out()? != rank {
                return Ok(None);
            }
            let cells = relation.range()?;
            for d in 0..rank {
                let Some((low, high)) = self.cell_bounds(&cells, array, rank, d)? else {
                    return self.declared_footprint(array, decl, rank);
                };
                push_bound(&mut footprint.low[d], low, -1);
                push_bound(&mut footprint.high[d], high, 1);
            }
        }
        Ok(Some(footprint))
    }

    /// Bounds over the parameters of subscript `d` of `cells`.
    fn cell_bounds(&self, cells: &Set, array: &str, rank: usize, d: usize) -> IslResult<Option<(LinExpr, LinExpr)>> {
        let subscripts: Vec<String> = (0..rank).map(|k| format!("o{k}")).collect();
        let project = Map::parse(&format!(
            "{} -> {{ {}[{}] -> [o{d}] }}",
            params_decl(self.ast.params.len()),
            array_tuple(array),
            subscripts.join(", ")
        ))?;
        let values = project.intersect_domain(cells)?.range()?;
        match bounds(&values)? {
            Some(bounds) => Ok(Some(bounds)),
            None => rounded_bounds(&values),
        }
    }

    /// The whole declared array, if its every extent is affine.
    fn declared_footprint(&self, array: &str, decl: &VarDecl, rank: usize) -> IslResult<Option<Footprint>> {
        let extents = decl.delinearised.as_ref().unwrap_or(&decl.extents);
        if extents.len() != rank {
            return Ok(None);
        }
        let mut footprint = Footprint {
            array: array.to_string(),
            low: Vec::new(),
            high: Vec::new(),
            delinearised: decl.delinearised.clone(),
            through_rows: false,
        };
        for extent in extents {
            let Some(extent) = extent_in_isl(extent, &self.ast.params) else { return Ok(None) };
            let last = Set::parse(&format!("{} -> {{ [x] : x = {extent} - 1 }}", params_decl(self.ast.params.len())))?;
            let Some((_, high)) = bounds(&last)? else { return Ok(None) };
            footprint.low.push(vec![LinExpr::constant(0)]);
            footprint.high.push(vec![high]);
        }
        Ok(Some(footprint))
    }
}

/// Bounds of the one dimension of `values` from its polyhedral hull,
/// rounded inwards where a bound has a coefficient (`2x <= n - 1`:
/// `x <= floor((n - 1) / 2)`): for values that divide a subscript
/// (`p[i / 2]`), whose divisions `bounds` drops.
fn rounded_bounds(values: &Set) -> IslResult<Option<(LinExpr, LinExpr)>> {
    let hull = values.polyhedral_hull()?.constraints()?;
    let lower = hull.iter().find_map(|c| rounded_bound(c, 1));
    let upper = hull.iter().find_map(|c| rounded_bound(c, -1));
    Ok(lower.zip(upper))
}

/// The bound on dimension 0 that `c` gives, over the parameters: a
/// lower bound for `sign` 1, an upper for -1.
fn rounded_bound(c: &Constraint, sign: i64) -> Option<LinExpr> {
    let coef = c.expr.coeff_of_dim(0);
    let expr = match coef * sign {
        0 => return None,
        s if s < 0 && !c.is_eq => return None,
        s if s < 0 => c.expr.scale(-1),
        _ => c.expr.clone(),
    };
    if expr.has_floor() || expr.terms.iter().any(|(t, _)| matches!(t, Term::Dim(d) if *d != 0)) {
        return None;
    }
    // k.x + rest >= 0 (lower: x >= -floor(rest / k)) or -k.x + rest >= 0
    // (upper: x <= floor(rest / k)).
    let k = coef.abs();
    let rest = expr.without_dim(0);
    let rounded = if k == 1 {
        rest
    } else {
        let mut floor = LinExpr::default();
        floor.add_term(Term::Floor(Box::new(rest), k), 1);
        floor
    };
    Some(if sign == 1 { rounded.scale(-1) } else { rounded })
}

/// Add `bound` to `bounds`, whose minimum (`sign` -1) or maximum (1)
/// counts: of two bounds a constant apart, only the extreme one.
fn push_bound(bounds: &mut Vec<LinExpr>, bound: LinExpr, sign: i64) {
    for known in bounds.iter_mut() {
        let difference = bound.sub(known);
        if difference.is_constant() {
            if difference.constant * sign > 0 {
                *known = bound;
            }
            return;
        }
    }
    bounds.push(bound);
}
