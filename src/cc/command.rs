//! A C compiler's command line, as gcc and clang read it: which words are
//! inputs, which is the output, what the command makes (an object, an
//! assembly file, a program, or something polyc-cc leaves alone), and
//! which flags the preprocessor needs to see the file as the compiler
//! does. From it, the commands of the steps `cc::build` runs.
//!
//! Words that take a separate value (`-I DIR`, `-MF FILE`, `-Xlinker X`)
//! stay together, so that a value is never taken for an input. Response
//! files (`@FILE`) are expanded first, as gcc does, with its quoting.

use std::path::{Path, PathBuf};

/// What the command makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `-c`: an object per input.
    Compile,
    /// `-S`: an assembly file per input.
    Assemble,
    /// No `-c`, `-S` or `-E`: a program (or a library) from the inputs.
    Link,
    /// Anything else (`-E`, `-M` without `-MD`, `-fsyntax-only`,
    /// `--version`, coverage builds, other languages, standard input or
    /// output): run as given.
    AsGiven,
}

/// One word of the command, or a flag with its separate value.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Arg {
    words: Vec<String>,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A file to compile or link; `c` when it is C (by `-x c` or `.c`).
    Input { c: bool },
    /// `-o FILE`.
    Output,
    /// `-c`, `-S`, `-E`.
    Step,
    /// `-MD`, `-MF FILE` and the rest of the dependency output: the
    /// source's own compile writes it, no other step may.
    Dependency,
    /// Seen by the preprocessor too (`-I`, `-D`, `-std=`, `-m`, `-f`...).
    Preprocessor,
    /// Everything else: warnings, debug information, linker flags.
    Other,
}

/// A parsed command line (without the compiler's name).
#[derive(Clone, Debug)]
pub struct Command {
    args: Vec<Arg>,
    pub mode: Mode,
}

/// The preprocessor's flags whose value is the next word when it is not
/// joined to them (`-I DIR`, `-Iinc`; `-isystem DIR`).
const PREPROCESSOR_WITH_VALUE: &[&str] = &[
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-isysroot",
    "-imultilib",
    "--sysroot",
    "-Xpreprocessor",
    "-target",
];

/// The other flags whose value may be the next word.
const OTHER_WITH_VALUE: &[&str] = &[
    "-o",
    "-MF",
    "-MT",
    "-MQ",
    "-x",
    "-L",
    "-l",
    "-Xlinker",
    "-Xassembler",
    "-Xclang",
    "-mllvm",
    "-u",
    "-T",
    "-z",
    "-e",
    "--param",
    "-aux-info",
    "-dumpbase",
    "-dumpbase-ext",
    "-dumpdir",
    "-B",
    "-wrapper",
    "-arch",
    "-A",
];

/// Flags after which polyc-cc runs the command as given.
fn runs_as_given(word: &str) -> bool {
    matches!(
        word,
        "-E" | "-M"
            | "-MM"
            | "-fsyntax-only"
            | "--version"
            | "-v"
            | "-###"
            | "--help"
            | "-dumpversion"
            | "-dumpmachine"
            | "-dumpspecs"
            | "--coverage"
            | "-fprofile-arcs"
            | "-ftest-coverage"
    ) || word.starts_with("-print-")
        || word.starts_with("-fprofile-generate")
        || word.starts_with("-fprofile-instr-generate")
}

impl Command {
    /// Parse `words` (response files already expanded).
    pub fn parse(words: &[String]) -> Command {
        let mut args = Vec::new();
        let mut language_c: Option<bool> = None;
        let mut as_given = false;
        let mut k = 0;
        while k < words.len() {
            let word = &words[k];
            let with_value = [PREPROCESSOR_WITH_VALUE, OTHER_WITH_VALUE].iter().any(|l| l.contains(&word.as_str()));
            let takes_next = with_value && k + 1 < words.len();
            let group: Vec<String> = if takes_next { words[k..k + 2].to_vec() } else { vec![word.clone()] };
            k += group.len();
            as_given |= runs_as_given(word);
            if word == "-x" {
                let value = group.get(1).map(String::as_str).unwrap_or("");
                language_c = (value != "none").then_some(value == "c");
                as_given = true;
            }
            let kind = kind_of(&group, language_c);
            args.push(Arg { words: group, kind });
        }
        let has = |flag: &str| args.iter().any(|a| a.kind == Kind::Step && a.words[0] == flag);
        let any_input = args.iter().any(|a| matches!(a.kind, Kind::Input { .. }));
        let stdin = args.iter().any(|a| a.kind == (Kind::Input { c: false }) && a.words[0] == "-");
        let stdout = args.iter().any(|a| a.kind == Kind::Output && output_value(&a.words) == "-");
        let mode = if as_given || has("-E") || !any_input || stdin || stdout {
            Mode::AsGiven
        } else if has("-S") {
            Mode::Assemble
        } else if has("-c") {
            Mode::Compile
        } else {
            Mode::Link
        };
        Command { args, mode }
    }

    /// Every word, as given.
    pub fn words(&self) -> Vec<String> {
        self.args.iter().flat_map(|a| a.words.iter().cloned()).collect()
    }

    /// The C files it compiles, in order.
    pub fn c_inputs(&self) -> Vec<PathBuf> {
        self.args.iter().filter(|a| a.kind == Kind::Input { c: true }).map(|a| PathBuf::from(&a.words[0])).collect()
    }

    /// The inputs that are not C (objects, archives, assembly).
    pub fn other_inputs(&self) -> Vec<PathBuf> {
        let other = self.args.iter().filter(|a| a.kind == Kind::Input { c: false });
        other.map(|a| PathBuf::from(&a.words[0])).collect()
    }

    /// `-o`'s value.
    pub fn output(&self) -> Option<PathBuf> {
        self.args.iter().rev().find(|a| a.kind == Kind::Output).map(|a| PathBuf::from(output_value(&a.words)))
    }

    /// Where the compiler puts what it makes of `input` (with `-c` or `-S`).
    pub fn output_of(&self, input: &Path) -> PathBuf {
        if let (Some(out), 1) = (self.output(), self.c_inputs().len() + self.other_inputs().len()) {
            return out;
        }
        let suffix = if self.mode == Mode::Assemble { "s" } else { "o" };
        PathBuf::from(input.file_name().unwrap_or(input.as_os_str())).with_extension(suffix)
    }

    /// Whether OpenMP is on already (`-fopenmp`, `-fopenmp=libomp`).
    pub fn has_openmp(&self) -> bool {
        self.words().iter().any(|w| w == "-fopenmp" || w.starts_with("-fopenmp="))
    }

    /// The preprocessor's flags, as polyc takes them: `-I`, `-D` and `-U`
    /// as its own, the others after `--cpp-arg=`.
    pub fn polyc_preprocessor_args(&self) -> Vec<String> {
        let mut out = Vec::new();
        for a in self.args.iter().filter(|a| a.kind == Kind::Preprocessor) {
            let own = ["-I", "-D", "-U"].iter().any(|f| a.words[0].starts_with(f));
            if own {
                out.push(a.words.concat());
            } else {
                out.extend(a.words.iter().map(|w| format!("--cpp-arg={w}")));
            }
        }
        out
    }

    /// The flags for compiling another text of one of its C inputs: all
    /// but the inputs, the output, the step and the dependency output.
    pub fn compile_flags(&self) -> Vec<String> {
        let kept = self.args.iter().filter(|a| matches!(a.kind, Kind::Preprocessor | Kind::Other));
        let kept = kept.filter(|a| !a.words[0].starts_with("-save-temps"));
        kept.flat_map(|a| a.words.iter().cloned()).collect()
    }

    /// The command with each C input in `replaced` (by position among
    /// the C inputs) given as its object instead, writing `output`, and
    /// no dependency output (the source's own command wrote it).
    pub fn relink(&self, replaced: &[Option<PathBuf>], output: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut c = 0;
        for a in &self.args {
            match a.kind {
                Kind::Dependency | Kind::Output => {}
                Kind::Input { c: true } => {
                    match replaced.get(c).cloned().flatten() {
                        Some(object) => out.push(object.display().to_string()),
                        None => out.extend(a.words.iter().cloned()),
                    }
                    c += 1;
                }
                _ => out.extend(a.words.iter().cloned()),
            }
        }
        out.extend(["-o".to_string(), output.display().to_string()]);
        out
    }

    /// The archives `-lNAME` may name, under `-L` and the inputs' directories.
    pub fn static_libraries(&self) -> Vec<PathBuf> {
        let value = |a: &Arg, flag: &str| a.words.concat().strip_prefix(flag).map(str::to_string);
        let dirs: Vec<PathBuf> = self.args.iter().filter_map(|a| value(a, "-L")).map(PathBuf::from).collect();
        let names = self.args.iter().filter_map(|a| value(a, "-l"));
        let mut found = Vec::new();
        for name in names {
            let file = format!("lib{name}.a");
            found.extend(dirs.iter().map(|d| d.join(&file)).filter(|p| p.is_file()).take(1));
        }
        found
    }
}

fn output_value(words: &[String]) -> String {
    match words {
        [_, value] => value.clone(),
        [joined] => joined.trim_start_matches("-o").to_string(),
        _ => String::new(),
    }
}

fn kind_of(group: &[String], language_c: Option<bool>) -> Kind {
    let word = group[0].as_str();
    if !word.starts_with('-') || word == "-" {
        let c = language_c.unwrap_or_else(|| word.ends_with(".c"));
        return Kind::Input { c: c && word != "-" };
    }
    if word.starts_with("-o") {
        return Kind::Output;
    }
    if matches!(word, "-c" | "-S" | "-E") {
        return Kind::Step;
    }
    if matches!(word, "-MD" | "-MMD" | "-MF" | "-MT" | "-MQ" | "-MP" | "-MG")
        || word.starts_with("-Wp,-MD")
        || word.starts_with("-Wp,-MMD")
    {
        return Kind::Dependency;
    }
    if is_preprocessor_flag(word) {
        return Kind::Preprocessor;
    }
    Kind::Other
}

/// Flags that change what the preprocessor sees: search paths, macros,
/// the language standard, and the target and code generation flags that
/// define macros (`-mavx` defines `__AVX__`, `-fopenmp` `_OPENMP`, `-O2`
/// `__OPTIMIZE__`).
fn is_preprocessor_flag(word: &str) -> bool {
    const OTHERS: &[&str] =
        &["-nostdinc", "-undef", "-std=", "-ansi", "-O", "-m", "-pthread", "-Wp,", "--target", "-trigraphs"];
    const NOT_FOR_THE_PREPROCESSOR: &[&str] =
        &["-fdump", "-fprofile", "-fplugin", "-fopt-info", "-fsave-optimization-record", "-fstack-usage"];
    let f_flag = word.starts_with("-f") && !NOT_FOR_THE_PREPROCESSOR.iter().any(|p| word.starts_with(p));
    f_flag || PREPROCESSOR_WITH_VALUE.iter().chain(OTHERS).any(|p| word.starts_with(p))
}

/// `words` with each `@FILE` replaced by the words of FILE (gcc's quoting:
/// whitespace separates, quotes and backslashes escape), nested up to a
/// depth; an unreadable FILE stays a word, as gcc keeps it.
pub fn expand_response_files(words: Vec<String>) -> Vec<String> {
    expand(words, 8)
}

fn expand(words: Vec<String>, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    for word in words {
        let read = word.strip_prefix('@').filter(|_| depth > 0).and_then(|f| std::fs::read_to_string(f).ok());
        match read {
            Some(text) => out.extend(expand(split_quoted(&text), depth - 1)),
            None => out.push(word),
        }
    }
    out
}

fn split_quoted(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        match (ch, quote) {
            ('\\', _) => word.get_or_insert_with(String::new).extend(chars.next()),
            (q, None) if q == '"' || q == '\'' => {
                quote = Some(q);
                word.get_or_insert_with(String::new);
            }
            (q, Some(open)) if q == open => quote = None,
            (w, None) if w.is_whitespace() => words.extend(word.take()),
            (other, _) => word.get_or_insert_with(String::new).push(other),
        }
    }
    words.extend(word);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(&split_quoted(line))
    }

    #[test]
    fn values_stay_with_their_flags() {
        let c = parse("-c -I inc -o out/x.o -MD -MF out/x.d -DN=3 x.c -isystem sys");
        assert_eq!(c.mode, Mode::Compile);
        assert_eq!(c.c_inputs(), vec![PathBuf::from("x.c")]);
        assert_eq!(c.output(), Some(PathBuf::from("out/x.o")));
        assert_eq!(c.compile_flags(), ["-I", "inc", "-DN=3", "-isystem", "sys"]);
        assert_eq!(c.polyc_preprocessor_args(), ["-Iinc", "-DN=3", "--cpp-arg=-isystem", "--cpp-arg=sys"]);
    }

    #[test]
    fn what_the_command_makes() {
        assert_eq!(parse("-O2 a.c b.o -lm -o prog").mode, Mode::Link);
        assert_eq!(parse("-S a.c").mode, Mode::Assemble);
        assert_eq!(parse("-E a.c").mode, Mode::AsGiven);
        assert_eq!(parse("-MM a.c").mode, Mode::AsGiven);
        assert_eq!(parse("--version").mode, Mode::AsGiven);
        assert_eq!(parse("-c -x c++ a.cc").mode, Mode::AsGiven);
        assert_eq!(parse("-c -").mode, Mode::AsGiven);
        assert_eq!(parse("-S a.c -o -").mode, Mode::AsGiven);
        assert_eq!(parse("-c --coverage a.c").mode, Mode::AsGiven);
        assert_eq!(parse("a.o b.o -o prog").c_inputs(), Vec::<PathBuf>::new());
    }

    #[test]
    fn outputs_follow_the_compiler_s_rules() {
        assert_eq!(parse("-c src/a.c").output_of(Path::new("src/a.c")), PathBuf::from("a.o"));
        assert_eq!(parse("-S src/a.c").output_of(Path::new("src/a.c")), PathBuf::from("a.s"));
        assert_eq!(parse("-c a.c -oobj/a.o").output_of(Path::new("a.c")), PathBuf::from("obj/a.o"));
        assert_eq!(parse("-c a.c b.c").output_of(Path::new("b.c")), PathBuf::from("b.o"));
    }

    #[test]
    fn a_relink_takes_the_objects_and_drops_the_dependency_output() {
        let c = parse("-O2 -MMD a.c b.c x.o -o prog -lm");
        let words = c.relink(&[None, Some(PathBuf::from("/tmp/t/b.o"))], Path::new("/tmp/t/prog"));
        assert_eq!(words, ["-O2", "a.c", "/tmp/t/b.o", "x.o", "-lm", "-o", "/tmp/t/prog"]);
    }

    #[test]
    fn response_files_are_split_as_gcc_splits_them() {
        assert_eq!(split_quoted("-DA=\"x y\" 'b c' d\\ e\n"), ["-DA=x y", "b c", "d e"]);
    }
}
