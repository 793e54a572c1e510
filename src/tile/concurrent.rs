//! Concurrent-start tilings of a time-iterated nest: diamond tiles (two
//! hyperplanes `a.τ + σ` and `b.τ - σ` whose sum is the time axis, so a
//! whole row of tiles starts at once) and hybrid hexagonal/classical
//! tiles (hexagons in time and the outer space dimension, run in two
//! alternating phases). Both are laid out in the nest's stencil
//! coordinates (see [`Stencil`]); the remaining space dimensions get
//! classical (skewed) tiles, and the points of a tile run in another,
//! verified order of the same statements.
//!
//! The stencil coordinates are `τ = K.t + rank` with the space iterators
//! aligned by name; a dependence with `dτ <= 0` refuses the nest. The
//! dependence cone's slopes are the smallest skews (up to 4 per step) with
//! no distance on the wrong side, each found by an emptiness test.
//! Diamonds reuse time tiles' machinery and their bound on distances
//! (`band::time_tiles`). Hexagons are written as affine constraints on
//! the tile coordinates `(q, f, n)` (band `2q + f`, phase `f`, hexagon `n`)
//! rather than floors and modulos, so that isl describes a tile without
//! existentials, which the scanner needs; their bound rests on the cone
//! (`dτ >= 1`, `|dσ_1| <= s.dτ`) and a top width of at least `s`.

use super::band::{size_of, time_tile_distances, time_tiles, var};
use crate::model::isl::{set_text, IslResult, Map, Set, UnionMap};
use crate::model::{params_decl, Scop};
use crate::schedule::{analysis, Scattering};

/// A time-iterated nest in stencil coordinates: each statement instance
/// at `(τ, σ_1, .., σ_m)`, where `τ = K.t + r` (`t` the time loop's
/// iterator, `K` the number of statements, `r` the statement's textual
/// rank: the statements of one time step run as `K` sub-steps) and
/// `σ_j` is the statement's iterator named like the `j`-th space loop of
/// the nest (0 for a statement without one, as fdtd-2d's boundary row).
pub struct Stencil {
    pub coords: Scattering,
    /// The space loops' iterator names, outermost first.
    pub space: Vec<String>,
    /// The dependence distances in stencil coordinates.
    distances: Set,
    n_params: usize,
}

/// The largest skew polyc tries per time step: steeper cones tile badly.
const MAX_SLOPE: i64 = 4;

/// Where the dependence cone of a stencil lies, per space dimension:
/// the smallest slopes `a` with `a.dτ + dσ >= 0` (`lower`) and
/// `b.dτ - dσ >= 0` (`upper`) for every distance, if one up to
/// [`MAX_SLOPE`] exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cone {
    pub lower: Vec<Option<i64>>,
    pub upper: Vec<Option<i64>>,
}

impl Stencil {
    /// The stencil coordinates of the nest of `stmts`, or why the nest is
    /// no time-iterated stencil: its statements share no outer loop, a
    /// statement repeats an iterator name, or a dependence stays within
    /// one sub-step (`dτ <= 0`: seidel's in-place updates), which no
    /// concurrent start allows.
    pub fn of(scop: &Scop, stmts: &[usize], legality: &UnionMap) -> IslResult<Result<Stencil, String>> {
        let n_params = scop.ast.params.len();
        let asts: Vec<&crate::frontend::Stmt> = stmts.iter().map(|&k| &scop.ast.stmts[k]).collect();
        let Some(first) = asts.first() else { return Ok(Err("the nest has no statement".into())) };
        if asts.iter().any(|s| s.iterators.is_empty() || s.beta[0] != first.beta[0]) {
            return Ok(Err("its statements share no outer (time) loop".into()));
        }
        if first.iterators[0].descending {
            return Ok(Err("its time loop counts down".into()));
        }
        let mut space: Vec<String> = Vec::new();
        for s in &asts {
            let names: Vec<&str> = s.iterators.iter().map(|it| it.name.as_str()).collect();
            if (1..names.len()).any(|d| names[..d].contains(&names[d])) {
                return Ok(Err("a statement's loops reuse an iterator name".into()));
            }
            for name in &names[1..] {
                if !space.iter().any(|n| n == name) {
                    space.push(name.to_string());
                }
            }
        }
        if space.is_empty() {
            return Ok(Err("no loop runs inside its outer (time) loop: there is no space to tile".into()));
        }
        let k = stmts.len();
        let mut maps = Vec::new();
        for (rank, (&st, s)) in stmts.iter().zip(&asts).enumerate() {
            let names: Vec<&str> = s.iterators.iter().map(|it| it.name.as_str()).collect();
            let mut out = vec![format!("{k} * i0 + {rank}")];
            out.extend(space.iter().map(|name| match names.iter().position(|n| n == name) {
                Some(d) => format!("i{d}"),
                None => "0".to_string(),
            }));
            let iters: Vec<String> = (0..names.len()).map(|d| format!("i{d}")).collect();
            let text = format!(
                "{} -> {{ {}[{}] -> [{}] }}",
                params_decl(n_params),
                scop.statements[st].name,
                iters.join(", "),
                out.join(", ")
            );
            maps.push(Map::parse(&text)?);
        }
        let coords = Scattering::padded(stmts.to_vec(), maps)?;
        let distances = analysis::distances(&coords, legality, n_params)?;
        if distances.is_empty()? {
            return Ok(Err("no dependence crosses the iterations of the outer loop: no time loop to start".into()));
        }
        let stencil = Stencil { coords, space, distances, n_params };
        if !stencil.violating("c0 <= 0")?.is_empty()? {
            return Ok(Err(
                "a dependence stays within one iteration of the outer loop (one time step of a statement), \
                 which forbids concurrent start"
                    .into(),
            ));
        }
        Ok(Ok(stencil))
    }

    /// The distances that satisfy `condition` (over `c0` = dτ, `c<j>` = dσ_j).
    fn violating(&self, condition: &str) -> IslResult<Set> {
        let cut = Set::parse(&set_text(self.n_params, self.space.len() + 1, condition))?;
        self.distances.intersect(&cut)
    }

    /// The dependence cone's slopes along each space dimension.
    pub fn cone(&self) -> IslResult<Cone> {
        let mut cone = Cone { lower: Vec::new(), upper: Vec::new() };
        for j in 1..=self.space.len() {
            cone.lower.push(self.slope(&format!("c{j}"))?);
            cone.upper.push(self.slope(&format!("-c{j}"))?);
        }
        Ok(cone)
    }

    /// The smallest `a` in `0..=MAX_SLOPE` with `a.dτ + along >= 0` for
    /// every distance.
    fn slope(&self, along: &str) -> IslResult<Option<i64>> {
        for a in 0..=MAX_SLOPE {
            if self.violating(&format!("{a} * c0 + {along} < 0"))?.is_empty()? {
                return Ok(Some(a));
            }
        }
        Ok(None)
    }

    fn dims(&self) -> usize {
        self.space.len() + 1
    }

    /// The slopes of the cone's two sides along `σ_1`, between which the
    /// time axis lies, or why there are none.
    fn sides(&self, cone: &Cone) -> Result<(i64, i64), String> {
        match (cone.lower[0], cone.upper[0]) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(format!(
                "the dependences along `{}` open wider than {MAX_SLOPE} per time step, so no tile row starts at once",
                self.space[0]
            )),
        }
    }

    /// The classical tile hyperplanes of the space dimensions after the
    /// first: each skewed by the cone's slope on the side it allows.
    fn classical_rows(&self, cone: &Cone) -> Result<Vec<String>, String> {
        (2..self.dims())
            .map(|j| match (cone.lower[j - 1], cone.upper[j - 1]) {
                (Some(a), _) => Ok(format!("{a} * c0 + c{j}")),
                (None, Some(b)) => Ok(format!("{b} * c0 - c{j}")),
                (None, None) => Err(format!(
                    "no skew of at most {MAX_SLOPE} per time step tiles space dimension `{}`",
                    self.space[j - 1]
                )),
            })
            .collect()
    }
}

/// Diamond tiles of the stencil: hyperplanes `a.τ + σ_1` and `b.τ - σ_1`
/// (the cone's slopes), each of size `sizes[0]`, so that the tiles along
/// `σ_1` start together; classical tiles `sizes[1..]` on the other space
/// dimensions. The tiles run on the wavefront of the two diamond
/// hyperplanes (every tile of one wavefront in parallel), their points
/// in the order of `inner`. Returns the tiled scattering and a sound bound
/// on the distances of its tile dimensions (every hyperplane is valid,
/// so no dependence goes back along one), or why the cone allows none.
pub fn diamond(
    stencil: &Stencil,
    cone: &Cone,
    sizes: &[i64],
    inner: &Scattering,
) -> IslResult<Result<(Scattering, Set), String>> {
    let ((a, b), classical) = match stencil.sides(cone).and_then(|sides| Ok((sides, stencil.classical_rows(cone)?))) {
        Ok(shape) => shape,
        Err(why) => return Ok(Err(why)),
    };
    let mut rows = vec![format!("{a} * c0 + c1"), format!("{b} * c0 - c1")];
    rows.extend(classical);
    let depth = rows.len();
    let hyper = stencil.coords.remap(&rows, stencil.n_params)?;
    let diamond = size_of(sizes, 0);
    let mut tile_sizes = vec![diamond, diamond];
    tile_sizes.extend((1..depth - 1).map(|j| size_of(sizes, j)));
    let tiled = time_tiles(&hyper, depth, &tile_sizes, true, inner, stencil.n_params)?;
    Ok(Ok((tiled, time_tile_distances(depth, true, stencil.n_params)?)))
}

/// Hybrid hexagonal/classical tiles of the stencil: hexagons in `(τ, σ_1)`
/// of height `2 * sizes[0]` time steps and top width `sizes[1]`, laid out
/// in bands of `sizes[0]` steps; each band holds the lower halves of one
/// phase's hexagons and the upper halves of the other's, so the tiles
/// born in a band (one phase) all run in parallel, the band after the
/// other phase. Classical tiles `sizes[2..]` on the other space
/// dimensions. Returns the tiled scattering (tile dimensions: band pair
/// `q`, phase `f` (the band born in is `2q + f`), hexagon, classical
/// tiles; then `inner`) and a bound on the tile dimensions' distances,
/// or why the cone allows no hexagons.
///
/// Why the bound holds: with slope `s` (every distance has `dτ >= 1` and
/// `|dσ_1| <= s.dτ`) a hexagon's lower half widens by `s` per step, so a
/// dependence from it stays inside it or reaches a hexagon born later;
/// its upper half narrows, and a dependence from it can only reach the
/// lower halves beside it (born in the next band) since a hexagon's top
/// width is at least `s`. So tiles born in one band never depend on each
/// other, and a tile never depends on one born later.
pub fn hexagonal(
    stencil: &Stencil,
    cone: &Cone,
    sizes: &[i64],
    inner: &Scattering,
) -> IslResult<Result<(Scattering, Set), String>> {
    let ((a, b), rows) = match stencil.sides(cone).and_then(|sides| Ok((sides, stencil.classical_rows(cone)?))) {
        Ok(shape) => shape,
        Err(why) => return Ok(Err(why)),
    };
    let slope = a.max(b).max(1);
    let hexagon = Hexagon { height: size_of(sizes, 0).max(1), width: size_of(sizes, 1).max(slope), slope };
    let classical: Vec<(String, i64)> =
        rows.into_iter().enumerate().map(|(j, row)| (row, size_of(sizes, j + 2))).collect();
    let tiles = stencil.coords.remap_pieces(&hexagon.pieces(&classical), stencil.n_params)?;
    let tiled = tiles.beside(inner)?;
    Ok(Ok((tiled, hexagon_tile_distances(3 + classical.len(), stencil.n_params)?)))
}

/// The shape of [`hexagonal`]'s tiles: `height` steps per band, the top
/// and bottom rows `width` wide, sides of slope `slope`.
struct Hexagon {
    height: i64,
    width: i64,
    slope: i64,
}

impl Hexagon {
    /// The two pieces of the tile map over stencil coordinates (`c0` = τ,
    /// `c1` = σ_1) onto `[q, f, n, t2..]`: a point is in the lower half of
    /// hexagon `n` born in band `B = 2q + f` when `B.h <= τ < (B + 1).h`
    /// and `x - s.r <= σ_1 < x + w + s.r` (row `r = τ - B.h`, left corner
    /// `x = f.P/2 + n.P`, period `P = 2(w + s(h - 1))`: each phase shifts
    /// the hexagons by half a period), or in its upper half one band
    /// later, rows narrowing from `P - w` wide back to `w`. Written as
    /// constraints on the tile coordinates rather than floors and
    /// modulos of the point's, so that isl needs no existential
    /// variables to describe a tile (the scanner's cost). `classical`:
    /// each other space dimension's hyperplane and tile size.
    fn pieces(&self, classical: &[(String, i64)]) -> Vec<(String, Vec<String>)> {
        let Hexagon { height: h, width: w, slope: s } = *self;
        let period = 2 * (w + s * (h - 1));
        let half = period / 2;
        let corner = format!("({half} * f + {period} * n)");
        let tiles: Vec<String> = (0..classical.len()).map(|j| format!("t{j}")).collect();
        let classical: Vec<String> = classical
            .iter()
            .zip(&tiles)
            .map(|((row, size), t)| format!(" and {size} * {t} <= {row} < {size} * {t} + {size}"))
            .collect();
        let mut out = vec!["q".to_string(), "f".to_string(), "n".to_string()];
        out.extend(tiles);
        let band = "(2 * q + f)";
        let lower = format!(
            "0 <= f <= 1 and {h} * {band} <= c0 < {h} * {band} + {h} \
             and {corner} - {s} * (c0 - {h} * {band}) <= c1 < {corner} + {w} + {s} * (c0 - {h} * {band}){}",
            classical.concat()
        );
        let upper = format!(
            "0 <= f <= 1 and {h} * {band} + {h} <= c0 < {h} * {band} + {} \
             and {corner} - {} + {s} * (c0 - {h} * {band} - {h}) <= c1 \
             < {corner} + {} - {s} * (c0 - {h} * {band} - {h}){}",
            2 * h,
            s * (h - 1),
            w + s * (h - 1),
            classical.concat()
        );
        vec![(lower, out.clone()), (upper, out)]
    }
}

/// Where the tile part of [`hexagonal`]'s distances lies: a later band
/// (`2 dq + df >= 1`, the phase changing by at most one), or the same
/// hexagon with classical tiles that do not go back.
fn hexagon_tile_distances(depth: usize, n_params: usize) -> IslResult<Set> {
    let same: Vec<String> = (3..depth).map(|k| format!(" and {} >= 0", var(k))).collect();
    let later = "2 * c0 + c1 >= 1 and -1 <= c1 <= 1";
    Set::parse(&set_text(n_params, depth, &format!("({later}) or (c0 = 0 and c1 = 0 and c2 = 0{})", same.concat())))
}
