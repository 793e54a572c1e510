//! `polyc report DIR`: a project's summary from the records polyc-cc
//! left in DIR (`POLYC_REPORT`): files, loop nests found and transformed,
//! the refusals by cause (SPolly's table of rejection causes, seed 001),
//! the files that fell back, and the files polyc spent longest on.

use super::record::{Outcome, Record};
use crate::batch::{FileReport, Totals};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// How many of the slowest files the summary names.
const SLOWEST: usize = 5;

/// The records in `dir`, sorted by source; a file that is not a record
/// is named in the error.
pub fn read_records(dir: &Path) -> Result<Vec<Record>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    let mut records = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let record: Record =
            serde_json::from_str(&text).map_err(|e| format!("`{}` is not a polyc-cc record: {e}", path.display()))?;
        records.push(record);
    }
    records.sort_by(|a, b| (&a.directory, &a.source, &a.output).cmp(&(&b.directory, &b.source, &b.output)));
    Ok(records)
}

/// The summary of `records`, as text: what polyc-cc did with the files,
/// then polyc's totals over them, as `polyc batch` prints them (its time
/// as the wall time).
pub fn summary(records: &[Record]) -> String {
    let count = |o: Outcome| records.iter().filter(|r| r.outcome == o).count();
    let reports: Vec<FileReport> = records.iter().filter_map(|r| r.polyc.clone()).collect();
    let polyc_time = Duration::from_millis(records.iter().map(|r| r.polyc_ms).sum());
    let totals = Totals::of(&reports, polyc_time);
    let mut out = format!(
        "C files compiled: {} (transformed {}, as written {}, fell back {})\n",
        records.len(),
        count(Outcome::Transformed),
        count(Outcome::AsWritten),
        count(Outcome::Fallback)
    );
    out.push_str(&totals.summary());
    out.push_str(&totals.cause_table());
    for r in records.iter().filter(|r| r.outcome == Outcome::Fallback) {
        let _ = writeln!(out, "fell back: {}: {}", r.source, r.why.as_deref().unwrap_or(""));
    }
    let mut slowest: Vec<&Record> = records.iter().collect();
    slowest.sort_by_key(|r| std::cmp::Reverse(r.polyc_ms + r.compile_ms));
    let _ = writeln!(out, "slowest files (polyc, then compiling its text):");
    for r in slowest.iter().take(SLOWEST) {
        let _ = writeln!(out, "  {:>8} ms {:>8} ms  {}", r.polyc_ms, r.compile_ms, r.source);
    }
    out
}
