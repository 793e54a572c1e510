//! A matrix product on packed panels (`plan::packing`), printed the way
//! BLIS computes gemm (Van Zee and van de Geijn). The loops and names
//! are BLIS's: `m`, `n` and `k` are the extents of rows, columns and the
//! sum; `mr` x `nr` is the register block; `kc` and `mc` are the cache
//! blocks.
//!
//! 1. The row factor is copied into `a`, panels of `mr` rows, one column
//!    of a panel per step of the sum. The column factor is copied into
//!    `b`, panels of `nr` columns. Both are padded with zeros to whole
//!    panels, and both copies run in parallel.
//! 2. For each block of `mc` rows (the loop the threads share), for each
//!    `kc` steps of the sum, for each panel of `b`, for each panel of
//!    `a` in the block, the `mr` x `nr` block of the target is held in
//!    `c`, a local array the C compiler keeps in vector registers, while
//!    the `kc` steps run: one vector load of `b`, `mr` broadcasts of `a`
//!    and `mr` x `nr` multiply-adds per step.
//!
//! `nr` is two vector registers of the target's type (`POLYC_VECTOR_BYTES`,
//! from the compiler's largest alignment) and `mr` is 6. So `c` takes 12
//! of AVX2's 16 vector registers, with 3 left for `b`'s two vectors and a
//! broadcast. A sum of two products (syr2k) has panels for each, `mr` 3
//! (6 registers for `c`, 4 for the `b`s, 2 broadcasts) and half the `kc`,
//! so that both `b` panels stay in L1: 0.089 s for syr2k at LARGE on one
//! thread, against 0.115 s with `mr` 4, a whole vector of doubles, which
//! gcc vectorises across the rows instead. A block at the edges loads
//! and stores only its elements inside the target; its other lanes sum
//! zeros and are dropped. While a block sums, the target's rows of the
//! block below it are prefetched, as BLIS's kernels do: gemm at LARGE,
//! 15 alternating runs, 0.0676 s -> 0.0644 s at best and 0.0797 s ->
//! 0.0719 s in the median on one thread, 0.0428 s -> 0.0408 s at best on
//! two.
//! Where bounds on `column - row` cut the box (a triangle), a register
//! block wholly outside them is skipped, one wholly inside runs as in the
//! box, and one across them is an edge; the threads then take blocks of
//! rows as they finish, since the blocks' work differs. Where bounds on
//! `sum - row` cut it (trmm, symm), the row panels hold only the values
//! inside them; a block of rows or a register block with no step of the
//! sum in a `kc` block is skipped, and a register block's steps run in
//! three parts: those where only some of its rows sum (each row tested,
//! its columns still a vector loop), those where all of them do, and
//! again some. trmm at LARGE, one thread: 0.037 s, against 0.063 s with
//! tiles and unroll-and-jam. If the panels cannot be allocated, the
//! planned loops run instead.
//!
//! Each element sums its products in the source's order of the sum, one
//! `kc` block after another, and stores between blocks: the result is
//! the source's, bit for bit. PolyBench's gemm at LARGE (1000 x 1100 x
//! 1200) on Zen 3 (AVX2), one thread: 0.068 s (39 GFLOP/s), against
//! 0.092 s with tiles and unroll-and-jam and 0.059 s for OpenBLAS's dgemm.
//! Panels of whole operands, copied once, lost that gain to page faults
//! (a fresh 15 MB per product of 2mm): hence panels per block, reused.

use super::printer::Printer;
use crate::model::affine::LinExpr;
use crate::plan::packing::{Band, PackedProduct};
use crate::scan::ast::Node;
use std::ops::Range;

/// The register block's rows, by the number of products summed.
const MR: [usize; 2] = [6, 3];

/// The names of the printed code.
struct Names {
    m: String,
    n: String,
    k: String,
    mr: String,
    nr: String,
    kc: String,
    mc: String,
    /// The rows of a block: at most `mc`, so that each thread has as many.
    mb: String,
    /// The panels of each product's factors.
    a: Vec<String>,
    b: Vec<String>,
    /// The least and greatest `i_across - row` over the offsets from the
    /// first row and `across`, where they cut the box.
    band: Option<[String; 2]>,
    /// With a band: whether its blocks of rows go to the threads last
    /// first, and the loop's counter of blocks.
    block_order: Option<[String; 2]>,
    pc: String,
    kn: String,
    ic: String,
    rows: String,
}

impl Printer<'_> {
    /// The packed product whose instances are exactly the statements
    /// in `node`, where nothing around it runs in parallel or in a loop.
    pub(super) fn packed_at(&self, node: &Node) -> Option<usize> {
        let outside = !self.in_parallel && !self.sharing && self.loops_outside == 0 && !self.unpacked;
        if self.program.packed.is_empty() || !outside {
            return None;
        }
        let mut ids = Vec::new();
        Node::statements(std::slice::from_ref(node), &mut ids);
        let packed = self.program.packed;
        (!ids.is_empty()).then(|| packed.iter().position(|c| ids.iter().all(|id| c.ids.contains(id))))?
    }

    /// Matrix product `packed[which]` on packed panels, with `planned`
    /// (its loops as the plan has them) where the panels cannot be
    /// allocated.
    pub(super) fn packed(&mut self, which: usize, planned: &[Node], depth: usize) {
        let program = self.program;
        let c = &program.packed[which];
        self.helpers.packed = true;
        let saved = (self.env.clone(), self.vars.clone());
        let names = self.packed_names(c);
        let first = |d: usize| c.bounds[d].0.clone();
        let target_type = self.typed(c, &c.target, [(c.row, first(c.row)), (c.col, first(c.col))]);
        let types: Vec<[String; 2]> = c
            .terms
            .iter()
            .map(|t| {
                [
                    self.typed(c, &t.factors[0], [(c.row, first(c.row)), (c.sum, first(c.sum))]),
                    self.typed(c, &t.factors[1], [(c.sum, first(c.sum)), (c.col, first(c.col))]),
                ]
            })
            .collect();
        let Names { m, n, k, mr, nr, kc, mc, mb, a, pc, kn, .. } = &names;
        let target = self.text_of(c, &c.target);
        self.line(depth, &format!("/* the products summed into {target}, on packed panels of their factors */"));
        self.line(depth, "{");
        let d = depth + 1;
        for (name, dim) in [(m, c.row), (n, c.col), (k, c.sum)] {
            let (low, high) = &c.bounds[dim];
            let extent = self.expr(&high.sub(low).add(&LinExpr::constant(1)));
            self.line(d, &format!("const long {name} = {extent};"));
        }
        self.band_offsets(c, &names, d);
        let terms = c.terms.len();
        let a_type = &types[0][0];
        // Each `a` lives on each thread's stack: at most 96 x 256 x 8 bytes in all.
        self.line(
            d,
            &format!(
                "enum {{ {mr} = {}, {nr} = 2 * POLYC_VECTOR_BYTES / sizeof({target_type}), \
                 {kc} = polyc_pack_steps(sizeof({a_type}), {terms}), \
                 {mc} = (POLYC_PACK_ROWS + {mr} - 1) / {mr} * {mr} }};",
                MR[terms - 1],
            ),
        );
        self.line(d, &format!("if ({m} > 0 && {n} > 0 && {k} > 0) {{"));
        let memories = self.column_panels(&names, &types, d + 1);
        let parallel = self.program.openmp;
        if parallel {
            self.line(d + 2, "#pragma omp parallel");
        }
        self.line(d + 2, "{");
        for (panels, [a_type, _]) in a.iter().zip(&types) {
            self.line(d + 3, &format!("{a_type} {panels}[{mc} / {mr}][{kc}][{mr}];"));
        }
        // As many blocks of rows for each thread, each at most `mc` rows.
        let blocks = self.fresh_local("polyc_blocks");
        self.line(
            d + 3,
            &format!("const long {blocks} = (({m} + {mc} - 1) / {mc} + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;"),
        );
        self.line(d + 3, &format!("const long {mb} = (({m} + {blocks} - 1) / {blocks} + {mr} - 1) / {mr} * {mr};"));
        self.line(d + 3, &format!("for (long {pc} = 0; {pc} < {k}; {pc} += {kc}) {{"));
        self.line(d + 4, &format!("const long {kn} = {k} - {pc} < {kc} ? {k} - {pc} : {kc};"));
        self.pack_columns(c, &names, d + 4);
        self.block_rows(c, &names, &target_type, d + 4);
        self.line(d + 3, "}");
        self.line(d + 2, "}");
        (self.env, self.vars) = saved;
        self.line(d + 1, "} else {");
        self.unpacked = true;
        self.nodes(planned, d + 2);
        self.unpacked = false;
        self.line(d + 1, "}");
        for memory in &memories {
            self.line(d + 1, &format!("__builtin_free({memory});"));
        }
        self.line(d, "}");
        self.line(depth, "}");
        self.parallel |= parallel;
        self.simd = true;
        self.packed.push(target);
    }

    /// The heap memory of each product's column panels, allocated, then,
    /// where all of it is, the panels on it, zero past the last column.
    /// The block opened here ends where the planned loops begin.
    fn column_panels(&mut self, names: &Names, types: &[[String; 2]], depth: usize) -> Vec<String> {
        let Names { n, nr, kc, b, .. } = names;
        let extents = [format!("(({n} + {nr} - 1) / {nr})"), kc.clone(), nr.clone()];
        let mut memories = Vec::new();
        for (panels, [_, b_type]) in b.iter().zip(types) {
            let memory = self.fresh_local(&format!("{panels}_memory"));
            self.allocation(depth, &memory, b_type, &extents, Vec::new());
            memories.push(memory);
        }
        self.line(depth, &format!("if ({}) {{", memories.join(" && ")));
        for ((panels, memory), [_, b_type]) in b.iter().zip(&memories).zip(types) {
            self.aligned_view(depth + 1, b_type, panels, memory, &extents);
            self.zero_padding(panels, (n, nr), kc, depth + 1);
        }
        memories
    }

    /// The bounds of `i_across - row` over the offsets from the first row
    /// and `across`, where they cut the box.
    fn band_offsets(&mut self, c: &PackedProduct, names: &Names, depth: usize) {
        let (Some(band), Some([lo, hi])) = (&c.band, &names.band) else { return };
        let corner = c.bounds[band.across].0.sub(&c.bounds[c.row].0);
        for (name, bound) in [(lo, &band.low), (hi, &band.high)] {
            let offset = self.expr(&bound.sub(&corner));
            self.line(depth, &format!("const long {name} = {offset};"));
        }
        let Some([last_first, _]) = &names.block_order else { return };
        // The steps of `across` a row has, less one, from the offsets of
        // the last and first step the band gives it.
        let across = if band.across == c.col { &names.n } else { &names.k };
        let steps = |last: &str, first: &str| {
            format!("({across} - 1 < {last} ? {across} - 1 : {last}) - (0 > {first} ? 0 : {first})")
        };
        let m = &names.m;
        let (first_row, last_row) = (steps(hi, lo), steps(&format!("{m} - 1 + {hi}"), &format!("{m} - 1 + {lo}")));
        self.line(depth, &format!("const int {last_first} = {last_row} > {first_row};"));
    }

    fn packed_names(&mut self, c: &PackedProduct) -> Names {
        let mut name = |base: &str| self.fresh_local(&format!("polyc_{base}"));
        // Local names may repeat each other's: each product's get a number.
        let panels = |name: &mut dyn FnMut(&str) -> String, base: &str| -> Vec<String> {
            (0..c.terms.len()).map(|t| name(&numbered(base, t))).collect()
        };
        Names {
            m: name("m"),
            n: name("n"),
            k: name("k"),
            mr: name("mr"),
            nr: name("nr"),
            kc: name("kc"),
            mc: name("mc"),
            mb: name("mb"),
            a: panels(&mut name, "a"),
            b: panels(&mut name, "b"),
            band: c.band.as_ref().map(|_| [name("lo"), name("hi")]),
            block_order: c.band.as_ref().map(|_| [name("last_first"), name("block")]),
            pc: name("pc"),
            kn: name("kn"),
            ic: name("ic"),
            rows: name("rows"),
        }
    }

    /// Zeros in the lanes of `panels` past the last of `count` rows or
    /// columns, `width` to a panel, for `steps` steps of the sum.
    fn zero_padding(&mut self, panels: &str, (count, width): (&str, &str), steps: &str, depth: usize) {
        let (x, p) = (self.fresh_local("polyc_x"), self.fresh_local("polyc_p"));
        self.line(
            depth,
            &format!("for (long {x} = {count}; {x} < ({count} + {width} - 1) / {width} * {width}; {x}++)"),
        );
        self.line(depth + 1, &format!("for (long {p} = 0; {p} < {steps}; {p}++)"));
        self.line(depth + 2, &format!("{panels}[{x} / {width}][{p}][{x} % {width}] = 0;"));
    }

    /// The column factors' values for the `kn` steps of the sum from `pc`
    /// into the `b`s, by all threads.
    fn pack_columns(&mut self, c: &PackedProduct, names: &Names, depth: usize) {
        let Names { b, nr, pc, kn, .. } = names;
        let pc = self.variable_dim(pc);
        let kn = self.variable_dim(kn);
        let steps = Loop { dim: c.sum, part: Some((pc, kn)) };
        let columns = Loop { dim: c.col, part: None };
        if self.program.openmp {
            self.line(depth, "#pragma omp for schedule(static)");
        }
        let factors: Vec<_> = c.terms.iter().map(|t| &t.factors[1]).zip(b).collect();
        let loops = if c.sum_inner[1] { [columns, steps] } else { [steps, columns] };
        self.pack(c, (&factors, nr), loops, (c.col, None), depth);
    }

    /// For each block of `mc` rows (shared among the threads): the row
    /// factors' values for the block into the `a`s, then the block of the
    /// target, an `mr` x `nr` register block at a time.
    fn block_rows(&mut self, c: &PackedProduct, names: &Names, target_type: &str, depth: usize) {
        let Names { m, mr, mb, a, pc, kn, ic, rows, .. } = names;
        if self.program.openmp {
            let schedule = if c.band.is_some() { "dynamic, 1" } else { "static" };
            self.line(depth, &format!("#pragma omp for schedule({schedule})"));
        }
        let d = depth + 1;
        match &names.block_order {
            // A band's rows differ in work: the largest blocks first, so
            // that none starts when the other threads are nearly done
            // (syrk's lower triangle of 1,200 rows in 14 blocks: the last
            // holds 11% of the work, the first 0.5%).
            Some([last_first, block]) => {
                let blocks = format!("({m} + {mb} - 1) / {mb}");
                self.line(depth, &format!("for (long {block} = 0; {block} < {blocks}; {block}++) {{"));
                let which = format!("({last_first} ? {blocks} - 1 - {block} : {block})");
                self.line(d, &format!("const long {ic} = {which} * {mb};"));
            }
            None => self.line(depth, &format!("for (long {ic} = 0; {ic} < {m}; {ic} += {mb}) {{")),
        }
        self.line(d, &format!("const long {rows} = {m} - {ic} < {mb} ? {m} - {ic} : {mb};"));
        let sum_band = c.band.as_ref().filter(|b| b.across == c.sum);
        if let (Some(_), Some([lo, hi])) = (sum_band, &names.band) {
            // No row of the block has a step of the sum among these.
            self.line(d, &format!("if ({pc} + {kn} - 1 - {ic} < {lo} || {pc} - ({ic} + {rows} - 1) > {hi})"));
            self.line(d + 1, "continue;");
        }
        let [ic_dim, rows_dim, pc_dim, kn_dim] = [ic, rows, pc, kn].map(|name| self.variable_dim(name));
        let block = Loop { dim: c.row, part: Some((ic_dim, rows_dim)) };
        let steps = Loop { dim: c.sum, part: Some((pc_dim, kn_dim)) };
        let factors: Vec<_> = c.terms.iter().map(|t| &t.factors[0]).zip(a).collect();
        let loops = if c.sum_inner[0] { [block, steps] } else { [steps, block] };
        self.pack(c, (&factors, mr), loops, (c.row, sum_band), d);
        for panels in a {
            self.zero_padding(panels, (rows, mr), kn, d);
        }
        self.register_blocks(c, names, target_type, d);
        self.line(depth, "}");
    }

    /// Each factor's values into its panels (`width` lanes each, along
    /// `lanes`), over two loops of its iterators, the outer first; within
    /// `band` only, where one is given: the source reads nothing outside it.
    fn pack(
        &mut self,
        c: &PackedProduct,
        (factors, width): (&[(&Range<usize>, &String)], &str),
        loops: [Loop; 2],
        (lanes, band): (usize, Option<&Band>),
        depth: usize,
    ) {
        let program = self.program;
        let base = program.iter_base;
        let mut offsets = Vec::new();
        for (at, l) in loops.iter().enumerate() {
            let iterator = &program.stmts[c.stmt].iterators[l.dim];
            let ty = if iterator.ty.is_empty() { "long" } else { &iterator.ty };
            let name = &iterator.name;
            let var = self.variable_dim(name);
            let (low, high) = &c.bounds[l.dim];
            let (first, header) = match &l.part {
                None => (
                    low.clone(),
                    format!("for ({ty} {name} = {}; {name} <= {}; {name}++)", self.expr(low), self.expr(high)),
                ),
                Some((from, count)) => {
                    let first = low.add(from);
                    let (start, end) = (self.expr(&first), self.expr(&first.add(count)));
                    (first, format!("for ({ty} {name} = {start}; {name} < {end}; {name}++)"))
                }
            };
            self.line(depth + at, &header);
            self.env[base + l.dim] = var.clone();
            offsets.push((l.dim, self.atom(&var.sub(&first))));
        }
        let offset = |dim: usize| offsets.iter().find(|(d, _)| *d == dim).map(|(_, o)| o.clone()).unwrap_or_default();
        let (lane, step) = (offset(lanes), offset(c.sum));
        let copies: Vec<String> = factors
            .iter()
            .map(|(factor, panels)| {
                let value = self.render(c.stmt, (*factor).clone(), &[]);
                format!("{panels}[{lane} / {width}][{step}][{lane} % {width}] = {value};")
            })
            .collect();
        let guard = band.map(|b| {
            let env = &self.env;
            let offset = env[base + b.across].sub(&env[base + c.row]);
            let (low, value, high) = (self.expr(&b.low), self.expr(&offset), self.expr(&b.high));
            format!("if ({low} <= {value} && {value} <= {high})")
        });
        if let Some(guard) = &guard {
            self.line(depth + 2, guard);
        }
        let depth = depth + usize::from(guard.is_some());
        if let [copy] = &copies[..] {
            self.line(depth + 2, copy);
        } else {
            self.line(depth + 1, "{");
            for copy in &copies {
                self.line(depth + 2, copy);
            }
            self.line(depth + 1, "}");
        }
    }

    /// The block of the target in `mc` rows from `ic`, each `mr` x `nr`
    /// part in registers while the `kn` steps of its panels are summed.
    fn register_blocks(&mut self, c: &PackedProduct, names: &Names, target_type: &str, depth: usize) {
        let Names { n, mr, nr, a, b, ic, rows, .. } = names;
        let [jr, ir, block, whole, r, l, p] =
            ["jr", "ir", "c", "whole", "r", "l", "p"].map(|base| self.fresh_local(&format!("polyc_{base}")));
        let pointers: Vec<[String; 2]> = (0..a.len())
            .map(|t| ["ap", "bp"].map(|base| self.fresh_local(&format!("polyc_{}", numbered(base, t)))))
            .collect();
        self.line(depth, &format!("for (long {jr} = 0; {jr} < {n}; {jr} += {nr})"));
        self.line(depth + 1, &format!("for (long {ir} = 0; {ir} < {rows}; {ir} += {mr}) {{"));
        let d = depth + 2;
        let [whole_test, inside, below] = self.block_tests(c, names, [&jr, &ir, &r, &l], d);
        let segments = self.sum_segments(c, names, [&ir, &p, &r], d);
        let first = &segments[0].0;
        for ((ap, bp), (a, b)) in pointers.iter().map(|[x, y]| (x, y)).zip(a.iter().zip(b)) {
            self.line(d, &format!("const __typeof__({a}[0][0][0]) *{ap} = {a}[{ir} / {mr}][{first}];"));
            self.line(d, &format!("const __typeof__({b}[0][0][0]) *{bp} = {b}[{jr} / {nr}][{first}];"));
        }
        self.line(d, &format!("const int {whole} = {whole_test};"));
        self.line(d, &format!("{target_type} {block}[{mr}][{nr}];"));
        let base = self.program.iter_base;
        let [ic_var, ir_var, jr_var, r_var, l_var] = [ic, &ir, &jr, &r, &l].map(|name| self.variable_dim(name));
        self.prefetch_below(c, names, &below, ([&ic_var, &ir_var, &jr_var], (&r, &r_var)), d);
        self.env[base + c.row] = c.bounds[c.row].0.add(&ic_var).add(&ir_var).add(&r_var);
        self.env[base + c.col] = c.bounds[c.col].0.add(&jr_var).add(&l_var);
        let element = self.render(c.stmt, c.target.clone(), &[]);
        let load = format!("{block}[{r}][{l}] = {element};");
        let store = format!("{element} = {block}[{r}][{l}];");
        let rl = (r.as_str(), l.as_str());
        self.whole_or_edge(names, rl, &whole, [&load, &format!("{block}[{r}][{l}] = {inside} ? {element} : 0;")], d);
        let op = if c.subtract { "-=" } else { "+=" };
        let mut steps = format!("{p}++");
        let mut sum = String::new();
        for (term, [ap, bp]) in c.terms.iter().zip(&pointers) {
            steps += &format!(", {ap} += {mr}, {bp} += {nr}");
            if !sum.is_empty() {
                sum += if term.minus { " - " } else { " + " };
            }
            sum += &format!("{ap}[{r}] * {bp}[{l}]");
        }
        for (from, to, rows_in) in &segments {
            self.line(d, &format!("for (long {p} = {from}; {p} < {to}; {steps})"));
            let body = format!("{block}[{r}][{l}] {op} {sum};");
            self.register_block(names, rl, rows_in.as_deref(), &body, d + 1);
        }
        self.whole_or_edge(names, rl, &whole, [&store, &format!("if ({inside}) {store}")], d);
        self.line(depth + 1, "}");
    }

    /// A prefetch of the target's rows in the register block below this
    /// one (`mr` rows down), the ends of each row, while this one sums,
    /// where that block lies wholly inside the target (`below`): each
    /// block loads its part of the target before its sum, which would
    /// wait for memory there (gemm at LARGE on one thread: 11% of the
    /// samples on that load, 1.3% with the prefetch).
    fn prefetch_below(
        &mut self,
        c: &PackedProduct,
        names: &Names,
        below: &str,
        at: ([&LinExpr; 3], (&str, &LinExpr)),
        depth: usize,
    ) {
        let Names { mr, nr, .. } = names;
        let ([ic, ir, jr], (r_name, r)) = at;
        let [mr_var, nr_var] = [mr, nr].map(|name| self.variable_dim(name));
        let row = c.bounds[c.row].0.add(ic).add(ir).add(r).add(&mr_var);
        let first = c.bounds[c.col].0.add(jr);
        let last = first.add(&nr_var).sub(&LinExpr::constant(1));
        self.line(depth, &format!("if ({below})"));
        self.line(depth + 1, &format!("for (int {r_name} = 0; {r_name} < {mr}; {r_name}++) {{"));
        let base = self.program.iter_base;
        for column in [first, last] {
            self.env[base + c.row] = row.clone();
            self.env[base + c.col] = column;
            let element = self.render(c.stmt, c.target.clone(), &[]);
            self.line(depth + 2, &format!("__builtin_prefetch(&{element}, 1);"));
        }
        self.line(depth + 1, "}");
    }

    /// The steps `p` of the sum the register block at row `ir` runs, in
    /// order, as parts `(from, to, rows)`: where `rows` is given, only the
    /// block's rows `r` it holds for sum there. Without a band on `sum -
    /// row`, all `kn` steps for every row. With one, the steps where some
    /// rows sum, where all of them do, and where some do again; a block
    /// with none in this `kc` block is skipped.
    fn sum_segments(
        &mut self,
        c: &PackedProduct,
        names: &Names,
        [ir, p, r]: [&str; 3],
        depth: usize,
    ) -> Vec<(String, String, Option<String>)> {
        let Names { mr, pc, kn, ic, .. } = names;
        let (Some(_), Some([lo, hi])) = (c.band.as_ref().filter(|b| b.across == c.sum), &names.band) else {
            return vec![("0".into(), kn.clone(), None)];
        };
        // Row `r` sums at step `p` where `lo <= p + diagonal - r <= hi`.
        let [diagonal, first, from, to, last] =
            ["diagonal", "first", "from", "to", "last"].map(|base| self.fresh_local(&format!("polyc_{base}")));
        let clamped = |value: String, low: &str, high: &str| {
            format!("{value} < {low} ? {low} : {value} > {high} ? {high} : {value}")
        };
        let declared = [
            (&diagonal, format!("{pc} - ({ic} + {ir})")),
            (&first, clamped(format!("{lo} - {diagonal}"), "0", kn)),
            (&last, clamped(format!("{hi} - {diagonal} + {mr}"), "0", kn)),
            (&from, clamped(format!("{lo} - {diagonal} + {mr} - 1"), &first, &last)),
            (&to, clamped(format!("{hi} - {diagonal} + 1"), &from, &last)),
        ];
        for (name, value) in declared {
            self.line(depth, &format!("const long {name} = {value};"));
        }
        self.line(depth, &format!("if ({first} >= {last})"));
        self.line(depth + 1, "continue;");
        let rows_in = format!("{lo} <= {p} + {diagonal} - {r} && {p} + {diagonal} - {r} <= {hi}");
        vec![(first, from.clone(), Some(rows_in.clone())), (from, to.clone(), None), (to, last, Some(rows_in))]
    }

    /// Whether the register block at `(ir, jr)` lies wholly inside the
    /// target, whether its element `(r, l)` does, and whether the block
    /// below it (at `ir + mr`) lies wholly inside. Where a band on
    /// `column - row` cuts the box, a block wholly outside it is skipped
    /// first.
    fn block_tests(
        &mut self,
        c: &PackedProduct,
        names: &Names,
        [jr, ir, r, l]: [&str; 4],
        depth: usize,
    ) -> [String; 3] {
        let Names { n, mr, nr, ic, rows, .. } = names;
        // A block whose rows from `ir` end at `ir + rows_to_end` lies inside the box.
        let in_box = |rows_to_end: &str| format!("{ir} + {rows_to_end} <= {rows} && {jr} + {nr} <= {n}");
        let mut whole = in_box(mr);
        let mut below = in_box(&format!("2 * {mr}"));
        let mut inside = format!("{ir} + {r} < {rows} && {jr} + {l} < {n}");
        if let (Some(_), Some([lo, hi])) = (c.band.as_ref().filter(|b| b.across == c.col), &names.band) {
            // `column - row` in the register block is `diagonal + l - r`.
            let diagonal = self.fresh_local("polyc_diagonal");
            self.line(depth, &format!("const long {diagonal} = {jr} - ({ic} + {ir});"));
            self.line(depth, &format!("if ({diagonal} + {nr} - 1 < {lo} || {diagonal} - ({mr} - 1) > {hi})"));
            self.line(depth + 1, "continue;");
            let in_band =
                |diagonal: &str| format!(" && {diagonal} - ({mr} - 1) >= {lo} && {diagonal} + {nr} - 1 <= {hi}");
            whole += &in_band(&diagonal);
            below += &in_band(&format!("{diagonal} - {mr}"));
            inside += &format!(" && {lo} <= {diagonal} + {l} - {r} && {diagonal} + {l} - {r} <= {hi}");
        }
        [whole, inside, below]
    }

    /// `full` over the register block where `whole` holds, else `edge`.
    fn whole_or_edge(&mut self, names: &Names, rl: (&str, &str), whole: &str, [full, edge]: [&str; 2], depth: usize) {
        self.line(depth, &format!("if ({whole})"));
        self.register_block(names, rl, None, full, depth + 1);
        self.line(depth, "else");
        self.register_block(names, rl, None, edge, depth + 1);
    }

    /// `body` for each element of the register block (of its rows where
    /// `rows_in` holds), its columns a SIMD loop.
    fn register_block(&mut self, names: &Names, (r, l): (&str, &str), rows_in: Option<&str>, body: &str, depth: usize) {
        let pragma = if self.program.openmp { "#pragma omp simd" } else { "#pragma GCC ivdep" };
        self.line(depth, &format!("for (int {r} = 0; {r} < {}; {r}++)", names.mr));
        let mut d = depth + 1;
        if let Some(test) = rows_in {
            self.line(d, &format!("if ({test}) {{"));
            d += 1;
        }
        self.line(d, pragma);
        self.line(d, &format!("for (int {l} = 0; {l} < {}; {l}++)", names.nr));
        self.line(d + 1, body);
        if rows_in.is_some() {
            self.line(depth + 1, "}");
        }
    }

    /// A new dimension standing for the loop variable `name`.
    fn variable_dim(&mut self, name: &str) -> LinExpr {
        let dim = self.env.len();
        self.env.push(LinExpr::dim(dim));
        self.vars.push(Some(name.to_string()));
        LinExpr::dim(dim)
    }

    /// `__typeof__(+(text))` for `range` of `c`'s statement at the
    /// iterator values `at`: the type of the value, unqualified (the
    /// target's: `__typeof__(text)`, the type of the element).
    fn typed(&mut self, c: &PackedProduct, range: &Range<usize>, at: [(usize, LinExpr); 2]) -> String {
        let base = self.program.iter_base;
        let saved = self.env.clone();
        for (dim, value) in at {
            self.env[base + dim] = value;
        }
        let text = self.render(c.stmt, range.clone(), &[]);
        self.env = saved;
        if *range == c.target {
            format!("__typeof__({text})")
        } else {
            format!("__typeof__(+({text}))")
        }
    }

    /// The text of `range` of `c`'s statement, as written.
    fn text_of(&self, c: &PackedProduct, range: &Range<usize>) -> String {
        self.program.stmts[c.stmt].text[range.clone()].to_string()
    }
}

/// `base` for the first product, `base2` for the second.
fn numbered(base: &str, term: usize) -> String {
    match term {
        0 => base.to_string(),
        _ => format!("{base}{}", term + 1),
    }
}

/// A loop of a packing over one iterator: all its values, or `count`
/// of them from its first plus `from` (both over the loop variables).
struct Loop {
    dim: usize,
    part: Option<(LinExpr, LinExpr)>,
}
