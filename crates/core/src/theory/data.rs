//! The data: two Gaussian classes in the signal plane, small per-sample noise beyond it, one
//! mislabeled outlier; and the seeded mini-batches.

use serde::{Deserialize, Serialize};

use super::TheoryConfig;
use crate::data::Rng;

/// A training point in the signal plane (the first 2 coordinates), with its label.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The first coordinate.
    pub x: f64,
    /// The second coordinate.
    pub y: f64,
    /// +1 or −1 (the outlier's is flipped: +1 inside class −1 by default).
    pub label: i8,
}

/// All samples: `per_class` of class +1, `per_class` of class −1, then the outlier (always last,
/// whether it is trained on or not, so that the clean samples are the same in the twin run).
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// Each sample's `2 + noise_dims` coordinates.
    pub xs: Vec<Vec<f64>>,
    /// Each sample's label, ±1.
    pub ys: Vec<f64>,
    /// The outlier's index (the last one).
    pub outlier: usize,
}

impl Data {
    /// Draws the data of a (valid) config: class ±1 around (±sep, 0) with `spread` in the plane,
    /// every noise coordinate N(0, noise²); the outlier exactly at its configured position in the
    /// plane (its noise coordinates drawn like everyone's), labelled +1.
    pub fn generate(config: &TheoryConfig) -> Self {
        let mut rng = Rng::derive(config.seed, "theory-data");
        let mut xs = Vec::with_capacity(config.samples());
        let mut ys = Vec::with_capacity(config.samples());
        let noise = |rng: &mut Rng, x: &mut Vec<f64>| {
            x.extend((0..config.noise_dims).map(|_| config.noise * rng.normal()));
        };
        for label in [1.0, -1.0] {
            for _ in 0..config.per_class {
                let mut x = vec![
                    label * config.sep + config.spread * rng.normal(),
                    config.spread * rng.normal(),
                ];
                noise(&mut rng, &mut x);
                xs.push(x);
                ys.push(label);
            }
        }
        let mut x = vec![config.outlier_x, config.outlier_y];
        noise(&mut rng, &mut x);
        xs.push(x);
        ys.push(1.0);
        Self { outlier: xs.len() - 1, xs, ys }
    }

    /// How many samples (the outlier included).
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// Whether there are none (never, for generated data).
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// Every sample in the signal plane, with its label (for plotting).
    pub fn points(&self) -> Vec<Point> {
        self.xs
            .iter()
            .zip(&self.ys)
            .map(|(x, &y)| Point { x: x[0], y: x[1], label: if y > 0.0 { 1 } else { -1 } })
            .collect()
    }
}

/// `a·b`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The batch order: a seeded permutation of all `n` samples per epoch, cut into batches of `size`
/// (an incomplete last batch dropped). The same for a run and its twin: the twin drops the outlier
/// from its batch afterwards.
#[derive(Clone, Debug)]
pub struct Batches {
    rng: Rng,
    order: Vec<usize>,
    pos: usize,
    size: usize,
    /// The epoch of the last batch drawn (0-based).
    pub epoch: usize,
}

impl Batches {
    /// The order for `n` samples in batches of `size` (`1 ≤ size ≤ n`).
    pub fn new(seed: u64, n: usize, size: usize) -> Self {
        let mut rng = Rng::derive(seed, "theory-batches");
        let order = rng.permutation(n);
        Self { rng, order, pos: 0, size, epoch: 0 }
    }

    /// The next batch's indices.
    pub fn next_batch(&mut self) -> Vec<usize> {
        if self.pos + self.size > self.order.len() {
            self.order = self.rng.permutation(self.order.len());
            self.pos = 0;
            self.epoch += 1;
        }
        let batch = self.order[self.pos..self.pos + self.size].to_vec();
        self.pos += self.size;
        batch
    }
}
