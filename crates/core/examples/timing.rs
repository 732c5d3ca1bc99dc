use std::time::Instant;
use burn::tensor::Device;
use spotlight_core::config::Config;
use spotlight_core::data::Dataset;
use spotlight_core::experiment::{DeviceData, ExperimentData};
use spotlight_core::train::Trainer;

fn main() {
    let bytes = std::fs::read("public/data/mnist.spds.gz").unwrap();
    let ds = Dataset::decode("mnist", &bytes).unwrap();
    let dev_name = std::env::args().nth(1).unwrap_or("ndarray".into());
    #[allow(deprecated)]
    #[allow(deprecated)] let device = if dev_name == "flex" { Device::flex() } else { Device::ndarray() };
    for bn in [true, false] {
        let config = Config { train_size: 2000, label_noise: 0.2, epochs: 1, batch_size: 64, probe_size: 32, shadow_models: 0, ..Config::default() };
        let data = ExperimentData::build(&config, &ds, None).unwrap();
        let dd = DeviceData::new(&data, &device);
        let mut t = Trainer::new(&config, bn, &data, &dd, data.members(), 1);
        let t0 = Instant::now();
        pollster::block_on(async { loop { let i = t.step().await.unwrap(); if i.epoch_done { break; } } });
        let t1 = Instant::now();
        pollster::block_on(async { t.end_epoch(&data).await.unwrap() });
        let t2 = Instant::now();
        println!("{dev_name} bn={bn}: {} steps in {:?} ({:.1} ms/step), end_epoch {:?}", t.steps_per_epoch(), t1 - t0, (t1 - t0).as_secs_f64() * 1000.0 / t.steps_per_epoch() as f64, t2 - t1);
    }
}
