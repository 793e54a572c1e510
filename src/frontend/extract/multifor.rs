//! `multifor` statements. Each loop of a multifor (a component) is
//! extracted like a `for` loop whose iterations are placed on the
//! multifor's referential domain (offset, then one point per grain); its
//! body is the items prefixed with its number, and the inner multifors,
//! whose loop of the same number continues it. At one referential point
//! the bodies run in prefix order; an inner multifor is a barrier: the
//! items before it run before it, the items after it after it.
//!
//! The header is checked first (`M0001`): five groups (`inits`,
//! `conditions`, `updates`, `grains`, `offsets`) of one entry per loop,
//! each grain an integer constant >= 1 (or `rank`), each offset >= 0, loops
//! counting upwards. The body is checked as it is walked (`M0002`): a
//! prefix out of range or repeated, another loop's index, an unknown name
//! in an affine position, an index list without a prefix list. Bracketed
//! index lists are resolved per loop, in the accesses and in the
//! statement's text (`Stmt::replace_text`).
//!
//! At a multifor's depth, a statement's `beta` is
//! `(segment * loops + loop) * 1024 + position`, a segment ending at each
//! inner multifor, so that at one referential point the loops run in
//! prefix order and an inner multifor is a barrier. Invariant: a statement's referential points are
//! `offset + grain * q` for its `q`-th iteration, exactly (the model's
//! original schedule has an existential `q`, its lower bound with its case
//! splits).

use super::affine::parse_int;
use super::state::{Extractor, Header, LoopCtx, Res};
use crate::diagnostics::{Code, Diagnostic};
use crate::frontend::ast::{Iterator, LoopText, RankMapping, Referential, Rows, Stmt};
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::syntax::{text, walk};
use tree_sitter::Node;

/// Positions in `beta` reserved for one loop's items between two inner
/// multifors.
const SLOT: usize = 1024;

/// One loop of a multifor header.
struct Loop<'t> {
    header: Header<'t>,
    index: String,
    grain: i64,
    offset: i64,
    /// Grain `rank`: the loop runs by rank inside the other one.
    ranked: bool,
}

const GROUPS: [&str; 5] = ["inits", "conditions", "updates", "grains", "offsets"];

fn malformed(n: Node, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::error(Code::M0001, n.byte_range(), message).with_label(label.to_string())
}

fn misplaced(n: Node, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::error(Code::M0002, n.byte_range(), message).with_label(label.to_string())
}

/// The one multifor a body holds, if that is all it holds.
fn single_multifor(body: Node) -> Option<Node> {
    match entries(body)[..] {
        [only] if only.kind() == "multifor_statement" => Some(only),
        _ => None,
    }
}

/// An expression statement, or a block of them.
fn only_assignments(n: Node) -> bool {
    match n.kind() {
        "expression_statement" | "comment" => true,
        "compound_statement" => entries(n).into_iter().all(only_assignments),
        _ => false,
    }
}

fn entries(n: Node) -> Vec<Node> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

impl<'a> Extractor<'a> {
    /// A multifor met as a statement: outermost, or inside a prefixed
    /// statement, where only one of its loops would be walked.
    pub(super) fn nested_multifor(&mut self, n: Node) -> Res<()> {
        match self.multifor.current {
            Some((_, k)) => Err(misplaced(
                n,
                format!("a multifor inside a statement of loop {k}: its other loops would belong to no loop"),
                "nest it directly in the enclosing multifor's body",
            )),
            None => self.multifor(n),
        }
    }

    fn multifor(&mut self, n: Node) -> Res<()> {
        let loops = self.multifor_header(n)?;
        if loops.iter().any(|l| l.ranked) {
            match (self.multifor.current, &self.rank_mapping) {
                (None, None) => self.rank_mapping = Some(self.rank_mapping(n, &loops)?),
                (Some(_), Some(_)) => {}
                _ => {
                    return Err(malformed(
                        n.child_by_field_name("header").unwrap_or(n),
                        "`rank` marks a loop of one nest two multifors deep, in both headers, once per region",
                        "rank",
                    ))
                }
            }
        }
        let body = n.child_by_field_name("body").ok_or_else(|| malformed(n, "multifor without a body", "here"))?;
        self.multifor.levels.push(loops.iter().map(|l| l.index.clone()).collect());
        let r = match self.multifor.current {
            Some((_, k)) => {
                let outer = self.multifor.levels[self.multifor.levels.len() - 2].len();
                if loops.len() == outer {
                    self.multifor_loop(&loops[k], k, loops.len(), body)
                } else {
                    Err(malformed(
                        n.child_by_field_name("header").unwrap_or(n),
                        format!("this multifor has {} loops inside a multifor of {outer}", loops.len()),
                        "nested multifors pair their loops one to one",
                    ))
                }
            }
            None => self.multifor_loops(n, &loops, body),
        };
        self.multifor.levels.pop();
        r
    }

    /// Each loop of an outermost multifor, all at the same position.
    fn multifor_loops(&mut self, n: Node, loops: &[Loop], body: Node) -> Res<()> {
        let beta = self.beta.clone();
        let mut r = Ok(());
        for (k, l) in loops.iter().enumerate() {
            self.beta = beta.clone();
            self.multifor.current = Some((n.start_byte(), k));
            r = self.multifor_loop(l, k, loops.len(), body);
            if r.is_err() {
                break;
            }
        }
        self.multifor.current = None;
        r
    }

    /// The header's loops, checked: five groups of one entry per loop,
    /// `index = lb` initialisations, grains >= 1 and offsets >= 0.
    fn multifor_header<'t>(&mut self, n: Node<'t>) -> Res<Vec<Loop<'t>>> {
        let header =
            n.child_by_field_name("header").ok_or_else(|| malformed(n, "multifor without a header", "here"))?;
        let mut groups = Vec::new();
        for name in GROUPS {
            let group = header.child_by_field_name(name).ok_or_else(|| {
                malformed(header, format!("the header has no {name}"), "five groups separated by `;`")
            })?;
            groups.push((group, entries(group)));
        }
        let width = groups[0].1.len();
        for ((group, items), name) in groups.iter().zip(GROUPS).skip(1) {
            if items.len() != width {
                return Err(malformed(
                    *group,
                    format!("{} {name} for {width} loops", items.len()),
                    &format!("expected {width}, one per index"),
                ));
            }
        }
        let mut loops: Vec<Loop<'t>> = Vec::new();
        for k in 0..width {
            let init = groups[0].1[k];
            let index = init
                .child_by_field_name("left")
                .filter(|l| init.kind() == "assignment_expression" && l.kind() == "identifier")
                .filter(|_| init.child_by_field_name("operator").is_some_and(|o| o.kind() == "="))
                .map(|l| self.t(l).to_string())
                .ok_or_else(|| malformed(init, "expected `index = expression`", "initialisation"))?;
            if loops.iter().any(|l| l.index == index) {
                return Err(malformed(init, format!("index `{index}` initialised twice"), "second initialisation"));
            }
            let grain_node = groups[3].1[k];
            let ranked = grain_node.kind() == "identifier" && self.t(grain_node) == "rank";
            let grain = if ranked { 1 } else { self.header_constant(grain_node, 1, "a grain")? };
            let offset = self.header_constant(groups[4].1[k], 0, "an offset")?;
            if ranked && offset != 0 {
                return Err(malformed(groups[4].1[k], "a loop run by rank has offset 0", "offset"));
            }
            let header =
                Header { whole: header, init: Some(init), cond: Some(groups[1].1[k]), update: Some(groups[2].1[k]) };
            loops.push(Loop { header, index, grain, offset, ranked });
        }
        Ok(loops)
    }

    /// A grain or offset: an integer constant of at least `least`.
    fn header_constant(&mut self, n: Node, least: i64, what: &str) -> Res<i64> {
        let value = self.affine(n, Code::M0001).ok().and_then(|v| v.const_value());
        match value {
            Some(v) if v >= least => Ok(v),
            _ => Err(malformed(n, format!("{what} must be an integer constant >= {least}"), what)),
        }
    }

    /// Loop `k` of a multifor: its iterator in scope, placed on the
    /// referential domain, and its part of the body.
    fn multifor_loop(&mut self, l: &Loop, k: usize, width: usize, body: Node) -> Res<()> {
        let in_header = |mut d: Diagnostic| {
            d.code = Code::M0001;
            d.severity = crate::diagnostics::Severity::Error;
            d
        };
        let (lower, step) = self.open_loop(&l.header).map_err(in_header)?;
        // A multifor index has no final value to preserve: the loop is not
        // a C loop, and its lowering declares loop variables of its own.
        self.outer_iterators.remove(&l.index);
        self.referential.push(Some(Referential { lower, step, grain: l.grain, offset: l.offset }));
        let r = if step < 0 {
            Err(malformed(l.header.update.unwrap_or(l.header.whole), "multifor loops count upwards", "increment"))
        } else {
            self.multifor_body(body, k, width)
        };
        self.close_loop();
        r
    }

    /// The items of loop `k` of a body: segments between inner
    /// multifors, in each the loops' items in prefix order.
    fn multifor_body(&mut self, body: Node, k: usize, width: usize) -> Res<()> {
        if body.kind() == "multifor_statement" {
            return self.multifor(body);
        }
        let slot = |segment: usize, k: usize| (segment * width + k) * SLOT;
        let mut segment = 0;
        let mut started = false;
        for item in entries(body) {
            match item.kind() {
                "multifor_statement" => {
                    segment += 1;
                    self.set_position(slot(segment, 0));
                    self.multifor(item)?;
                    segment += 1;
                    started = false;
                }
                "multifor_item" => {
                    let (prefixes, listed) = self.prefixes(item, width)?;
                    let Some(pos) = prefixes.iter().position(|&p| p == k) else { continue };
                    if !started {
                        self.set_position(slot(segment, k));
                        started = true;
                    }
                    let stmt = item
                        .child_by_field_name("statement")
                        .ok_or_else(|| misplaced(item, "prefix without a statement", "here"))?;
                    self.multifor.pick = listed.then_some((pos, prefixes.len()));
                    let r = self.statement(stmt);
                    self.multifor.pick = None;
                    r?;
                    if self.position() >= slot(segment, k) + SLOT {
                        return Err(misplaced(item, format!("more than {SLOT} statements in a row"), "here"));
                    }
                }
                other => {
                    return Err(misplaced(item, format!("expected `k : statement`, found {other}"), "no prefix"));
                }
            }
        }
        Ok(())
    }

    /// The shape of a nest with a loop run by rank: two loops, two
    /// multifors deep, assignments only inside the inner one, the ranked
    /// nest's rows of a length affine in its outer index, not shrinking.
    fn rank_mapping(&mut self, n: Node, loops: &[Loop]) -> Res<RankMapping> {
        let header = n.child_by_field_name("header").unwrap_or(n);
        let ranked = loops.iter().position(|l| l.ranked).unwrap_or(0);
        if loops.len() != 2 || loops[1 - ranked].ranked {
            return Err(malformed(
                header,
                "a rank mapping pairs two loops: one with grain `rank`, one without",
                "rank",
            ));
        }
        let body = n.child_by_field_name("body").ok_or_else(|| malformed(n, "multifor without a body", "here"))?;
        let inner = if body.kind() == "multifor_statement" { Some(body) } else { single_multifor(body) };
        let not_two_deep =
            || malformed(n, "a rank-mapped nest is two multifors deep, its statements in the inner one", "rank");
        let inner = inner.ok_or_else(not_two_deep)?;
        let inner_loops = self.multifor_header(inner)?;
        if inner_loops.len() != 2 || inner_loops.iter().zip(loops).any(|(a, b)| a.ranked != b.ranked) {
            return Err(malformed(
                inner.child_by_field_name("header").unwrap_or(inner),
                format!("loop {ranked} has grain `rank` in both headers, the other loop in neither"),
                "rank",
            ));
        }
        let inner_body = inner.child_by_field_name("body").ok_or_else(not_two_deep)?;
        for item in entries(inner_body) {
            let plain =
                item.kind() == "multifor_item" && item.child_by_field_name("statement").is_some_and(only_assignments);
            if !plain {
                return Err(Diagnostic::error(
                    Code::M0003,
                    item.byte_range(),
                    "a rank-mapped nest holds only assignments, in its inner multifor",
                )
                .with_label("not an assignment"));
            }
        }
        let host = 1 - ranked;
        let rows = self.rows(&loops[ranked], &inner_loops[ranked])?;
        Ok(RankMapping { ranked, host: [self.loop_text(&loops[host]), self.loop_text(&inner_loops[host])], rows })
    }

    fn loop_text(&self, l: &Loop) -> LoopText {
        let part = |n: Option<Node>| n.map(|n| self.t(n).to_string()).unwrap_or_default();
        let init = l.header.init.and_then(|i| i.child_by_field_name("right"));
        LoopText { index: l.index.clone(), init: part(init), cond: part(l.header.cond), update: part(l.header.update) }
    }

    /// The ranked nest's rows, from its two headers.
    fn rows(&mut self, outer: &Loop, inner: &Loop) -> Res<Rows> {
        let (first, count_end) = self.unit_range(outer)?;
        let (start, length_end) = self.unit_range(inner)?;
        // The slope, with the outer index in scope for the moment.
        let depth = self.loops.len();
        let iter = Iterator { name: outer.index.clone(), ty: "int".into(), descending: false };
        self.loops.push(LoopCtx { iter, counts_up_from_nonnegative: false });
        let start_node = inner.header.init.and_then(|i| i.child_by_field_name("right"));
        let end_node = inner.header.cond.and_then(|c| c.child_by_field_name("right"));
        let slope = match (start_node, end_node) {
            (Some(s), Some(e)) => {
                let (end, start) = (self.affine(e, Code::M0003), self.affine(s, Code::M0003));
                end.and_then(|e| Ok(QExpr::minus(e, start?).linear_coeff(Var::Iter(depth))))
            }
            _ => Ok(None),
        };
        self.loops.pop();
        let slope = slope?.filter(|&s| s >= 0).ok_or_else(|| {
            Diagnostic::error(
                Code::M0003,
                inner.header.cond.map_or(0..0, |c| c.byte_range()),
                "rows of a rank-mapped nest must have a length affine in its outer index, not shrinking",
            )
            .with_label("row length")
        })?;
        Ok(Rows {
            outer: outer.index.clone(),
            inner: inner.index.clone(),
            count: format!("({count_end}) - ({first})"),
            first,
            length: format!("({length_end}) - ({start})"),
            start,
            slope,
        })
    }

    /// `(lower, end)` of a loop `i = lower; i < end (or <=); i++`, as C text.
    fn unit_range(&self, l: &Loop) -> Res<(String, String)> {
        let unsupported = |n: Node| {
            Diagnostic::error(Code::M0003, n.byte_range(), "a rank-mapped loop is `i = lb; i < ub; i++`")
                .with_label("not supported by rank")
        };
        let cond = l.header.cond.ok_or_else(|| unsupported(l.header.whole))?;
        let update = l.header.update.ok_or_else(|| unsupported(l.header.whole))?;
        let lower = l.header.init.and_then(|i| i.child_by_field_name("right")).ok_or_else(|| unsupported(cond))?;
        let step: String = self.t(update).chars().filter(|c| !c.is_whitespace()).collect();
        if ![format!("{}++", l.index), format!("++{}", l.index), format!("{}+=1", l.index)].contains(&step) {
            return Err(unsupported(update));
        }
        let left = cond.child_by_field_name("left").filter(|x| x.kind() == "identifier" && self.t(*x) == l.index);
        let op = cond.child_by_field_name("operator").map(|o| self.t(o));
        let (Some(_), Some(right)) = (left, cond.child_by_field_name("right")) else {
            return Err(unsupported(cond));
        };
        let end = match op {
            Some("<") => self.t(right).to_string(),
            Some("<=") => format!("({}) + 1", self.t(right)),
            _ => return Err(unsupported(cond)),
        };
        Ok((self.t(lower).to_string(), end))
    }

    fn set_position(&mut self, at: usize) {
        *self.beta.last_mut().expect("beta always has the current depth") = at;
    }

    fn position(&self) -> usize {
        *self.beta.last().expect("beta always has the current depth")
    }

    /// The loops an item's prefix names, and whether it is a list.
    fn prefixes(&self, item: Node, width: usize) -> Res<(Vec<usize>, bool)> {
        let prefix = item.child_by_field_name("prefix").ok_or_else(|| misplaced(item, "missing prefix", "here"))?;
        let listed = prefix.kind() == "multifor_prefix_list";
        let numbers = if listed { entries(prefix) } else { vec![prefix] };
        let mut out = Vec::new();
        for n in numbers {
            let k = parse_int(self.t(n)).and_then(|k| usize::try_from(k).ok()).filter(|&k| k < width);
            let Some(k) = k else {
                return Err(misplaced(
                    n,
                    format!("prefix {} names no loop: this multifor has {width} (0 to {})", self.t(n), width - 1),
                    "prefix out of range",
                ));
            };
            if out.contains(&k) {
                return Err(misplaced(n, format!("loop {k} listed twice"), "repeated prefix"));
            }
            out.push(k);
        }
        Ok((out, listed))
    }

    /// The entry of a bracketed index list for the loop being walked.
    pub(super) fn picked<'t>(&self, list: Node<'t>) -> Res<Node<'t>> {
        let elems = entries(list);
        let Some((pos, len)) = self.multifor.pick else {
            return Err(misplaced(list, "an index list needs a prefix list `[k1, k2] :`", "index list"));
        };
        if elems.len() != len {
            return Err(misplaced(
                list,
                format!("{} entries for the {len} loops of the prefix", elems.len()),
                "one entry per listed loop",
            ));
        }
        Ok(elems[pos])
    }

    /// Replace each index list of statement `n` by its entry for the
    /// loop being walked.
    pub(super) fn pick_index_lists(&self, n: Node, stmt: &mut Stmt) -> Res<()> {
        let mut lists = Vec::new();
        walk(n, &mut |m| {
            let inside_another = lists.iter().any(|l: &Node| l.byte_range().contains(&m.start_byte()));
            if m.kind() == "multifor_index_list" && !inside_another {
                lists.push(m);
            }
        });
        let start = n.start_byte();
        for list in lists.into_iter().rev() {
            let entry = self.picked(list)?;
            let at = entry.start_byte() - start..entry.end_byte() - start;
            let uses = stmt
                .iter_uses
                .iter()
                .filter(|(r, _)| at.start <= r.start && r.end <= at.end)
                .map(|(r, d)| (r.start - at.start..r.end - at.start, *d))
                .collect();
            stmt.replace_text(list.start_byte() - start..list.end_byte() - start, text(entry, self.src), uses);
        }
        Ok(())
    }

    /// A name that is the index of another loop of an enclosing multifor
    /// (or, in an affine position inside one, no variable at all).
    pub(super) fn check_not_foreign_index(&self, n: Node, affine: bool) -> Res<()> {
        let Some((_, k)) = self.multifor.current else { return Ok(()) };
        let name = self.t(n);
        for level in &self.multifor.levels {
            if let Some(j) = level.iter().position(|x| x == name) {
                return Err(misplaced(
                    n,
                    format!("`{name}` is the index of loop {j} of the multifor; this belongs to loop {k}"),
                    "another loop's index",
                ));
            }
        }
        if affine && !self.names.vars.contains_key(name) && !self.names.macros.contains_key(name) {
            return Err(misplaced(n, format!("unknown index `{name}`"), "not an index of this loop, nor a variable"));
        }
        Ok(())
    }
}
