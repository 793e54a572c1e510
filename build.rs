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
}
