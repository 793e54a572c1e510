//! The comment line at the top of each regenerated region: what its new
//! code does, as printed (a loop the printer left sequential is not
//! called parallel), and the command line that gives the source's order
//! back.
//!
//! `polyc --schedule=identity`, with no other transformation flag,
//! regenerates the loops in the source's order, without tiles, threads,
//! SIMD marks, unroll-and-jam or expansion; contraction comes only with
//! `--storage`. A multifor's loop run by rank and `--trace` have no flag
//! that undoes them but their absence.

/// Whether a region's statements run in the source's order, tiles aside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    #[default]
    Source,
    New,
    /// Not found out: the tiles say it already, or finding out cost more
    /// than its share of the budget.
    Unchecked,
}

/// What a region's new code does.
#[derive(Default)]
pub struct Done {
    pub order: Order,
    /// Each tiling, in words (`plan::Notes::tiled`).
    pub tiled: Vec<String>,
    /// Arrays read from a transposed copy (`storage::transpose`).
    pub transposed: Vec<String>,
    /// Variables given a copy per iteration (storage expansion).
    pub expanded: Vec<String>,
    /// Temporary arrays folded onto fewer cells.
    pub contracted: Vec<String>,
    /// The elements matrix products sum into on packed panels (`emit::packed`).
    pub packed: Vec<String>,
    pub parallel: bool,
    /// Each parallel region starts threads only where its own work pays.
    pub regions_gated: bool,
    /// A multifor's loops run apart in OpenMP sections.
    pub sections: bool,
    pub simd: bool,
    /// The unroll-and-jam factor, if some loop was unrolled and jammed.
    pub jam: Option<i64>,
    /// A multifor's loop run by rank inside the other.
    pub ranked: bool,
    /// Statements replaced by a `printf` of their instances.
    pub traced: bool,
    /// When the source text runs instead (`emit::Printed::fallback`).
    pub fallback: Vec<&'static str>,
    /// Loops without tiles run instead with too little work.
    pub small: bool,
    /// Those loops start threads where a region's own work pays them.
    pub small_threads: bool,
}

impl Done {
    /// The comment line, indented by `indent`.
    pub fn comment(&self, indent: &str) -> String {
        let mut text = format!("polyc: {}", self.transformations().join(", "));
        if self.small && self.small_threads {
            text.push_str("; with too little work, loops without tiles, on threads where a region's work pays");
        } else if self.small {
            text.push_str("; with too little work, loops without tiles or threads");
        }
        if let Some((last, others)) = self.fallback.split_last() {
            let when = if others.is_empty() { last.to_string() } else { format!("{} or {last}", others.join(", ")) };
            text.push_str(&format!("; the source as written if {when}"));
        }
        if let Some(undo) = self.undo() {
            text.push_str(&format!("; undo: polyc {undo}"));
        }
        format!("{indent}/* {text} */\n")
    }

    /// What was done, in words, in the order it applies.
    fn transformations(&self) -> Vec<String> {
        let mut done = Vec::new();
        if self.ranked {
            done.push("multifor loop run by rank".to_string());
        }
        if self.order == Order::New && self.tiled.is_empty() {
            done.push("new loop order".to_string());
        }
        done.extend(self.transposed.iter().map(|a| format!("{a} read from a transposed copy")));
        done.extend(self.tiled.iter().cloned());
        done.extend(self.packed.iter().map(|t| format!("{t} summed on packed panels")));
        done.extend(self.expanded.iter().map(|v| format!("{v} expanded")));
        done.extend(self.contracted.iter().map(|a| format!("{a} contracted")));
        let flags = [
            (self.parallel && !self.regions_gated, "parallel (OpenMP)"),
            (self.parallel && self.regions_gated, "parallel (OpenMP) where a region's work pays"),
            (self.sections, "multifor loops in OpenMP sections"),
            (self.simd, "SIMD"),
            (self.traced, "statements traced"),
        ];
        done.extend(flags.iter().filter(|(done, _)| *done).map(|(_, what)| what.to_string()));
        if let Some(factor) = self.jam {
            done.push(format!("unroll-and-jam by {factor}"));
        }
        match (done.is_empty(), self.order) {
            (true, Order::Source) => done.push("loops regenerated in the source's order".to_string()),
            (true, _) => done.push("loops regenerated".to_string()),
            (false, _) => {}
        }
        done
    }

    /// The command line that undoes it, after `polyc` (see the module's doc).
    fn undo(&self) -> Option<&'static str> {
        let reordering = self.order != Order::Source
            || !self.tiled.is_empty()
            || !self.expanded.is_empty()
            || !self.transposed.is_empty()
            || !self.packed.is_empty()
            || self.parallel
            || self.sections
            || self.simd
            || self.jam.is_some();
        match (reordering, !self.contracted.is_empty()) {
            (true, true) => Some("--schedule=identity, no --storage"),
            (true, false) => Some("--schedule=identity"),
            (false, true) => Some("without --storage"),
            (false, false) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_comment_says_what_was_done_and_how_to_undo_it() {
        let done = Done {
            tiled: vec!["tiled 32x32".into()],
            parallel: true,
            simd: true,
            jam: Some(4),
            fallback: vec!["too little work", "arrays overlap", "an allocation fails"],
            ..Done::default()
        };
        assert_eq!(
            done.comment("  "),
            "  /* polyc: tiled 32x32, parallel (OpenMP), SIMD, unroll-and-jam by 4; \
             the source as written if too little work, arrays overlap or an allocation fails; \
             undo: polyc --schedule=identity */\n"
        );
        let with_small = Done { tiled: vec!["tiled 32x32".into()], parallel: true, small: true, ..Done::default() };
        assert_eq!(
            with_small.comment(""),
            "/* polyc: tiled 32x32, parallel (OpenMP); with too little work, loops without tiles or threads; \
             undo: polyc --schedule=identity */\n"
        );
        let threaded = Done { small_threads: true, ..with_small };
        assert_eq!(
            threaded.comment(""),
            "/* polyc: tiled 32x32, parallel (OpenMP); with too little work, loops without tiles, on threads where \
             a region's work pays; undo: polyc --schedule=identity */\n"
        );
        let gated = Done { parallel: true, regions_gated: true, simd: true, ..Done::default() };
        assert_eq!(
            gated.comment(""),
            "/* polyc: parallel (OpenMP) where a region's work pays, SIMD; undo: polyc --schedule=identity */\n"
        );
        assert_eq!(Done::default().comment(""), "/* polyc: loops regenerated in the source's order */\n");
        let unchecked = Done { order: Order::Unchecked, ..Done::default() };
        assert_eq!(unchecked.comment(""), "/* polyc: loops regenerated; undo: polyc --schedule=identity */\n");
    }
}
