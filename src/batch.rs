//! Batch mode: every `.c` file of a directory tree, compiled by a pool of
//! worker threads (each with its own isl context), written at the same
//! relative path under an output directory, and summed up as a table and a
//! JSON report. A file that fails is recorded and the others go on.
//!
//! Workers take the next file from a shared counter (a slow file holds up
//! no fixed share of the others), each file compiled on a compile thread of
//! its own (`driver::on_compile_thread`: a panic is that file's failure)
//! and written through `driver::write_output`. The per-file
//! `driver::ScopSummary`s add up to the table and the JSON report, with
//! `--autodetect` the rejected candidate nests by cause. Invariants: one
//! file failing (read, parse, write, even a panic) never stops the others;
//! results are reported in sorted path order whatever the thread timing;
//! no result can land on an input file (an output directory holding the
//! input one is refused, one inside it skipped, and no result is written
//! through a symbolic link into the input).

use crate::diagnostics::{line_col, Cause, Code, Diagnostic};
use crate::driver::{self, Outcome, ScopStatus, ScopSummary};
use crate::frontend::encoding::{self, Encoding};
use crate::options::Options;
use crate::report::scops::CandidateReport;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::num::NonZeroUsize;
use std::panic;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub struct Config {
    pub input_dir: PathBuf,
    pub output_dir: PathBuf,
    pub jobs: NonZeroUsize,
    pub options: Options,
    /// Draw a progress bar on stderr; only worth it when stderr is a terminal.
    pub progress: bool,
}

/// Why a batch could not start; once it has started, failures are per file.
#[derive(Debug)]
pub enum BatchError {
    /// The directories given cannot work together, or the input cannot be listed.
    Usage(String),
    /// The output directory cannot be created.
    Output(String),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Usage(m) | BatchError::Output(m) => f.write_str(m),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    Ok,
    Error,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FileReport {
    /// Relative to the input directory (and to the output directory).
    pub path: String,
    pub status: FileStatus,
    pub error: Option<String>,
    pub scops: Vec<ScopSummary>,
    pub diagnostics: Vec<Code>,
    /// With `--autodetect`: the candidate loop nests (and pragma regions)
    /// tried, how many were accepted, and the rejected ones by cause.
    pub candidates: usize,
    pub candidates_accepted: usize,
    pub rejected_by_cause: BTreeMap<Cause, usize>,
    /// Those candidates, each with its place and verdict.
    pub nests: Vec<CandidateReport>,
    pub time_ms: u64,
}

#[derive(Debug, Default, Serialize)]
pub struct Totals {
    pub files: usize,
    pub files_failed: usize,
    /// Files read and copied unchanged, as they hold no SCoP.
    pub files_without_scop: usize,
    pub scops_found: usize,
    pub scops_regenerated: usize,
    pub scops_rejected: usize,
    pub rejected_by_code: BTreeMap<Code, usize>,
    pub transforms: BTreeMap<String, usize>,
    /// With `--autodetect`: candidate loop nests over the tree, accepted,
    /// and the rejected ones by cause.
    pub candidates: usize,
    pub candidates_accepted: usize,
    pub rejected_by_cause: BTreeMap<Cause, usize>,
    pub wall_ms: u64,
}

#[derive(Debug, Serialize)]
pub struct Report {
    /// In the order the files were found: sorted by path.
    pub files: Vec<FileReport>,
    pub totals: Totals,
}

/// Compile every `.c` file under `config.input_dir` into `config.output_dir`.
pub fn run(config: &Config) -> Result<Report, BatchError> {
    let start = Instant::now();
    prepare_output_dir(&config.input_dir, &config.output_dir)?;
    let files = discover(&config.input_dir, &config.output_dir)?;
    let reports = compile_all(&files, config);
    let totals = Totals::of(&reports, start.elapsed());
    Ok(Report { files: reports, totals })
}

/// An output directory containing the input one could receive a result at
/// the path of an input, so it is refused before anything is written.
fn prepare_output_dir(input: &Path, output: &Path) -> Result<(), BatchError> {
    let input = input
        .canonicalize()
        .ok()
        .filter(|p| p.is_dir())
        .ok_or_else(|| BatchError::Usage(format!("`{}` is not a directory", input.display())))?;
    if output.canonicalize().is_ok_and(|out| input.starts_with(out)) {
        return Err(BatchError::Usage(format!(
            "the output directory `{}` is or contains the input directory; choose another",
            output.display()
        )));
    }
    std::fs::create_dir_all(output)
        .map_err(|e| BatchError::Output(format!("cannot create `{}`: {e}", output.display())))
}

/// Every `.c` file under `root`, relative to it, sorted. An output directory
/// inside `root` is skipped so that a second run does not compile the
/// results of the first.
fn discover(root: &Path, output: &Path) -> Result<Vec<PathBuf>, BatchError> {
    let output = output.canonicalize().ok();
    let mut files = Vec::new();
    collect_c_files(root, Path::new(""), output.as_deref(), &mut files).map_err(BatchError::Usage)?;
    files.sort();
    Ok(files)
}

fn collect_c_files(root: &Path, sub: &Path, skip: Option<&Path>, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let dir = root.join(sub);
    let cannot_list = |e: std::io::Error| format!("cannot list `{}`: {e}", dir.display());
    for entry in std::fs::read_dir(&dir).map_err(cannot_list)? {
        let entry = entry.map_err(cannot_list)?;
        let relative = sub.join(entry.file_name());
        let path = root.join(&relative);
        // `file_type` does not follow symbolic links, so a link cycle cannot trap the walk.
        if entry.file_type().map_err(cannot_list)?.is_dir() {
            if !is_skipped(&path, skip) {
                collect_c_files(root, &relative, skip, out)?;
            }
        } else if path.extension().is_some_and(|x| x == "c") && path.is_file() {
            out.push(relative);
        }
    }
    Ok(())
}

fn is_skipped(dir: &Path, skip: Option<&Path>) -> bool {
    skip.is_some_and(|s| dir.canonicalize().is_ok_and(|d| d == s))
}

/// Workers take the next file from a shared counter, so a slow file does
/// not hold up a fixed share of the others.
fn compile_all(files: &[PathBuf], config: &Config) -> Vec<FileReport> {
    let progress = progress_bar(files.len(), config.progress);
    let next = AtomicUsize::new(0);
    let workers = config.jobs.get().min(files.len()).max(1);
    let mut done: Vec<(usize, FileReport)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(relative) = files.get(k) else { break mine };
                        let report = compile_one(relative, config);
                        progress.set_message(report.path.clone());
                        progress.inc(1);
                        mine.push((k, report));
                    }
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|p| panic::resume_unwind(p))).collect()
    });
    progress.finish_and_clear();
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, report)| report).collect()
}

fn progress_bar(len: usize, visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(len as u64).with_style(style)
}

fn compile_one(relative: &Path, config: &Config) -> FileReport {
    let start = Instant::now();
    let input = config.input_dir.join(relative);
    let output = config.output_dir.join(relative);
    let result = compile_and_write(&input, &output, config);
    FileReport::new(relative, result, start.elapsed())
}

/// Why one file could not be compiled; `code` is `None` for a panic.
struct Failure {
    code: Option<Code>,
    message: String,
}

impl Failure {
    fn new(code: Code, message: String) -> Failure {
        Failure { code: Some(code), message }
    }
}

fn compile_and_write(input: &Path, output: &Path, config: &Config) -> Result<Outcome, Failure> {
    let (text, encoding) = read_text(input)?;
    let outcome = compile_catching_panics(text, input, &config.options)?;
    write_output(output, &encoding.encode(&outcome.output), config)?;
    Ok(outcome)
}

fn read_text(path: &Path) -> Result<(String, Encoding), Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure::new(Code::E0002, format!("cannot read: {e}")))?;
    encoding::decode(bytes).map_err(|why| Failure::new(Code::E0002, why))
}

/// A bug in polyc triggered by one file must not take the batch down with
/// it: the file is compiled on a thread of its own (see
/// [`driver::on_compile_thread`]).
fn compile_catching_panics(text: String, input: &Path, options: &Options) -> Result<Outcome, Failure> {
    match driver::on_compile_thread(|| driver::compile_file(text.clone(), Some(input), options)) {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(d)) => Err(located_failure(&text, d)),
        Err(message) => Err(Failure { code: None, message }),
    }
}

fn located_failure(text: &str, d: Diagnostic) -> Failure {
    let (line, col) = line_col(text, d.span.start);
    Failure::new(d.code, format!("{line}:{col}: {}", d.message))
}

/// Write a result where `path` leads, unless a symbolic link there leads
/// into the input directory (outside the output directory), where it
/// could replace an input.
fn write_output(path: &Path, contents: &[u8], config: &Config) -> Result<(), Failure> {
    let cannot_write = |e: std::io::Error| Failure::new(Code::E0003, format!("cannot write `{}`: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(cannot_write)?;
    }
    let inputs = config.input_dir.canonicalize().map_err(cannot_write)?;
    let outputs = config.output_dir.canonicalize().map_err(cannot_write)?;
    if path.canonicalize().is_ok_and(|target| target.starts_with(&inputs) && !target.starts_with(&outputs)) {
        let why = format!("cannot write `{}`: it leads into the input directory", path.display());
        return Err(Failure::new(Code::E0003, why));
    }
    driver::write_output(path, contents).map_err(cannot_write)
}

impl FileReport {
    fn new(relative: &Path, result: Result<Outcome, Failure>, elapsed: Duration) -> FileReport {
        let path = relative.display().to_string();
        let time_ms = millis(elapsed);
        match result {
            Ok(outcome) => FileReport::compiled(path, &outcome, elapsed),
            Err(failure) => FileReport {
                path,
                status: FileStatus::Error,
                error: Some(failure.message),
                diagnostics: failure.code.into_iter().collect(),
                scops: Vec::new(),
                candidates: 0,
                candidates_accepted: 0,
                rejected_by_cause: BTreeMap::new(),
                nests: Vec::new(),
                time_ms,
            },
        }
    }

    /// The record of a file compiled in `elapsed`, at `path`.
    pub fn compiled(path: String, outcome: &Outcome, elapsed: Duration) -> FileReport {
        let mut rejected_by_cause = BTreeMap::new();
        for c in outcome.candidates.iter().filter(|c| !c.accepted) {
            *rejected_by_cause.entry(c.cause.unwrap_or(Cause::Other)).or_default() += 1;
        }
        FileReport {
            path,
            status: FileStatus::Ok,
            error: None,
            diagnostics: outcome.diagnostics.iter().map(|d| d.code).collect(),
            scops: outcome.scops.clone(),
            candidates: outcome.candidates.len(),
            candidates_accepted: outcome.candidates.iter().filter(|c| c.accepted).count(),
            rejected_by_cause,
            nests: outcome.candidates.clone(),
            time_ms: millis(elapsed),
        }
    }

    fn count(&self, status: ScopStatus) -> usize {
        self.scops.iter().filter(|s| s.status == status).count()
    }

    fn table_row(&self) -> [String; 7] {
        let codes: Vec<&str> = self.diagnostics.iter().map(|c| c.as_str()).collect();
        let transforms: BTreeSet<&str> = self.scops.iter().flat_map(|s| &s.transforms).map(String::as_str).collect();
        [
            self.path.clone(),
            self.scops.len().to_string(),
            self.count(ScopStatus::Regenerated).to_string(),
            self.count(ScopStatus::Rejected).to_string(),
            dash_if_empty(codes.join(",")),
            dash_if_empty(transforms.into_iter().collect::<Vec<_>>().join(",")),
            self.time_ms.to_string(),
        ]
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn dash_if_empty(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

impl Totals {
    pub fn of(files: &[FileReport], wall: Duration) -> Totals {
        let mut totals = Totals { files: files.len(), wall_ms: millis(wall), ..Totals::default() };
        for file in files {
            totals.files_failed += usize::from(file.status == FileStatus::Error);
            totals.files_without_scop += usize::from(file.status != FileStatus::Error && file.scops.is_empty());
            for scop in &file.scops {
                totals.add_scop(scop);
            }
            totals.candidates += file.candidates;
            totals.candidates_accepted += file.candidates_accepted;
            for (cause, n) in &file.rejected_by_cause {
                *totals.rejected_by_cause.entry(*cause).or_default() += n;
            }
        }
        totals
    }

    fn add_scop(&mut self, scop: &ScopSummary) {
        self.scops_found += 1;
        match scop.status {
            ScopStatus::Regenerated => self.scops_regenerated += 1,
            ScopStatus::Rejected => self.scops_rejected += 1,
        }
        if let (ScopStatus::Rejected, Some(code)) = (scop.status, scop.code) {
            *self.rejected_by_code.entry(code).or_default() += 1;
        }
        for t in &scop.transforms {
            *self.transforms.entry(t.clone()).or_default() += 1;
        }
    }

    /// The rejected candidate nests by cause, one row per cause (every
    /// cause, so that tables of two trees line up), when there were
    /// candidates.
    pub fn cause_table(&self) -> String {
        if self.candidates == 0 {
            return String::new();
        }
        let rejected = self.candidates - self.candidates_accepted;
        let mut out = format!(
            "candidate loop nests: {} ({} accepted, {rejected} rejected)\n",
            self.candidates, self.candidates_accepted
        );
        let width = Cause::ALL.iter().map(|c| c.as_str().len()).max().unwrap_or(0).max("cause".len());
        let _ = writeln!(out, "{:<width$}  rejected", "cause");
        for cause in Cause::ALL {
            let n = self.rejected_by_cause.get(&cause).copied().unwrap_or(0);
            let _ = writeln!(out, "{:<width$}  {n:>8}", cause.as_str());
        }
        out
    }

    pub fn summary(&self) -> String {
        let rejected = counts(self.rejected_by_code.iter().map(|(c, n)| (c.as_str(), n)));
        let transforms = counts(self.transforms.iter().map(|(t, n)| (t.as_str(), n)));
        format!(
            "files: {} ({} failed, {} without a SCoP, copied)\nSCoPs: {} found, {} regenerated, {} rejected\n\
             rejected by code: {rejected}\ntransformations: {transforms}\nwall time: {} ms\n",
            self.files,
            self.files_failed,
            self.files_without_scop,
            self.scops_found,
            self.scops_regenerated,
            self.scops_rejected,
            self.wall_ms
        )
    }
}

/// `P0002 3, P0011 1`, or `none`.
fn counts<'a>(items: impl Iterator<Item = (&'a str, &'a usize)>) -> String {
    let parts: Vec<String> = items.map(|(name, n)| format!("{name} {n}")).collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

const HEADER: [&str; 7] = ["file", "scops", "regenerated", "rejected", "diagnostics", "transforms", "ms"];
/// Text columns are aligned left, counts right.
const LEFT_ALIGNED: [bool; 7] = [true, false, false, false, true, true, false];

impl Report {
    /// Whether every file was read, compiled and written.
    pub fn all_ok(&self) -> bool {
        self.totals.files_failed == 0
    }

    /// One row per file, then the failures with their reason, then the totals.
    pub fn table(&self) -> String {
        let rows: Vec<[String; 7]> =
            std::iter::once(HEADER.map(String::from)).chain(self.files.iter().map(FileReport::table_row)).collect();
        let widths: Vec<usize> = (0..7).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
        let mut out = String::new();
        for row in &rows {
            out.push_str(&aligned_row(row, &widths));
        }
        out.push('\n');
        for file in &self.files {
            if let Some(error) = &file.error {
                let _ = writeln!(out, "failed: {}: {error}", file.path);
            }
        }
        out.push_str(&self.totals.summary());
        out.push_str(&self.totals.cause_table());
        out
    }

    pub fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string_pretty(self).map(|json| json + "\n")
    }
}

fn aligned_row(cells: &[String; 7], widths: &[usize]) -> String {
    let padded: Vec<String> = cells
        .iter()
        .zip(widths)
        .zip(LEFT_ALIGNED)
        .map(|((cell, &w), left)| if left { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
        .collect();
    padded.join("  ").trim_end().to_string() + "\n"
}
