//! A run in words: what it is doing ([`board::Doing`]), how long each phase took ([`PhaseTimes`]),
//! why a model's training or its attack stopped ([`RunError`]), and why an experiment's jobs could
//! not be assembled into its report ([`AssembleError`]). [`crate::status`] holds the sentences
//! (`doing`, `failure`). Texts that come from elsewhere (the backend's error, the attack's) stay as
//! they are. The page writes these in its language, the CLI in English.
//!
//! (The core's `Display` of a [`RunError`] is another thing: the sentence reports stored before
//! errors were kept by kind, which `RunError::read` still reads back — a file format, not these
//! words.)

use spotlight_core::Report;
use spotlight_core::bench::PhaseTimes;
use spotlight_core::board;
use spotlight_core::jobs::AssembleError;
use spotlight_core::report::RunError;
use spotlight_core::train::TrainError;

use crate::Lang;
use crate::status::{ShadowsSaid, Status};

/// What a run is doing, in words, from its board ("training BN and no-BN"; "shadow models: 3 of 8
/// done, 2 training; running the membership attacks"), with the Web Workers it runs in when there
/// are some ("(2 workers)"; 0: on its own thread, said no more).
pub fn doing(lang: Lang, d: &board::Doing, workers: usize) -> String {
    let w = &lang.texts().status.doing;
    let text = if d.finished {
        w.done.to_string()
    } else {
        let mut parts = Vec::new();
        if !d.training.is_empty() {
            let names: Vec<&str> =
                d.training.iter().map(|&v| lang.texts().charts.models.of(v)).collect();
            parts.push((w.training)(&names.join(w.and)));
        }
        if let Some(c) = d.shadows {
            parts.push((w.shadows)(&ShadowsSaid {
                done: lang.int(c.done as u64),
                all: lang.int(c.all as u64),
                per_model: lang.int(c.per_model as u64),
                running: lang.int(c.running as u64),
            }));
        }
        if d.attacking {
            parts.push(w.attacking.to_string());
        }
        if parts.is_empty() { w.waiting.to_string() } else { parts.join("; ") }
    };
    if workers == 0 { text } else { format!("{text} {}", (w.workers)(&lang.int(workers as u64))) }
}

/// A run's wall time by phase, in words ("training 7.6 s, shadow models 3.1 s, attack 0.1 s"):
/// where parallel workers finished every shadow model before the last target model, the shadow
/// models added no wall time, and it says so rather than "0.0 s".
pub fn phases(lang: Lang, t: &PhaseTimes) -> String {
    let w = &lang.texts().status.doing;
    let shadows = if t.shadows_alongside() {
        w.shadows_alongside.to_string()
    } else {
        (w.shadows_s)(&lang.num(t.shadows_s, 1))
    };
    (w.phases)(&lang.num(t.targets_s, 1), &shadows, &lang.num(t.attack_s, 1))
}

/// What went wrong, per model: its training error and its attack's, each as "model: reason"
/// ("model (attack): reason"). Empty when every model trained and was attacked as asked
/// ([`Report::failures`] counts them).
pub fn failures(lang: Lang, r: &Report) -> Vec<String> {
    let s = &lang.texts().status;
    let mut out = Vec::new();
    for run in &r.runs {
        let name = lang.texts().charts.models.of(r.variant(run));
        if let Some(e) = &run.error {
            out.push(format!("{name}: {}", run_error(s, e)));
        }
        if let Some(e) = &run.attack_error {
            out.push(format!("{name} ({}): {}", s.progress.attack, run_error(s, e)));
        }
    }
    out
}

/// A model's error in the page's language (`s`: its status texts).
pub fn run_error(s: &Status, e: &RunError) -> String {
    let f = &s.failure;
    match e {
        RunError::Train(TrainError::NonFinite { epoch, step, value }) => {
            (f.loss_diverged)(&value.to_string(), &epoch.to_string(), &step.to_string())
        }
        RunError::Train(TrainError::Backend(m)) => (f.backend_failed)(m),
        RunError::JobBeforeData => f.job_before_data.into(),
        RunError::AttackBeforeData => f.attack_before_data.into(),
        RunError::NothingToAttack => f.nothing_to_attack.into(),
        RunError::Other(text) => text.clone(),
    }
}

/// Why an experiment's report could not be assembled from its jobs' results.
pub fn assemble_error(lang: Lang, e: &AssembleError) -> String {
    let f = &lang.texts().status.failure;
    match e {
        AssembleError::Missing(jobs) => {
            let key = jobs.first().map(|j| j.key());
            (f.jobs_missing)(&lang.int(jobs.len() as u64), key.as_deref())
        }
        AssembleError::Data(e) => super::data::build_error(lang, e),
        AssembleError::NotATarget { key } => (f.not_a_target)(key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spotlight_core::report::ModelRun;
    use spotlight_core::{Config, Variant};

    /// English as the CLI prints it; Spanish and Portuguese written, not left in English.
    fn assert_said(said: impl Fn(Lang) -> String, english: &str) {
        let [en, es, pt] = Lang::ALL.map(said);
        crate::say::assert_written(english, &en, &es, &pt);
        assert_eq!(en, english);
    }

    #[test]
    fn what_a_run_does_and_its_phases_are_said_in_every_language() {
        use spotlight_core::board::{Doing, ShadowCount};
        let d = Doing { training: vec![Variant::Bn, Variant::Plain], ..Doing::default() };
        assert_said(|l| doing(l, &d, 2), "training BN and no-BN (2 workers)");
        assert_said(|l| doing(l, &d, 0), "training BN and no-BN");
        let c = ShadowCount { done: 3, all: 8, running: 2, per_model: 4 };
        let d = Doing { training: vec![], shadows: Some(c), attacking: true, finished: false };
        let en = doing(Lang::En, &d, 0);
        assert!(
            en.contains('3') && en.contains('8') && en.ends_with("running the membership attacks"),
            "{en}"
        );
        assert_said(|l| doing(l, &d, 0), &en);
        let d = Doing { finished: true, ..d };
        assert_said(|l| doing(l, &d, 0), "done");
        let t = PhaseTimes { targets_s: 7.62, shadows_s: 3.05, attack_s: 0.1, total_s: 10.77 };
        assert_said(|l| phases(l, &t), "training 7.6 s, shadow models 3.0 s, attack 0.1 s");
        // Workers that finished the shadow models while a target still trained.
        let t = PhaseTimes { shadows_s: 0.0, ..t };
        assert_said(|l| phases(l, &t), "training 7.6 s, shadow models alongside, attack 0.1 s");
    }

    #[test]
    fn failures_name_the_model_and_what_failed() {
        let runs = vec![ModelRun::new(Variant::Bn), ModelRun::new(Variant::Plain)];
        let mut r = Report { config: Config::default(), backend: "t".into(), runs };
        assert!(Lang::ALL.iter().all(|&l| failures(l, &r).is_empty()));
        // A diverged loss's text from an older report, kept as it is; an attack with nothing to do.
        r.runs[1].error = Some(RunError::read("loss is NaN"));
        r.runs[0].attack_error = Some(RunError::NothingToAttack);
        assert_said(
            |l| failures(l, &r).join("\n"),
            "BN (attack): nothing to attack\nno-BN: loss is NaN",
        );
        assert_eq!(failures(Lang::En, &r).len(), r.failures());
    }

    #[test]
    fn every_run_error_is_written_in_every_language_and_english_is_todays() {
        let errors = [
            (
                RunError::Train(TrainError::NonFinite { epoch: 2, step: 14, value: f64::NAN }),
                "training stopped: the loss became NaN at epoch 2, step 14; try a lower learning rate",
            ),
            (
                RunError::Train(TrainError::NonFinite { epoch: 1, step: 3, value: f64::INFINITY }),
                "training stopped: the loss became inf at epoch 1, step 3; try a lower learning rate",
            ),
            (
                RunError::Train(TrainError::Backend("device lost".into())),
                "training stopped: the backend failed: device lost",
            ),
            (RunError::JobBeforeData, "a job before the data"),
            (RunError::AttackBeforeData, "an attack before the data"),
            (RunError::NothingToAttack, "nothing to attack"),
        ];
        for (e, english) in &errors {
            assert_said(|l| run_error(&l.texts().status, e), english);
        }
        // Another error's text is shown as it is, in every language.
        let other = RunError::Other("the ROC needs members and non-members".into());
        for l in Lang::ALL {
            assert_eq!(
                run_error(&l.texts().status, &other),
                "the ROC needs members and non-members"
            );
        }
    }

    #[test]
    fn every_assemble_error_is_written_in_every_language() {
        use spotlight_core::experiment_data::BuildError;
        use spotlight_core::jobs::{Job, Role};
        let job = Job { config: Config::default(), role: Role::Target { variant: 0 } };
        let key = job.key();
        let missing = AssembleError::Missing(vec![job.clone(), job]);
        assert_said(
            |l| assemble_error(l, &missing),
            &format!("2 job(s) have no result yet (e.g. key {key})"),
        );
        assert_said(
            |l| assemble_error(l, &AssembleError::Missing(vec![])),
            "0 job(s) have no result yet",
        );
        let not_a_target = AssembleError::NotATarget { key: key.clone() };
        assert_said(|l| assemble_error(l, &not_a_target), &format!("job {key} is not a target"));
        let data = AssembleError::Data(BuildError::NoCleanMember);
        assert_said(|l| assemble_error(l, &data), "canary: no clean member to put it in place of");
    }
}
