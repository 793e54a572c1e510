//! `--emit=scops`: every candidate loop nest and pragma region of a
//! file with its verdict (accepted, or rejected with a cause and where),
//! in file order.

use crate::diagnostics::{Cause, Code, Diagnostic};
use crate::frontend::Candidate;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// One candidate of `--emit=scops`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CandidateReport {
    pub line: usize,
    pub column: usize,
    pub function: String,
    /// How many rejected loops it sits in.
    pub depth: usize,
    /// A `#pragma scop` region rather than a loop nest found by the search.
    pub marked: bool,
    pub accepted: bool,
    /// The lines of the region it is part of, when accepted.
    pub region: Option<(usize, usize)>,
    pub cause: Option<Cause>,
    pub code: Option<Code>,
    /// Where the cause is (line, column).
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl CandidateReport {
    /// `file:line:col: function: accepted ...` or `... rejected: cause at file:line:col [CODE] message`.
    pub fn line_text(&self, file: &str) -> String {
        let what = if self.marked { "pragma region".to_string() } else { "  ".repeat(self.depth) + "loop nest" };
        let head = format!("{file}:{}:{}: {}: {what}", self.line, self.column, self.function);
        match (self.accepted, self.region, self.cause, self.at) {
            (true, Some((a, b)), _, _) => format!("{head}: accepted (region lines {a}-{b})"),
            (true, None, _, _) => format!("{head}: accepted"),
            (false, _, cause, at) => {
                let cause = cause.unwrap_or(Cause::Other).as_str();
                let at = at.map_or(String::new(), |(l, c)| format!(" at {file}:{l}:{c}"));
                let code = self.code.map_or(String::new(), |c| format!(" [{}]", c.as_str()));
                format!("{head}: rejected: {cause}{at}{code}: {}", self.message)
            }
        }
    }
}

/// What became of one SCoP of the front end, for `--emit=scops`.
pub struct ScopVerdict {
    pub detected: bool,
    pub pragma: Range<usize>,
    pub region: Range<usize>,
    /// Why it was not kept: too little work, or a model that failed.
    pub refused: Option<(Cause, Option<Code>, Range<usize>, String)>,
}

/// The candidates of `--emit=scops` in file order: the nests the search
/// tried (an accepted one takes its SCoP's verdict from the driver: too
/// little work, or a model that failed), and the pragma regions.
pub fn candidate_reports(
    text: &str,
    nests: &[Candidate],
    verdicts: &[ScopVerdict],
    rejected: &[(Range<usize>, Diagnostic)],
) -> Vec<CandidateReport> {
    let lc = |at: usize| crate::diagnostics::line_col(text, at);
    let lines = |r: &Range<usize>| (lc(r.start).0, lc(r.end.saturating_sub(1).max(r.start)).0);
    let report = |at: usize, function: &str, depth: usize, marked: bool| CandidateReport {
        line: lc(at).0,
        column: lc(at).1,
        function: function.to_string(),
        depth,
        marked,
        accepted: false,
        region: None,
        cause: None,
        code: None,
        at: None,
        message: String::new(),
    };
    let refuse = |r: CandidateReport, cause: Cause, code: Option<Code>, at: usize, message: &str| CandidateReport {
        cause: Some(cause),
        code,
        at: Some(lc(at)),
        message: message.to_string(),
        ..r
    };
    let judged = |r: CandidateReport, v: &ScopVerdict| match &v.refused {
        Some((cause, code, span, why)) => refuse(r, *cause, *code, span.start, why),
        None => CandidateReport { accepted: true, region: Some(lines(&v.region)), ..r },
    };
    let mut out: Vec<(usize, CandidateReport)> = Vec::new();
    for n in nests {
        let r = report(n.span.start, &n.function, n.depth, false);
        let r = match &n.verdict {
            Err(d) => refuse(r, Cause::from_code(d.code), Some(d.code), d.span.start, &d.message),
            Ok(k) => match verdicts.get(*k) {
                Some(v) => judged(r, v),
                None => CandidateReport { accepted: true, ..r },
            },
        };
        out.push((n.span.start, r));
    }
    for v in verdicts.iter().filter(|v| !v.detected) {
        out.push((v.pragma.start, judged(report(v.pragma.start, "-", 0, true), v)));
    }
    for (_, d) in rejected {
        let r = report(d.span.start, "-", 0, true);
        out.push((d.span.start, refuse(r, Cause::from_code(d.code), Some(d.code), d.span.start, &d.message)));
    }
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, r)| r).collect()
}
