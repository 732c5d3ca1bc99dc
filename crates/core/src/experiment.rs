//! What an experiment's models share: the shadow models' seeds and members, a model's scores on
//! the candidate pool, and the attack report made from a target's scores and its shadows' φ. Each
//! model trains as a job of its own ([`crate::jobs`]); a [`crate::board::Board`] orders them, run
//! by the page's Web Workers or here, in turns ([`crate::local`]).

use crate::attack;
use crate::data::transforms::SampleKind;
use crate::experiment_data::{DeviceData, ExperimentData};
use crate::report::{
    AttackReport, CanaryScore, Exposed, GroupMean, ROC_STEPS, SampleEpoch, SampleLira, point_at,
};
use crate::train::{TrainError, Trainer, read_logits};
use crate::{Config, Variant};

/// The most-exposed members listed per model.
pub const EXPOSED_SHOWN: usize = 16;

/// ROC points kept per curve in the report.
pub const ROC_POINTS: usize = 200;

/// The seed of shadow model `k` of model variant `variant`.
pub fn shadow_seed(seed: u64, variant: usize, k: usize) -> u64 {
    seed ^ (0x5eed_0000 + (variant as u64) * 1000 + k as u64 + 1)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Which candidates each shadow model trains on (none when the attack is off).
pub fn shadow_keep(config: &Config, candidates: usize) -> Vec<Vec<bool>> {
    let k = if config.shadow_models >= 2 { config.shadow_models } else { 0 };
    attack::shadow_membership(candidates, k, config.seed)
}

/// The trainer of shadow model `k` of the experiment's variant number `variant` (`of`).
pub fn shadow_trainer(
    config: &Config,
    of: Variant,
    variant: usize,
    k: usize,
    keep: &[bool],
    data: &ExperimentData,
    device_data: &DeviceData,
) -> Trainer {
    let idx: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
    Trainer::new(config, of, data, device_data, idx, shadow_seed(config.seed, variant, k))
}

/// The attack scores (loss, confidence, φ) of a model on every candidate of the pool.
pub async fn pool_scores(
    model: &crate::model::LeNet,
    data: &ExperimentData,
    device_data: &DeviceData,
) -> Result<attack::Scores, TrainError> {
    let valid = burn::module::Module::valid(model);
    let all: Vec<usize> = (0..data.pool.labels.len()).collect();
    let z = read_logits(&valid, &device_data.images, &all, &device_data.device).await?;
    Ok(attack::scores(&z, usize::from(data.classes), &data.pool.labels))
}

/// One model's attack report, from its scores on the pool and the φ of its shadow models
/// (`shadow_phi[k]`, `None` for a shadow that diverged; `keep[k]` its members), and its members'
/// loss and margin per measured epoch (`trace`, [`Trainer::member_trace`]; empty: none kept): every
/// target job's attack ends here ([`crate::jobs::attack_of`]).
pub fn attack_report(
    config: &Config,
    data: &ExperimentData,
    target: &attack::Scores,
    keep: &[Vec<bool>],
    shadow_phi: &[Option<Vec<f64>>],
    trace: &[Vec<[f32; 2]>],
) -> Result<AttackReport, String> {
    let n = data.pool.labels.len();
    // A member's place in the trace's rows (the target trained on `data.members()`, in order).
    let mut at = vec![None; n];
    for (p, i) in data.members().into_iter().enumerate() {
        at[i] = Some(p);
    }
    let history = |i: usize| -> Vec<SampleEpoch> {
        let Some(p) = at[i] else { return Vec::new() };
        trace
            .iter()
            .enumerate()
            .filter_map(|(epoch, row)| {
                row.get(p).map(|&[loss, margin]| SampleEpoch { epoch, loss, margin })
            })
            .collect()
    };
    let mut phi_in = vec![Vec::new(); n];
    let mut phi_out = vec![Vec::new(); n];
    for (k, phi) in shadow_phi.iter().enumerate() {
        let Some(phi) = phi else { continue };
        for (i, &v) in phi.iter().enumerate() {
            if keep[k][i] { phi_in[i].push(v) } else { phi_out[i].push(v) }
        }
    }
    let split = |scores: &[f64], keep_i: &dyn Fn(usize) -> bool| -> (Vec<f64>, Vec<f64>) {
        let m = (0..n).filter(|&i| keep_i(i) && data.is_member[i]).map(|i| scores[i]).collect();
        let o = (0..n).filter(|&i| keep_i(i) && !data.is_member[i]).map(|i| scores[i]).collect();
        (m, o)
    };
    let every = |_: usize| true;
    let neg_loss: Vec<f64> = target.loss.iter().map(|l| -l).collect();
    let (m, o) = split(&neg_loss, &every);
    let mut loss = attack::roc(&m, &o).map_err(|e| e.to_string())?;
    let budget = attack::budget_curve(&target.phi, shadow_phi, keep, &data.is_member);
    let (online, offline) = attack::lira(&target.phi, &phi_in, &phi_out, config.shadow_models)
        .map_err(|e| e.to_string())?;
    let (m, o) = split(&online, &every);
    let mut lira_online = attack::roc(&m, &o).map_err(|e| e.to_string())?;
    let (m, o) = split(&offline, &every);
    let mut lira_offline = attack::roc(&m, &o).map_err(|e| e.to_string())?;
    let (m, o) = split(&online, &|i| data.kind(i).is_noisy());
    let mut lira_noisy = attack::roc(&m, &o).ok();
    let steps = ROC_STEPS.iter().map(|&f| point_at(&lira_online.points, f)).collect();
    for r in [&mut loss, &mut lira_online, &mut lira_offline].into_iter().chain(lira_noisy.as_mut())
    {
        r.points = r.downsampled(ROC_POINTS);
    }
    let mut group_means = Vec::new();
    for kind in [SampleKind::Clean, SampleKind::Flipped, SampleKind::Ood] {
        for member in [true, false] {
            let vals: Vec<f64> = (0..n)
                .filter(|&i| data.kind(i) == kind && data.is_member[i] == member)
                .map(|i| online[i])
                .collect();
            let mean_score =
                (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64);
            group_means.push(GroupMean { kind, member, count: vals.len(), mean_score });
        }
    }
    let mut members: Vec<usize> = (0..n).filter(|&i| data.is_member[i]).collect();
    members.sort_by(|&a, &b| online[b].total_cmp(&online[a]));
    // How the attack saw one candidate: its φ, the shadows' φ, the Gaussians fitted to them.
    let seen = |i: usize| {
        let fitted = attack::fitted(&phi_in, &phi_out, config.shadow_models, &[i])[0]?;
        Some(SampleLira {
            phi: target.phi[i],
            phi_in: phi_in[i].clone(),
            phi_out: phi_out[i].clone(),
            fitted,
            online: online[i],
            history: history(i),
        })
    };
    let px = data.rows * data.cols;
    let exposed = members
        .iter()
        .take(EXPOSED_SHOWN)
        .map(|&i| Exposed {
            source_index: data.source_index[i],
            kind: data.kind(i),
            label: data.pool.labels[i],
            true_label: matches!(data.kind(i), SampleKind::Clean | SampleKind::Flipped)
                .then_some(data.pool.true_labels[i]),
            score: online[i],
            pixels: data.pool.images[i * px..(i + 1) * px].to_vec(),
            lira: seen(i),
        })
        .collect();
    let canary = data.canary.map(|c| {
        let confidences = |keep: &dyn Fn(usize) -> bool| -> Vec<f64> {
            let mut v: Vec<f64> = (0..n)
                .filter(|&i| keep(i))
                .map(|i| crate::canary::member_confidence(online[i]))
                .collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let middle = |v: &[f64]| if v.is_empty() { f64::NAN } else { v[v.len() / 2] };
        CanaryScore {
            score: online[c],
            confidence: crate::canary::member_confidence(online[c]),
            rank: 1 + online.iter().filter(|&&s| s > online[c]).count(),
            candidates: n,
            median_clean_member: middle(&confidences(&|i| {
                data.is_member[i] && data.kind(i) == SampleKind::Clean
            })),
            median_non_member: middle(&confidences(&|i| !data.is_member[i])),
            above_non_members: {
                let non: Vec<f64> =
                    (0..n).filter(|&i| !data.is_member[i]).map(|i| online[i]).collect();
                (!non.is_empty()).then(|| {
                    non.iter().filter(|&&s| s < online[c]).count() as f64 / non.len() as f64
                })
            },
            // Its place in the same sorted list the gallery shows (ties as the gallery has them).
            member_rank: members.iter().position(|&i| i == c).map(|p| p + 1),
            lira: seen(c),
        }
    });
    Ok(AttackReport {
        shadow_models: config.shadow_models,
        members: members.len(),
        non_members: n - members.len(),
        loss,
        lira_online,
        lira_offline,
        lira_noisy,
        group_means,
        exposed,
        canary,
        steps,
        budget: Some(budget),
    })
}
