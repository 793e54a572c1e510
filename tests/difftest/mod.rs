//! polyc's differential tester: random static-control programs
//! ([`gen`]), run before and after polyc ([`run`]), failures reduced to
//! small reproducers ([`shrink`]).
#![allow(dead_code)]

pub mod gen;
pub mod run;
pub mod shrink;
