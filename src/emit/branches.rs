//! Data-dependent conditions printed as the source writes them: an `if`
//! (with `else`, `else if`) around its statements, where they follow the
//! condition's evaluation in one body, in the source's order.
//!
//! The front end evaluates such a condition into a variable and guards
//! each statement under it by that variable ([`Stmt::filters`]), so that
//! the scheduler may move them apart. Where it did not, the output reads
//! as the user wrote it. It is not a matter of speed: gcc 12 and clang 19
//! compile both forms of `corpus/dynamic` and of TSVC's s441, s2711 and
//! s1279 to the same instructions (only register names differ).
//!
//! Exact by construction: the statements print in the order the scanner
//! gave them, each condition is evaluated once, where its statement stands
//! (before the statements that follow it write anything), and a statement
//! runs where its filters hold, as before. A run prints so only when it
//! holds every statement that names its variables, each appearing once in
//! the tree; elsewhere the variable form stays (its declarations and
//! `private` clauses stay too, unused where every run printed so).

use super::printer::Printer;
use crate::frontend::Stmt;
use crate::scan::ast::Node;

/// Deeper nesting of conditions keeps the variable form: the printing
/// below recurses once per level.
const MAX_NESTED_CONDITIONS: usize = 64;

/// A statement and the bindings around it, outermost first.
pub(super) struct Leaf<'n> {
    id: usize,
    lets: Vec<&'n Node>,
}

/// A statement, or a condition and the statements under each of its values.
pub(super) enum Branch<'n> {
    Plain(Leaf<'n>),
    If { test: Leaf<'n>, then: Vec<Branch<'n>>, otherwise: Vec<Branch<'n>> },
}

/// The statements of `nodes` in order, where it holds nothing but
/// statements and bindings (the scanner binds the source's constant
/// schedule dimensions, nested as the source's blocks).
fn leaves(nodes: &[Node]) -> Option<Vec<Leaf<'_>>> {
    let mut out = Vec::new();
    let mut stack: Vec<(std::slice::Iter<'_, Node>, Option<&Node>)> = vec![(nodes.iter(), None)];
    while let Some((iter, _)) = stack.last_mut() {
        match iter.next() {
            None => {
                stack.pop();
            }
            Some(Node::Stmt { id }) => {
                let lets = stack.iter().filter_map(|(_, let_node)| *let_node).collect();
                out.push(Leaf { id: *id, lets });
            }
            Some(node @ Node::Let { body, .. }) => stack.push((body.iter(), Some(node))),
            Some(_) => return None,
        }
    }
    Some(out)
}

impl Printer<'_> {
    /// `nodes` as plain statements and `if`s, where they are statements
    /// under bindings only, some evaluating a condition, those under a
    /// condition or evaluating one each once in the tree, and no statement
    /// elsewhere names a variable they set.
    pub(super) fn branches_of<'n>(&self, nodes: &'n [Node]) -> Option<Vec<Branch<'n>>> {
        let stmts = self.program.stmts;
        // Called for every list of nodes printed: most programs have no condition.
        if self.sharing || !stmts.iter().any(|s| s.sets.is_some()) {
            return None;
        }
        let run = leaves(nodes)?;
        if !run.iter().any(|l| stmts[l.id].sets.is_some()) {
            return None;
        }
        let ids: Vec<usize> = run.iter().map(|l| l.id).collect();
        let conditional = |k: &&usize| stmts[**k].sets.is_some() || !stmts[**k].filters.is_empty();
        let complete = ids.iter().filter(conditional).all(|&k| self.once.get(k) == Some(&true))
            && !ids.iter().any(|&k| stmts[k].sets.is_some() && self.records_writes_of(k))
            && self.names_only_within(&ids);
        if !complete {
            return None;
        }
        sequence(stmts, run, 0)
    }

    /// Whether no statement outside `ids` sets or reads a variable that
    /// one of `ids` sets.
    fn names_only_within(&self, ids: &[usize]) -> bool {
        let stmts = self.program.stmts;
        let vars: Vec<&str> = ids.iter().filter_map(|&k| stmts[k].sets.as_deref()).collect();
        let names = |s: &Stmt| {
            s.sets.as_deref().is_some_and(|v| vars.contains(&v)) || s.filters.iter().any(|(v, _)| vars.contains(&&**v))
        };
        stmts.iter().enumerate().all(|(k, s)| ids.contains(&k) || !names(s))
    }

    /// Whether a parallel loop around records `id`'s writes for its
    /// copy-out: the record goes around a statement, and cannot go into
    /// the test of an `if`.
    fn records_writes_of(&self, id: usize) -> bool {
        self.records.iter().any(|(r, _)| self.program.writes(id, &r.var))
    }

    pub(super) fn branches(&mut self, branches: &[Branch], depth: usize) {
        for branch in branches {
            match branch {
                Branch::Plain(leaf) => {
                    let text = self.leaf_text(leaf);
                    self.line(depth, &text);
                }
                Branch::If { test, then, otherwise } => self.branch_if("", test, then, otherwise, depth),
            }
        }
    }

    /// The text of `leaf`'s statement under its bindings, without its
    /// filters or the variable it sets.
    fn leaf_text(&mut self, leaf: &Leaf) -> String {
        let mut saved = Vec::new();
        for node in &leaf.lets {
            if let Node::Let { dim, value, .. } = node {
                let bound = value.substitute(&|k| self.env[k].clone());
                saved.push((*dim, std::mem::replace(&mut self.env[*dim], bound)));
            }
        }
        let text = self.unwrapped(leaf.id);
        for (dim, value) in saved.into_iter().rev() {
            self.env[dim] = value;
        }
        text
    }

    /// `if (test) then else otherwise`, the `if` after `keyword` (`else`
    /// for an `else if`); braces where a branch prints more than one
    /// statement, or where an `else` would bind to an inner `if`.
    fn branch_if(&mut self, keyword: &str, test: &Leaf, then: &[Branch], otherwise: &[Branch], depth: usize) {
        let value = self.leaf_text(test);
        let (cond, then, otherwise) =
            if then.is_empty() { (format!("!({value})"), otherwise, &[][..]) } else { (value, then, otherwise) };
        let braced = then.len() > 1 || matches!(then, [Branch::If { .. }]);
        self.line(depth, &format!("{keyword}if ({cond}){}", if braced { " {" } else { "" }));
        self.branches(then, depth + 1);
        let close = if braced { "} " } else { "" };
        match otherwise {
            [] if braced => self.line(depth, "}"),
            [] => {}
            [Branch::If { test, then, otherwise }] => {
                self.branch_if(&format!("{close}else "), test, then, otherwise, depth)
            }
            [single] => {
                self.line(depth, &format!("{close}else"));
                self.branches(std::slice::from_ref(single), depth + 1);
            }
            many => {
                self.line(depth, &format!("{close}else {{"));
                self.branches(many, depth + 1);
                self.line(depth, "}");
            }
        }
    }
}

/// The statements of `run`, each under `depth` filters that the `if`s
/// around them stand for, as plain statements and `if`s: a condition's
/// statements follow it, those for true before those for false.
fn sequence<'n>(stmts: &[Stmt], run: Vec<Leaf<'n>>, depth: usize) -> Option<Vec<Branch<'n>>> {
    if depth > MAX_NESTED_CONDITIONS {
        return None;
    }
    let mut out = Vec::new();
    let mut rest = run.into_iter().peekable();
    while let Some(leaf) = rest.next() {
        if stmts[leaf.id].filters.len() != depth {
            return None;
        }
        let Some(var) = stmts[leaf.id].sets.as_deref() else {
            out.push(Branch::Plain(leaf));
            continue;
        };
        let mut under = |holds: bool| {
            let mut taken = Vec::new();
            while let Some(next) =
                rest.next_if(|l| stmts[l.id].filters.get(depth).is_some_and(|(v, h)| v == var && *h == holds))
            {
                taken.push(next);
            }
            sequence(stmts, taken, depth + 1)
        };
        let then = under(true)?;
        let otherwise = under(false)?;
        if then.is_empty() && otherwise.is_empty() {
            return None;
        }
        out.push(Branch::If { test: leaf, then, otherwise });
    }
    Some(out)
}
