//! What polyc-cc did with one C file, as a JSON record in
//! `POLYC_REPORT`'s directory (one file per source and output, so that a
//! second build replaces the first's record and `make -j` never writes
//! one file twice at once), and as remarks in the style of
//! `-Rpass=polly` on standard error (`POLYC_REMARKS=1`).

use crate::batch::FileReport;
use crate::driver::{write_output, ScopStatus};
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// polyc found nothing to change: the source was compiled as written.
    AsWritten,
    /// The new text was compiled in the source's place.
    Transformed,
    /// Something failed on the way (polyc, or compiling its text): the
    /// source was compiled as written.
    Fallback,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The source, as the command names it.
    pub source: String,
    /// What the command makes of it (an object, a program).
    pub output: String,
    /// The directory the command ran in.
    pub directory: String,
    pub outcome: Outcome,
    /// Why it fell back.
    pub why: Option<String>,
    /// polyc's own record: the regions, the loop nests tried and their verdicts.
    pub polyc: Option<FileReport>,
    pub polyc_ms: u64,
    /// Compiling the new text.
    pub compile_ms: u64,
}

impl Record {
    pub fn new(source: &Path, output: &Path) -> Record {
        let directory = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
        Record {
            source: source.display().to_string(),
            output: output.display().to_string(),
            directory,
            outcome: Outcome::AsWritten,
            why: None,
            polyc: None,
            polyc_ms: 0,
            compile_ms: 0,
        }
    }

    pub fn fallback(&mut self, why: String) {
        self.outcome = Outcome::Fallback;
        self.why = Some(why);
    }

    /// `source:line:col: remark: ...` for each region and loop nest.
    pub fn remarks(&self) -> Vec<String> {
        let Some(polyc) = &self.polyc else { return Vec::new() };
        let kept = self.outcome != Outcome::Transformed;
        let mut out = Vec::new();
        for s in &polyc.scops {
            let what = match (s.status, kept) {
                (ScopStatus::Regenerated, false) if s.transforms.is_empty() => {
                    "region kept as written (nothing to gain)".to_string()
                }
                (ScopStatus::Regenerated, false) => format!("region regenerated: {}", s.transforms.join(", ")),
                (ScopStatus::Regenerated, true) => "region kept as written (the file fell back)".to_string(),
                (ScopStatus::Rejected, _) => format!("region kept as written [{}]", code(s.code)),
            };
            out.push(format!("{}:{}: remark: {what} [polyc]", self.source, s.line));
        }
        for n in polyc.nests.iter().filter(|n| !n.accepted) {
            let why = format!("{} [{}]", n.message, code(n.code));
            out.push(format!(
                "{}:{}:{}: remark: loop nest not optimised: {why} [polyc]",
                self.source, n.line, n.column
            ));
        }
        out
    }

    /// Write the record into `dir`, named for its source, output and directory.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&self.directory, &self.source, &self.output).hash(&mut hasher);
        let stem = Path::new(&self.source).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let path = dir.join(format!("{stem}-{:016x}.json", hasher.finish()));
        let json = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        write_output(&path, json.as_bytes())
    }
}

fn code(code: Option<crate::diagnostics::Code>) -> &'static str {
    code.map_or("-", |c| c.as_str())
}
