//! Turn the statements of one pragma region into a [`ScopAst`], or say,
//! with the exact span, why the region is not a static control part.

use super::ast::{AccessKind, ScopAst, Stmt};
use super::decls::{Names, VarDecl};
use super::regions::Region;
use crate::diagnostics::{Code, Diagnostic};
use crate::names::FreshNames;
use outside::{check_iterators_dead_after, dead_after, named_by_pragma, temporaries, unseen_outside};
use state::{Extractor, Res, Scope};
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

mod accesses;
mod affine;
mod calls;
mod casts;
mod conditional;
mod delinearise;
mod fields;
mod locals;
mod loops;
mod multifor;
mod outside;
mod poly;
mod row_pointers;
mod state;
mod statements;

/// The region's SCoP; the names it mints are kept in `fresh` only if it
/// is one.
pub(super) fn extract(
    region: &Region,
    src: &str,
    names: &Names,
    function: Option<Node>,
    fresh: &mut FreshNames,
) -> Res<ScopAst> {
    let mut x = Extractor {
        src,
        names,
        fresh: fresh.clone(),
        loops: Vec::new(),
        conds: Vec::new(),
        beta: vec![0],
        params: Vec::new(),
        param_uses: BTreeMap::new(),
        stmts: Vec::new(),
        iterator_names: BTreeSet::new(),
        outer_iterators: BTreeSet::new(),
        free_uses: Vec::new(),
        writes: Vec::new(),
        referential: Vec::new(),
        multifor: Scope::default(),
        rank_mapping: None,
        definitions: Vec::new(),
        shapes: Vec::new(),
        filters: Vec::new(),
        filter_names: Vec::new(),
        locals: Vec::new(),
        scopes: Vec::new(),
        hoisted: Vec::new(),
        renamed: Vec::new(),
        local_reads: Vec::new(),
        named_after: named_after(region, src),
        fields: Vec::new(),
    };
    for item in &region.items {
        x.statement(*item)?;
    }
    x.check_names()?;
    x.check_objects_used_by_member_only()?;
    drop_dead_initialisations(&mut x.stmts, &x.hoisted);
    if x.stmts.is_empty() {
        return Err(Diagnostic::warning(Code::P0012, region.open.byte_range(), "SCoP has no statement")
            .with_label("this region is empty"));
    }
    if let Some(f) = function {
        check_iterators_dead_after(region, f, src, &x.outer_iterators)?;
    }
    let first_item = region.items.iter().find(|n| n.kind() != "comment").unwrap_or(&region.open);
    let indent = indentation(src, first_item.start_byte());
    let views = x.views()?;
    let mut arrays: Vec<(String, VarDecl)> = Vec::new();
    for a in x.stmts.iter().flat_map(|s| &s.accesses) {
        if !arrays.iter().any(|(n, _)| *n == a.array) {
            let hoisted = x.hoisted.iter().find(|(h, _)| *h == a.array).map(|(_, d)| d);
            let mut decl = match x.filter_names.contains(&a.array) {
                true => VarDecl { ty: "int".into(), is_local: true, ..Default::default() },
                false => hoisted
                    .cloned()
                    .or_else(|| x.field_decl(&a.array))
                    .or_else(|| names.vars.get(&a.array).cloned())
                    .unwrap_or_default(),
            };
            decl.delinearised = views.get(&a.array).cloned();
            arrays.push((a.array.clone(), decl));
        }
    }
    let locals: Vec<(String, VarDecl)> =
        x.hoisted.into_iter().filter(|(h, _)| arrays.iter().any(|(a, _)| a == h)).collect();
    let (mut temporaries, live_out, mut dead_after) = match function {
        Some(f) => {
            let unseen = unseen_outside(&arrays, f, src, &region.body);
            (temporaries(&arrays, &unseen), named_by_pragma(f, src, "live_out"), dead_after(unseen, region, f))
        }
        None => (BTreeSet::new(), BTreeSet::new(), BTreeSet::new()),
    };
    if let Some(f) = function {
        let declared: BTreeSet<String> = named_by_pragma(f, src, "temporary");
        temporaries.extend(arrays.iter().map(|(name, _)| name).filter(|name| declared.contains(*name)).cloned());
    }
    // A variable the region declares goes out of scope with it.
    dead_after.extend(locals.iter().map(|(h, _)| h.clone()));
    temporaries.extend(locals.iter().filter(|(_, d)| d.is_array()).map(|(h, _)| h.clone()));
    *fresh = x.fresh;
    let param_values = x.params.iter().map(|p| names.macros.get(p).and_then(|v| affine::integer_literal(v))).collect();
    Ok(ScopAst {
        region: region.body.clone(),
        pragma: region.open.byte_range(),
        indent,
        params: x.params,
        param_values,
        stmts: x.stmts,
        arrays,
        temporaries,
        live_out,
        dead_after,
        rank_mapping: x.rank_mapping,
        definitions: x.definitions,
        locals,
        detected: false,
        inside_openmp: false,
    })
}

/// `stmts` without those that only write variables the region declares
/// and no statement reads (their values served bounds and subscripts).
fn drop_dead_initialisations(stmts: &mut Vec<Stmt>, hoisted: &[(String, VarDecl)]) {
    let read: BTreeSet<&str> = stmts
        .iter()
        .flat_map(|s| &s.accesses)
        .filter(|a| a.kind == AccessKind::Read)
        .map(|a| a.array.as_str())
        .collect();
    let dead = |array: &str| hoisted.iter().any(|(h, _)| h == array) && !read.contains(array);
    let is_dead = |s: &Stmt| s.accesses.iter().filter(|a| a.kind == AccessKind::Write).all(|a| dead(&a.array));
    let keep: Vec<bool> = stmts.iter().map(|s| s.sets.is_some() || !is_dead(s)).collect();
    let mut k = keep.iter();
    stmts.retain(|_| *k.next().expect("one flag per statement"));
}

/// The names the block holding `region` uses after it.
fn named_after(region: &Region, src: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    crate::frontend::syntax::walk(region.block, &mut |n| {
        if n.kind() == "identifier" && n.start_byte() >= region.body.end {
            names.insert(src[n.byte_range()].to_string());
        }
    });
    names
}

fn indentation(src: &str, at: usize) -> String {
    let start = src[..at].rfind('\n').map_or(0, |p| p + 1);
    src[start..at].chars().take_while(|c| c.is_whitespace()).collect()
}
