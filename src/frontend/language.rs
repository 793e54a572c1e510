//! polyc's C grammar: tree-sitter-c 0.24.2 extended with the `multifor`
//! statement (grammar/grammar.js; grammar/README.md lists its node names
//! and fields). build.rs compiles the generated grammar/src/parser.c.
//!
//! tree-sitter-c's grammar is not in the repository: it is an npm
//! dependency (tree-sitter-c 0.24.1, whose `grammar.js` is 0.24.2's, pinned
//! in grammar/package.json and package-lock.json). `grammar/generate` runs
//! `npm ci` into the git-ignored grammar/node_modules/, then the pinned
//! tree-sitter CLI, into grammar/src/, which is committed: building polyc
//! needs neither node nor the CLI. tests/grammar.rs runs the grammar's
//! corpus tests without the CLI, and checks that plain C (every `.c` file
//! of corpus/ and tests/) parses to exactly the tree tree-sitter-c gives.

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
