//! The one authority for the names polyc introduces: condition variables
//! (`polyc_c<k>`), specialised parameters (`polyc_n_m`), expanded and
//! contracted arrays, promoted scalars, loop variables, hoisted bounds,
//! aligned memory and `restrict` copies. One [`FreshNames`] per file,
//! seeded with every identifier and macro of the file, is passed along
//! the whole pipeline, and every new name is minted through it.
//!
//! Invariant: a name [`FreshNames::mint`] returns differs from every
//! identifier and macro of the file and from every other name minted for
//! the file, whichever passes ran and in whatever order. A name
//! [`FreshNames::mint_local`] returns (a name declared in a block the
//! printer opens for it: a loop variable, a hoisted bound, a promoted
//! scalar) differs from all of those except other local names, and from
//! the local names its caller says are in scope there; so sibling loops
//! may share `c0`, but no local name ever shadows a minted one.
//!
//! A pass that may be abandoned (a plan tried, then dropped) mints on a
//! clone and keeps it only if its result is kept, so that abandoned
//! attempts leave no `_` suffixes behind.

use std::collections::BTreeSet;

/// The names a file's identifiers, macros and polyc's mints have taken.
#[derive(Clone, Debug, Default)]
pub struct FreshNames {
    /// The file's identifiers and macros, and every name [`Self::mint`]
    /// returned.
    taken: BTreeSet<String>,
    /// Every name [`Self::mint_local`] returned.
    local: BTreeSet<String>,
}

impl FreshNames {
    /// An authority for a file whose identifiers and macro names are
    /// `identifiers`.
    pub fn new(identifiers: impl IntoIterator<Item = String>) -> FreshNames {
        FreshNames { taken: identifiers.into_iter().collect(), local: BTreeSet::new() }
    }

    /// `base`, or `base` with underscores appended: the first name no
    /// identifier and no earlier mint, local or not, has taken.
    pub fn mint(&mut self, base: &str) -> String {
        let name = self.first_free(base, |n| self.local.contains(n));
        self.taken.insert(name.clone());
        name
    }

    /// Like [`Self::mint`], for a name declared in a block of its own:
    /// it may repeat another local name, but none that `in_scope` claims.
    pub fn mint_local(&mut self, base: &str, in_scope: impl Fn(&str) -> bool) -> String {
        let name = self.first_free(base, in_scope);
        self.local.insert(name.clone());
        name
    }

    /// Whether the file or polyc uses `name` (locally or not).
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name) || self.local.contains(name)
    }

    fn first_free(&self, base: &str, also_taken: impl Fn(&str) -> bool) -> String {
        let mut name = base.to_string();
        while self.taken.contains(&name) || also_taken(&name) {
            name.push('_');
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::FreshNames;

    #[test]
    fn two_mints_of_one_base_differ() {
        let mut names = FreshNames::new(["x".to_string()]);
        assert_eq!(names.mint("polyc_x"), "polyc_x");
        assert_eq!(names.mint("polyc_x"), "polyc_x_");
        assert_eq!(names.mint("x"), "x_");
    }

    #[test]
    fn a_local_name_never_repeats_a_minted_one() {
        let mut names = FreshNames::new(["A".to_string()]);
        let array = names.mint("polyc_A");
        assert_eq!(names.mint_local("polyc_A", |_| false), "polyc_A_");
        assert_eq!(array, "polyc_A");
    }

    #[test]
    fn local_names_repeat_only_out_of_scope() {
        let mut names = FreshNames::new([]);
        assert_eq!(names.mint_local("c0", |_| false), "c0");
        assert_eq!(names.mint_local("c0", |_| false), "c0");
        assert_eq!(names.mint_local("c0", |n| n == "c0"), "c0_");
        assert_eq!(names.mint("c0"), "c0__");
    }
}
