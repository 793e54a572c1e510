//! `--emit=deps`: the dependences in isl notation, by kind and statement pair.

use crate::deps;
use crate::model::ModelError;
use crate::plan::Analyses;

pub fn text(analyses: &Analyses) -> Result<String, ModelError> {
    Ok(deps::report(analyses.scop(), analyses.deps()?)?)
}
