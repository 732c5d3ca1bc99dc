//! End to end on real MNIST: train a target with heavy label noise, shadow models, then the
//! loss-threshold attack and LiRA.

use crate::common;

use burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName, Norm};
use spotlight_core::{experiment, local};

#[test]
#[allow(deprecated)]
fn lira_beats_chance_on_a_model_trained_with_heavy_label_noise() {
    let config = Config {
        dataset: DatasetName::Mnist,
        compare: false,
        norm: Norm::Batch,
        train_size: 500,
        test_size: 200,
        label_noise: 0.4,
        epochs: 6,
        batch_size: 50,
        probe_size: 8,
        shadow_models: 4,
        seed: 5,
        ..Config::default()
    };
    let ds = common::load(config.dataset);
    let mut last = None;
    let report =
        pollster::block_on(local::run(&config, &ds, None, &Device::ndarray(), "ndarray", |b| {
            last = Some(b.fraction())
        }))
        .unwrap();
    assert_eq!(last, Some(1.0), "progress reaches 100%");
    let run = &report.runs[0];
    assert!(run.error.is_none(), "{:?}", run.error);
    let a = run.attack.as_ref().expect("the attack ran");
    eprintln!(
        "loss AUC {:.3}, LiRA online AUC {:.3} (TPR@1% {:.3}), offline AUC {:.3}; flipped acc {:?}",
        a.loss.auc,
        a.lira_online.auc,
        a.lira_online.tpr_at(0.01).unwrap(),
        a.lira_offline.auc,
        run.last().unwrap().acc_flipped
    );
    assert_eq!((a.members, a.non_members), (500, 500));
    assert!(a.loss.auc > 0.6, "loss-threshold AUC {}", a.loss.auc);
    assert!(a.lira_online.auc > 0.6, "LiRA AUC {}", a.lira_online.auc);
    // At 1 % FPR a blind guess finds 1 % of the members; with 40 % of the labels flipped LiRA finds more.
    let tpr = a.lira_online.tpr_at(0.01).unwrap();
    assert!(tpr > 0.01 && tpr <= 1.0, "TPR at 1 % FPR {tpr}");
    assert!(
        a.lira_online.points.len() > 10 && a.lira_online.points.len() <= experiment::ROC_POINTS
    );
    assert_eq!(a.exposed.len(), experiment::EXPOSED_SHOWN);
    assert!(a.exposed.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(a.exposed.iter().all(|e| e.pixels.len() == 784));
    // Each exposed member as the attack saw it (the page's per-sample view): its φ, the shadows'
    // (2 IN and 2 OUT of 4), and the Gaussians fitted to them give the attack's own score.
    for e in &a.exposed {
        let l = e.lira.as_ref().expect("the attack's view of an exposed member");
        assert_eq!(l.online, e.score);
        assert_eq!((l.phi_in.len(), l.phi_out.len()), (2, 2));
        assert_eq!(l.fitted.online(l.phi), Some(l.online));
        assert_eq!(l.fitted.mu_out, l.phi_out.iter().sum::<f64>() / 2.0);
    }
    // Stepping along the ROC: everything flagged at 100 % FPR, and at 1 % the members the
    // attack is surest of, as many as its TPR says.
    let all = a.flags_at(1.0);
    assert_eq!((all.flagged, all.false_positives, all.shown), (500, 500, 16));
    let one = a.flags_at(0.01);
    assert!(one.fpr <= 0.01, "{one:?}");
    assert_eq!(
        one.tpr,
        a.lira_online.tpr_at(0.01).unwrap(),
        "the exact point, not the drawn curve's"
    );
    assert_eq!(one.flagged, (one.tpr * 500.0).round() as usize);
    assert_eq!(one.shown, one.flagged.min(16));
    // What more shadows buy, at K shadows: the attack itself.
    let budget = a.budget.as_ref().expect("the shadow-count curve");
    let at_k = budget.series(true, spotlight_core::attack::variance_for(4)).last().unwrap();
    assert_eq!((at_k.shadows, at_k.auc), (4, a.lira_online.auc));
    assert_eq!(at_k.tpr_1, a.lira_online.tpr_at(0.01).unwrap());
    // The report is what the CLI writes: it survives JSON.
    let back: spotlight_core::Report = serde_json::from_str(&report.to_json()).unwrap();
    assert!(
        (back.runs[0].attack.as_ref().unwrap().lira_online.auc - a.lira_online.auc).abs() < 1e-12
    );
}
