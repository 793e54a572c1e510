//! Tables of row pointers (`double **a`, `double *a[n]`): `a[i][j]`
//! reads the pointer `a[i]` from memory, then element `j` of its row.
//!
//! Nothing in C places row `i + 1` after row `i`, or apart from it:
//! rows may run backwards through one buffer, or overlap (banded
//! storage), so the corners of a footprint bound nothing across rows and
//! the model's distinct cells `a[i][j]` and `a[i + 1][j']` may be one.
//! polyc checks at run time what it relies on, rather than keeping such
//! SCoPs: tables of rows are common in real C. The output walks the rows
//! the SCoP reads (`RowTable`), computing as integers (no out-of-bounds
//! pointer is formed) the lowest and highest address the SCoP touches
//! through them, which the alias checks then compare like any footprint
//! (`model::alias`); for a written table, the rows' ranges must also
//! follow each other, strictly ascending or descending, each ending
//! before the next starts (a linear test sufficient for pairwise apart),
//! else the source text runs.
//!
//! The walk reads only row pointers the source reads: it runs only for
//! parameter values where the rows the SCoP touches are one interval of
//! row numbers, not empty (a call with `n = 0` and a NULL table reads
//! nothing), each read by every instance of a statement (no `if` on
//! data around it, not under `?:`, `&&` or `||` in it); for other values
//! the source text runs. A
//! table whose accesses read anything but one row pointer at their first
//! subscript (a row pointer itself assigned or read, `double ***`, a
//! typedef hiding a pointer level), or whose rows are one interval for
//! no parameter value, is kept as written (`P0018`). The SCoP never writes the row pointers (the
//! model has no access to them), and the alias checks compare the
//! pointers' own cells with what it writes.

use super::footprint::Footprint;
use super::isl::{IslResult, Map, Set};
use super::{array_tuple, params_decl, Scop};
use crate::frontend::decls::VarDecl;
use crate::model::affine::{Constraint, LinExpr};

/// A table of row pointers a SCoP reaches, and what the output checks
/// of it before the new loops run.
#[derive(Clone, Debug, PartialEq)]
pub struct RowTable {
    /// The cells the SCoP touches through the rows: subscript 0 the rows
    /// (exactly the interval it reads), the others the columns.
    pub footprint: Footprint,
    /// Whether the SCoP writes through the rows: they must then be apart.
    pub written: bool,
    /// The parameter values (disjuncts) where the SCoP reads some row
    /// pointers, one interval of rows each read whatever the data: only
    /// there does the output walk them (elsewhere the source runs).
    pub reads_rows: Vec<Vec<Constraint>>,
}

impl RowTable {
    /// The table's own cells the SCoP reads: the row pointers.
    pub fn pointers(&self) -> Footprint {
        Footprint {
            array: self.footprint.array.clone(),
            low: vec![self.footprint.low[0].clone()],
            high: vec![self.footprint.high[0].clone()],
            delinearised: None,
            through_rows: false,
            member: None,
        }
    }
}

impl Scop {
    /// `array` as a table of row pointers: `None` when no access reads a
    /// row pointer; `Err` says why the output cannot check it.
    pub(super) fn row_table(
        &self,
        array: &str,
        decl: &VarDecl,
        written: bool,
    ) -> IslResult<Result<Option<RowTable>, String>> {
        let mut ranks = Vec::new();
        for access in self.statements.iter().flat_map(|s| &s.accesses).filter(|a| a.array == array) {
            ranks.push(access.relation.n_out()?);
        }
        let reads_pointers = ranks.iter().any(|&r| !decl.row_loads(r).is_empty() || !decl.shows_levels(r));
        if decl.delinearised.is_some() || !reads_pointers {
            return Ok(Ok(None));
        }
        let refuse = |what: &str| {
            Ok(Err(format!(
                "'{array}' is a table of row pointers {what}; polyc checks at run time only tables whose every \
                 access reads one row pointer at its first subscript, rows one interval read whatever the data \
                 (a 2-D array or one contiguous buffer needs no such check)"
            )))
        };
        let rank = decl.pointer_levels.len();
        if ranks.iter().any(|&r| r != rank || decl.row_loads(r) != [1]) {
            return refuse(
                "whose accesses read its row pointers themselves, more than one pointer, or a pointer its type hides",
            );
        }
        let Some(mut footprint) = self.footprint(array, decl)? else {
            return refuse("whose cells have no affine bounds");
        };
        let every = self.first_subscripts(array, rank, false)?;
        let unconditional = self.first_subscripts(array, rank, true)?;
        let interval = self.interval(&footprint.low[0], &footprint.high[0])?;
        // Where rows between those read go unread (`a[2 * i]`, or rows
        // `0` and `n + 1` of `a[i - 1]` and `a[i + 1]` for `n = 1`), or
        // some are read only under a condition, the source text runs.
        let read = unconditional.params()?;
        let holes = interval.intersect_params(&read)?.subtract(&unconditional)?;
        let unsure = holes.params()?.union(&every.subtract(&unconditional)?.params()?)?;
        let walked = read.subtract(&unsure)?.coalesce()?;
        if walked.is_empty()? {
            return refuse("whose rows read are never one interval read whatever the data");
        }
        footprint.through_rows = true;
        Ok(Ok(Some(RowTable { footprint, written, reads_rows: walked.disjuncts()? })))
    }

    /// The first subscripts of `array`'s accesses (`rank` deep): of
    /// every one, or only of those each instance of their statement
    /// reads (no `if` on data around it, no `?:`, `&&` or `||` in it).
    fn first_subscripts(&self, array: &str, rank: usize, unconditional: bool) -> IslResult<Set> {
        let np = self.ast.params.len();
        let subscripts: Vec<String> = (0..rank).map(|k| format!("o{k}")).collect();
        let project = Map::parse(&format!(
            "{} -> {{ {}[{}] -> [o0] }}",
            params_decl(np),
            array_tuple(array),
            subscripts.join(", ")
        ))?;
        let mut rows = Set::parse(&format!("{} -> {{ [x] : 1 = 0 }}", params_decl(np)))?;
        for (statement, stmt) in self.statements.iter().zip(&self.ast.stmts) {
            if unconditional && !stmt.filters.is_empty() {
                continue;
            }
            for access in statement.accesses.iter().filter(|a| a.array == array && !(unconditional && a.conditional)) {
                rows = rows.union(&project.intersect_domain(&access.relation.range()?)?.range()?)?;
            }
        }
        Ok(rows)
    }

    /// `{ [x] : min(low) <= x <= max(high) }` over the parameters.
    fn interval(&self, low: &[LinExpr], high: &[LinExpr]) -> IslResult<Set> {
        let any = |bounds: &[LinExpr], op: &str| {
            let each: Vec<String> = bounds.iter().map(|b| format!("x {op} {}", b.to_isl_text())).collect();
            format!("({})", each.join(" or "))
        };
        Set::parse(&format!(
            "{} -> {{ [x] : {} and {} }}",
            params_decl(self.ast.params.len()),
            any(low, ">="),
            any(high, "<=")
        ))
    }
}
