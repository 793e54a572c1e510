//! What calling a function does, as the unit tells it: whether it is
//! pure, and per parameter what the body does with the memory a pointer
//! points to.

/// What calling a function does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Reads only its parameters (and the memory pointer parameters point
    /// to), its locals and constants; writes only its locals and through
    /// pointer parameters; calls only pure functions.
    pub pure: bool,
    /// Why not, naming the construct, for diagnostics.
    pub impure_because: Option<String>,
    /// Per parameter, in order.
    pub params: Vec<ParamEffect>,
    pub returns_void: bool,
}

/// What a function does with one parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamEffect {
    /// A pointer or array parameter.
    pub pointer: bool,
    /// The body reads the memory it points to.
    pub reads_target: bool,
    /// The body writes the memory it points to.
    pub writes_target: bool,
    /// The body touches only the object it points to (`*p`, `p[0]`,
    /// `p->x`, or `p` passed on for the same), never past it: an argument
    /// `&A[..]` then stands for that one element.
    pub only_pointee: bool,
}
