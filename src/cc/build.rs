//! The steps of one compiler command. The command runs first exactly as
//! given, on the sources as written, while polyc reads them: its
//! messages, its exit status and its dependency files are the real
//! compiler's own. Only when it succeeds are the new texts compiled, with
//! the same flags but `-w` and no dependency output, each into the
//! temporary directory, and what they make (objects, assembly, the
//! relinked program) put in place of what the first run made. A new text
//! that does not compile leaves the first run's result, with one warning.

use super::command::{Command, Mode};
use super::record::{Outcome, Record};
use super::settings::Settings;
use super::transform::{contains, transform, Transformed};
use crate::driver::write_output;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, ExitStatus};
use std::time::Instant;

/// Run `command` as polyc-cc does; the exit status to give.
pub fn run(command: &Command, settings: &Settings) -> i32 {
    let mut words = command.words();
    if command.mode == Mode::AsGiven {
        return status_code(real(settings, &words).status());
    }
    if command.mode == Mode::Link && !command.has_openmp() && objects_use_openmp(command) {
        words.push("-fopenmp".into());
    }
    let inputs = command.c_inputs();
    if inputs.is_empty() {
        return status_code(real(settings, &words).status());
    }
    let dir = match tempfile::Builder::new().prefix("polyc-cc.").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            warn(&format!("no temporary directory ({e}); compiled as written"));
            return status_code(real(settings, &words).status());
        }
    };
    let first = match real(settings, &words).spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!("polyc-cc: cannot run `{}`: {e}", settings.real_cc.join(" "));
            return 127;
        }
    };
    let units: Vec<Unit> =
        inputs.iter().enumerate().map(|(k, i)| Unit::new(i, k, command, settings, dir.path())).collect();
    let status = wait(first);
    if status != 0 {
        return status;
    }
    let mut units = units;
    match command.mode {
        Mode::Link => relink(command, &mut units, settings, dir.path()),
        _ => replace_outputs(command, &mut units, settings),
    }
    for unit in &units {
        unit.finish(settings);
    }
    0
}

/// One C input and what became of it.
struct Unit {
    input: PathBuf,
    transformed: Option<Transformed>,
    /// Where its new text is compiled to, once it compiled.
    made: Option<PathBuf>,
    record: Record,
}

impl Unit {
    fn new(input: &Path, k: usize, command: &Command, settings: &Settings, dir: &Path) -> Unit {
        let output = match command.mode {
            Mode::Link => command.output().unwrap_or_else(|| PathBuf::from("a.out")),
            _ => command.output_of(input),
        };
        let mut record = Record::new(input, &output);
        let transformed = match transform(input, k, command, settings, dir) {
            Ok(mut t) => {
                record.polyc_ms = t.elapsed.as_millis() as u64;
                record.polyc = t.record.take();
                record.outcome = if t.text.is_some() { Outcome::Transformed } else { Outcome::AsWritten };
                Some(t).filter(|t| t.text.is_some())
            }
            Err(why) => {
                record.fallback(why);
                None
            }
        };
        Unit { input: input.to_path_buf(), transformed, made: None, record }
    }

    /// Compile the new text with `step` (`-c` or `-S`) into `out`.
    fn compile(&mut self, command: &Command, settings: &Settings, step: &str, out: &Path) {
        let Some(t) = &self.transformed else { return };
        let Some(text) = &t.text else { return };
        let start = Instant::now();
        let source_dir = self.input.parent().map(Path::to_path_buf).unwrap_or_default();
        let text_dir = text.parent().unwrap_or(Path::new("/"));
        let mut words = vec!["-iquote".to_string(), shown(&source_dir, ".")];
        words.extend(command.compile_flags());
        // The object names the source, not the temporary file (`__FILE__`, debug information).
        words.push(format!("-ffile-prefix-map={}/={}", text_dir.display(), with_slash(&source_dir)));
        words.push("-w".into());
        if t.openmp && !command.has_openmp() {
            words.push("-fopenmp".into());
        }
        words.extend([step.to_string(), text.display().to_string(), "-o".into(), out.display().to_string()]);
        let output = real(settings, &words).output();
        self.record.compile_ms = start.elapsed().as_millis() as u64;
        match output {
            Ok(o) if o.status.success() => self.made = Some(out.to_path_buf()),
            Ok(o) => {
                let why =
                    String::from_utf8_lossy(&o.stderr).lines().find(|l| l.contains("error")).unwrap_or("").to_string();
                self.record.fallback(format!("the new text does not compile: {why}"));
            }
            Err(e) => self.record.fallback(format!("cannot run the compiler: {e}")),
        }
    }

    fn finish(&self, settings: &Settings) {
        if let Outcome::Fallback = self.record.outcome {
            warn(&format!(
                "{}: {}; compiled as written",
                self.input.display(),
                self.record.why.as_deref().unwrap_or("")
            ));
        }
        if settings.remarks {
            for remark in self.record.remarks() {
                eprintln!("{remark}");
            }
        }
        if let Some(dir) = &settings.report_dir {
            if let Err(e) = self.record.save(dir) {
                warn(&format!("cannot write the report into `{}`: {e}", dir.display()));
            }
        }
    }
}

/// `-c` and `-S`: each new text compiled beside, then put where the
/// first run put the source's.
fn replace_outputs(command: &Command, units: &mut [Unit], settings: &Settings) {
    let step = if command.mode == Mode::Assemble { "-S" } else { "-c" };
    for unit in units.iter_mut() {
        let Some(text) = unit.transformed.as_ref().and_then(|t| t.text.clone()) else { continue };
        let made = text.with_extension(if step == "-S" { "s" } else { "o" });
        unit.compile(command, settings, step, &made);
        let Some(made) = unit.made.clone() else { continue };
        let target = command.output_of(&unit.input);
        if let Err(e) = std::fs::read(&made).and_then(|bytes| write_output(&target, &bytes)) {
            unit.record.fallback(format!("cannot replace `{}`: {e}", target.display()));
        }
    }
}

/// A program: each new text compiled to an object, then the command
/// again with those objects for their sources, into the temporary
/// directory, and the program put where the first run put it.
fn relink(command: &Command, units: &mut [Unit], settings: &Settings, dir: &Path) {
    let mut objects = Vec::new();
    let mut openmp = false;
    for (k, unit) in units.iter_mut().enumerate() {
        unit.compile(command, settings, "-c", &dir.join(format!("{k}.o")));
        openmp |= unit.made.is_some() && unit.transformed.as_ref().is_some_and(|t| t.openmp);
        objects.push(unit.made.clone());
    }
    if objects.iter().all(Option::is_none) {
        return;
    }
    let program = dir.join("program");
    let target = command.output().unwrap_or_else(|| PathBuf::from("a.out"));
    let mut words = command.relink(&objects, &program);
    if openmp && !command.has_openmp() {
        words.push("-fopenmp".into());
    }
    let mut linked = real(settings, &words).output();
    if linked.as_ref().is_ok_and(|o| !o.status.success() && contains(&o.stderr, b"undefined reference")) {
        // The compiler may have folded a call to the math library in
        // the source's loops (deriche's `expf` of a constant) that the
        // new loops make: they need it linked.
        words.push("-lm".into());
        linked = real(settings, &words).output();
    }
    let placed = match linked {
        Ok(o) if o.status.success() => {
            std::fs::read(&program).and_then(|b| write_output(&target, &b)).map_err(|e| e.to_string())
        }
        Ok(o) => Err(String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("").to_string()),
        Err(e) => Err(e.to_string()),
    };
    if let Err(why) = placed {
        for unit in units.iter_mut().filter(|u| u.made.is_some()) {
            unit.record.fallback(format!("the program does not link with the new objects: {why}"));
        }
    }
}

/// Whether an object or archive the command links was compiled with
/// OpenMP (it calls libgomp's or libomp's entry points).
fn objects_use_openmp(command: &Command) -> bool {
    let files = command.other_inputs().into_iter().chain(command.static_libraries());
    files.filter(|f| f.extension().is_some_and(|e| e == "o" || e == "a")).any(|f| {
        std::fs::read(&f).is_ok_and(|bytes| {
            [&b"GOMP_parallel"[..], b"__kmpc_fork_call", b"omp_get_max_threads"].iter().any(|s| contains(&bytes, s))
        })
    })
}

/// The real compiler with `words`, marked so that a compiler that turns
/// out to be polyc-cc again stops at once (`cc::main`).
fn real(settings: &Settings, words: &[String]) -> Process {
    let mut p = Process::new(&settings.real_cc[0]);
    p.args(&settings.real_cc[1..]).args(words).env(super::settings::ACTIVE, "1");
    p
}

fn wait(mut child: Child) -> i32 {
    status_code(child.wait())
}

fn status_code(status: std::io::Result<ExitStatus>) -> i32 {
    match status {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("polyc-cc: cannot run the compiler: {e}");
            127
        }
    }
}

fn shown(path: &Path, empty: &str) -> String {
    if path.as_os_str().is_empty() {
        empty.to_string()
    } else {
        path.display().to_string()
    }
}

fn with_slash(path: &Path) -> String {
    match shown(path, "") {
        s if s.is_empty() || s.ends_with('/') => s,
        s => format!("{s}/"),
    }
}

fn warn(message: &str) {
    eprintln!("polyc-cc: warning: {message}");
}
