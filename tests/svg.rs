//! `--emit=svg`: jacobi-1d's pipelined time tiles drawn in (t, i).

use crate::common;
use common::*;

fn elements<'a>(doc: &'a roxmltree::Document, name: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name(name)).collect()
}

/// TSTEPS = 6, N = 20 under 4 x 4 tiles: 6 x 18 points of S0, in the 13
/// tiles of the simulator's test (tests/parallelism.rs).
#[test]
fn the_picture_has_a_circle_per_point_a_polygon_per_tile_and_arrows() {
    let (status, svg, err) = polyc_on_jacobi(&[
        "--emit=svg",
        "--tile=rect",
        "--tile-sizes=4,4",
        "--param",
        "N=20,TSTEPS=6",
        "--svg-stmt",
        "S0",
    ]);
    assert_eq!(status, Some(0), "{err}");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let view_box: Vec<f64> = root
        .attribute("viewBox")
        .expect("a viewBox")
        .split_whitespace()
        .map(|v| v.parse().expect("a number"))
        .collect();
    assert!(view_box.len() == 4 && view_box[2] > 0.0 && view_box[3] > 0.0, "{view_box:?}");
    let title = elements(&doc, "title");
    assert!(title.iter().any(|t| t.text().is_some_and(|t| t.contains("S0"))), "a title naming the statement");
    assert_eq!(elements(&doc, "circle").len(), 6 * 18);
    assert_eq!(elements(&doc, "polygon").len(), 13);
    let arrows = elements(&doc, "line");
    assert!(!arrows.is_empty());
    assert!(arrows.iter().all(|l| l.attribute("marker-end") == Some("url(#arrowhead)")));
    assert!(elements(&doc, "marker").iter().any(|m| m.attribute("id") == Some("arrowhead")));
    assert!(!svg.contains("href"), "self-contained: no external references");
}

#[test]
fn too_many_points_ask_for_smaller_parameters() {
    let (status, svg, err) = polyc_on_jacobi(&["--emit=svg", "--tile=rect", "--param", "N=2000,TSTEPS=100"]);
    assert_eq!(status, Some(1), "{err}");
    assert!(svg.is_empty());
    assert!(err.contains("more than 4000 points") && err.contains("smaller --param values"), "{err}");
}

#[test]
fn an_unknown_statement_is_named() {
    let (status, _, err) =
        polyc_on_jacobi(&["--emit=svg", "--tile=rect", "--param", "N=20,TSTEPS=6", "--svg-stmt", "S9"]);
    assert_eq!(status, Some(1), "{err}");
    assert!(err.contains("no statement `S9`"), "{err}");
}
