//! The file as the C compiler's preprocessor sees it, under the user's
//! `-I`, `-D` and `-U`: which lines of the file are in effect (the branches
//! of `#if`/`#ifdef` those flags select) and which macros are defined
//! where (from the file, the headers it includes and the flags).
//!
//! It runs `$CC` (else `cc`) as `-E -fdirectives-only -dD` with the flags,
//! the file on its standard input: the line markers of the output say which
//! lines of the file are compiled, and every `#define` and `#undef` comes at
//! the line where it takes effect ([`Preprocessed::history`]). The lines the
//! compiler does not compile are blanked for the parser, byte for byte
//! ([`Preprocessed::visible`]), so that the parser never sees a line the
//! compiler does not, and every span of the parsed text is a span of the
//! file. Where the preprocessor cannot run, the file is read unchanged with
//! the macros it defines itself ([`Preprocessed::unprocessed`]).

use super::macros::{self, Macro, Macros};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The preprocessor flags, with gcc's meaning, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub include_dirs: Vec<PathBuf>,
    /// `-D` and `-U` in command-line order (later ones win, as in gcc).
    pub macros: Vec<MacroFlag>,
    /// Any other argument the compiler's preprocessor takes (`-isystem
    /// DIR`, `-include FILE`, `-std=c99`, `-fopenmp`: `--cpp-arg`), in the
    /// order given, after the others (gcc reads `-include` after every
    /// `-D` and `-U` anyway).
    pub other: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroFlag {
    /// `-D NAME` or `-D NAME=VALUE`, as written after `-D`.
    Define(String),
    Undefine(String),
}

impl Flags {
    /// The flags as arguments to the C compiler's driver.
    pub fn args(&self) -> Vec<String> {
        let includes = self.include_dirs.iter().map(|d| format!("-I{}", d.display()));
        let macros = self.macros.iter().map(|m| match m {
            MacroFlag::Define(d) => format!("-D{d}"),
            MacroFlag::Undefine(u) => format!("-U{u}"),
        });
        includes.chain(macros).chain(self.other.iter().cloned()).collect()
    }
}

/// What the preprocessor made of a file.
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    /// The file's text with every line the compiler does not see (the
    /// branches of conditionals not taken, and the conditional directives
    /// themselves) blanked out, byte for byte the same length: what the
    /// parser reads, so that every span is also a span of the file.
    pub visible: String,
    /// Every `#define` and `#undef` in effect, in order, each at the line
    /// (1-based) of the file where it takes effect (0: before the file,
    /// from the flags or the compiler; a header's at its `#include`).
    pub history: Vec<(usize, String, Option<Macro>)>,
}

impl Preprocessed {
    /// The file unchanged, with the macros it defines itself (where the
    /// preprocessor cannot be run).
    pub fn unprocessed(text: &str) -> Preprocessed {
        let mut history = Vec::new();
        let mut line = 1;
        let mut at = 0;
        while at < text.len() {
            let end = text[at..].find('\n').map_or(text.len(), |p| at + p);
            let mut stop = end;
            while text[at..stop].ends_with('\\') && stop < text.len() {
                stop = text[stop + 1..].find('\n').map_or(text.len(), |p| stop + 1 + p);
            }
            let directive = &text[at..stop];
            if let Some((name, m)) = macros::parse_define(directive) {
                history.push((line, name, Some(m)));
            } else if let Some(name) = undefined(directive) {
                history.push((line, name, None));
            }
            line += text[at..stop].matches('\n').count() + 1;
            at = stop + 1;
        }
        Preprocessed { visible: text.to_string(), history }
    }

    /// The macros defined just before line `line` (1-based).
    pub fn macros_at(&self, line: usize) -> Macros {
        let mut macros = Macros::new();
        for (_, name, definition) in self.history.iter().take_while(|(at, _, _)| *at < line) {
            match definition {
                Some(m) => macros.insert(name.clone(), m.clone()),
                None => macros.remove(name),
            };
        }
        macros
    }
}

/// The name an `#undef` directive names.
fn undefined(directive: &str) -> Option<String> {
    let rest = directive.trim_start().strip_prefix('#')?.trim_start().strip_prefix("undef")?;
    let name = rest.split_whitespace().next()?;
    (rest.starts_with([' ', '\t']) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| name.to_string())
}

/// The name the preprocessor gives the file read from its standard input.
const STDIN: &str = "\"<stdin>\"";

/// Run the C compiler's preprocessor on `text` (the file in directory
/// `dir`, for its `#include "..."`) keeping directives and code as
/// written (`-fdirectives-only -dD`): its output says which lines are
/// compiled and which macros are defined where.
pub fn preprocess(text: &str, dir: Option<&Path>, flags: &Flags) -> Result<Preprocessed, String> {
    let stdout = run(text, dir, &openmp_as_macro(flags), &["-fdirectives-only", "-dD"])?;
    Ok(read_output(text, &stdout))
}

/// `flags` with `-fopenmp` replaced by the one macro it defines,
/// `_OPENMP`, as the compiler defines it: gcc 12 stops with an internal
/// error on `#pragma omp` under `-fdirectives-only -fopenmp`, and the file
/// was then read without its headers' macros (NPB's `BLOCK_SIZE`).
fn openmp_as_macro(flags: &Flags) -> Flags {
    let is_openmp = |a: &String| a == "-fopenmp" || a.starts_with("-fopenmp=");
    if !flags.other.iter().any(is_openmp) {
        return flags.clone();
    }
    let defined = run("", None, flags, &["-dM"]).unwrap_or_default();
    let value = defined.lines().find_map(|l| l.strip_prefix("#define _OPENMP ")).map(|v| v.trim().to_string());
    let mut without = flags.clone();
    without.other.retain(|a| !is_openmp(a));
    without.macros.extend(value.map(|v| MacroFlag::Define(format!("_OPENMP={v}"))));
    without
}

/// The output of `$CC` (else `cc`) `-E` with `mode` and `flags` on
/// `text`, given on its standard input as the file in `dir`; the error
/// is the compiler's first complaint.
pub fn run(text: &str, dir: Option<&Path>, flags: &Flags, mode: &[&str]) -> Result<String, String> {
    // `CC` may hold arguments (`ccache gcc`), as make's does.
    let compiler = std::env::var("CC").ok().filter(|c| !c.trim().is_empty()).unwrap_or_else(|| "cc".to_string());
    let mut words = compiler.split_whitespace();
    let mut command = Command::new(words.next().unwrap_or("cc"));
    command.args(words).arg("-E").args(mode).args(["-x", "c"]);
    if let Some(dir) = dir {
        command.arg("-iquote").arg(if dir.as_os_str().is_empty() { Path::new(".") } else { dir });
    }
    command.args(flags.args()).arg("-");
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| format!("cannot run the preprocessor `{compiler}`: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("the preprocessor's input is closed")?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| format!("the preprocessor `{compiler}` failed: {e}"))?;
    // A write error only means the preprocessor stopped early; its status says why.
    let _ = writer.join();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().find(|l| l.contains("error")).unwrap_or_else(|| stderr.lines().next().unwrap_or(""));
        return Err(format!("the preprocessor `{compiler}` failed: {}", first.replace("<stdin>", "the file")));
    }
    String::from_utf8(output.stdout).map_err(|_| "the preprocessor's output is not UTF-8".to_string())
}

/// Read `-fdirectives-only -dD` output: line markers `# N "file" flags`
/// say where the lines that follow come from.
fn read_output(text: &str, output: &str) -> Preprocessed {
    let source_lines: Vec<&str> = text.split('\n').collect();
    let mut seen: Vec<Option<&str>> = vec![None; source_lines.len() + 1];
    let mut history = Vec::new();
    let mut in_file = false;
    let mut line = 0;
    let mut last_file_line = 0;
    for out in output.split('\n') {
        if let Some((number, file)) = line_marker(out) {
            in_file = file == STDIN;
            if in_file {
                line = number;
            }
            continue;
        }
        if in_file {
            last_file_line = line;
            if line < seen.len() {
                seen[line] = Some(out);
            }
        }
        let at = if in_file { line } else { last_file_line };
        if let Some((name, m)) = macros::parse_define(out) {
            history.push((at, name, Some(m)));
        } else if let Some(name) = undefined(out) {
            history.push((at, name, None));
        }
        if in_file {
            line += 1;
        }
    }
    let mut visible = String::with_capacity(text.len());
    for (k, source) in source_lines.iter().enumerate() {
        if k > 0 {
            visible.push('\n');
        }
        let compiled = seen[k + 1].is_some_and(|out| !out.trim().is_empty()) || source.trim().is_empty();
        if compiled && !is_conditional(source) {
            visible.push_str(source);
        } else {
            let line = source.trim_end_matches('\r');
            visible.push_str(&" ".repeat(line.len()));
            visible.push_str(&source[line.len()..]);
        }
    }
    Preprocessed { visible, history }
}

/// `# N "file" flags...`: the line number and the quoted file name.
fn line_marker(line: &str) -> Option<(usize, &str)> {
    let rest = line.strip_prefix("# ")?;
    let (number, rest) = rest.split_once(' ')?;
    let number = number.parse().ok()?;
    let file = match rest[1..].find('"') {
        Some(end) if rest.starts_with('"') => &rest[..end + 2],
        _ => return None,
    };
    Some((number, file))
}

/// `#if`, `#ifdef`, `#ifndef`, `#elif`, `#elifdef`, `#elifndef`, `#else`
/// or `#endif`.
fn is_conditional(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('#') else { return false };
    let word: String = rest.trim_start().chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    matches!(word.as_str(), "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef" | "else" | "endif")
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "#include <stddef.h>\n#define Q 1\n#define F(a, b) ((a) + \\\n   (b) * Q)\nint main() {\n#ifdef WIDE\n  for (int t = 0; t < 10; t++) {\n#else\n  for (int t = 0; t < 2; t++) {\n#endif\n    x = F(t, 2);\n  }\n#undef Q\n}\n";

    #[test]
    fn the_branch_the_flags_select_is_all_the_parser_sees() {
        let narrow = preprocess(FILE, None, &Flags::default()).expect("cc runs");
        assert_eq!(narrow.visible.len(), FILE.len());
        assert!(narrow.visible.contains("t < 2") && !narrow.visible.contains("t < 10"));
        assert!(!narrow.visible.contains("#ifdef") && !narrow.visible.contains("#endif"));
        let wide = Flags { macros: vec![MacroFlag::Define("WIDE".into())], ..Flags::default() };
        let wide = preprocess(FILE, None, &wide).expect("cc runs");
        assert!(wide.visible.contains("t < 10") && !wide.visible.contains("t < 2"));
        assert!(wide.macros_at(1).contains_key("WIDE"));
    }

    #[test]
    fn macros_are_known_from_where_they_are_defined_until_undefined() {
        let p = preprocess(FILE, None, &Flags::default()).expect("cc runs");
        assert!(p.macros_at(1).contains_key("NULL"), "a header's macros come before the file's lines");
        assert!(!p.macros_at(2).contains_key("Q"));
        let at_loop = p.macros_at(11);
        assert_eq!(at_loop["Q"].body, "1");
        assert_eq!(at_loop["F"].params.as_deref(), Some(&["a".to_string(), "b".to_string()][..]));
        assert!(!p.macros_at(15).contains_key("Q"));
        let own = Preprocessed::unprocessed(FILE);
        assert_eq!(own.macros_at(11)["F"], at_loop["F"]);
        assert!(!own.macros_at(15).contains_key("Q"));
    }

    #[test]
    fn a_missing_header_is_an_error_that_names_it() {
        let err = preprocess("#include \"nowhere.h\"\n", None, &Flags::default()).unwrap_err();
        assert!(err.contains("nowhere.h"), "{err}");
    }
}
