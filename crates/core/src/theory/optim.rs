//! SGD and Adam, by hand.

use super::Optimizer;
use super::model::Params;

/// Adam's β1.
pub const BETA1: f64 = 0.9;
/// Adam's β2.
pub const BETA2: f64 = 0.999;
/// Adam's ε.
pub const ADAM_EPS: f64 = 1e-8;

/// An optimizer and its state for one model.
#[derive(Clone, Debug, PartialEq)]
pub enum OptState {
    /// `p ← p − lr·g`.
    Sgd {
        /// The learning rate.
        lr: f64,
    },
    /// Adam with bias correction.
    Adam {
        /// The learning rate.
        lr: f64,
        /// Steps taken.
        t: i32,
        /// The first moment.
        m: Params,
        /// The second moment.
        v: Params,
    },
}

impl OptState {
    /// A fresh optimizer for parameters with a filter of `dim` coordinates.
    pub fn new(optimizer: Optimizer, lr: f64, dim: usize) -> Self {
        match optimizer {
            Optimizer::Sgd => Self::Sgd { lr },
            Optimizer::Adam => {
                Self::Adam { lr, t: 0, m: Params::zeros(dim), v: Params::zeros(dim) }
            }
        }
    }

    /// One step on `params` with the gradient `grad`. A parameter whose gradient is always 0 never
    /// moves, under either optimizer.
    pub fn step(&mut self, params: &mut Params, grad: &Params) {
        match self {
            Self::Sgd { lr } => {
                for (p, g) in params.values_mut().zip(grad.values()) {
                    *p -= *lr * g;
                }
            }
            Self::Adam { lr, t, m, v } => {
                *t = t.saturating_add(1);
                let (c1, c2) = (1.0 - BETA1.powi(*t), 1.0 - BETA2.powi(*t));
                for (((p, g), m), v) in
                    params.values_mut().zip(grad.values()).zip(m.values_mut()).zip(v.values_mut())
                {
                    *m = BETA1 * *m + (1.0 - BETA1) * g;
                    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                    *p -= *lr * (*m / c1) / ((*v / c2).sqrt() + ADAM_EPS);
                }
            }
        }
    }
}
