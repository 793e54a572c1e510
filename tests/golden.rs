//! Golden files: the C that polyc emits for every corpus program, the
//! default mode's for one, and the model of a few. `POLYC_BLESS=1 cargo test --test suite golden::` rewrites them.

use crate::common;
use common::*;
use polyc::driver;
use polyc::options::{Emit, Options};

fn check(name: &str, actual: &str, failures: &mut Vec<String>) {
    let path = root().join("tests/golden").join(name);
    // Only a value blesses: `POLYC_BLESS=` or `POLYC_BLESS=0` left in a
    // command line once rewrote four golden files unseen.
    if std::env::var("POLYC_BLESS").is_ok_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => {}
        Ok(_) => failures.push(format!("{name} differs from its golden file (POLYC_BLESS=1 to accept)")),
        Err(_) => failures.push(format!("{name}: golden file missing (POLYC_BLESS=1 to create)")),
    }
}

#[test]
fn emitted_c_matches_the_golden_files() {
    let mut failures = Vec::new();
    for path in corpus() {
        let out = driver::compile(std::fs::read_to_string(&path).unwrap(), &Options::default()).unwrap();
        check(&format!("{}.c", stem(&path)), &out.output, &mut failures);
    }
    // The default mode's code where it differs most from the loops above:
    // matrix products on packed panels.
    let text = std::fs::read_to_string(root().join("corpus/contractions.c")).unwrap();
    let out = driver::compile(text, &crate::transforms::optimising()).unwrap();
    check("contractions.optimised.c", &out.output, &mut failures);
    for name in ["gemm", "lu", "shape_modguard"] {
        let text = std::fs::read_to_string(root().join(format!("corpus/{name}.c"))).unwrap();
        let out = driver::compile(text, &Options { emit: Emit::Scop, ..Options::default() }).unwrap();
        check(&format!("{name}.scop"), &out.output, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
