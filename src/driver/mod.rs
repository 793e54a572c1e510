//! The pipeline for one file: front end → model → scan → emit, one SCoP
//! at a time. A SCoP that fails anywhere is kept as written, with a
//! warning; the bytes outside SCoPs are copied unchanged.

use crate::deps;
use crate::diagnostics::{Cause, Code, Diagnostic, Severity};
use crate::emit::svg::{self, SvgOptions};
use crate::emit::{self, Helpers, Program};
use crate::frontend::{cpp, Source, Stmt};
use crate::model::isl::{self, IslResult, Set};
use crate::model::{self, affine::Constraint, affine::LinExpr, alias::AliasChecks, ModelError, Scop};
use crate::multifor;
use crate::names::FreshNames;
use crate::scan::{self, ast::Node, ScanStmt};
pub use crate::schedule::Fuse;
use crate::schedule::Scattering;
use crate::storage::{self, expand::ExpandedArray, lifetime::RunOrder, StorageOptions};
use crate::tile::hw::Hardware;
use serde::Serialize;

mod expansion;
mod live;
mod parallelism;
mod plan;
mod reports;
mod thread;
mod write;
use expansion::{expanded_plan, Expanded};
pub use parallelism::{Scaling, SimulateOptions, DEFAULT_SCALING_STEPS};
use plan::{Notes, Plan};
use reports::{planned_schedule_report, storage_report, tile_sizes_report, with_final_plan};
use std::ops::Range;
use std::path::Path;
use std::time::Duration;
pub use thread::{on_compile_thread, COMPILE_STACK};
pub use write::write_output;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// The transformed C program.
    C,
    /// The polyhedral model in isl notation.
    Scop,
    /// The polyhedral model as JSON.
    ScopJson,
    /// The dependences in isl notation, by kind and statement pair.
    Deps,
    /// Each variable's live ranges (write to last read), and which of
    /// them the final schedule breaks, with the repair (private copies,
    /// expansion).
    LiveRanges,
    /// The final schedule of each statement (after tiling), with loop marks.
    Schedule,
    /// The storage of each temporary array, as a table.
    Storage,
    /// The storage of each temporary array, as JSON.
    StorageJson,
    /// The tile sizes chosen for each band, and why (with `--tile=sica`:
    /// the hardware, rho, each statement block's elements per iteration
    /// and SICA's equations).
    TileSizes,
    /// The tile graph for the `--param` values, simulated on `--procs`
    /// processors (`--scaling`: a weak-scaling sweep), as text.
    Parallelism,
    /// The same, as JSON.
    ParallelismJson,
    /// A picture of one statement's points, dependences and tiles, for
    /// the `--param` values (the first tiled SCoP, or `--svg-scop`).
    Svg,
    /// Every candidate loop nest with its verdict: accepted, or rejected
    /// with a cause and where (searches the functions without pragmas,
    /// as `--autodetect` does).
    Scops,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScheduleKind {
    /// Keep the original execution order (regenerate the loops only).
    Identity,
    /// An affine schedule for tilable bands and outer parallelism.
    Auto,
}

/// The shape of tiles (`--tile=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TileShape {
    /// Rectangular tiles of permutable bands; time-iterated nests skewed
    /// into parallelogram tiles run on a wavefront (pipelined start).
    #[default]
    Rect,
    /// Concurrent start: diamonds in time and the outer space dimension
    /// (every space dimension where the dependences allow), the others
    /// classical.
    Diamond,
    /// Hybrid hexagonal/classical: hexagons in time and the outer space
    /// dimension, in two alternating phases, the others classical.
    Hex,
    /// SIMD- and cache-aware sizes for the vector loop and the outermost loop.
    Sica,
}

/// Tiling of permutable bands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileOptions {
    pub shape: TileShape,
    /// Tile size per band member, outermost first; the last is repeated.
    /// Empty: polyc's choice (see [`crate::tile`]).
    pub sizes: Vec<i64>,
    /// A second (L2) level of tiles this many first-level tiles wide.
    pub l2_ratio: Option<i64>,
    /// SICA's cache-use ratio (the share of L1 a tile's data may fill).
    pub sica_rho: f64,
    /// The hardware SICA sizes tiles for (`--hw FILE`); this machine's
    /// (sysfs, CPUID) when `None`.
    pub hw: Option<Hardware>,
}

impl TileShape {
    /// Diamond and hexagonal tiles: a row of them starts at once.
    pub fn starts_concurrently(self) -> bool {
        matches!(self, TileShape::Diamond | TileShape::Hex)
    }
}

/// SICA's default cache-use ratio.
pub const DEFAULT_SICA_RHO: f64 = 0.9;

impl Default for TileOptions {
    fn default() -> Self {
        TileOptions { shape: TileShape::Rect, sizes: Vec::new(), l2_ratio: None, sica_rho: DEFAULT_SICA_RHO, hw: None }
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub emit: Emit,
    pub schedule: ScheduleKind,
    pub fuse: Fuse,
    pub tile: Option<TileOptions>,
    /// `#pragma omp parallel for` on the outermost parallel loop.
    pub parallel: bool,
    /// `#pragma omp simd` (or `GCC ivdep`) on vectorisable innermost loops.
    pub simd: bool,
    /// Unroll-and-jam factor of loops around a perfect nest with a SIMD
    /// loop innermost (see [`crate::emit::LoopMark::jam`]).
    pub unroll_jam: Option<i64>,
    /// isl operations allowed per SCoP.
    pub isl_budget: u64,
    /// Wall-clock time allowed per SCoP (`None`: unbounded); out of it,
    /// the SCoP keeps its source text.
    pub time_budget: Option<Duration>,
    /// Replace every statement by a `printf` of its name and iteration
    /// vector (with [`trace_original`], a check that the regenerated code
    /// runs the same instances in the same order).
    pub trace: bool,
    /// Contraction of temporary arrays; its `params` are also the
    /// parameter values of the simulator and the pictures.
    pub storage: StorageOptions,
    /// `--emit=parallelism`: processors, weak scaling.
    pub simulate: SimulateOptions,
    /// `--emit=svg`: what to draw.
    pub svg: SvgOptions,
    /// `-I`, `-D`, `-U`: the preprocessor the file is read through.
    pub preprocessor: cpp::Flags,
    /// `--pure`: functions taken for pure besides those the file shows.
    pub pure: Vec<String>,
    /// `--assume-no-alias`: pointers and array parameters never share
    /// memory, so the output has no run-time alias checks.
    pub assume_no_alias: bool,
    /// `--autodetect`: also find the SCoPs of functions without pragmas.
    pub autodetect: bool,
}

/// The default unroll-and-jam factor: four copies of a reduction's
/// vector body keep four sums in registers (gemm 1.18x -> 1.28x,
/// correlation 13.1x -> 15.8x, on one thread).
pub const DEFAULT_UNROLL_JAM: i64 = 4;

/// Plain regeneration with the original schedule.
impl Default for Options {
    fn default() -> Self {
        Options {
            emit: Emit::C,
            schedule: ScheduleKind::Identity,
            fuse: Fuse::Smart,
            tile: None,
            parallel: false,
            simd: false,
            unroll_jam: None,
            isl_budget: isl::DEFAULT_OPERATION_BUDGET,
            time_budget: Some(isl::DEFAULT_TIME_BUDGET),
            trace: false,
            assume_no_alias: false,
            storage: StorageOptions::default(),
            simulate: SimulateOptions::default(),
            svg: SvgOptions::default(),
            preprocessor: cpp::Flags::default(),
            pure: Vec::new(),
            autodetect: false,
        }
    }
}

impl Options {
    /// Whether tiles, parallel or SIMD loops are asked for: what a new
    /// loop order has to gain to be kept.
    pub fn optimises(&self) -> bool {
        self.tile.is_some() || self.parallel || self.simd || self.unroll_jam.is_some()
    }

    /// Whether the output may run the statements in another order, or on
    /// other storage, than the source: what rests on the dependences.
    pub fn reorders(&self) -> bool {
        self.optimises() || self.schedule != ScheduleKind::Identity || self.storage.method != storage::Method::None
    }

    /// What `polyc in.c -o out.c` does: schedule, tile, parallelise, vectorise.
    pub fn optimising() -> Self {
        Options {
            schedule: ScheduleKind::Auto,
            tile: Some(TileOptions::default()),
            parallel: true,
            simd: true,
            unroll_jam: Some(DEFAULT_UNROLL_JAM),
            ..Options::default()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ScopStatus {
    Regenerated,
    Rejected,
}

#[derive(Clone, Debug, Serialize)]
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

/// One candidate of `--emit=scops`.
#[derive(Clone, Debug, Serialize)]
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
    let mut replacements: Vec<(Range<usize>, String, Helpers)> = Vec::new();
    let mut reports = Vec::new();
    let mut pictures: Vec<(bool, String)> = Vec::new();
    let mut verdicts: Vec<ScopVerdict> = Vec::new();
    for ast in found.scops {
        let (pragma, n_stmts, has_multifor) = (ast.pragma.clone(), ast.stmts.len(), ast.has_multifor());
        let detected = ast.detected;
        verdicts.push(ScopVerdict { detected, pragma: pragma.clone(), region: ast.region.clone(), refused: None });
        isl::set_operation_budget(options.isl_budget);
        let limit = isl::TimeLimit::start(options.time_budget);
        let phase = isl::phase("modelling");
        let little = |scop: &Scop| if detected { too_little_work(scop) } else { Ok(None) };
        let result = Scop::build(ast).and_then(|scop| match (little(&scop)?, options.emit) {
            (Some(work), _) => Ok(Generated::TooLittleWork(work)),
            (None, Emit::Scops) => Ok(Generated::Skipped),
            (None, Emit::C) => regenerate(&scop, &source.text[scop.ast.region.clone()], &mut names, options)
                .map(|r| Generated::Code(scop.ast.region.clone(), r)),
            (None, Emit::Scop) => model::scop_text(&scop, &source.text).map(Generated::Text),
            (None, Emit::ScopJson) => model::scop_json(&scop, &source.text).map(Generated::Json),
            (None, Emit::Schedule) => planned_schedule_report(&scop, &mut names, options)
                .map(|text| Generated::Text(format!("# SCoP at line {}\n{text}", line_of(&source.text, &pragma)))),
            (None, Emit::TileSizes) => tile_sizes_report(&scop, &mut names, options)
                .map(|text| Generated::Text(format!("# SCoP at line {}\n{text}", line_of(&source.text, &pragma)))),
            (None, Emit::Storage | Emit::StorageJson) => storage_report(&scop, options).map(|entries| {
                let line = line_of(&source.text, &pragma);
                match options.emit {
                    Emit::Storage => Generated::Text(format!("# SCoP at line {line}\n{}", storage::table(&entries))),
                    _ => Generated::Json(serde_json::json!({ "line": line, "arrays": entries })),
                }
            }),
            (None, Emit::Parallelism | Emit::ParallelismJson) => {
                let line = line_of(&source.text, &pragma);
                with_final_plan(&scop, &mut names, options, |scop, plan| parallelism::report(scop, plan, line, options))
                    .map(|r| match options.emit {
                        Emit::Parallelism => Generated::Text(r.text()),
                        _ => Generated::Json(serde_json::to_value(r).unwrap_or_default()),
                    })
            }
            (None, Emit::Svg) => match options.svg.scop_line {
                Some(wanted) if wanted != line_of(&source.text, &pragma) => Ok(Generated::Skipped),
                _ => with_final_plan(&scop, &mut names, options, |scop, plan| picture(scop, plan, options)),
            },
            (None, Emit::LiveRanges) => live::report(&scop, &mut names, options)
                .map(|text| Generated::Text(format!("# SCoP at line {}\n{text}", line_of(&source.text, &pragma)))),
            (None, Emit::Deps) => deps::analyse(&scop)
                .and_then(|d| deps::report(&scop, &d))
                .map(|text| Generated::Text(format!("# SCoP at line {}\n{text}", line_of(&source.text, &pragma))))
                .map_err(ModelError::from),
        });
        drop(phase);
        let out_of_time = isl::expired_in();
        drop(limit);
        let result = match out_of_time {
            Some(phase) => Err(ModelError::OutOfTime(format!(
                "out of its time budget ({} s) in {phase}",
                options.time_budget.unwrap_or_default().as_secs_f64()
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
                            replacements.push((region, code, r.helpers));
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
        Emit::C => splice(&source.text, replacements),
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

/// What became of one SCoP of the front end, for `--emit=scops`.
struct ScopVerdict {
    detected: bool,
    pragma: Range<usize>,
    region: Range<usize>,
    /// Why it was not kept: too little work, or a model that failed.
    refused: Option<(Cause, Option<Code>, Range<usize>, String)>,
}

/// The candidates of `--emit=scops` in file order: the nests the search
/// tried (an accepted one takes its SCoP's verdict from the driver: too
/// little work, or a model that failed), and the pragma regions.
fn candidate_reports(
    text: &str,
    nests: &[crate::frontend::Candidate],
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

enum Generated {
    Code(Range<usize>, Regenerated),
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

/// `--emit=svg` for `plan`, the plan of `scop`.
fn picture(scop: &Scop, plan: &Plan, options: &Options) -> Result<Generated, ModelError> {
    let values = parallelism::parameter_values(scop, options)?;
    let schedule = svg::Schedule { scattering: &plan.scattering, tile_prefix: &plan.tile_prefix };
    let svg = svg::picture(scop, &schedule, &values, &options.svg)?;
    Ok(Generated::Picture { tiled: plan.tiles(), svg })
}

fn line_of(src: &str, span: &Range<usize>) -> usize {
    crate::diagnostics::line_col(src, span.start).0
}

fn summary(src: &str, span: &Range<usize>, status: ScopStatus, statements: usize, code: Option<Code>) -> ScopSummary {
    ScopSummary { line: line_of(src, span), status, statements, code, transforms: Vec::new() }
}

/// Replace each region by its new code; the helper macros go at the top
/// of the first regenerated region.
fn splice(src: &str, mut replacements: Vec<(Range<usize>, String, Helpers)>) -> String {
    replacements.sort_by_key(|(r, _, _)| r.start);
    let helpers = replacements.iter().fold(Helpers::default(), |acc, (_, _, h)| acc.union(*h));
    let mut out = String::with_capacity(src.len() * 2);
    let mut at = 0;
    for (k, (range, code, _)) in replacements.iter().enumerate() {
        out.push_str(&src[at..range.start]);
        if k == 0 && helpers.any() {
            out.push_str(&helpers.definitions());
        }
        out.push_str(code);
        at = range.end;
    }
    out.push_str(&src[at..]);
    out
}

/// The order `plan` runs `scop` in: a statement's loops are concurrent
/// from the outermost one marked parallel, SIMD or jammed (whether or
/// not the printer uses the mark: a sound over-approximation).
fn run_order<'a>(scop: &Scop, plan: &'a Plan) -> RunOrder<'a> {
    let concurrent = (0..scop.statements.len())
        .map(|k| plan.marks.get(k)?.iter().position(|m| m.parallel || m.simd || m.jam))
        .collect();
    RunOrder { schedule: &plan.scattering, concurrent }
}

/// A SCoP's new code (`None`: its source text stays) and what was done to it.
struct Regenerated {
    code: Option<String>,
    helpers: Helpers,
    notes: Notes,
    /// Why the loops of a multifor stay interleaved under `--parallel`.
    interleaved: Option<String>,
}

/// The SCoP's loops regenerated from its model, transformed as `options`
/// ask: with storage expanded if that lets a band be tiled.
fn regenerate(scop: &Scop, source: &str, names: &mut FreshNames, options: &Options) -> Result<Regenerated, ModelError> {
    if scop.ast.rank_mapping.is_some() {
        return rank_mapped(scop);
    }
    let mut refused = None;
    match expanded(scop, source, names, options) {
        Ok(Some(r)) => return Ok(r),
        Ok(None) => {}
        Err(e) => refused = Some(format!("storage expansion not applied: {e}")),
    }
    let (plan, scanned, contracted) = scan_planned(scop, plan::plan(scop, options), names, options)?;
    let loops = multifor_loops(scop, &plan, options, &contracted)?;
    let storage = Storage { source, expanded: &[], contracted };
    let mut r = match &loops {
        multifor::Loops::Apart(groups) => print_sections(scop, &plan, groups, storage, names, options)?,
        _ => print_planned(scop, scop, plan, scanned, storage, names, options)?,
    };
    if let multifor::Loops::Linked(a, b) = loops {
        let text = |k: usize| scop.ast.stmts[k].text.trim().to_string();
        r.interleaved = Some(format!("a dependence links `{}` and `{}`", text(a), text(b)));
    }
    r.notes.refused.extend(refused);
    Ok(r)
}

/// The SCoP regenerated with its expandable variables expanded
/// (`storage::expand`), if the plan for that tiles some band (what
/// expansion is for: the nest as a whole is permutable); `None`
/// otherwise, or if the analysis runs out of its budget. The names it
/// mints are kept in `names` only with its result.
fn expanded(
    scop: &Scop,
    source: &str,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Option<Regenerated>, ModelError> {
    let as_written = scop;
    let mut minted = names.clone();
    let Some(Expanded { scop, arrays, plan, .. }) = expanded_plan(scop, &mut minted, options)? else {
        return Ok(None);
    };
    let (plan, scanned, contracted) = scan_planned(&scop, plan, &mut minted, options)?;
    if !plan.tiles() {
        return Ok(None);
    }
    let storage = Storage { source, expanded: &arrays, contracted };
    let printed = print_planned(&scop, as_written, plan, scanned, storage, &mut minted, options)?;
    *names = minted;
    Ok(Some(printed))
}

/// A multifor with a loop run by rank: written by `multifor::ranked`,
/// whatever the options (the mapping is not affine: nothing else can
/// transform it).
fn rank_mapped(scop: &Scop) -> Result<Regenerated, ModelError> {
    let text = multifor::ranked::lower(scop, &deps::analyse(scop)?)?.map_err(ModelError::Input)?;
    let mut notes = Notes::default();
    notes.applied("multifor-rank");
    Ok(Regenerated { code: Some(text), helpers: Helpers::default(), notes, interleaved: None })
}

/// Whether the loops of a multifor SCoP run apart: asked by `--parallel`
/// with the original order (no `--schedule=auto`, no tiles), planned in
/// that order (the sections take the plan's marks), and legal.
fn multifor_loops(scop: &Scop, plan: &Plan, options: &Options, contracted: &Contracted) -> IslResult<multifor::Loops> {
    let asked = options.parallel && options.schedule == ScheduleKind::Identity && options.tile.is_none();
    if !asked || options.trace || !contracted.arrays.is_empty() || multifor::loops(scop).is_none() {
        return Ok(multifor::Loops::Interleaved);
    }
    if !plan.scattering.is_equal(&Scattering::original(scop))? {
        return Ok(multifor::Loops::Interleaved);
    }
    multifor::apart(scop, &deps::analyse(scop)?)
}

/// A multifor whose loops run apart: each loop's statements scanned on
/// their own and printed as `plan` marks them, in an OpenMP section.
fn print_sections(
    scop: &Scop,
    plan: &Plan,
    groups: &[Vec<usize>],
    storage: Storage,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Regenerated, ModelError> {
    let outer = &scop.ast.indent;
    let mut text = format!("{outer}#pragma omp parallel sections\n{outer}{{\n");
    let mut helpers = Helpers::default();
    for group in groups {
        let scanned = scan_scop(scop, &Scattering::original_of(scop, group.clone()))?;
        let own = Storage { contracted: Contracted::default(), ..storage };
        let printed = print_planned(scop, scop, plan.clone(), Some(scanned), own, names, options)?;
        let code: String = printed.code.unwrap_or_default().lines().map(|l| format!("    {l}\n")).collect();
        text.push_str(&format!("{outer}#pragma omp section\n{outer}{{\n{code}{outer}}}\n"));
        helpers = helpers.union(printed.helpers);
    }
    text.push_str(&format!("{outer}}}\n"));
    let mut notes = plan.notes.clone();
    notes.applied("multifor-sections");
    Ok(Regenerated { code: Some(text), helpers, notes, interleaved: None })
}

/// What the printer needs to know about storage: the SCoP's source
/// text, and the scalars held in arrays.
struct Storage<'a> {
    source: &'a str,
    expanded: &'a [ExpandedArray],
    contracted: Contracted,
}

/// The C text of `plan`'s loops (`None`: the SCoP keeps its source text).
fn print_planned(
    scop: &Scop,
    as_written: &Scop,
    plan: Plan,
    scanned: Option<Scanned>,
    storage: Storage,
    names: &mut FreshNames,
    options: &Options,
) -> Result<Regenerated, ModelError> {
    let Some((nodes, dims)) = scanned else {
        return Ok(Regenerated { code: None, helpers: Helpers::default(), notes: plan.notes, interleaved: None });
    };
    let _phase = isl::phase("printing");
    // Without an estimate (an isl error) the new loops run unguarded:
    // they are correct, only maybe not worth it.
    // The other branch of the work check is the source text, which a
    // multifor's is not.
    let versioned = !options.trace && !scop.ast.has_multifor();
    let gated = versioned && options.optimises() && costs_at_run_time(&plan);
    let work = if gated { work_estimate(scop).unwrap_or(None) } else { None };
    let small = if work.is_some() { small_loops(as_written, names, options)? } else { None };
    // Subscripts the source does not keep within their arrays are checked
    // at run time where the output rests on the dependences, which assume
    // them in bounds. A multifor has no source text to run instead, nor
    // has the trace.
    let in_bounds = if versioned && options.reorders() { scop.in_bounds()?.disjuncts()? } else { vec![Vec::new()] };
    // So are variables that may share memory, which the dependences
    // treat as distinct.
    let alias = if versioned && options.reorders() && !options.assume_no_alias {
        scop.alias_checks()?.map_err(ModelError::Alias)?
    } else {
        AliasChecks::default()
    };
    let restricted = if versioned && options.reorders() { scop.unrestricted_pointers() } else { Vec::new() };
    let mut notes = plan.notes;
    let Contracted { arrays: contracted, stmts: rewritten } = storage.contracted;
    if !contracted.is_empty() {
        notes.applied(&format!("storage={}", options.storage.method.name()));
    }
    let traced: Vec<Stmt>;
    let stmts = if options.trace {
        traced = scop.ast.stmts.iter().enumerate().map(|(k, s)| traced_statement(k, s)).collect();
        &traced
    } else if !contracted.is_empty() {
        &rewritten
    } else {
        &scop.ast.stmts
    };
    let program = Program {
        stmts,
        params: &scop.ast.params,
        iter_base: plan.scattering.dims,
        dims,
        indent: &scop.ast.indent,
        marks: &plan.marks,
        private_vars: &plan.private_vars,
        openmp: options.parallel,
        unroll_jam: options.unroll_jam,
        expanded: storage.expanded,
        work: work.as_deref(),
        small: small.as_ref().map(|s| s.text.as_str()),
        in_bounds: &in_bounds,
        disjoint: &alias.pairs,
        tables: &alias.tables,
        restricted: &restricted,
        contracted: &contracted,
        source: storage.source,
        definitions: &scop.ast.definitions,
    };
    let printed = emit::print(&program, &nodes, names);
    if printed.jammed {
        notes.applied("unroll-jam");
    }
    let helpers = small.map_or(printed.helpers, |s| printed.helpers.union(s.helpers));
    Ok(Regenerated { code: Some(printed.text), helpers, notes, interleaved: None })
}

/// Whether `plan` costs time at run time, whatever it saves: tiles
/// (loop overhead: jacobi-1d's 2 million instances took 0.3 ms as
/// written, 0.9 ms time-tiled) or threads. Such loops run only with
/// enough work; a new order, strips, SIMD loops and unrolling run always.
fn costs_at_run_time(plan: &Plan) -> bool {
    plan.tiles_beyond_strips() || plan.marks.iter().flatten().any(|m| m.parallel && m.region)
}

/// The loops `scop` (as written, not expanded) runs with less work than
/// `POLYC_MIN_WORK`: the source's order with only what costs nothing at
/// run time (a loop moved innermost where it makes a vector loop, SIMD
/// loops, unroll-and-jam, strips of independent chains; no tiles, no
/// threads). At 2 to 8 million instances: mvt's column walk 1.9x,
/// gesummv's row sums in strips of four 2.7x. The source's order, not
/// isl's: its fission reads atax's matrix twice (0.79x). `None` where
/// that gains nothing (SIMD loops alone, in the source's order), or its
/// planning or scan fails: the source serves then.
fn small_loops(scop: &Scop, names: &mut FreshNames, options: &Options) -> Result<Option<emit::Printed>, ModelError> {
    let sequential = Options { schedule: ScheduleKind::Identity, tile: None, parallel: false, ..options.clone() };
    if !sequential.optimises() {
        return Ok(None);
    }
    let plan = plan::plan(scop, &sequential);
    if plan.keep_source {
        return Ok(None);
    }
    isl::set_operation_budget(plan::planning_budget(options));
    let scanned = isl::within_time(plan::planning_time(options), || scan_scop(scop, &plan.scattering));
    isl::set_operation_budget(options.isl_budget);
    let Ok(Some((nodes, dims))) = scanned else {
        return Ok(None);
    };
    let program = Program {
        stmts: &scop.ast.stmts,
        params: &scop.ast.params,
        iter_base: plan.scattering.dims,
        dims,
        indent: &scop.ast.indent,
        marks: &plan.marks,
        private_vars: &plan.private_vars,
        openmp: options.parallel,
        unroll_jam: options.unroll_jam,
        expanded: &[],
        work: None,
        small: None,
        in_bounds: &[],
        disjoint: &[],
        tables: &[],
        restricted: &[],
        contracted: &[],
        source: "",
        definitions: &[],
    };
    let printed = emit::print_loops(&program, &nodes, names);
    // gcc vectorises the source's own loops as well (jacobi-1d's 0.3 ms
    // measured 0.94x with the pragmas, within the timer's noise).
    if only_marks_simd(&plan) && !printed.jammed {
        return Ok(None);
    }
    Ok(Some(printed))
}

/// Whether all `plan` does is mark SIMD loops (and private copies) in
/// the source's order.
fn only_marks_simd(plan: &Plan) -> bool {
    plan.notes.applied.iter().all(|a| a == "simd" || a == "privatise")
}

/// Temporary arrays contracted for a plan, and the SCoP's statements
/// rewritten onto them.
#[derive(Default)]
struct Contracted {
    arrays: Vec<storage::Contraction>,
    stmts: Vec<Stmt>,
}

/// The temporary arrays `options.storage` contracts under `plan`'s
/// schedule (an array whose accesses cannot all be rewritten keeps its
/// storage); none, with the reason noted in `plan`, on an isl error.
fn contracted(scop: &Scop, plan: &mut Plan, names: &mut FreshNames, options: &Options) -> Contracted {
    if options.storage.method == storage::Method::None || options.trace || scop.ast.has_filters() {
        return Contracted::default();
    }
    let _phase = isl::phase("storage contraction");
    let found = match storage::contractions(scop, &run_order(scop, plan), &options.storage, names) {
        Ok(found) => found,
        Err(e) => {
            plan.notes.refused(format!("storage contraction not applied: {e}"));
            return Contracted::default();
        }
    };
    let mut done = Contracted { arrays: Vec::new(), stmts: scop.ast.stmts.clone() };
    for c in found {
        let rewritten: Option<Vec<Stmt>> = done
            .stmts
            .iter()
            .enumerate()
            .map(|(k, s)| storage::rewrite::contracted_statement(k, s, &c, &scop.ast.params))
            .collect();
        if let Some(rewritten) = rewritten {
            done.stmts = rewritten;
            done.arrays.push(c);
        }
    }
    done
}

/// The loop AST of `plan`, within the planning budget when it transforms
/// anything; if that fails, of the original schedule, with the reason.
/// No AST when the SCoP keeps its source text (except for `--trace`,
/// which regenerates it). With it, the temporaries contracted for the
/// plan returned (computed once: the lifetime analysis is costly).
/// The isl operations allowed for scanning a transformed schedule: the
/// planning budget, but a sixth of the SCoP's for diamonds and hexagons,
/// whose bounds cost the scanner more (heat-3d's hexagons: about 3
/// million operations, 3.5 s). Operations are not time: fdtd-2d's
/// hexagons ran 230 s on a quarter before they gave up, 6 s on a sixth.
fn scanning_budget(options: &Options) -> u64 {
    match &options.tile {
        Some(t) if t.shape.starts_concurrently() => options.isl_budget / 6,
        _ => plan::planning_budget(options),
    }
}

/// The names the contraction for a plan mints are kept in `names` only
/// with that plan.
fn scan_planned(
    scop: &Scop,
    mut plan: Plan,
    names: &mut FreshNames,
    options: &Options,
) -> IslResult<(Plan, Option<Scanned>, Contracted)> {
    // Contraction needs the loops regenerated, gain or not.
    let mut minted = names.clone();
    let contraction = contracted(scop, &mut plan, &mut minted, options);
    let contracts = !contraction.arrays.is_empty();
    let keeps_source = |plan: &Plan, contracts: bool| plan.keep_source && !options.trace && !contracts;
    if keeps_source(&plan, contracts) {
        *names = minted;
        return Ok((plan, None, contraction));
    }
    if plan.notes.applied.is_empty() && plan.marks.is_empty() {
        let scanned = scan_scop(scop, &plan.scattering)?;
        *names = minted;
        return Ok((plan, Some(scanned), contraction));
    }
    isl::set_operation_budget(scanning_budget(options));
    let scanned = isl::within_time(plan::planning_time(options), || scan_scop(scop, &plan.scattering));
    let out_of_budget = scanned.is_err() && isl::out_of_budget();
    let limit = match &scanned {
        Ok(None) => "out of time",
        _ if out_of_budget => "out of isl budget",
        _ => "scanner limitation",
    };
    let scanned = scanned.and_then(|s| s.ok_or_else(|| isl::IslError("scanning took too long".into())));
    isl::set_operation_budget(options.isl_budget);
    let why = match scanned {
        Ok(scanned)
            if !options.optimises() || contracts || plan.tiles() || emit::marks_some_loop(&plan.marks, &scanned.0) =>
        {
            *names = minted;
            return Ok((plan, Some(scanned), contraction));
        }
        // What the planner marked shares no loop (adi's parallel rows sit
        // in loops with statements not worth a region): no gain.
        Ok(_) => None,
        Err(e) if options.tile.as_ref().is_some_and(|t| t.shape.starts_concurrently()) => {
            // The scanner gives up on some tile shapes it could scan as rectangles.
            let rect = Options {
                tile: options.tile.clone().map(|t| TileOptions { shape: TileShape::Rect, ..t }),
                ..options.clone()
            };
            let mut again = plan::plan(scop, &rect);
            let instead = if again.tiles() {
                "tiled with rectangles instead"
            } else {
                "planned again as for --tile=rect, which tiles no band here"
            };
            let mut earlier = plan.notes;
            earlier.not_applied(
                format!("concurrent-start tiles: loops not generated ({limit}: {e}); {instead}"),
                out_of_budget,
            );
            again.notes.follow(earlier);
            return scan_planned(scop, again, names, &rect);
        }
        Err(e) => Some(format!("transformed loops not generated ({limit}: {e}); original schedule kept")),
    };
    let mut original = Plan::original(scop);
    original.keep_source = !scop.ast.has_multifor();
    let mut earlier = plan.notes;
    if let Some(why) = why {
        earlier.not_applied(why, out_of_budget);
    }
    original.notes.follow(earlier);
    // The contraction was proven for the other schedule.
    let contraction = contracted(scop, &mut original, names, options);
    if keeps_source(&original, !contraction.arrays.is_empty()) {
        return Ok((original, None, contraction));
    }
    let scanned = scan_scop(scop, &original.scattering)?;
    Ok((original, Some(scanned), contraction))
}

/// Each statement's iterator extents over the parameters (upper minus
/// lower bound plus one, from the hull of its domain), for the run-time
/// choice between the new loops and the source (see
/// [`emit::Program::work`]); `None` if some bound is not affine in the
/// parameters.
fn work_estimate(scop: &Scop) -> IslResult<Option<Vec<Vec<LinExpr>>>> {
    let mut work = Vec::new();
    for (k, st) in scop.ast.stmts.iter().enumerate() {
        let mut extents = Vec::new();
        for d in 0..st.iterators.len() {
            let Some((lo, hi)) = scop.iterator_range(&[k], d)? else {
                return Ok(None);
            };
            extents.push(hi.sub(&lo).add(&LinExpr::constant(1)));
        }
        work.push(extents);
    }
    Ok(Some(work))
}

/// A loop AST and the number of dimensions it scans.
type Scanned = (Vec<Node>, usize);

/// Each statement as points `[time, iterators, 0...]` of one common
/// space, scanned in time order.
fn scan_scop(scop: &Scop, scattering: &Scattering) -> IslResult<Scanned> {
    let _phase = isl::phase("scanning");
    let n_params = scop.ast.params.len();
    let dims = scattering.dims + scop.ast.max_depth();
    let mut stmts = Vec::new();
    for (&id, time) in scattering.stmts.iter().zip(&scattering.maps) {
        let points = time.intersect_domain(&scop.statements[id].domain)?.range_then_domain()?;
        let used = points.n_dims()?;
        let padding: Vec<Constraint> = (used..dims).map(|d| Constraint::eq(LinExpr::dim(d))).collect();
        let set = points.add_dims(dims - used)?.intersect(&Set::from_constraints(n_params, dims, &padding)?)?;
        stmts.push(ScanStmt { id, set });
    }
    let context = Set::parse(&isl::set_text(n_params, 0, ""))?;
    Ok((scan::scan(stmts, dims, n_params, &context)?, dims))
}

/// `printf("S<k> %ld %ld\n", (long)(i), (long)(j));` in place of statement
/// `k`; for the evaluation of a condition, `(printf(..), condition)`.
fn traced_statement(k: usize, stmt: &Stmt) -> Stmt {
    let format: String = stmt.iterators.iter().map(|_| " %ld").collect();
    let condition = stmt.sets.is_some();
    let mut text = format!("{}printf(\"S{k}{format}\\n\"", if condition { "(" } else { "" });
    let mut iter_uses = Vec::new();
    for (depth, it) in stmt.iterators.iter().enumerate() {
        text.push_str(", (long)(");
        iter_uses.push((text.len()..text.len() + it.name.len(), depth));
        text.push_str(&it.name);
        text.push(')');
    }
    if condition {
        text.push_str("), ");
        let shift = text.len();
        iter_uses.extend(stmt.iter_uses.iter().map(|(r, d)| (r.start + shift..r.end + shift, *d)));
        text.push_str(&stmt.text);
        text.push(')');
    } else {
        text.push_str(");");
    }
    Stmt { text, iter_uses, ..stmt.clone() }
}

/// The input with every SCoP statement replaced as with [`Options::trace`],
/// and nothing else changed: the reference trace.
pub fn trace_original(text: String) -> Result<String, Diagnostic> {
    let source = Source::parse(text)?;
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    for scop in source.scops().scops {
        for (k, s) in scop.stmts.iter().enumerate() {
            edits.push((s.span.clone(), traced_statement(k, s).text));
        }
    }
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = source.text.clone();
    for (range, text) in edits {
        out.replace_range(range, &text);
    }
    Ok(out)
}
