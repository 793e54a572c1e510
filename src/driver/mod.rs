//! The pipeline for one file: front end → model → plan → scan → emit, one
//! SCoP at a time. A SCoP that fails anywhere is kept as written, with a
//! warning; the bytes outside SCoPs are copied unchanged.
//!
//! [`compile_file`] parses the file (`frontend::Source`), then for each
//! SCoP builds its model under the SCoP's isl budget and time limit (scope
//! guards: `isl::budget`, `isl::TimeLimit`, `isl::phase`) and does what
//! `--emit` asks: the C output (`regenerate`: plan, expansion, scan,
//! print) or a report (`report`, one function per kind). An error keeps
//! the SCoP with a code saying why (`P0015` out of time, `P0018` aliasing,
//! `P0022` out of isl operations, `P0011` otherwise); a `multifor` that
//! fails is an error of the file (`M0003`), as its text is not C, and so
//! is a file that cannot be parsed: nothing is written then. A detected
//! SCoP with too little work ([`MIN_DETECTED_WORK`]) is dropped. The new
//! texts are spliced in, each after a comment line saying what it does
//! and how to undo it (`comment`), the helper macros they use defined
//! once, at the top of the first. Invariant: bytes outside regenerated regions are
//! unchanged.
//!
//! Each file is compiled on a thread of its own (`thread`); `write`
//! writes `-o` as gcc does; `trace` instruments statements for
//! `--trace`.

use crate::diagnostics::{Cause, Code, Diagnostic, Severity};
use crate::emit::Helpers;
use crate::frontend::Source;
use crate::model::isl;
use crate::model::{ModelError, Scop};
use crate::names::FreshNames;
use crate::options::{Emit, Options, PlanRequest};
use crate::plan::Analyses;
use crate::report::scops::{candidate_reports, CandidateReport, ScopVerdict};
use crate::report::{live_ranges, parallelism, plans, scop, svg};
use regenerate::{regenerate, Regenerated};
use scanned::work_estimate;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::Path;

mod comment;
mod regenerate;
mod scanned;
mod thread;
mod trace;
mod write;
pub use thread::{on_compile_thread, COMPILE_STACK};
pub use trace::trace_original;
pub use write::write_output;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScopStatus {
    Regenerated,
    Rejected,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScopSummary {
    pub line: usize,
    pub status: ScopStatus,
    pub statements: usize,
    pub code: Option<Code>,
    /// The transformations applied (`schedule=auto`, `tile=rect`, `parallel`, ...).
    pub transforms: Vec<String>,
}

/// The result of compiling one file.
pub struct Outcome {
    pub output: String,
    pub diagnostics: Vec<Diagnostic>,
    pub scops: Vec<ScopSummary>,
    /// With `--autodetect` or `--emit=scops`: every candidate loop nest
    /// (and pragma region) with its verdict, in file order.
    pub candidates: Vec<CandidateReport>,
}

/// Below this many statement instances, a detected region whose loops
/// all have constant trip counts is not worth regenerating (a region
/// with a parametric bound always is).
pub const MIN_DETECTED_WORK: i64 = 1000;

/// Compile the text of one C file. An `Err` means the file cannot be
/// processed at all (it does not parse): nothing must be written.
pub fn compile(text: String, options: &Options) -> Result<Outcome, Diagnostic> {
    compile_file(text, None, options)
}

/// [`compile`] the text of the file at `path` (its directory holds the
/// headers it includes with `#include "..."`).
pub fn compile_file(text: String, path: Option<&Path>, options: &Options) -> Result<Outcome, Diagnostic> {
    let source = Source::parse_with(text, path.and_then(Path::parent), &options.preprocessor)?;
    let searching = options.autodetect || options.emit == Emit::Scops;
    let mut found = source.scops_detecting(&options.pure, searching);
    let mut names = std::mem::take(&mut found.names);
    if let Some((_, fatal)) = found.rejected.iter().find(|(_, d)| d.severity == Severity::Error) {
        return Err(fatal.clone());
    }
    let mut diagnostics: Vec<Diagnostic> = source.warnings.clone();
    diagnostics.extend(found.rejected.iter().map(|(_, d)| d.clone()));
    let mut scops: Vec<ScopSummary> = found
        .rejected
        .iter()
        .map(|(_, d)| summary(&source.text, &d.span, ScopStatus::Rejected, 0, Some(d.code)))
        .collect();
    let mut replacements: Vec<Replacement> = Vec::new();
    let mut reports = Vec::new();
    let mut pictures: Vec<(bool, String)> = Vec::new();
    let mut verdicts: Vec<ScopVerdict> = Vec::new();
    let without_threads = Options { plan: PlanRequest { parallel: false, ..options.plan.clone() }, ..options.clone() };
    let file_options = options;
    for ast in found.scops {
        // The source's OpenMP threads run this code already.
        let options = if ast.inside_openmp { &without_threads } else { file_options };
        let (pragma, n_stmts, has_multifor) = (ast.pragma.clone(), ast.stmts.len(), ast.has_multifor());
        let indent = ast.indent.clone();
        let detected = ast.detected;
        verdicts.push(ScopVerdict { detected, pragma: pragma.clone(), region: ast.region.clone(), refused: None });
        // Until the end of this iteration: the verdict asks whether it ran out.
        let _budget = isl::budget(options.plan.isl_budget);
        let _parses = isl::remember_parses();
        let limit = isl::TimeLimit::start(options.plan.time_budget);
        let phase = isl::phase("modelling");
        let little = |scop: &Scop| if detected { too_little_work(scop) } else { Ok(None) };
        let result = Scop::build(ast).and_then(|scop| match little(&scop)? {
            Some(work) => Ok(Generated::TooLittleWork(work)),
            None => generate(&Analyses::new(&scop), &source.text, &mut names, options),
        });
        drop(phase);
        let out_of_time = isl::expired_in();
        drop(limit);
        let result = match out_of_time {
            Some(phase) => Err(ModelError::OutOfTime(format!(
                "out of its time budget ({} s) in {phase}",
                options.plan.time_budget.unwrap_or_default().as_secs_f64()
            ))),
            None => result,
        };
        match result {
            Ok(generated) => {
                let mut s = summary(&source.text, &pragma, ScopStatus::Regenerated, n_stmts, None);
                match generated {
                    Generated::Code(region, r) => {
                        if let Some(why) = r.interleaved {
                            let d = Diagnostic::warning(
                                Code::M0004,
                                pragma.clone(),
                                format!("multifor loops kept interleaved: {why}"),
                            )
                            .with_label("this multifor")
                            .with_note("each loop's own parallel loops are still marked");
                            diagnostics.push(d);
                        }
                        for why in r.notes.refused {
                            diagnostics
                                .push(Diagnostic::warning(Code::P0014, pragma.clone(), why).with_label("in this SCoP"));
                        }
                        for why in r.notes.out_of_budget {
                            diagnostics
                                .push(Diagnostic::warning(Code::P0022, pragma.clone(), why).with_label("in this SCoP"));
                        }
                        s.transforms = r.notes.applied;
                        if let Some(code) = r.code {
                            let comment = r.done.comment(&indent);
                            replacements.push(Replacement { range: region, comment, code, helpers: r.helpers });
                        }
                    }
                    Generated::Text(t) => reports.push(serde_json::Value::String(t)),
                    Generated::Json(j) => reports.push(j),
                    Generated::Picture { tiled, svg } => pictures.push((tiled, svg)),
                    Generated::Skipped => {}
                    Generated::TooLittleWork(work) => {
                        let why =
                            format!("{work} statement instances, all trip counts constant (< {MIN_DETECTED_WORK})");
                        verdicts.last_mut().expect("pushed above").refused =
                            Some((Cause::TooLittleWork, None, pragma, why));
                        continue;
                    }
                }
                scops.push(s);
            }
            Err(e) if has_multifor => {
                return Err(Diagnostic::error(Code::M0003, pragma, format!("multifor not lowered: {e}"))
                    .with_label("this multifor"));
            }
            Err(e) => {
                let what = if options.emit == Emit::C { "SCoP kept unchanged" } else { "SCoP not reported" };
                let code = match e {
                    ModelError::OutOfTime(_) => Code::P0015,
                    ModelError::Alias(_) => Code::P0018,
                    ModelError::Isl(_) if isl::out_of_budget() => Code::P0022,
                    _ => Code::P0011,
                };
                let d = Diagnostic::warning(code, pragma.clone(), format!("{what}: {e}")).with_label("this SCoP");
                verdicts.last_mut().expect("pushed above").refused =
                    Some((Cause::from_code(code), Some(code), pragma.clone(), d.message.clone()));
                scops.push(summary(&source.text, &pragma, ScopStatus::Rejected, n_stmts, Some(d.code)));
                diagnostics.push(d);
            }
        }
    }
    scops.sort_by_key(|s| s.line);
    let candidates = if searching {
        candidate_reports(&source.text, &found.candidates, &verdicts, &found.rejected)
    } else {
        Vec::new()
    };
    let output = match options.emit {
        Emit::C => splice(&source.text, replacements, options.line_directives),
        Emit::Scops => {
            let file = path.map_or("<input>".to_string(), |p| p.display().to_string());
            candidates.iter().map(|c| c.line_text(&file) + "\n").collect()
        }
        Emit::Scop
        | Emit::Deps
        | Emit::LiveRanges
        | Emit::Schedule
        | Emit::Storage
        | Emit::TileSizes
        | Emit::Parallelism => reports.iter().filter_map(|r| r.as_str()).collect::<Vec<_>>().join("\n"),
        Emit::ScopJson | Emit::StorageJson | Emit::ParallelismJson => {
            serde_json::to_string_pretty(&reports).unwrap_or_default() + "\n"
        }
        // One document: the first tiled SCoP's picture, else the first.
        Emit::Svg => pictures
            .iter()
            .find(|(tiled, _)| *tiled)
            .or(pictures.first())
            .map(|(_, svg)| svg.clone())
            .unwrap_or_default(),
    };
    Ok(Outcome { output, diagnostics, scops, candidates })
}

/// What `options.emit` asks of one SCoP.
fn generate(
    analyses: &Analyses,
    text: &str,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Generated, ModelError> {
    let scop = analyses.scop();
    let line = line_of(text, &scop.ast.pragma);
    let headed = |report: String| Generated::Text(format!("# SCoP at line {line}\n{report}"));
    match options.emit {
        Emit::Scops => Ok(Generated::Skipped),
        Emit::C => {
            let region = scop.ast.region.clone();
            regenerate(analyses, &text[region.clone()], names, options).map(|r| Generated::Code(region, Box::new(r)))
        }
        Emit::Scop => scop::text(scop, text).map(Generated::Text),
        Emit::ScopJson => scop::json(scop, text).map(Generated::Json),
        Emit::Schedule => plans::schedule(analyses, names, options).map(headed),
        Emit::TileSizes => plans::tile_sizes(analyses, names, options).map(headed),
        Emit::Storage => plans::storage_table(analyses, options).map(headed),
        Emit::StorageJson => plans::storage(analyses, options)
            .map(|entries| Generated::Json(serde_json::json!({ "line": line, "arrays": entries }))),
        Emit::Parallelism => {
            parallelism::of_final_plan(analyses, names, line, options).map(|r| Generated::Text(r.text()))
        }
        Emit::ParallelismJson => parallelism::of_final_plan(analyses, names, line, options)
            .map(|r| Generated::Json(serde_json::to_value(r).unwrap_or_default())),
        Emit::Svg => match options.svg.scop_line {
            Some(wanted) if wanted != line => Ok(Generated::Skipped),
            _ => svg::of_final_plan(analyses, names, options).map(|(tiled, svg)| Generated::Picture { tiled, svg }),
        },
        Emit::LiveRanges => live_ranges::report(analyses, names, options).map(headed),
        Emit::Deps => Ok(headed(crate::report::deps::text(analyses)?)),
    }
}

/// The statement instances of a SCoP whose iterators all have constant
/// extents, when fewer than [`MIN_DETECTED_WORK`]; `None` when it has
/// more, or a parametric (or unknown) extent.
fn too_little_work(scop: &Scop) -> Result<Option<i64>, ModelError> {
    let Some(work) = work_estimate(scop)? else { return Ok(None) };
    let mut total: i64 = 0;
    for extents in &work {
        let mut product: i64 = 1;
        for e in extents {
            if !e.is_constant() {
                return Ok(None);
            }
            product = product.saturating_mul(e.constant.max(0));
        }
        total = total.saturating_add(product);
    }
    Ok((total < MIN_DETECTED_WORK).then_some(total))
}

enum Generated {
    Code(Range<usize>, Box<Regenerated>),
    Text(String),
    Json(serde_json::Value),
    /// An SVG document, and whether the SCoP is tiled.
    Picture {
        tiled: bool,
        svg: String,
    },
    /// Not the SCoP asked for.
    Skipped,
    /// A detected SCoP with this many statement instances only.
    TooLittleWork(i64),
}

fn line_of(src: &str, span: &Range<usize>) -> usize {
    crate::diagnostics::line_col(src, span.start).0
}

fn summary(src: &str, span: &Range<usize>, status: ScopStatus, statements: usize, code: Option<Code>) -> ScopSummary {
    ScopSummary { line: line_of(src, span), status, statements, code, transforms: Vec::new() }
}

/// A region's new text: the comment line saying what it does, then the
/// code, which uses `helpers`.
struct Replacement {
    range: Range<usize>,
    comment: String,
    code: String,
    helpers: Helpers,
}

/// Replace each region by its comment line and new code; the helper
/// macros go at the top of the first regenerated region, after its
/// comment. With `line_directives`, a `#line` after each region numbers
/// the lines after it as in `src`.
fn splice(src: &str, mut replacements: Vec<Replacement>, line_directives: bool) -> String {
    replacements.sort_by_key(|r| r.range.start);
    let helpers = replacements.iter().fold(Helpers::default(), |acc, r| acc.union(r.helpers));
    let mut out = String::with_capacity(src.len() * 2);
    let mut at = 0;
    for (k, r) in replacements.iter().enumerate() {
        out.push_str(&src[at..r.range.start]);
        out.push_str(&r.comment);
        if k == 0 && helpers.any() {
            out.push_str(&helpers.definitions());
        }
        out.push_str(&r.code);
        at = r.range.end;
        if line_directives {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!("#line {}\n", crate::diagnostics::line_col(src, at).0));
        }
    }
    out.push_str(&src[at..]);
    out
}
