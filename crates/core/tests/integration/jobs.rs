//! The sharded path (one job per model, then `assemble`) gives the same report as a run here
//! (`local`: the CLI's and the page's fallback), and so does a `Board` fed as parallel workers
//! feed it; a run here trains its target models side by side and stops when cancelled; and the
//! regularizers do what they say.

use crate::common;

use burn::tensor::Device;
use spotlight_core::config::{Config, DatasetName, Norm, RegKind, Variant};
use spotlight_core::experiment_data::{DeviceData, ExperimentData};
use spotlight_core::jobs::{self, JobResult};
use spotlight_core::local;
use spotlight_core::train::Trainer;

fn tiny() -> Config {
    Config {
        dataset: DatasetName::Mnist,
        train_size: 200,
        test_size: 100,
        label_noise: 0.2,
        epochs: 2,
        batch_size: 50,
        probe_size: 4,
        shadow_models: 3,
        seed: 5,
        ..Config::default()
    }
}

/// GroupNorm beside LayerNorm: both train, every lens is measured for both (γ/σ per layer, the
/// mechanism, LiRA with shadows of the same architecture, the exposed members' history). A run here
/// goes through the jobs (one engine): the sharded path's equality is the test below's.
#[test]
fn groupnorm_and_layernorm_models_run_with_every_lens() {
    let config = Config { norm: Norm::Group, versus: Norm::Layer, groups: 3, ..tiny() };
    let ds = common::load(config.dataset);
    let device = Device::flex();
    let direct =
        pollster::block_on(local::run(&config, &ds, None, &device, "flex", |_| {})).unwrap();
    let variants: Vec<Variant> = direct.runs.iter().map(|r| direct.variant(r)).collect();
    assert_eq!(variants, [Variant::Gn, Variant::Ln]);
    for run in &direct.runs {
        assert!(run.error.is_none(), "{:?}", run.error);
        let last = run.last().expect("trained");
        assert_eq!(last.gamma_sigma.len(), 4, "γ/σ of each normalization layer");
        assert!(last.gamma_sigma.iter().all(|g| g.batch.is_finite() && g.batch > 0.0));
        // Inference divides by each sample's own σ: the "running" γ/σ is the batch one.
        assert!(last.gamma_sigma.iter().all(|g| g.running == g.batch));
        let m = last.mechanism.as_ref().expect("the mechanism measured");
        assert_eq!(m.gamma_push.len(), 4, "the push on γ of each layer");
        let attack = run.attack.as_ref().expect("attacked");
        assert!(attack.lira_online.auc.is_finite());
        // Each exposed member's loss and margin at every measured epoch; at the last one, the
        // same model the attack scored: its φ = log(p / (1 − p)), p = e^(−loss).
        assert!(!attack.exposed.is_empty());
        for e in &attack.exposed {
            let lira = e.lira.as_ref().expect("scored");
            let epochs: Vec<usize> = lira.history.iter().map(|h| h.epoch).collect();
            assert_eq!(epochs, (0..=config.epochs).collect::<Vec<_>>());
            let loss = f64::from(lira.history.last().unwrap().loss);
            if loss > 1e-5 {
                // (Below it the f32 loss has lost φ's digits: 1 − p ≈ loss.)
                let p = (-loss).exp();
                let phi = (p / (1.0 - p)).ln();
                assert!(
                    (phi - lira.phi).abs() < 1e-2 * (1.0 + phi.abs()),
                    "φ {} vs {phi}",
                    lira.phi
                );
            }
        }
    }
}

#[test]
fn jobs_merged_give_the_report_of_a_run_here() {
    let config = tiny();
    let ds = common::load(config.dataset);
    let device = Device::flex();
    let direct =
        pollster::block_on(local::run(&config, &ds, None, &device, "flex", |_| {})).unwrap();
    let results: Vec<JobResult> = jobs::jobs_of(&config)
        .iter()
        .map(|j| pollster::block_on(jobs::run_job(j, &ds, None, &device, "flex", || 0.0)).unwrap())
        .collect();
    assert_eq!(results.len(), 2 + 2 * 3);
    // Through JSON, as the job files are.
    let results: Vec<JobResult> = results
        .iter()
        .map(|r| serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap())
        .collect();
    let merged =
        jobs::assemble(&config, &ds, None, |k| results.iter().find(|r| r.key == k)).unwrap();
    for (m, d) in merged.runs.iter().zip(&direct.runs) {
        for (a, b) in m.epochs.iter().zip(&d.epochs) {
            assert_eq!(a, b, "epoch {} of bn={}", a.epoch, m.batch_norm);
        }
        assert_eq!(m.attack, d.attack, "attack of bn={}", m.batch_norm);
    }
    assert_eq!(merged.runs, direct.runs);
    for run in &merged.runs {
        assert_eq!(run.epochs.first().map(|e| e.epoch), Some(0), "epoch 0 first");
        let a = run.attack.as_ref().expect("attacked");
        assert!(a.lira_noisy.is_some(), "noisy-only ROC");
        // K = 3 is odd: one IN model per candidate; the attack still runs.
        assert!(a.lira_online.auc.is_finite());
    }
    // A missing job is named.
    let err = jobs::assemble(&config, &ds, None, |k| results.iter().skip(1).find(|r| r.key == k))
        .unwrap_err();
    assert!(err.to_string().contains("1 job"), "{err}");
}

/// With the regularizer on, a comparison trains three models side by side — BN, BN + γ/σ
/// regularizer, no-BN, same data and seed — by jobs as in a run here, each run named
/// by its own variant; BN and no-BN are the same models as without the regularizer.
#[test]
fn the_regularizer_joins_the_comparison_as_a_third_model() {
    use spotlight_core::Variant;
    let plain = Config { shadow_models: 2, ..tiny() };
    let config = Config { regularizer: true, ..plain.clone() };
    let ds = common::load(config.dataset);
    let device = Device::flex();
    let direct =
        pollster::block_on(local::run(&config, &ds, None, &device, "flex", |_| {})).unwrap();
    assert_eq!(
        direct.runs.iter().map(|r| direct.variant(r)).collect::<Vec<_>>(),
        [Variant::Bn, Variant::BnReg, Variant::Plain]
    );
    let results: Vec<JobResult> = jobs::jobs_of(&config)
        .iter()
        .map(|j| pollster::block_on(jobs::run_job(j, &ds, None, &device, "flex", || 0.0)).unwrap())
        .collect();
    assert_eq!(results.len(), 3 + 3 * 2);
    let merged =
        jobs::assemble(&config, &ds, None, |k| results.iter().find(|r| r.key == k)).unwrap();
    assert_eq!(merged.runs, direct.runs);
    let two = pollster::block_on(local::run(&plain, &ds, None, &device, "flex", |_| {})).unwrap();
    for v in [Variant::Bn, Variant::Plain] {
        assert_eq!(
            direct.run(v).unwrap().epochs,
            two.run(v).unwrap().epochs,
            "{v:?} trains as without the regularizer"
        );
    }
    let (bn, reg) = (direct.run(Variant::Bn).unwrap(), direct.run(Variant::BnReg).unwrap());
    assert!(reg.last().unwrap().penalty.is_some() && bn.last().unwrap().penalty.is_some());
    assert_ne!(reg.epochs, bn.epochs, "the regularized model trains differently");
}

/// The page's path: a `Board` hands out the jobs as parallel workers would (here the two targets
/// interleaved, then the rest in turn), its report grows from the read-outs while the targets
/// train, and ends equal to a run here — through JSON, as the workers' messages are.
#[test]
fn the_board_fed_by_workers_gives_the_report_of_a_run_here() {
    use spotlight_core::board::{Board, Task};
    let config = tiny();
    let ds = common::load(config.dataset);
    let device = Device::flex();
    let direct =
        pollster::block_on(local::run(&config, &ds, None, &device, "flex", |_| {})).unwrap();
    let data = ExperimentData::build(&config, &ds, None).unwrap();
    let data: ExperimentData =
        serde_json::from_str(&serde_json::to_string(&data).unwrap()).unwrap();
    let keep = spotlight_core::experiment::shadow_keep(&config, data.pool.labels.len());
    let mut board = Board::new(&config, &data, "flex", 0.0);
    let (mut live_seen, mut tasks) = (0, 0);
    while !board.finished() {
        let task = board.next_task().expect("a task is ready while the board is not finished");
        tasks += 1;
        match task {
            Task::Train { index, job } => {
                let mut progress = Vec::new();
                let r = pollster::block_on(jobs::run_job_on(
                    &job,
                    &data,
                    &device,
                    "flex",
                    || 0.0,
                    |p| progress.push(p),
                ))
                .unwrap();
                let r: JobResult =
                    serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
                assert_eq!(
                    progress.last().map(|p| p.steps_done),
                    progress.last().map(|p| p.steps_total),
                    "{job:?}"
                );
                for p in progress {
                    board.progress(index, p.steps_done, p.readout);
                }
                if matches!(job.role, jobs::Role::Target { .. }) {
                    // The live curve is on the board before the job's result.
                    live_seen += board.report().runs.iter().map(|r| r.live.len()).sum::<usize>();
                }
                board.job_done(index, Ok(r), 1.0);
            }
            Task::Stack { .. } => unreachable!("a board stacks only when told to"),
            Task::Attack { variant, target, shadow_phi } => {
                assert_eq!(shadow_phi.len(), config.shadow_models);
                let a =
                    jobs::attack_of(&config, &data, &keep, &target, &shadow_phi).expect("attacked");
                board.attack_done(variant, a);
            }
        }
    }
    assert_eq!(tasks, 2 + 2 * 3 + 2, "8 jobs and 2 attacks");
    assert!(live_seen > 0, "no live read-outs before the targets ended");
    assert_eq!(board.fraction(), 1.0);
    assert_eq!(board.report().runs, direct.runs);
    assert!(board.doing().finished, "the board says it is done");
}

/// A run here trains its target models side by side, a step of each in turn (the page draws both
/// curves as they grow), says when a turn measured something, and a cancelled run stops at once
/// with what it measured.
#[test]
fn a_run_here_takes_turns_and_stops_when_cancelled() {
    let config = Config { live_points: 4, ..tiny() };
    let ds = common::load(config.dataset);
    let device = Device::flex();
    let data = ExperimentData::build(&config, &ds, None).unwrap();
    let (mut turns, mut both, mut grew_unsaid) = (0, 0, 0);
    let mut seen = 0;
    // A clock a second further at every reading: each phase takes some of them.
    let tick = std::cell::Cell::new(0.0);
    let (ending, times, report) = pollster::block_on(local::run_here(
        &config,
        &data,
        &device,
        "flex",
        1,
        &|| {
            tick.set(tick.get() + 1.0);
            tick.get()
        },
        &|| false,
        |board, measured| {
            turns += 1;
            both += usize::from(board.doing().training.len() == 2);
            let r = board.report();
            let now: usize = r.runs.iter().map(|r| r.live.len() + r.epochs.len()).sum();
            grew_unsaid += usize::from(now > seen && !measured);
            seen = now;
        },
    ));
    assert_eq!(ending, local::Ending::Finished);
    // The wall time by phase: targets, then the shadows after them, then the attacks.
    assert!(times.targets_s > 0.0 && times.shadows_s > 0.0 && times.attack_s > 0.0, "{times:?}");
    assert_eq!(times.targets_s + times.shadows_s + times.attack_s, times.total_s);
    // 200 members at batch 50, two epochs: 8 steps a target, taken together.
    assert!(both >= 8, "{both} of {turns} turns trained both targets");
    assert_eq!(grew_unsaid, 0, "a turn that measured something said so");
    assert!(report.runs.iter().all(|r| r.attack.is_some()));
    let asked = std::cell::Cell::new(0);
    let (ending, _, cut) = pollster::block_on(local::run_here(
        &config,
        &data,
        &device,
        "flex",
        1,
        &|| 0.0,
        &|| {
            asked.set(asked.get() + 1);
            asked.get() > 5
        },
        |_, _| {},
    ));
    assert_eq!(ending, local::Ending::Cancelled);
    assert!(cut.runs.iter().all(|r| r.attack.is_none() && r.epochs.len() < 3), "{cut:?}");
}

#[test]
fn flips_are_exact_among_the_members() {
    let config = Config { train_size: 1000, label_noise: 0.05, shadow_models: 2, ..tiny() };
    let ds = common::load(config.dataset);
    let data = ExperimentData::build(&config, &ds, None).unwrap();
    let flipped = |member: bool| {
        (0..data.pool.labels.len())
            .filter(|&i| {
                data.is_member[i] == member
                    && data.kind(i) == spotlight_core::data::transforms::SampleKind::Flipped
            })
            .count()
    };
    assert_eq!(flipped(true), 50);
    assert_eq!(flipped(false), 50);
}

/// Trains a BN model with a regularizer and returns (mean over layers of the median batch γ/σ at
/// the end, the final penalty read-out).
fn train_reg(kind: Option<RegKind>, strength: f64) -> (f64, f64) {
    let config = Config {
        train_size: 600,
        epochs: 3,
        batch_size: 50,
        probe_size: 0,
        shadow_models: 0,
        regularizer: kind.is_some(),
        reg_kind: kind.unwrap_or(RegKind::Sigma),
        reg_strength: strength,
        reg_bound: 0.5,
        ..tiny()
    };
    let ds = common::load(config.dataset);
    let data = ExperimentData::build(&config, &ds, None).unwrap();
    let dev = DeviceData::new(&data, &Device::flex());
    let mut t = Trainer::new(
        &config,
        config.variant(Norm::Batch),
        &data,
        &dev,
        data.members(),
        config.seed,
    );
    pollster::block_on(async {
        while !t.finished() {
            if t.step().await.unwrap().epoch_done {
                t.end_epoch(&data).await.unwrap();
            }
        }
    });
    let last = t.records().last().unwrap();
    let gs = last.gamma_sigma.iter().map(|l| l.batch_median).sum::<f64>()
        / last.gamma_sigma.len() as f64;
    (gs, last.penalty.unwrap())
}

#[test]
fn each_regularizer_restrains_gamma_over_sigma() {
    let (free, free_pen) = train_reg(None, 0.0);
    for kind in [RegKind::Sigma, RegKind::Hinge] {
        let (gs, pen) = train_reg(Some(kind), 1.0);
        eprintln!(
            "{kind:?}: median γ/σ {gs:.3} (free {free:.3}), penalty {pen:.3} (free {free_pen:.3})"
        );
        assert!(gs < 0.9 * free, "{kind:?}: γ/σ {gs} not below the free model's {free}");
    }
    let (gs, _) = train_reg(Some(RegKind::Project), 0.0);
    eprintln!("Project τ = 0.5: median γ/σ {gs:.3} (free {free:.3})");
    // The bound holds on each step's batch; on the measurement batch σ differs a little.
    assert!(gs < 0.6, "projection to τ = 0.5 left γ/σ at {gs}");
}

#[test]
fn a_rehearsal_trains_every_model_of_a_toy_run_of_any_config() {
    let device = Device::flex();
    // The page's default, one model with the regularizer, and a config whose own data would need
    // the other dataset (a rehearsal has none: it runs without OOD images).
    let configs = [
        Config::default(),
        Config { compare: false, regularizer: true, reg_kind: RegKind::Sigma, ..Config::default() },
        Config {
            ood_fraction: 0.1,
            ood_source: spotlight_core::config::OodSourceName::Other,
            shadow_models: 0,
            ..Config::default()
        },
    ];
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64();
    for (config, models) in configs.iter().zip([6, 3, 6]) {
        let r = pollster::block_on(jobs::rehearse(config, &device, &clock)).unwrap();
        assert_eq!(r.models, models, "{config:?}");
        let pace = r.seconds_per_pass.expect("a pace");
        assert!(pace > 0.0 && pace.is_finite(), "{r:?}");
        // The estimate grows with the run's work, and shrinks with the workers sharing it.
        let one = jobs::estimate_s(config, pace, 1);
        let twice = Config { epochs: 2 * config.epochs, ..config.clone() };
        assert!(jobs::estimate_s(&twice, pace, 1) > 1.5 * one, "{config:?}");
        assert!((jobs::estimate_s(config, pace, 2) - one / 2.0).abs() < 1e-9 * one);
    }
}

#[test]
fn a_backend_measurement_times_the_first_models_steps_within_its_budget() {
    use spotlight_core::bench;
    let device = Device::flex();
    // A clock that jumps a second a read: the budget is spent after one timed step, which the
    // rate then counts over the two reads around it (2 s).
    let t = std::cell::Cell::new(-1.0);
    let jumpy = || {
        t.set(t.get() + 1.0);
        t.get()
    };
    let c = Config { batch_size: 16, ..Config::default() };
    let rate = pollster::block_on(bench::step_rate(&c, &device, &jumpy)).unwrap();
    assert_eq!(rate, 16.0 / 2.0);
    // A real clock, each normalization, and a batch so large that fewer steps fit a training set.
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64();
    for norm in Norm::ALL {
        let c = Config { norm, compare: false, batch_size: 32, ..Config::default() };
        let rate = pollster::block_on(bench::step_rate(&c, &device, &clock)).unwrap();
        assert!(rate > 0.0 && rate.is_finite(), "{norm:?}: {rate}");
    }
    let big = Config { batch_size: 2048, ..Config::default() };
    let rate = pollster::block_on(bench::step_rate(&big, &device, &jumpy)).unwrap();
    assert_eq!(rate, 2048.0 / 2.0);
}

#[test]
fn a_jobs_work_counts_what_it_runs() {
    let c = Config::default();
    let jobs = jobs::jobs_of(&c);
    let (target, shadow) = (jobs[0].sample_passes(), jobs.last().unwrap().sample_passes());
    // A shadow model trains and scores; a target also measures every epoch.
    assert!(target > shadow && shadow > 0.0, "{target} {shadow}");
    let no_probes = jobs::Job { config: Config { probe_size: 0, ..c.clone() }, ..jobs[0].clone() };
    assert!(no_probes.sample_passes() < target);
    let (b, members, epochs) = (c.batch_size as f64, c.train_size as f64, c.epochs as f64);
    let train = 3.0 * epochs * (members / b).ceil() * b;
    assert_eq!(shadow, train + 2.0 * members, "training and the pool's scores");
}

/// A run that stacks its shadow models (as a GPU backend's does, issue #33) reports what the same
/// run training them one by one does: its target models bit for bit (they are not stacked), its
/// attacks as close as the shadow models' φ are (within float rounding: a rank may swap).
#[test]
fn a_run_with_stacked_shadow_models_reports_what_one_by_one_does() {
    let config = Config { shadow_models: 4, ..tiny() };
    let ds = common::load(config.dataset);
    let device = Device::flex();
    let alone =
        pollster::block_on(local::run(&config, &ds, None, &device, "flex", |_| {})).unwrap();
    let data = ExperimentData::build(&config, &ds, None).unwrap();
    let mut most_running = 0;
    let (ending, _, stacked) = pollster::block_on(local::run_here(
        &config,
        &data,
        &device,
        "flex",
        4,
        &|| 0.0,
        &|| false,
        |board, _| {
            let running = board.doing().shadows.map_or(0, |s| s.running);
            most_running = most_running.max(running);
        },
    ));
    assert_eq!(ending, local::Ending::Finished);
    // Two models side by side here: more shadow models at once only as a stack.
    assert!(
        most_running > 2,
        "the shadow models were not stacked ({most_running} at most at once)"
    );
    for (a, s) in alone.runs.iter().zip(&stacked.runs) {
        assert_eq!(a.epochs, s.epochs, "{:?}: the target model differs", a.variant);
        let (a, s) = (a.attack.as_ref().unwrap(), s.attack.as_ref().unwrap());
        assert_eq!(a.loss, s.loss, "the loss attack reads the target alone");
        for (x, y) in [(&a.lira_online, &s.lira_online), (&a.lira_offline, &s.lira_offline)] {
            eprintln!("LiRA AUC one by one {}, stacked {}", x.auc, y.auc);
            assert!((x.auc - y.auc).abs() < 1e-3, "AUC {} one by one, {} stacked", x.auc, y.auc);
        }
    }
}

/// A stacking board hands out each model's shadow models in stacks of at most its size — but BN with
/// the regularizer's one by one (its penalty is not stacked) — every job once, and ends when each
/// job of a stack is reported done. (No model trains here: the results are made up.)
#[test]
fn a_stacking_board_hands_out_stacks_of_one_variants_shadow_models() {
    use spotlight_core::board::{Board, Task};
    use spotlight_core::jobs::{JobOutput, Role};
    use spotlight_core::report::{ModelRun, RunError};
    let config = Config { regularizer: true, shadow_models: 5, ..tiny() };
    let ds = common::load(config.dataset);
    let data = ExperimentData::build(&config, &ds, None).unwrap();
    let variants = config.variants();
    assert_eq!(variants.len(), 3);
    let mut board = Board::new(&config, &data, "t", 0.0).stacking(4);
    let done = |job: &jobs::Job, output| JobResult {
        key: job.key(),
        job: job.clone(),
        backend: "t".into(),
        seconds: 0.0,
        output,
    };
    let mut handed = vec![0; board.jobs().len()];
    let mut stacks = Vec::new();
    while let Some(task) = board.next_task() {
        match task {
            Task::Train { index, job } => {
                handed[index] += 1;
                let output = match job.role {
                    Role::Target { variant } => JobOutput::Target {
                        run: ModelRun::new(variants[variant]),
                        loss: Vec::new(),
                        phi: Vec::new(),
                        trace: Vec::new(),
                    },
                    Role::Shadow { variant, .. } => {
                        stacks.push((variants[variant], 1));
                        JobOutput::Shadow { phi: None }
                    }
                };
                board.job_done(index, Ok(done(&job, output)), 1.0);
            }
            Task::Stack { indices, jobs } => {
                let variant = match jobs[0].role {
                    Role::Shadow { variant, .. } => variant,
                    Role::Target { .. } => panic!("a target model in a stack"),
                };
                assert!(
                    jobs.iter()
                        .all(|j| matches!(j.role, Role::Shadow { variant: v, .. } if v == variant)),
                    "a stack of one variant's shadow models"
                );
                stacks.push((variants[variant], indices.len()));
                for (&index, job) in indices.iter().zip(&jobs) {
                    handed[index] += 1;
                    assert!(!board.finished());
                    board.job_done(index, Ok(done(job, JobOutput::Shadow { phi: None })), 1.0);
                }
            }
            Task::Attack { variant, .. } => {
                board.attack_done(variant, Err(RunError::Other("made up".into())));
            }
        }
    }
    assert!(board.finished());
    assert!(handed.iter().all(|&n| n == 1), "each job handed out once: {handed:?}");
    // Five shadow models a model: a stack of 4 and one alone; BN + regularizer's five alone.
    let of = |v: Variant| stacks.iter().filter(|s| s.0 == v).map(|s| s.1).collect::<Vec<_>>();
    assert_eq!(of(Variant::Bn), [4, 1]);
    assert_eq!(of(Variant::Plain), [4, 1]);
    assert_eq!(of(Variant::BnReg), [1, 1, 1, 1, 1]);
}
