//! The walk over a table's row pointers that the versioned output runs
//! before its checks (see `model::rows`): the lowest and one past the
//! highest address the SCoP touches through the rows, and for a written
//! table whether the rows' ranges follow each other, ascending or
//! descending. Addresses are integers (`__UINTPTR_TYPE__`), so no
//! pointer past a row is formed, and the walk reads only the row
//! pointers the SCoP reads, only where it reads some.

use super::exprs::conjunction;
use super::printer::Printer;
use crate::model::affine::LinExpr;
use crate::model::rows::RowTable;

const UINTPTR: &str = "__UINTPTR_TYPE__";

/// The names a table's walk leaves its results in.
pub(super) struct RowWalk {
    pub array: String,
    /// True once the walk ran and found the rows apart (or only read).
    pub holds: String,
    pub low: String,
    pub end: String,
}

impl Printer<'_> {
    /// Each of the program's tables walked at `depth`, under `guard` (the
    /// work check, if the walk waits for it) and where the SCoP reads
    /// some row pointer.
    pub(super) fn walk_rows(&mut self, guard: Option<&str>, depth: usize) -> Vec<RowWalk> {
        let tables: &[RowTable] = self.program.tables;
        tables.iter().map(|table| self.walk(table, guard, depth)).collect()
    }

    fn walk(&mut self, table: &RowTable, guard: Option<&str>, depth: usize) -> RowWalk {
        let footprint = &table.footprint;
        let a = footprint.array.as_str();
        let mut name = |what: &str| self.fresh_name(&format!("polyc_{a}_{what}"));
        let walk = RowWalk { array: a.to_string(), holds: name("rows"), low: name("low"), end: name("end") };
        let (up, down, last, last_end) = (name("up"), name("down"), name("last"), name("last_end"));
        // Declared in the walk's own loop: sibling walks may share them.
        let (row, start, end) =
            (self.fresh_local("polyc_row"), self.fresh_local("polyc_start"), self.fresh_local("polyc_end"));
        let first = self.extreme(&footprint.low[0], false);
        let final_row = self.extreme(&footprint.high[0], true);
        let begin = self.row_offset(a, &footprint.low[1..], false);
        let past = self.row_offset(a, &footprint.high[1..], true);
        let mut conditions: Vec<String> = guard.iter().map(|g| g.to_string()).collect();
        conditions.extend(self.proven_where(&table.reads_rows));
        let condition = conjunction(&conditions);
        self.line(depth, &format!("{UINTPTR} {} = 0, {} = 0;", walk.low, walk.end));
        self.line(depth, &format!("int {} = 0;", walk.holds));
        self.line(depth, &format!("if ({condition}) {{"));
        let apart = if table.written { format!(" && ({up} || {down})") } else { String::new() };
        if table.written {
            self.line(depth + 1, &format!("int {up} = 1, {down} = 1;"));
            self.line(depth + 1, &format!("{UINTPTR} {last} = ({UINTPTR})-1, {last_end} = 0;"));
        }
        self.line(depth + 1, &format!("{} = ({UINTPTR})-1;", walk.low));
        self.line(depth + 1, &format!("for (long {row} = {first}; {row} <= {final_row}{apart}; {row}++) {{"));
        let pointer = format!("({UINTPTR}){a}[{row}]");
        self.line(depth + 2, &format!("{UINTPTR} {start} = {pointer} + {begin}, {end} = {pointer} + {past};"));
        if table.written {
            // Each row's range after the last one's, or each before it.
            self.line(depth + 2, &format!("{up} = {up} && {last_end} <= {start};"));
            self.line(depth + 2, &format!("{down} = {down} && {end} <= {last};"));
            self.line(depth + 2, &format!("{last} = {start};"));
            self.line(depth + 2, &format!("{last_end} = {end};"));
        }
        self.line(depth + 2, &format!("if ({start} < {}) {} = {start};", walk.low, walk.low));
        self.line(depth + 2, &format!("if ({end} > {}) {} = {end};", walk.end, walk.end));
        self.line(depth + 1, "}");
        let holds = if table.written { format!("{up} || {down}") } else { "1".to_string() };
        self.line(depth + 1, &format!("{} = {holds};", walk.holds));
        self.line(depth, "}");
        walk
    }

    /// The bytes from a row's start to the corner of its columns at
    /// `bounds` (their minimum, or their maximum and one element more
    /// when `past`).
    fn row_offset(&mut self, a: &str, bounds: &[Vec<LinExpr>], past: bool) -> String {
        let mut terms = Vec::new();
        for (d, bound) in bounds.iter().enumerate() {
            let column = self.extreme(bound, past);
            let zeros = "[0]".repeat(d + 2);
            terms.push(format!("({UINTPTR})({column}) * sizeof({a}{zeros})"));
        }
        if past {
            terms.push(format!("sizeof({a}{})", "[0]".repeat(bounds.len() + 1)));
        }
        terms.join(" + ")
    }
}
