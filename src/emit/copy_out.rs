//! The copy-out of privatised scalars, printed by polyc instead of left to
//! OpenMP. A parallel loop that copies a scalar `x` out becomes an
//! `omp parallel` region: each thread keeps whether it wrote `x`, the
//! latest iteration it wrote it in (the loop's time value, increasing in
//! the sequential order whatever the loop's direction) and the value
//! written there; after the `omp for` (`private(x)`, any schedule), the
//! thread with the latest writing iteration leaves its value in the
//! shared `x`, under `omp critical`; if no iteration wrote it, `x` keeps
//! its value. A thread need not run its iterations in order (a dynamic
//! schedule is nonmonotonic unless said otherwise: 2 runs in 300 of
//! clang's output kept an earlier iteration's value when each write was
//! recorded unchecked). Without OpenMP the same text runs sequentially
//! and copies `x` onto itself.
//!
//! No `lastprivate` for scalars: gcc 12 does not count an assignment from
//! a call for `lastprivate(conditional: x)` (the value from before the
//! loop came out), drops that clause's copy-out under `schedule(dynamic)`
//! (difftest seed 5027), and copies an indeterminate value out of a plain
//! `lastprivate(x)` (of `parallel for` and of `simd`) when the loop runs
//! no iteration; clang ignored the conditional clause in C until 2025.
//! A SIMD loop that writes a scalar copied out of it, or out of the
//! parallel loop around, is therefore printed as a plain loop: its
//! iterations must record their writes in order.

use super::printer::{LoopHead, Printer, Record};
use super::program::Program;
use crate::plan::marks::{LoopMark, PrivateVar};
use crate::scan::ast::Node;

impl Program<'_> {
    /// The scalars among `private` that `copy_out` copies out.
    pub(super) fn copied_scalars(&self, private: u64, copy_out: u64) -> Vec<&PrivateVar> {
        self.private_vars(private).filter(|v| !v.is_array && self.private_bit(v) & copy_out != 0).collect()
    }

    /// Whether statement `id` writes `var`.
    pub(super) fn writes(&self, id: usize, var: &str) -> bool {
        self.stmts.get(id).is_some_and(|st| {
            st.accesses.iter().any(|a| a.kind == crate::frontend::AccessKind::Write && a.array == var)
        })
    }
}

impl Printer<'_> {
    /// `#pragma omp parallel` around the loop `head` over `body`, which
    /// copies out the scalars `copied` itself (see the module's docs);
    /// `clauses` are the `omp for`'s (schedule, private copies).
    pub(super) fn parallel_loop_copying_out(
        &mut self,
        head: &LoopHead,
        mark: LoopMark,
        copied: &[String],
        clauses: &str,
        body: &[Node],
        depth: usize,
    ) {
        let records: Vec<Record> = copied.iter().map(|var| self.record_names(var)).collect();
        self.line(depth, "{");
        for r in &records {
            self.line(depth + 1, &format!("int {} = 0;", r.copied));
            self.line(depth + 1, &format!("long long {} = 0;", r.last));
        }
        self.line(depth + 1, "#pragma omp parallel");
        self.line(depth + 1, "{");
        for r in &records {
            self.line(depth + 2, &format!("int {} = 0;", r.wrote));
            self.line(depth + 2, &format!("long long {} = 0;", r.when));
            self.line(depth + 2, &format!("__typeof__({}) {} = 0;", r.var, r.value));
        }
        self.line(depth + 2, &format!("#pragma omp for nowait{clauses}"));
        let iteration =
            if head.sign > 0 { format!("(long long){}", head.name) } else { format!("-(long long){}", head.name) };
        let outside = std::mem::replace(&mut self.private_outside, self.program.private_scalars(mark.private));
        let recording =
            std::mem::replace(&mut self.records, records.iter().map(|r| (r.clone(), iteration.clone())).collect());
        self.loop_body(head, body, depth + 2, true);
        self.records = recording;
        self.private_outside = outside;
        self.line(depth + 2, "#pragma omp critical");
        self.line(depth + 2, "{");
        for r in &records {
            let later = format!("{} && (!{} || {} > {})", r.wrote, r.copied, r.when, r.last);
            self.line(depth + 3, &format!("if ({later}) {{"));
            self.line(depth + 4, &format!("{} = 1;", r.copied));
            self.line(depth + 4, &format!("{} = {};", r.last, r.when));
            self.line(depth + 4, &format!("{} = {};", r.var, r.value));
            self.line(depth + 3, "}");
        }
        self.line(depth + 2, "}");
        self.line(depth + 1, "}");
        self.line(depth, "}");
    }

    /// Fresh names for the record of `var`'s writes. The suffixes hold no
    /// underscore, so two variables' names never meet.
    fn record_names(&mut self, var: &str) -> Record {
        let mut name = |suffix: &str| self.fresh_name(&format!("polyc_{var}_{suffix}"));
        Record {
            var: var.to_string(),
            wrote: name("wrote"),
            when: name("when"),
            value: name("value"),
            copied: name("copied"),
            last: name("last"),
        }
    }

    /// Statement `id`'s text `body`, followed by the record of its write
    /// of each scalar the parallel loop around copies out (under the
    /// statement's filters, as the write), unless the thread wrote it in
    /// a later iteration already.
    pub(super) fn recording_writes(&self, id: usize, body: String) -> String {
        let records: Vec<String> = self
            .records
            .iter()
            .filter(|(r, _)| self.program.writes(id, &r.var))
            .map(|(r, iteration)| {
                let (wrote, when) = (&r.wrote, &r.when);
                let record = format!("{wrote} = 1; {when} = {iteration}; {} = {};", r.value, r.var);
                format!("if (!{wrote} || {iteration} >= {when}) {{ {record} }}")
            })
            .collect();
        if records.is_empty() {
            body
        } else {
            format!("{{ {body} {} }}", records.join(" "))
        }
    }

    /// Whether a SIMD loop over `body` with `mark` must run as a plain
    /// loop: it writes a scalar that it, or the parallel loop around,
    /// copies out (see the module's docs).
    pub(super) fn writes_copied_scalars(&self, mark: LoopMark, body: &[Node]) -> bool {
        let outside = self.program.written_in(self.private_outside, body);
        let mut ids = Vec::new();
        Node::statements(body, &mut ids);
        let recorded = self.records.iter().any(|(r, _)| ids.iter().any(|&id| self.program.writes(id, &r.var)));
        recorded || !self.program.copied_scalars(mark.private | outside, mark.copy_out).is_empty()
    }
}
