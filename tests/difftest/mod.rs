//! polyc's differential tester: random static-control programs
//! ([`gen`]; on tables of row pointers, [`rows`]), run before and after
//! polyc ([`run`]), failures reduced to small reproducers ([`shrink`]).

pub mod gen;
pub mod rows;
pub mod run;
pub mod shrink;
