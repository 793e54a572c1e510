//! The file as the C compiler's preprocessor sees it, under the user's
//! `-I`, `-D` and `-U`: which lines of the file are in effect (the branches
//! of `#if`/`#ifdef` those flags select) and which macros are defined
//! where (from the file, the headers it includes and the flags).

use std::path::PathBuf;

/// The preprocessor flags, with gcc's meaning, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub include_dirs: Vec<PathBuf>,
    /// `-D` and `-U` in command-line order (later ones win, as in gcc).
    pub macros: Vec<MacroFlag>,
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
        includes.chain(macros).collect()
    }
}
