//! Storage mappings: where a SCoP's values live. Storage expansion gives
//! each iteration of a nest its own copy of a scalar or a row that would
//! otherwise serialise the nest ([`expand`]).

pub mod expand;
