//! `polyc-cc`: a C compiler driver that behaves like `cc`, for builds
//! (`make CC=polyc-cc`, `cmake -DCMAKE_C_COMPILER=polyc-cc`). Each C file
//! a command compiles goes through polyc (`transform`), and the real
//! compiler compiles the new text in its place (`build`); everything else
//! goes to the real compiler untouched.
//!
//! Invariants:
//! - A build that builds with the real compiler builds with polyc-cc: the
//!   command runs as given first, and whatever fails later (polyc, its
//!   text, the relink) leaves that run's result, with one warning line.
//! - The real compiler's messages, exit status and dependency files are
//!   those of the sources as written.
//! - Nothing is written outside the command's own outputs but in a
//!   temporary directory of the system's, removed after (`make -j` safe).
//! - The same command on the same files gives the same bytes (ccache).
//! - polyc-cc never calls itself: polyc's preprocessor and every compile
//!   run `POLYC_REAL_CC`, and a command that reaches polyc-cc again from
//!   them stops with an error.
//!
//! Its settings come from the environment (`settings::Settings`): a
//! build passes `CC` and flags, nothing else.

mod build;
pub mod command;
pub mod record;
mod settings;
pub mod summary;
mod transform;

use settings::{Settings, ACTIVE};

/// Run one compiler command (`args` without the program's name); the
/// exit status to give.
pub fn main(args: Vec<String>) -> i32 {
    if std::env::var_os(ACTIVE).is_some() {
        eprintln!(
            "polyc-cc: the real compiler runs polyc-cc again; set POLYC_REAL_CC to a compiler (gcc, clang), not polyc-cc"
        );
        return 1;
    }
    let settings = Settings::from_env();
    let command = command::Command::parse(&command::expand_response_files(args));
    build::run(&command, &settings)
}
