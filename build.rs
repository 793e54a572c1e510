//! Compiles polyc's tree-sitter grammar (tree-sitter-c plus `multifor`),
//! generated into grammar/src by grammar/generate and committed.

use std::path::Path;

fn main() {
    let src = Path::new("grammar/src");
    for file in ["parser.c", "tree_sitter/parser.h", "tree_sitter/alloc.h", "tree_sitter/array.h"] {
        println!("cargo:rerun-if-changed={}", src.join(file).display());
    }
    cc::Build::new()
        .std("c11")
        .include(src)
        .file(src.join("parser.c"))
        // Generated code: its warnings are not ours to fix.
        .warnings(false)
        .compile("tree-sitter-polyc-c");
    guard_isl_lexopt();
}

/// Sends isl's calls of its parametric integer programming through
/// polyc's guard against a context with two equal divisions (see
/// `src/model/isl/duplicate_divs.rs`). `--undefined` makes the linker
/// take the guard from polyc's library before it reaches isl, which
/// follows it on the command line.
fn guard_isl_lexopt() {
    for function in ["isl_tab_basic_map_partial_lexopt", "isl_tab_basic_map_partial_lexopt_pw_multi_aff"] {
        println!("cargo:rustc-link-arg=-Wl,--wrap={function}");
        println!("cargo:rustc-link-arg=-Wl,--undefined=__wrap_{function}");
    }
}
