//! The canary on real MNIST: a drawing planted among the members with a label of the student's
//! choice is followed through training (prediction, probability of its label, gradient norm) and
//! scored by the attack, for the BN and the no-BN model.

use crate::common;

use burn::tensor::Device;
use spotlight_core::canary;
use spotlight_core::config::{Config, DatasetName};
use spotlight_core::data::transforms::SampleKind;
use spotlight_core::experiment_data::ExperimentData;
use spotlight_core::local;

/// A "7" (a bar and a diagonal), to be planted as a 3.
fn seven() -> String {
    let px: Vec<bool> = (0..canary::SIDE * canary::SIDE)
        .map(|i| {
            let (r, c) = (i / canary::SIDE, i % canary::SIDE);
            (r == 6 && (6..22).contains(&c))
                || ((7..24).contains(&r) && c == 21 - (r - 7) * 10 / 17)
        })
        .collect();
    canary::encode(&px)
}

fn config() -> Config {
    Config {
        dataset: DatasetName::Mnist,
        train_size: 300,
        test_size: 100,
        label_noise: 0.1,
        epochs: 2,
        batch_size: 50,
        probe_size: 4,
        live_points: 0,
        shadow_models: 2,
        seed: 11,
        canary: seven(),
        canary_label: 3,
        ..Config::default()
    }
}

#[test]
fn the_canary_is_planted_in_place_of_a_clean_member() {
    let ds = common::load(DatasetName::Mnist);
    let c = config();
    let data = ExperimentData::build(&c, &ds, None).unwrap();
    let i = data.canary.expect("planted");
    assert!(data.is_member[i], "a member of the target");
    assert_eq!((data.kind(i), data.pool.labels[i]), (SampleKind::Canary, 3));
    assert_eq!(
        data.pool.images[i * 784..(i + 1) * 784],
        canary::to_image(&canary::decode(&c.canary).unwrap())[..]
    );
    assert_eq!(data.pool.kinds.iter().filter(|k| **k == SampleKind::Canary).count(), 1);
    // Everything else is the data of the same config without a canary.
    let plain =
        ExperimentData::build(&Config { canary: String::new(), ..c.clone() }, &ds, None).unwrap();
    assert_eq!(plain.canary, None);
    assert_eq!(plain.is_member, data.is_member);
    for j in (0..plain.pool.labels.len()).filter(|&j| j != i) {
        assert_eq!(
            (plain.pool.labels[j], plain.kind(j)),
            (data.pool.labels[j], data.kind(j)),
            "sample {j}"
        );
    }
    // Flipped labels are still exactly 10 % of the members other than it.
    let flipped = (0..data.pool.labels.len())
        .filter(|&j| data.is_member[j] && data.kind(j) == SampleKind::Flipped)
        .count();
    assert_eq!(flipped, 30);
    // A bad drawing is an error, not a run without it.
    let bad = Config { canary: "A".repeat(canary::TEXT_LEN), ..c };
    assert!(ExperimentData::build(&bad, &ds, None).unwrap_err().to_string().contains("canary"));
}

#[test]
#[allow(deprecated)]
fn each_model_follows_the_canary_and_the_attack_scores_it() {
    let ds = common::load(DatasetName::Mnist);
    let c = config();
    let report =
        pollster::block_on(local::run(&c, &ds, None, &Device::flex(), "flex", |_| ())).unwrap();
    assert_eq!(report.runs.len(), 2, "BN and no-BN");
    for run in &report.runs {
        assert!(run.error.is_none(), "{:?}", run.error);
        assert_eq!(run.epochs.len(), 3, "epochs 0, 1, 2");
        for e in &run.epochs {
            let p =
                e.canary.as_ref().unwrap_or_else(|| panic!("epoch {}: no canary point", e.epoch));
            assert!(p.predicted < 10 && (0.0..=1.0).contains(&p.p_label), "{p:?}");
            assert!(p.grad_norm.is_finite() && p.grad_norm > 0.0, "{p:?}");
        }
        let a = run.attack.as_ref().expect("the attack ran");
        let s = a.canary.as_ref().expect("the attack scores the canary");
        assert_eq!(s.candidates, 600);
        assert!((1..=600).contains(&s.rank), "{s:?}");
        assert!(
            (s.confidence - canary::member_confidence(s.score)).abs() < 1e-12
                && s.confidence > 0.0
                && s.confidence < 1.0
        );
        assert!(s.median_clean_member > 0.0 && s.median_non_member > 0.0);
        // Its place among the members is where the gallery of exposed members has it.
        let m = s.member_rank.expect("the member rank");
        assert!((1..=a.members).contains(&m) && m <= s.rank, "{s:?}");
        let shown = a.exposed.iter().position(|e| e.kind == SampleKind::Canary);
        assert_eq!(shown.map(|p| p + 1), (m <= a.exposed.len()).then_some(m), "{s:?}");
        eprintln!(
            "{:?}: canary predicted {:?}, p(3) {:?}, attack confidence {:.3} (rank {} of {})",
            report.variant(run),
            run.epochs.iter().map(|e| e.canary.as_ref().unwrap().predicted).collect::<Vec<_>>(),
            run.epochs
                .iter()
                .map(|e| format!("{:.2}", e.canary.as_ref().unwrap().p_label))
                .collect::<Vec<_>>(),
            s.confidence,
            s.rank,
            s.candidates
        );
    }
    // The report is what the CLI writes and the page reads: the canary survives JSON.
    let back: spotlight_core::Report = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(back.runs[0].epochs[1].canary, report.runs[0].epochs[1].canary);
    assert_eq!(
        back.runs[1].attack.as_ref().unwrap().canary,
        report.runs[1].attack.as_ref().unwrap().canary
    );
}
