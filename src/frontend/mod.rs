//! Front end: parse the raw (unpreprocessed) source with polyc's grammar
//! (tree-sitter-c plus `multifor`), find the `#pragma scop` regions and
//! the `multifor` statements outside them, and turn each into a
//! [`ScopAst`], or a diagnostic saying why it cannot be one. Every byte
//! outside the regions is left to the driver to copy unchanged. A file
//! that is not UTF-8 is read through [`encoding`].

mod ast;
pub mod cpp;
pub mod decls;
pub mod depth;
mod detect;
pub mod encoding;
mod expanded;
mod extract;
pub mod language;
pub mod macros;
pub mod qexpr;
mod regions;
mod source;
pub mod source_map;
mod syntax;
pub mod unit;

pub use ast::{Access, AccessKind, Iterator, LoopText, RankMapping, Referential, Rows, ScopAst, Stmt};
pub use source::{Candidate, Scops, Source};
