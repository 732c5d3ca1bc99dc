//! The same code on two CPU backends, and a non-finite loss stopping the run with an error.

use crate::common;

use burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName, Norm};
use spotlight_core::experiment_data::{DeviceData, ExperimentData};
use spotlight_core::report::{EpochRecord, median};
use spotlight_core::train::{TrainError, Trainer};

fn small() -> Config {
    Config {
        dataset: DatasetName::Mnist,
        train_size: 256,
        test_size: 200,
        label_noise: 0.2,
        epochs: 1,
        batch_size: 32,
        probe_size: 16,
        shadow_models: 0,
        seed: 11,
        ..Config::default()
    }
}

fn one_epoch(config: &Config, device: &Device, norm: Norm) -> EpochRecord {
    let ds = common::load(config.dataset);
    let data = ExperimentData::build(config, &ds, None).unwrap();
    let dev = DeviceData::new(&data, device);
    let mut t =
        Trainer::new(config, config.variant(norm), &data, &dev, data.members(), config.seed);
    pollster::block_on(async {
        loop {
            if t.step().await.unwrap().epoch_done {
                return t.end_epoch(&data).await.unwrap();
            }
        }
    })
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-6)
}

#[test]
#[allow(deprecated)]
fn ndarray_and_flex_agree() {
    let config = Config { groups: 3, ..small() };
    // GroupNorm and LayerNorm: Spotlight's kernel on burn-flex, burn's ops on burn-ndarray.
    for bn in Norm::ALL {
        let a = one_epoch(&config, &Device::ndarray(), bn);
        let b = one_epoch(&config, &Device::flex(), bn);
        // Same seed, same data, same init: only float summation order differs between backends.
        assert!(
            close(a.train_loss, b.train_loss, 1e-3),
            "{bn:?}: loss {} vs {}",
            a.train_loss,
            b.train_loss
        );
        assert!(
            (a.acc_test - b.acc_test).abs() <= 0.02,
            "{bn:?}: test acc {} vs {}",
            a.acc_test,
            b.acc_test
        );
        // Per-sample gradients are not unique: max-pooling over a window of tied values (flat
        // background gives identical activations) may route the gradient to any of them, and
        // backends break ties differently. A single sample's norm can then differ by ~10 %; the
        // batch-averaged training (the loss above) does not notice. Compare the groups' medians.
        for (x, y) in
            [(&a.grad_norms.noisy, &b.grad_norms.noisy), (&a.grad_norms.clean, &b.grad_norms.clean)]
        {
            let (mx, my) = (median(x).unwrap(), median(y).unwrap());
            assert!(close(mx, my, 0.1), "{bn:?}: median grad norm {mx} vs {my}");
        }
        assert_eq!(a.gamma_sigma.len(), if bn == Norm::None { 0 } else { 4 });
        for (x, y) in a.gamma_sigma.iter().zip(&b.gamma_sigma) {
            assert!(
                close(x.running, y.running, 1e-3),
                "{bn:?}: γ/σ {} vs {}",
                x.running,
                y.running
            );
        }
    }
}

#[test]
#[allow(deprecated)]
fn non_finite_loss_stops_with_an_error() {
    let config = Config { epochs: 3, ..small() };
    let ds = common::load(config.dataset);
    let mut data = ExperimentData::build(&config, &ds, None).unwrap();
    data.std = 0.0; // every normalized pixel becomes ±inf: the loss is NaN from the first step
    let dev = DeviceData::new(&data, &Device::ndarray());
    let mut t = Trainer::new(&config, config.variant(Norm::Batch), &data, &dev, data.members(), 1);
    let err = pollster::block_on(async {
        loop {
            match t.step().await {
                Ok(info) if info.epoch_done => {
                    if let Err(e) = t.end_epoch(&data).await {
                        return e;
                    }
                }
                Ok(_) => {}
                Err(e) => return e,
            }
        }
    });
    assert!(matches!(err, TrainError::NonFinite { epoch: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("learning rate"), "{err}");
}
