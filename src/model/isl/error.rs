//! The error every isl wrapper returns: isl's message, or polyc's
//! account of what went wrong (out of time, out of operations, a text
//! isl does not read).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IslError(pub String);

impl fmt::Display for IslError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IslError {}

pub type IslResult<T> = Result<T, IslError>;
