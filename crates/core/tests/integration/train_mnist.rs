//! Training on a small real MNIST subset: the paper's first claim, on burn-ndarray.

mod common;

use burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName};
use spotlight_core::experiment_data::{DeviceData, ExperimentData};
use spotlight_core::train::Trainer;

#[allow(deprecated)]
fn train(config: &Config, batch_norm: bool) -> Vec<spotlight_core::report::EpochRecord> {
    let ds = common::load(config.dataset);
    let data = ExperimentData::build(config, &ds, None).unwrap();
    let dev = DeviceData::new(&data, &Device::ndarray());
    let mut t = Trainer::new(config, config.variant(batch_norm), &data, &dev, data.members(), config.seed);
    pollster::block_on(async {
        while !t.finished() {
            let info = t.step().await.unwrap();
            if info.epoch_done {
                t.end_epoch(&data).await.unwrap();
            }
        }
    });
    t.records().to_vec()
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
    assert!(a.acc_flipped.unwrap() > chance, "BN flipped accuracy {} not above chance", a.acc_flipped.unwrap());
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
