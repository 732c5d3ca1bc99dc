use super::data::Data;
use super::lab::TheoryLab;
use super::measure::same_g;
use super::model::{Model, Params, Stats};
use super::*;
use crate::data::Rng;

/// A small, quick config.
fn small() -> TheoryConfig {
    TheoryConfig { per_class: 10, noise_dims: 12, batch_size: 6, steps: 60, ..Default::default() }
}

/// Parameters away from the init's symmetries (γ ≠ 1, β ≠ 0, c ≠ 0), so every gradient counts.
fn odd_params(dim: usize, seed: u64) -> Params {
    let mut rng = Rng::new(seed);
    Params { w: (0..dim).map(|_| rng.normal()).collect(), gamma: 1.3, beta: -0.4, a: 0.8, c: 0.25 }
}

/// Every analytic gradient against central finite differences of the mean loss.
fn check_gradient(bn: bool, stats: Stats) {
    let config = small();
    let data = Data::generate(&config);
    let model = Model { params: odd_params(config.dim(), 5), bn, eps: config.eps };
    let idx = [0, 3, 11, 14, 20, 7];
    let (_, grad) = model.gradient(&data, &idx, stats);
    let h = 1e-5;
    let n = model.params.values().count();
    for k in 0..n {
        let loss_at = |delta: f64| {
            let mut m = model.clone();
            *m.params.values_mut().nth(k).unwrap() += delta;
            m.forward(&data, &idx, stats).loss
        };
        let numeric = (loss_at(h) - loss_at(-h)) / (2.0 * h);
        let analytic = *grad.values().nth(k).unwrap();
        let scale = numeric.abs().max(analytic.abs()).max(1e-6);
        assert!(
            (numeric - analytic).abs() / scale < 1e-6,
            "bn {bn}, {stats:?}, parameter {k} of {n}: numeric {numeric}, analytic {analytic}"
        );
    }
    if !bn {
        assert_eq!((grad.gamma, grad.beta), (0.0, 0.0), "the plain model has no γ, β");
    }
}

#[test]
fn bn_gradients_match_finite_differences_through_the_batch_statistics() {
    check_gradient(true, Stats::Batch);
}

#[test]
fn bn_gradients_match_finite_differences_with_frozen_statistics() {
    check_gradient(true, Stats::Fixed { mean: 0.3, std: 1.7 });
}

#[test]
fn plain_gradients_match_finite_differences() {
    check_gradient(false, Stats::Batch);
}

#[test]
fn with_frozen_statistics_the_ratio_is_exactly_gamma_over_sigma_squared() {
    let config = small();
    let data = Data::generate(&config);
    for seed in 0..4 {
        let model = Model { params: odd_params(config.dim(), seed), bn: true, eps: config.eps };
        let idx = [data.outlier, 2, 12, 5, 17];
        let m = same_g(&model, &data, &idx, data.outlier, 0.1);
        let frozen = m.frozen.expect("a ratio");
        assert!((frozen / m.predicted - 1.0).abs() < 1e-8, "{frozen} vs {}", m.predicted);
        let live = m.live.expect("a ratio");
        assert!((live / m.predicted - 1.0).abs() > 1e-6, "live statistics change the ratio");
    }
}

#[test]
fn the_same_config_gives_the_same_report() {
    let a = run(&small()).unwrap();
    let b = run(&small()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_json(), b.to_json());
    let c = run(&TheoryConfig { seed: 2, ..small() }).unwrap();
    assert_ne!(a.steps, c.steps, "the seed matters");
}

#[test]
fn the_twin_never_sees_the_outlier_and_starts_from_the_same_init() {
    let config = small();
    let mut lab = TheoryLab::new(&config).unwrap();
    let mut twin = TheoryLab::new(&TheoryConfig { outlier: false, ..config.clone() }).unwrap();
    assert_eq!(lab.plain(), twin.plain());
    assert_eq!(lab.bn(), twin.bn());
    assert_eq!(lab.plain(), lab.bn().unwrap(), "BN and plain start from the same parameters");
    let o = lab.outlier();
    let mut seen = 0;
    for _ in 0..config.steps {
        let (r, t) = (lab.step(), twin.step());
        assert!(!t.batch.contains(&o) && !t.outlier_in_batch && t.predicted.is_none());
        let mut dropped = r.batch.clone();
        dropped.retain(|&i| i != o);
        assert_eq!(t.batch, dropped, "the same batches, the outlier dropped");
        assert_eq!(r.outlier_in_batch, r.batch.contains(&o));
        seen += usize::from(r.outlier_in_batch);
    }
    assert!(seen > 0, "the run's batches do hold the outlier");
    let report = run(&config).unwrap();
    assert_eq!(report.twin_gamma.len(), config.steps);
    assert_eq!(report.summary.measured_steps, seen);
    assert_ne!(report.summary.final_gamma, report.summary.twin_final_gamma);
}

#[test]
fn a_frozen_gamma_stays_exactly_one() {
    for optimizer in [Optimizer::Sgd, Optimizer::Adam] {
        let config = TheoryConfig { freeze_gamma: true, ..small().with_optimizer(optimizer) };
        let report = run(&config).unwrap();
        assert!(report.steps.iter().all(|r| r.after.gamma == Some(1.0)), "{optimizer:?}");
        assert!(report.twin_gamma.iter().all(|&g| g == 1.0));
        let free = run(&small().with_optimizer(optimizer)).unwrap();
        assert_ne!(free.summary.final_gamma, Some(1.0), "γ moves when not frozen");
    }
}

#[test]
fn sgd_and_adam_both_reduce_the_training_loss() {
    for optimizer in [Optimizer::Sgd, Optimizer::Adam] {
        let report = run(&small().with_optimizer(optimizer)).unwrap();
        let last = &report.steps.last().unwrap().after;
        let first = &report.initial;
        assert!(last.plain.loss < first.plain.loss, "{optimizer:?} plain");
        let (l, f) = (last.bn.as_ref().unwrap().loss, first.bn.as_ref().unwrap().loss);
        assert!(l < f, "{optimizer:?} BN: {f} → {l}");
    }
}

#[test]
fn bad_configs_are_errors() {
    let bad = [
        TheoryConfig { batch_size: 1, ..Default::default() },
        TheoryConfig { batch_size: 49, ..Default::default() },
        TheoryConfig { steps: 0, ..Default::default() },
        TheoryConfig { steps: MAX_STEPS + 1, ..Default::default() },
        TheoryConfig { lr: f64::NAN, ..Default::default() },
        TheoryConfig { lr: 0.0, ..Default::default() },
        TheoryConfig { outlier_x: f64::INFINITY, ..Default::default() },
        TheoryConfig { noise: -0.1, ..Default::default() },
        TheoryConfig { per_class: 1, ..Default::default() },
        TheoryConfig { eps: 0.0, ..Default::default() },
    ];
    for c in &bad {
        let e = TheoryLab::new(c).expect_err("invalid");
        assert!(!e.to_string().is_empty());
        assert!(run(c).is_err());
    }
    assert_eq!(
        TheoryConfig { batch_size: 49, ..Default::default() }.validate(),
        Err(TheoryError::OutOfRange { field: "batch_size", value: 49.0, min: 2.0, max: 48.0 })
    );
    assert_eq!(
        TheoryConfig { lr: f64::NAN, ..Default::default() }.validate(),
        Err(TheoryError::NotFinite { field: "lr" })
    );
    assert!(TheoryConfig::default().validate().is_ok());
    let parsed: TheoryConfig = serde_json::from_str(r#"{"steps": 7}"#).unwrap();
    assert_eq!(parsed, TheoryConfig { steps: 7, ..Default::default() });
    assert!(serde_json::from_str::<TheoryConfig>(r#"{"stepz": 7}"#).is_err());
}

#[test]
fn the_boundary_line_agrees_with_the_read_out() {
    let config = small();
    let mut lab = TheoryLab::new(&config).unwrap();
    for _ in 0..20 {
        lab.step();
    }
    let r = lab.step();
    let data = lab.data();
    let members: Vec<usize> = (0..data.len()).collect();
    let dim = config.dim();
    let models = [
        (lab.plain(), false, r.after.plain.line),
        (lab.bn().unwrap(), true, r.after.bn.unwrap().line),
    ];
    for (params, bn, line) in models {
        let model = Model { params: params.clone(), bn, eps: config.eps };
        let (mean, std) = model.population(data, &members);
        assert_eq!(model.line(mean, std), line);
        for (x, y) in [(0.0, 0.0), (1.0, -0.5), (-0.9, 0.2), (0.3, 2.0), (-2.0, -1.0)] {
            let mut input = vec![0.0; dim];
            input[0] = x;
            input[1] = y;
            let f = model.logit(&input, mean, std);
            assert!((line.logit(x, y) - f).abs() < 1e-9 * (1.0 + f.abs()), "bn {bn}");
            assert_eq!(line.logit(x, y) > 0.0, f > 0.0);
        }
    }
}

#[test]
fn the_table_lists_measured_steps_and_the_summary() {
    let report = run(&small()).unwrap();
    let table = report.to_table(2);
    let rows = table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| step")).count();
    assert_eq!(rows, report.summary.measured_steps.div_ceil(2));
    assert!(table.contains("Outlier's final margin"));
    let margins: Vec<f64> = report.steps.iter().map(|r| r.after.plain.outlier_margin).collect();
    match report.summary.fitted_step_plain {
        Some(s) => {
            assert!(margins[s - 1..].iter().all(|&m| m > 0.0));
            assert!(s == 1 || margins[s - 2] <= 0.0);
        }
        None => assert!(*margins.last().unwrap() <= 0.0),
    }
    let plain_only = run(&TheoryConfig { bn: false, ..small() }).unwrap();
    assert!(plain_only.twin_gamma.is_empty() && plain_only.summary.final_margin_bn.is_none());
    assert_eq!(plain_only.summary.measured_steps, 0);
    assert!(plain_only.to_table(1).contains("| 1 | — |"));
}

#[test]
fn adams_first_steps_move_each_weight_by_about_lr_against_its_gradient() {
    use super::optim::OptState;
    let dim = 3;
    let mut p = odd_params(dim, 5);
    let start = p.clone();
    // Bias-corrected, Adam's first step is lr · g/(|g| + ε): −lr·sign(g) for any gradient scale.
    let mut g = odd_params(dim, 6);
    for (k, v) in g.values_mut().enumerate() {
        *v *= 10f64.powi((k % 3) as i32);
    }
    let mut adam = OptState::new(Optimizer::Adam, 0.01, dim);
    adam.step(&mut p, &g);
    for ((after, before), grad) in p.values().zip(start.values()).zip(g.values()) {
        let want = -0.01 * grad.signum();
        assert!(
            (after - before - want).abs() < 1e-5,
            "moved {} for gradient {grad}",
            after - before
        );
    }
    // With the same gradient again, the second step is the same size (m/√v stays ±1).
    let mid = p.clone();
    adam.step(&mut p, &g);
    for ((after, before), grad) in p.values().zip(mid.values()).zip(g.values()) {
        assert!((after - before + 0.01 * grad.signum()).abs() < 1e-5);
    }
    // A zero gradient never moves its weight.
    let mut z = Params::zeros(dim);
    z.a = 1.0;
    let mut q = start.clone();
    OptState::new(Optimizer::Adam, 0.01, dim).step(&mut q, &z);
    assert_eq!(q.w, start.w);
}
