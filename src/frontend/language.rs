//! polyc's C grammar: tree-sitter-c 0.24.2 extended with the `multifor`
//! statement (grammar/grammar.js; grammar/README.md lists its node names
//! and fields). build.rs compiles the generated grammar/src/parser.c.

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_polyc_c() -> *const ();
}

/// The grammar as a [`LanguageFn`].
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_polyc_c) };

/// The content of grammar/src/node-types.json.
pub const NODE_TYPES: &str = include_str!("../../grammar/src/node-types.json");

/// The language to give a [`tree_sitter::Parser`].
pub fn language() -> tree_sitter::Language {
    LANGUAGE.into()
}
