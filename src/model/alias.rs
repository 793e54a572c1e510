//! Which variables of a SCoP may share memory, and the run-time checks
//! that they do not (seed 001, SPolly's alias checks).
//!
//! The dependences treat every variable as its own memory, which C does
//! not promise: `rows(n, a, a)` passes one buffer as two array
//! parameters. A variable with storage of its own (a global, a local, a
//! scalar) is distinct from every other such variable, and a function's
//! pointer parameters cannot point to its automatic locals (unless it
//! assigns them: `if (!p) p = buf;`). A `restrict`
//! pointer (a parameter or a local) shares nothing with another
//! `restrict` pointer or with a variable of storage of its own while one
//! of them is written; an ordinary pointer, though, may hold a copy of it
//! (C's "based on"), so that pair is checked like any other. A
//! `restrict` pointer at file scope counts as an ordinary one: any
//! function may copy it (TSVC's `yy = xx`), and C compilers do not rely
//! on it either. Every other pair the SCoP touches, one of them written,
//! may overlap, and gets a check: the address intervals each touches do
//! not meet.
//!
//! A struct's member (`g.u`, `p->x`, `a[i].x`; `frontend::extract::fields`)
//! lies where its object does; distinct members of one object never
//! overlap. A pointer member (`double *x`) points anywhere, and the cell
//! holding it is read at every access: it is checked against what the
//! SCoP writes, like a table's row pointers.
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
//!
//! A footprint (`footprint.rs`) is, per subscript, bounds over the
//! parameters of what the SCoP's accesses reach, else the variable's
//! declared extents (within which the in-bounds check keeps them).
//! [`Scop::alias_checks`] gives the pairs the output checks
//! (`polyc_disjoint` in `emit::versioned`: the two address ranges do not
//! meet), or `Err` when some footprint has no affine bound: the SCoP is
//! then kept as written (`P0018`). `--assume-no-alias` skips the checks.

use super::isl::IslResult;
use super::rows::RowTable;
use super::Scop;
use crate::frontend::decls::VarDecl;
use crate::frontend::AccessKind;

pub use super::footprint::Footprint;

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
    /// Memory the output allocates for the SCoP.
    Fresh,
}

fn home(decl: &VarDecl) -> Home {
    if let Some(field) = &decl.field {
        // An array member lies in its object; a pointer member points anywhere.
        return match field.embedded {
            true => home(&field.object),
            false => Home::Pointer { parameter: false, restrict: false },
        };
    }
    if decl.is_fresh {
        return Home::Fresh;
    }
    let array_parameter = decl.is_parameter && !decl.extents.is_empty();
    if decl.is_pointer_variable() || array_parameter {
        let in_function = decl.is_parameter || (decl.is_local && !decl.is_static);
        let parameter = decl.is_parameter && !decl.is_reassigned;
        Home::Pointer { parameter, restrict: decl.is_restrict && in_function }
    } else {
        Home::Own { automatic: (decl.is_local && !decl.is_static) || decl.is_parameter }
    }
}

fn may_overlap(a: Home, b: Home) -> bool {
    !matches!(
        (a, b),
        (Home::Fresh, _)
            | (_, Home::Fresh)
            | (Home::Own { .. }, Home::Own { .. })
            | (Home::Pointer { restrict: true, .. }, Home::Pointer { restrict: true, .. } | Home::Own { .. })
            | (Home::Own { .. }, Home::Pointer { restrict: true, .. })
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
    /// The struct object the memory is a member of (an array member, or
    /// a pointer member's own cell): distinct members of one object
    /// never overlap.
    object: Option<&'a str>,
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
            let object = decl.field.as_ref().map(|f| f.member.object.as_str());
            let embedded = decl.field.as_ref().is_some_and(|f| f.embedded);
            let region = |home, written, footprint| Region {
                array: name,
                home,
                written,
                footprint,
                object: object.filter(|_| embedded),
            };
            if let Some(cell) = pointer_member_cell(name, decl) {
                regions.push(Region { object, ..region(cell.0, false, Some(Some(cell.1))) });
            }
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
                let members_of_one_object = a.object.is_some() && a.object == b.object;
                if members_of_one_object || !may_overlap(a.home, b.home) || !(a.written || b.written) {
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
        // A member (`p->x`) is no variable a declaration could shadow.
        let pointer =
            |decl: &VarDecl| decl.field.is_none() && matches!(home(decl), Home::Pointer { restrict: false, .. });
        self.ast.arrays.iter().filter(|(_, decl)| pointer(decl)).map(|(name, _)| name.clone()).collect()
    }
}

/// The cell holding a pointer member (`p->x` of `p->x[i]`), where its
/// object lies, which the SCoP reads (never writes: the extractor refuses
/// it) at every access: what is written through other pointers must not
/// meet it, like a table's row pointers.
fn pointer_member_cell(array: &str, decl: &VarDecl) -> Option<(Home, Footprint)> {
    let field = decl.field.as_ref().filter(|f| !f.embedded)?;
    let cell = Footprint {
        array: array.to_string(),
        low: Vec::new(),
        high: Vec::new(),
        delinearised: None,
        through_rows: false,
        member: Some(field.member.clone()),
    };
    Some((home(&field.object), cell))
}
