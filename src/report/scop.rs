//! `--emit=scop` and `--emit=scop-json`: the model in isl notation, with
//! the program's own names for parameters and arrays.

use crate::frontend::AccessKind;
use crate::model::{readable, ModelError, Scop, Statement};
use serde::Serialize;

#[derive(Serialize)]
struct ScopReport {
    params: Vec<String>,
    context: String,
    statements: Vec<StatementReport>,
    arrays: Vec<ArrayReport>,
    /// What the transformed code assumes, checked at run time before it
    /// runs: subscripts within extents, variables apart in memory.
    assumptions: Vec<String>,
    /// Parameters defined by the front end, as C over the others.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    definitions: Vec<(String, String)>,
}

#[derive(Serialize)]
struct StatementReport {
    name: String,
    text: String,
    line: usize,
    iterators: Vec<String>,
    domain: String,
    schedule: String,
    reads: Vec<AccessReport>,
    writes: Vec<AccessReport>,
}

#[derive(Serialize)]
struct AccessReport {
    array: String,
    relation: String,
    span: [usize; 2],
}

#[derive(Serialize)]
struct ArrayReport {
    name: String,
    element_type: String,
    extents: Vec<String>,
    /// The view linear subscripts were split into (outermost `*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    delinearised: Option<Vec<String>>,
}

fn report(scop: &Scop, source: &str) -> Result<ScopReport, ModelError> {
    let params = &scop.ast.params;
    let show = |t: String| readable(&t, params);
    let mut statements = Vec::new();
    for (st, ast) in scop.statements.iter().zip(&scop.ast.stmts) {
        statements.push(StatementReport {
            name: st.name.clone(),
            text: ast.text.clone(),
            line: crate::diagnostics::line_col(source, ast.span.start).0,
            iterators: ast.iterators.iter().map(|i| i.name.clone()).collect(),
            domain: show(st.domain.to_text()?),
            schedule: show(st.schedule.to_text()?),
            reads: accesses(st, AccessKind::Read, &show)?,
            writes: accesses(st, AccessKind::Write, &show)?,
        });
    }
    let arrays = scop
        .ast
        .arrays
        .iter()
        .map(|(name, decl)| ArrayReport {
            name: name.clone(),
            element_type: decl.ty.clone(),
            extents: decl.extents.clone(),
            delinearised: decl
                .delinearised
                .as_ref()
                .map(|v| v.iter().map(|e| if e.is_empty() { "*".to_string() } else { e.clone() }).collect()),
        })
        .collect();
    let assumptions = assumptions(scop, &show)?;
    Ok(ScopReport {
        params: params.clone(),
        context: show(scop.context.to_text()?),
        statements,
        arrays,
        assumptions,
        definitions: scop.ast.definitions.clone(),
    })
}

/// The run-time checks the transformed code runs behind, in words.
fn assumptions(scop: &Scop, show: &dyn Fn(String) -> String) -> Result<Vec<String>, ModelError> {
    let mut out = vec![format!("subscripts within their extents: {}", show(scop.in_bounds()?.to_text()?))];
    match scop.alias_checks()? {
        Ok(checks) => {
            let params = &scop.ast.params;
            out.extend(checks.tables.iter().map(|t| {
                let apart = if t.written { ", each row's cells apart from the others'" } else { "" };
                format!("row pointers read: {}{apart}", t.footprint.describe(params))
            }));
            out.extend(
                checks.pairs.iter().map(|c| {
                    format!("disjoint in memory: {} and {}", c.first.describe(params), c.second.describe(params))
                }),
            )
        }
        Err(why) => out.push(format!("unchecked: {why}")),
    }
    Ok(out)
}

fn accesses(
    st: &Statement,
    kind: AccessKind,
    show: &dyn Fn(String) -> String,
) -> Result<Vec<AccessReport>, ModelError> {
    st.accesses
        .iter()
        .filter(|a| a.kind == kind)
        .map(|a| {
            Ok(AccessReport {
                array: a.array.clone(),
                relation: show(a.relation.to_text()?),
                span: [a.span.start, a.span.end],
            })
        })
        .collect()
}

/// The model as text, one block per statement.
pub fn text(scop: &Scop, source: &str) -> Result<String, ModelError> {
    let r = report(scop, source)?;
    let mut out = format!(
        "# SCoP at line {}\nparams: [{}]\ncontext: {}\n",
        line_of(scop, source),
        r.params.join(", "),
        r.context
    );
    for (name, value) in &r.definitions {
        out.push_str(&format!("define: {name} = {value}\n"));
    }
    for a in &r.arrays {
        let extents: String = a.extents.iter().map(|e| format!("[{e}]")).collect();
        out.push_str(&format!("array: {} {}{}\n", a.element_type, a.name, extents));
        if let Some(view) = &a.delinearised {
            let view: String = view.iter().map(|e| format!("[{e}]")).collect();
            out.push_str(&format!("  delinearised: {}{view}\n", a.name));
        }
    }
    for a in &r.assumptions {
        out.push_str(&format!("assumes: {a}\n"));
    }
    for s in &r.statements {
        out.push_str(&format!("{} (line {}): {}\n", s.name, s.line, s.text));
        out.push_str(&format!("  domain:   {}\n  schedule: {}\n", s.domain, s.schedule));
        for a in &s.reads {
            out.push_str(&format!("  read:     {}\n", a.relation));
        }
        for a in &s.writes {
            out.push_str(&format!("  write:    {}\n", a.relation));
        }
    }
    Ok(out)
}

fn line_of(scop: &Scop, source: &str) -> usize {
    crate::diagnostics::line_col(source, scop.ast.pragma.start).0
}

/// The model as a JSON value.
pub fn json(scop: &Scop, source: &str) -> Result<serde_json::Value, ModelError> {
    let mut v = serde_json::to_value(report(scop, source)?)
        .map_err(|e| ModelError::Isl(crate::model::isl::IslError(e.to_string())))?;
    v["line"] = line_of(scop, source).into();
    Ok(v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn isl_names_become_program_names() {
        let params = vec!["_PB_N".to_string(), "M".to_string()];
        let t = super::readable("[p0, p1] -> { S0[i0] -> A_x[o0] : o0 = p1 and p10 = 3 }", &params);
        assert_eq!(t, "[_PB_N, M] -> { S0[i0] -> x[o0] : o0 = M and p10 = 3 }");
    }
}
