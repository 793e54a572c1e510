//! The legality verifier nest by nest (`Scattering::verify_nests`, which
//! the planner uses for isl's schedules) against the verifier of the whole
//! scattering: the same verdict on every corpus SCoP under the source's
//! schedule and isl's, each nest's distances those of its own dependences,
//! and a dependence between two nests that runs backward refused.

use crate::common::c_corpus;
use polyc::deps;
use polyc::frontend::Source;
use polyc::model::isl::{self, Map, UnionMap};
use polyc::model::Scop;
use polyc::schedule::{analysis, Fuse, Scattering};

fn scops(text: String) -> Vec<Scop> {
    let source = Source::parse(text).unwrap();
    source.scops().scops.into_iter().filter_map(|ast| Scop::build(ast).ok()).collect()
}

/// Whether both verifiers accept `sc`, after checking that they agree and
/// that each nest comes with its own dependences' distances.
fn verdicts_agree(scop: &Scop, legality: &UnionMap, sc: &Scattering, what: &str) -> bool {
    let whole = sc.verify(scop, legality).is_ok();
    let by_nests = sc.verify_nests(scop, legality);
    assert_eq!(whole, by_nests.is_ok(), "{what}: the verifiers disagree");
    let n_params = scop.ast.params.len();
    for (nest, distances) in by_nests.iter().flatten() {
        let own = analysis::distances(&nest.scattering, legality, n_params).unwrap();
        assert!(distances.is_equal(&own).unwrap(), "{what}: a nest's distances are not its own");
    }
    whole
}

#[test]
fn nest_by_nest_verification_agrees_with_the_whole_scattering() {
    let mut multi_nest = 0;
    for path in c_corpus() {
        for (k, scop) in scops(std::fs::read_to_string(&path).unwrap()).iter().enumerate() {
            // Each SCoP under a budget of its own, as the driver runs it.
            let _budget = isl::budget(isl::DEFAULT_OPERATION_BUDGET);
            let what = format!("{} SCoP {k}", path.display());
            let Ok(legality) = deps::analyse(scop).and_then(|d| d.generators()) else { continue };
            let original = Scattering::original(scop);
            assert!(verdicts_agree(scop, &legality, &original, &what), "{what}: the source's order refused");
            for fuse in [Fuse::Smart, Fuse::None] {
                if let Ok(sc) = Scattering::auto(scop, &legality, fuse) {
                    verdicts_agree(scop, &legality, &sc, &what);
                    multi_nest += usize::from(sc.nests(scop.ast.params.len()).unwrap().len() > 1);
                }
            }
        }
    }
    assert!(multi_nest > 10, "only {multi_nest} of isl's schedules have several nests");
}

#[test]
fn a_dependence_from_a_later_nest_to_an_earlier_one_is_refused() {
    let text = "void f(int n, double a[n], double b[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    \
                a[i] = 2.0 * i;\n  for (int i = 0; i < n; i++)\n    b[i] = a[i] + 1.0;\n#pragma endscop\n}\n";
    let scop = scops(text.to_string()).remove(0);
    let legality = deps::analyse(&scop).unwrap().generators().unwrap();
    let placed = |first: i64, second: i64| {
        let map = |k: usize, at: i64| Map::parse(&format!("[p0] -> {{ S{k}[i0] -> [{at}, i0] }}")).unwrap();
        Scattering { stmts: vec![0, 1], maps: vec![map(0, first), map(1, second)], dims: 2 }
    };
    let (in_order, swapped) = (placed(0, 1), placed(1, 0));
    assert_eq!(in_order.verify_nests(&scop, &legality).map(|nests| nests.len()).ok(), Some(2));
    assert!(verdicts_agree(&scop, &legality, &in_order, "in order"));
    assert!(!verdicts_agree(&scop, &legality, &swapped, "swapped"), "the reader's nest runs first");
}
