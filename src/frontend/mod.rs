//! Front end: parse the raw (unpreprocessed) source with polyc's grammar
//! (tree-sitter-c plus `multifor`), find the `#pragma scop` regions and
//! the `multifor` statements outside them, and turn each into a
//! [`ScopAst`], or a diagnostic saying why it cannot be one. Every byte
//! outside the regions is left to the driver to copy unchanged. A file
//! that is not UTF-8 is read through [`encoding`].
//!
//! Start at [`Source::parse_with`], which reads a file once (its text,
//! what the preprocessor makes of it, its tree, its names), and
//! [`Source::scops_detecting`], which finds and extracts its regions
//! (`source.rs`). Text outside every SCoP that does not parse gets a
//! warning (`P0016`) and is copied; a preprocessor that fails leaves the
//! macros the file defines itself (`P0017`).
//!
//! A `multifor` statement (seed 001) is a region of its own, or part of the
//! pragma region around it: each of its loops is extracted like a `for` loop
//! whose iterations sit at referential points ([`Stmt::referential`]), and
//! from then on it is a SCoP like any other, except that its source text is
//! not C: its loops are always regenerated, and a multifor that cannot be
//! modelled is an error (`M0003`), not a region kept as written.
//!
//! Invariants: byte spans are exact, and on the file; a region is accepted
//! whole or rejected with a [`crate::diagnostics::Diagnostic`]; in an
//! accepted SCoP parameters are never written, and iterators are never read
//! outside their loop or after the SCoP (`P0009`).

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
pub mod structs;
mod syntax;
pub mod unit;
pub mod update;

pub use ast::{Access, AccessKind, Iterator, LoopText, RankMapping, Referential, Rows, ScopAst, Stmt};
pub use source::{Candidate, Scops, Source};
