//! The live read-outs on real MNIST: taken where `live_points` says, and — on a run so small that
//! the live sample is the whole pool — equal to the epoch records and to the loss attack.

use crate::common;

use burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName};
use spotlight_core::local;
use spotlight_core::train::LIVE_SAMPLE;

#[test]
#[allow(deprecated)]
fn live_read_outs_follow_training_and_agree_with_the_epoch_records() {
    // 60 members (6 flipped, 54 clean) and 60 non-members: every group fits in the live sample.
    // 6 steps an epoch; 3 read-outs an epoch: after steps 2 and 4, and at the epoch's end.
    let config = Config {
        dataset: DatasetName::Mnist,
        train_size: 60,
        test_size: 50,
        label_noise: 0.1,
        epochs: 2,
        batch_size: 10,
        probe_size: 2,
        live_points: 3,
        shadow_models: 2,
        seed: 4,
        ..Config::default()
    };
    assert!(config.train_size <= LIVE_SAMPLE);
    let ds = common::load(config.dataset);
    let report =
        pollster::block_on(local::run(&config, &ds, None, &Device::ndarray(), "ndarray", |_| ()))
            .unwrap();
    assert_eq!(report.runs.len(), 2);
    for run in &report.runs {
        assert!(run.error.is_none(), "{:?}", run.error);
        let at: Vec<f64> = run.live.iter().map(|p| p.at).collect();
        let want = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0, 4.0 / 3.0, 5.0 / 3.0, 2.0];
        assert_eq!(at.len(), want.len(), "{at:?}");
        assert!(at.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12), "{at:?}");
        // At each epoch's end (and at 0) the live sample is every member: the same accuracies.
        for e in &run.epochs {
            let p = run
                .live
                .iter()
                .find(|p| p.at == e.epoch as f64)
                .expect("a read-out at each epoch's end");
            assert_eq!(p.acc_noisy, e.acc_flipped, "epoch {}", e.epoch);
            assert_eq!(p.acc_clean, e.acc_clean, "epoch {}", e.epoch);
        }
        // The last read-out is of the attacked model, on all members and non-members with weight 1.
        let last = run.live.last().unwrap().loss_auc.expect("non-members: the attack is on");
        let attack = run.attack.as_ref().expect("the attack ran").loss.auc;
        assert!((last - attack).abs() < 1e-9, "live loss AUC {last} vs the loss attack's {attack}");
        assert!(run.live.iter().all(|p| p.loss_auc.is_some_and(|a| (0.0..=1.0).contains(&a))));
    }
    let none = Config { live_points: 0, ..config };
    let report =
        pollster::block_on(local::run(&none, &ds, None, &Device::ndarray(), "ndarray", |_| ()))
            .unwrap();
    assert!(
        report.runs.iter().all(|r| r.live.is_empty() && r.epochs.len() == 3),
        "live_points = 0: no read-outs"
    );
}
