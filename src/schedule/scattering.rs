//! The scattering: every statement's instances mapped into one common,
//! anonymous time space (`S<k>[i..] -> [c0, ..]`), executed in
//! lexicographic order, and the rewrites later phases (tiling) make of it.

use crate::model::isl::{IslError, IslResult, Map, UnionMap, UnionSet};
use crate::model::{params_decl, Scop, Statement};

/// The schedules of some statements of a SCoP (all of them, or one loop
/// nest's) into one space of `dims` dimensions.
#[derive(Clone)]
pub struct Scattering {
    /// The SCoP's indices of the statements scheduled, ascending.
    pub stmts: Vec<usize>,
    /// `S<k>[i..] -> [c0..c(dims-1)]`, one per entry of `stmts`.
    pub maps: Vec<Map>,
    pub dims: usize,
}

/// The statements of one loop nest (see [`Scattering::nests`]) and the
/// constant time dimensions that place the nest among the others.
#[derive(Clone)]
pub struct Nest {
    pub prefix: Vec<i64>,
    pub scattering: Scattering,
}

impl Scattering {
    pub fn original(scop: &Scop) -> Scattering {
        Scattering::original_of(scop, (0..scop.statements.len()).collect())
    }

    /// The original schedule of the statements `stmts`.
    pub fn original_of(scop: &Scop, stmts: Vec<usize>) -> Scattering {
        let maps = stmts.iter().map(|&k| scop.statements[k].schedule.clone()).collect();
        Scattering { stmts, maps, dims: scop.schedule_dims }
    }

    /// Whether some statement has more than one value at dimension `k`
    /// (or isl cannot tell).
    pub fn varies(&self, k: usize) -> bool {
        self.maps.iter().any(|m| !m.out_is_constant(k).unwrap_or(false))
    }

    /// The last dimension at which some statement varies.
    pub fn innermost_loop(&self) -> Option<usize> {
        (0..self.dims).rev().find(|&k| self.varies(k))
    }

    /// The same statements, each scheduled by an equal map.
    pub fn is_equal(&self, other: &Scattering) -> IslResult<bool> {
        if self.stmts != other.stmts || self.dims != other.dims {
            return Ok(false);
        }
        for (a, b) in self.maps.iter().zip(&other.maps) {
            if !a.is_subset_of(b)? || !b.is_subset_of(a)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether `self` runs the instances of `scop`'s statements in the
    /// order `other` does. Both order every two instances (a schedule
    /// is one-to-one), so that one order holding within the other is
    /// enough.
    pub fn same_order(&self, other: &Scattering, scop: &Scop) -> IslResult<bool> {
        if self.stmts != other.stmts {
            return Ok(false);
        }
        // The loops for little work often keep the source's schedule.
        if self.is_equal(other)? {
            return Ok(true);
        }
        let timed = |sc: &Scattering, k: usize| -> IslResult<UnionMap> {
            let domain = UnionSet::from_sets([&scop.statements[self.stmts[k]].domain])?;
            UnionMap::from_maps([&sc.maps[k]])?.intersect_domain(&domain)
        };
        let mine: Vec<UnionMap> = (0..self.maps.len()).map(|k| timed(self, k)).collect::<IslResult<_>>()?;
        let theirs: Vec<UnionMap> = (0..other.maps.len()).map(|k| timed(other, k)).collect::<IslResult<_>>()?;
        // Statement by statement, then pair by pair, stopping at the first
        // pair ordered otherwise: every pair at once took 40% of
        // deriche's compile time.
        let pairs = (0..mine.len()).flat_map(|gap| (gap..mine.len()).map(move |j| (j - gap, j)));
        for (i, j) in pairs {
            let no_later = |times: &[UnionMap]| -> IslResult<UnionMap> {
                let forward = times[i].lex_le_pairs(&times[j])?;
                if i == j {
                    return Ok(forward);
                }
                forward.union(&times[j].lex_le_pairs(&times[i])?)
            };
            if !no_later(&mine)?.subtract(&no_later(&theirs)?)?.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Each map with the statement it schedules.
    pub fn statements<'a>(&'a self, scop: &'a Scop) -> impl Iterator<Item = (&'a Map, &'a Statement)> {
        self.maps.iter().zip(self.stmts.iter().map(|&k| &scop.statements[k]))
    }

    /// Statement schedules of different lengths, padded with zeros to one space.
    pub fn padded(stmts: Vec<usize>, maps: Vec<Map>) -> IslResult<Scattering> {
        let mut dims = 0;
        for m in &maps {
            dims = dims.max(m.n_out()?);
        }
        let maps = maps.iter().map(|m| m.pad_out(dims - m.n_out()?)).collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { stmts, maps, dims })
    }

    /// The loop nests that constant leading time dimensions keep apart
    /// (the children of the schedule tree's outer sequences), in time
    /// order. Dependences between nests are carried by those constants,
    /// so each nest can be transformed on its own as long as its prefix
    /// stays.
    pub fn nests(&self, n_params: usize) -> IslResult<Vec<Nest>> {
        let mut out = Vec::new();
        self.split_into(Vec::new(), n_params, &mut out)?;
        Ok(out)
    }

    fn split_into(&self, prefix: Vec<i64>, n_params: usize, out: &mut Vec<Nest>) -> IslResult<()> {
        let mut leading = Vec::with_capacity(self.maps.len());
        for m in &self.maps {
            match (self.dims > 0).then(|| m.out_constant(0)).transpose()?.flatten() {
                Some(v) => leading.push(v),
                None => {
                    out.push(Nest { prefix, scattering: self.clone() });
                    return Ok(());
                }
            }
        }
        let mut values = leading.clone();
        values.sort_unstable();
        values.dedup();
        let rest: Vec<String> = (1..self.dims).map(|k| format!("c{k}")).collect();
        let strip = time_map(n_params, self.dims, &rest)?;
        for v in values {
            let (mut stmts, mut maps) = (Vec::new(), Vec::new());
            for ((&k, m), _) in self.stmts.iter().zip(&self.maps).zip(&leading).filter(|(_, &l)| l == v) {
                stmts.push(k);
                maps.push(m.apply_range(&strip)?);
            }
            let inner = Scattering { stmts, maps, dims: self.dims - 1 };
            inner.split_into([prefix.as_slice(), &[v]].concat(), n_params, out)?;
        }
        Ok(())
    }

    /// The nests put back in place: one scattering of every statement,
    /// each nest behind its prefix, padded with zeros to a common depth.
    pub fn join(nests: &[Nest], n_params: usize) -> IslResult<Scattering> {
        let dims = nests.iter().map(|n| n.prefix.len() + n.scattering.dims).max().unwrap_or(0);
        let mut placed: Vec<(usize, Map)> = Vec::new();
        for n in nests {
            let mut out: Vec<String> = n.prefix.iter().map(i64::to_string).collect();
            out.extend((0..n.scattering.dims).map(|k| format!("c{k}")));
            out.resize(dims, "0".into());
            let place = time_map(n_params, n.scattering.dims, &out)?;
            for (&k, m) in n.scattering.stmts.iter().zip(&n.scattering.maps) {
                placed.push((k, m.apply_range(&place)?));
            }
        }
        placed.sort_by_key(|(k, _)| *k);
        let (stmts, maps) = placed.into_iter().unzip();
        Ok(Scattering { stmts, maps, dims })
    }

    pub fn union(&self) -> IslResult<UnionMap> {
        UnionMap::from_maps(&self.maps)
    }

    /// Every statement composed with the same map of the time space
    /// (`[c..] -> [c'..]`), which has `dims` output dimensions.
    pub fn then(&self, f: &Map, dims: usize) -> IslResult<Scattering> {
        let maps = self.maps.iter().map(|m| m.apply_range(f)).collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { stmts: self.stmts.clone(), maps, dims })
    }

    /// Each statement's time in `self`, then its time in `other` (a
    /// scattering of the same statements).
    pub fn beside(&self, other: &Scattering) -> IslResult<Scattering> {
        if self.stmts != other.stmts {
            return Err(IslError("scatterings of different statements put side by side".into()));
        }
        let maps = self.maps.iter().zip(&other.maps).map(|(a, b)| a.flat_range_product(b)).collect::<IslResult<_>>()?;
        Ok(Scattering { stmts: self.stmts.clone(), maps, dims: self.dims + other.dims })
    }

    /// Every statement composed with `[c0..] -> [out..]`, `out` written
    /// over the current dimensions `c<k>`.
    pub fn remap(&self, out: &[String], n_params: usize) -> IslResult<Scattering> {
        self.then(&time_map(n_params, self.dims, out)?, out.len())
    }

    /// [`Scattering::remap`] for the statements `which` names (by
    /// position), the others kept as they are: `out` has one entry per
    /// current dimension.
    pub fn remap_some(&self, out: &[String], which: &[bool], n_params: usize) -> IslResult<Scattering> {
        let f = time_map(n_params, self.dims, out)?;
        let maps = self
            .maps
            .iter()
            .zip(which)
            .map(|(m, &w)| if w { m.apply_range(&f) } else { Ok(m.clone()) })
            .collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { stmts: self.stmts.clone(), maps, dims: self.dims })
    }

    /// Every statement composed with a piecewise map of the time space:
    /// `(condition, out)` pieces over the dimensions `c<k>`, which the
    /// caller makes disjoint and covering, each `out` of one length (each
    /// an expression, or a name the condition constrains).
    pub fn remap_pieces(&self, pieces: &[(String, Vec<String>)], n_params: usize) -> IslResult<Scattering> {
        let dims = pieces.first().map_or(0, |(_, out)| out.len());
        self.then(&piecewise_time_map(n_params, self.dims, pieces)?, dims)
    }
}

/// `[c0..c(dims-1)] -> [out..]`.
fn time_map(n_params: usize, dims: usize, out: &[String]) -> IslResult<Map> {
    piecewise_time_map(n_params, dims, &[(String::new(), out.to_vec())])
}

/// `[c0..c(dims-1)] -> [out..] : condition`, a piece per `(condition, out)`
/// (an empty condition: everywhere).
fn piecewise_time_map(n_params: usize, dims: usize, pieces: &[(String, Vec<String>)]) -> IslResult<Map> {
    let from: Vec<String> = (0..dims).map(|k| format!("c{k}")).collect();
    let pieces: Vec<String> = pieces
        .iter()
        .map(|(condition, out)| {
            let guard = if condition.is_empty() { String::new() } else { format!(" : {condition}") };
            format!("[{}] -> [{}]{guard}", from.join(", "), out.join(", "))
        })
        .collect();
    Map::parse(&format!("{} -> {{ {} }}", params_decl(n_params), pieces.join("; ")))
}
