//! Training on a small real MNIST subset, on burn-ndarray: the paper's first claim, and the
//! mechanism's measures (`report::Mechanism`) untrained and after one epoch — shapes, signs and the
//! per-unit-learning-rate normalization.

use crate::common;

use burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName};
use spotlight_core::experiment_data::{DeviceData, ExperimentData};
use spotlight_core::report::{EpochRecord, Mechanism};
use spotlight_core::train::{Trainer, error_norm, margin};

/// The epoch records of one model trained on `config`, each epoch's end measured.
fn train(config: &Config, batch_norm: bool) -> Vec<EpochRecord> {
    run(config, batch_norm, false, true)
}

/// One model on `config`: the untrained model's record first (`untrained`), then, with `train`,
/// each trained epoch's.
#[allow(deprecated)]
fn run(config: &Config, batch_norm: bool, untrained: bool, train: bool) -> Vec<EpochRecord> {
    let ds = common::load(config.dataset);
    let data = ExperimentData::build(config, &ds, None).unwrap();
    let dev = DeviceData::new(&data, &Device::ndarray());
    let mut t = Trainer::new(
        config,
        config.variant(batch_norm.into()),
        &data,
        &dev,
        data.members(),
        config.seed,
    );
    pollster::block_on(async {
        let mut out = Vec::new();
        if untrained {
            out.push(t.measure_start(&data).await.unwrap());
        }
        while train && !t.finished() {
            if t.step().await.unwrap().epoch_done {
                out.push(t.end_epoch(&data).await.unwrap());
            }
        }
        out
    })
}

#[test]
fn bn_memorizes_flipped_labels_faster_than_no_bn() {
    let config = Config {
        dataset: DatasetName::Mnist,
        train_size: 2000,
        test_size: 1000,
        label_noise: 0.2,
        epochs: 6,
        batch_size: 64,
        learning_rate: 1e-3,
        probe_size: 32,
        shadow_models: 0,
        seed: 3,
        ..Config::default()
    };
    let bn = train(&config, true);
    let plain = train(&config, false);
    for (a, b) in bn.iter().zip(&plain) {
        eprintln!(
            "epoch {}: flipped acc BN {:.3} / no-BN {:.3}; clean {:.3} / {:.3}; test {:.3} / {:.3}; loss {:.3} / {:.3}",
            a.epoch,
            a.acc_flipped.unwrap(),
            b.acc_flipped.unwrap(),
            a.acc_clean.unwrap(),
            b.acc_clean.unwrap(),
            a.acc_test,
            b.acc_test,
            a.train_loss,
            b.train_loss
        );
    }
    let (a, b) = (bn.last().unwrap(), plain.last().unwrap());
    let chance = 1.0 / 10.0;
    assert!(
        a.acc_flipped.unwrap() > chance,
        "BN flipped accuracy {} not above chance",
        a.acc_flipped.unwrap()
    );
    assert!(
        a.acc_flipped.unwrap() > b.acc_flipped.unwrap(),
        "BN flipped accuracy {} not above no-BN {}",
        a.acc_flipped.unwrap(),
        b.acc_flipped.unwrap()
    );
    // Both still learn the task from the clean 80%.
    assert!(a.acc_test > 0.8 && b.acc_test > 0.7, "test accuracy {} / {}", a.acc_test, b.acc_test);
    // The records carry every lens.
    assert_eq!(a.gamma_sigma.len(), 4);
    assert!(b.gamma_sigma.is_empty());
    assert_eq!(a.grad_norms.clean.len(), 32);
    assert_eq!(a.grad_norms.noisy.len(), 32);
    assert!(a.grad_norms.noisy.iter().all(|x| x.is_finite() && *x >= 0.0));
    assert!(a.penalty.is_some() && b.penalty.is_none());
}

fn small(lr: f64) -> Config {
    Config {
        dataset: DatasetName::Mnist,
        train_size: 600,
        test_size: 100,
        label_noise: 0.1,
        epochs: 1,
        batch_size: 32,
        learning_rate: lr,
        probe_size: 8,
        shadow_models: 0,
        seed: 5,
        ..Config::default()
    }
}

/// The epoch-0 record and, with `train`, the epoch-1 record.
fn measure(config: &Config, batch_norm: bool, train: bool) -> Vec<EpochRecord> {
    run(config, batch_norm, true, train)
}

fn mechanism(r: &EpochRecord) -> &Mechanism {
    r.mechanism.as_ref().expect("target records carry the mechanism")
}

fn median(v: &[f32]) -> f64 {
    spotlight_core::report::median(v).unwrap()
}

#[test]
fn margin_and_error_are_what_they_say() {
    assert_eq!(margin(&[1.0, 3.0, 2.0], 1), 1.0);
    assert_eq!(margin(&[1.0, 3.0, 2.0], 0), -2.0);
    // A confident right answer has almost no error; a uniform one has √(1 − 1/k).
    assert!(error_norm(&[20.0, 0.0, 0.0], 0) < 1e-6);
    assert!((error_norm(&[0.0; 4], 2) - (0.75f64).sqrt()).abs() < 1e-9);
}

#[test]
fn every_probe_gets_every_measure() {
    for bn in [true, false] {
        let records = measure(&small(1e-3), bn, true);
        for r in &records {
            let m = mechanism(r);
            for g in [&m.influence_sgd, &m.influence_run, &m.scaled_grad] {
                assert_eq!((g.clean.len(), g.noisy.len()), (8, 8), "BN {bn}, epoch {}", r.epoch);
                assert!(g.clean.iter().chain(&g.noisy).all(|x| x.is_finite()), "{g:?}");
            }
            assert!(m.scaled_grad.noisy.iter().all(|x| *x > 0.0));
            assert_eq!(m.gamma_push.len(), if bn { 4 } else { 0 });
            assert!(
                m.gamma_push
                    .iter()
                    .all(|p| p.noisy.len() == 8 && p.noisy.iter().all(|x| x.is_finite()))
            );
        }
        // A step on a batch that holds a sample raises that sample's own margin more than the same
        // step without it: the self-influence of most probes is positive, untrained and trained.
        for r in &records {
            let m = mechanism(r);
            for g in [&m.influence_sgd, &m.influence_run] {
                let positive = g.noisy.iter().chain(&g.clean).filter(|x| **x > 0.0).count();
                assert!(
                    positive >= 12,
                    "BN {bn}, epoch {}: {positive} of 16 positive: {g:?}",
                    r.epoch
                );
            }
        }
    }
}

#[test]
fn plain_sgd_influence_is_per_unit_learning_rate() {
    // To first order one SGD step's margin change is ∝ the learning rate, so the measure (divided
    // by it) barely moves when the rate halves. (Not so Adam's first step: it moves every weight
    // by about the rate whatever its gradient, far from small; measured here 590 vs 660 for BN.)
    for bn in [true, false] {
        let a = measure(&small(1e-3), bn, false);
        let b = measure(&small(5e-4), bn, false);
        let (ma, mb) = (mechanism(&a[0]), mechanism(&b[0]));
        for (x, y) in [
            (&ma.influence_sgd.noisy, &mb.influence_sgd.noisy),
            (&ma.influence_sgd.clean, &mb.influence_sgd.clean),
        ] {
            let (x, y) = (median(x), median(y));
            assert!(
                (x - y).abs() <= 0.05 * x.abs().max(y.abs()) + 1e-4,
                "BN {bn}: {x} at lr 1e-3, {y} at 5e-4"
            );
        }
    }
}
