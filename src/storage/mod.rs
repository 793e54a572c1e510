//! Storage mappings: where a SCoP's values live. Scalar expansion gives
//! each iteration of a nest its own element for a scalar that would
//! otherwise serialise the nest ([`expand`]).

pub mod expand;
