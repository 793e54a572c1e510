//! The cells of a variable a SCoP may touch, as bounds per subscript:
//! what the alias checks compare (`model::alias`), and what the work
//! check weighs besides the instances (`Scop::data`).

use super::isl::{IslResult, Map, Set};
use super::{array_tuple, bounds, extent_in_isl, params_decl, Scop};
use crate::frontend::decls::VarDecl;
use crate::frontend::structs::Member;
use crate::model::affine::LinExpr;

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
    /// A struct's member, which C reaches as this spells it (`g.u[i]`).
    pub member: Option<Member>,
}

impl Footprint {
    /// The C address of the cell at `corner` (one printed subscript per
    /// dimension, in the model's dimensions).
    pub fn address(&self, corner: &[String]) -> String {
        if let Some(member) = &self.member {
            return format!("&{}", member.spell(corner));
        }
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
        let ranges: Vec<String> =
            self.low.iter().zip(&self.high).map(|(l, h)| format!("{}..{}", text(l, "min"), text(h, "max"))).collect();
        match &self.member {
            Some(member) => member.spell(&ranges),
            None => format!("{}{}", self.array, ranges.iter().map(|r| format!("[{r}]")).collect::<String>()),
        }
    }
}
impl Scop {
    /// The cells of each array declared outside the SCoP that it touches
    /// (those with affine bounds, which a work check before the region
    /// may weigh: a lower bound on its data). Not the region's locals nor
    /// the variables of its data-dependent conditions.
    pub fn data(&self) -> IslResult<Vec<Footprint>> {
        let mut data = Vec::new();
        let own = |name: &str| {
            self.ast.locals.iter().any(|(l, _)| l == name) || self.ast.filter_variables().any(|f| f == name)
        };
        for (name, decl) in self.ast.arrays.iter().filter(|(name, _)| !own(name)) {
            if let Some(footprint) = self.footprint(name, decl)?.filter(|f| !f.low.is_empty()) {
                data.push(footprint);
            }
        }
        Ok(data)
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
            member: decl.field.as_ref().map(|f| f.member.clone()),
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
        bounds(&values)
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
            member: decl.field.as_ref().map(|f| f.member.clone()),
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
