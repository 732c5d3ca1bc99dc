//! An experiment's jobs ([`crate::jobs`]) spread over workers: which task a free worker takes
//! next, what the running jobs have measured so far, and the [`Report`] — the same for the same
//! config however the tasks ran (but for float rounding when shadow models train stacked:
//! [`Board::stacking`]). The page's Web Workers run the tasks (the host holds a `Board` and
//! feeds it their messages), or [`crate::local`] runs them on its own thread, in turns.
//!
//! Order: the target models first (each its own worker, side by side), then the shadow models as
//! workers come free, then each model's attack once its target and all its shadows are done. The
//! shadows of a target that failed are not started, and it is not attacked.

use crate::bench::PhaseTimes;
use crate::experiment::shadow_keep;
use crate::experiment_data::ExperimentData;
use crate::jobs::{Job, JobOutput, JobResult, Role, job_steps, jobs_of};
use crate::report::{AttackReport, ModelRun, Readout, Report, RunError};
use crate::{Config, Variant};

/// What a free worker does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// Train job number `index` (its [`Job`] is `Board::job(index)`).
    Train { index: usize, job: Job },
    /// Train shadow-model jobs `indices` (of one variant) as one stacked network
    /// ([`crate::jobs::run_stack_with`]); a board makes these only when told to
    /// ([`Board::stacking`]).
    Stack { indices: Vec<usize>, jobs: Vec<Job> },
    /// Attack model variant `variant`: from its target's output and its shadows' φ (see
    /// [`crate::jobs::attack_of`]).
    Attack { variant: usize, target: JobOutput, shadow_phi: Vec<Option<Vec<f64>>> },
}

#[derive(Clone, Debug, PartialEq)]
enum State {
    Waiting,
    Running,
    Done(JobOutput),
    /// Not run: its target failed.
    Skipped,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum AttackState {
    Waiting,
    Running,
    Done,
}

/// What a [`Board`] is doing ([`Board::doing`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Doing {
    /// The target models training now.
    pub training: Vec<Variant>,
    /// The shadow models, while some train or some are left (`None` before the first and after the last).
    pub shadows: Option<ShadowCount>,
    /// Whether a model's attack is running.
    pub attacking: bool,
    /// Whether every task has ended.
    pub finished: bool,
}

/// Shadow models done (or skipped), in all, and training now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadowCount {
    pub done: usize,
    pub all: usize,
    pub running: usize,
    /// Per model (`Config::shadow_models`): `all` is this times the models.
    pub per_model: usize,
}

/// The state of an experiment run as parallel jobs.
#[derive(Clone, Debug)]
pub struct Board {
    config: Config,
    backend: String,
    jobs: Vec<Job>,
    state: Vec<State>,
    steps_done: Vec<usize>,
    steps_total: Vec<usize>,
    runs: Vec<ModelRun>,
    attacks: Vec<AttackState>,
    started: f64,
    targets_end: Option<f64>,
    shadows_end: Option<f64>,
    /// The most shadow models one task stacks (1: none).
    stack: usize,
    /// Each shadow model's members (`experiment::shadow_keep`).
    keep: Vec<Vec<bool>>,
}

impl Board {
    /// The board of `config`'s experiment on `data` (its `ExperimentData`), started at `now`
    /// (seconds, the host's clock). `backend` names the backend in the report.
    pub fn new(config: &Config, data: &ExperimentData, backend: &str, now: f64) -> Self {
        let jobs = jobs_of(config);
        let keep = shadow_keep(config, data.pool.labels.len());
        let steps_total = jobs.iter().map(|j| job_steps(j, data, &keep)).collect();
        let variants = config.variants();
        let attacks =
            vec![
                if config.shadow_models >= 2 { AttackState::Waiting } else { AttackState::Done };
                variants.len()
            ];
        Self {
            config: config.clone(),
            backend: backend.to_string(),
            state: vec![State::Waiting; jobs.len()],
            steps_done: vec![0; jobs.len()],
            steps_total,
            runs: variants.iter().map(|&v| ModelRun::new(v)).collect(),
            attacks,
            jobs,
            started: now,
            targets_end: None,
            shadows_end: None,
            stack: 1,
            keep,
        }
    }

    /// The board, handing out up to `stack` shadow models of one variant as one task
    /// ([`Task::Stack`]) — those that stack ([`crate::shadows::stackable`]); not BN with the
    /// regularizer (not stacked). `crate::shadows::stack_size` says how many on which backend.
    pub fn stacking(mut self, stack: usize) -> Self {
        self.stack = stack.max(1);
        self
    }

    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The next task for a free worker (marked as running), if one is ready.
    pub fn next_task(&mut self) -> Option<Task> {
        if let Some(v) = (0..self.attacks.len())
            .find(|&v| self.attacks[v] == AttackState::Waiting && self.attack_ready(v))
        {
            self.attacks[v] = AttackState::Running;
            let target = self.target_output(v).cloned().expect("ready");
            let shadow_phi = self.shadows_of(v).map(|i| self.shadow_phi(i)).collect();
            return Some(Task::Attack { variant: v, target, shadow_phi });
        }
        let index = (0..self.jobs.len()).find(|&i| self.state[i] == State::Waiting)?;
        let group = self.stack_from(index);
        for &i in &group {
            self.state[i] = State::Running;
        }
        if group.len() >= 2 {
            let jobs = group.iter().map(|&i| self.jobs[i].clone()).collect();
            return Some(Task::Stack { indices: group, jobs });
        }
        Some(Task::Train { index, job: self.jobs[index].clone() })
    }

    /// Job `index` and the waiting shadow models of its variant it stacks with (up to `stack`, each
    /// with a batch of members: [`crate::shadows::stackable`]), or only `index`.
    fn stack_from(&self, index: usize) -> Vec<usize> {
        let Role::Shadow { variant, .. } = self.jobs[index].role else { return vec![index] };
        let stacks = |i: usize| match self.jobs[i].role {
            Role::Shadow { k, .. } => self
                .keep
                .get(k)
                .is_some_and(|kk| crate::shadows::stackable(&self.config, &[kk.as_slice()])),
            Role::Target { .. } => false,
        };
        if self.stack < 2 || self.config.variants()[variant] == Variant::BnReg || !stacks(index) {
            return vec![index];
        }
        self.shadows_of(variant)
            .filter(|&i| self.state[i] == State::Waiting && stacks(i))
            .take(self.stack)
            .collect()
    }

    /// Job `index` made progress: its steps so far, and a target model's read-out (kept in the
    /// report at once: the live curves).
    pub fn progress(&mut self, index: usize, steps_done: usize, readout: Option<Readout>) {
        if let Some(s) = self.steps_done.get_mut(index) {
            *s = steps_done.min(self.steps_total[index]);
        }
        if let (Some(r), Some(Role::Target { variant })) =
            (readout, self.jobs.get(index).map(|j| j.role))
        {
            self.runs[variant].record(r);
        }
    }

    /// Job `index` ended at `now`: its result, or why it could not run (a target: the model's
    /// error; a shadow: left out of the attack, as a diverged one is).
    pub fn job_done(&mut self, index: usize, result: Result<JobResult, RunError>, now: f64) {
        let Some(job) = self.jobs.get(index) else { return };
        let role = job.role;
        self.steps_done[index] = self.steps_total[index];
        let output = match (result, role) {
            (Ok(r), _) => r.output,
            (Err(e), Role::Target { variant }) => {
                let mut run = ModelRun::new(self.config.variants()[variant]);
                run.epochs = self.runs[variant].epochs.clone();
                run.live = self.runs[variant].live.clone();
                run.error = Some(e);
                JobOutput::Target { run, loss: Vec::new(), phi: Vec::new(), trace: Vec::new() }
            }
            (Err(_), Role::Shadow { .. }) => JobOutput::Shadow { phi: None },
        };
        if let (Role::Target { variant }, JobOutput::Target { run, .. }) = (role, &output) {
            self.runs[variant] = run.clone();
            if run.error.is_some() {
                // No attack on a model that failed: its shadows are not needed.
                let shadows: Vec<usize> = self.shadows_of(variant).collect();
                for i in shadows {
                    if self.state[i] == State::Waiting {
                        self.state[i] = State::Skipped;
                        self.steps_done[i] = self.steps_total[i];
                    }
                }
                self.attacks[variant] = AttackState::Done;
            }
        }
        self.state[index] = State::Done(output);
        self.note_phase_ends(now);
    }

    /// The attack on model `variant` ended.
    pub fn attack_done(&mut self, variant: usize, result: Result<AttackReport, RunError>) {
        if let Some(run) = self.runs.get_mut(variant) {
            match result {
                Ok(a) => run.attack = Some(a),
                Err(e) => run.attack_error = Some(e),
            }
            self.attacks[variant] = AttackState::Done;
        }
    }

    /// Whether every task has ended.
    pub fn finished(&self) -> bool {
        self.state.iter().all(|s| matches!(s, State::Done(_) | State::Skipped))
            && self.attacks.iter().all(|a| *a == AttackState::Done)
    }

    /// Tasks running now (jobs and attacks).
    pub fn running(&self) -> usize {
        self.state.iter().filter(|s| **s == State::Running).count()
            + self.attacks.iter().filter(|a| **a == AttackState::Running).count()
    }

    /// Training steps taken, all jobs together (a skipped job's steps count as done).
    pub fn steps_done(&self) -> usize {
        self.steps_done.iter().sum()
    }

    /// Training steps in all (every job's).
    pub fn steps_total(&self) -> usize {
        self.steps_total.iter().sum()
    }

    /// Share of the training steps done, 0 to 1.
    pub fn fraction(&self) -> f64 {
        self.steps_done() as f64 / self.steps_total().max(1) as f64
    }

    /// The report of what has been measured so far (complete once [`finished`](Self::finished)).
    pub fn report(&self) -> Report {
        Report {
            config: self.config.clone(),
            backend: self.backend.clone(),
            runs: self.runs.clone(),
        }
    }

    /// What is going on, as data: the page says it in its language (`spotlight-i18n`'s status texts).
    pub fn doing(&self) -> Doing {
        let variants = self.config.variants();
        let training = (0..self.jobs.len())
            .filter(|&i| self.state[i] == State::Running)
            .filter_map(|i| match self.jobs[i].role {
                Role::Target { variant } => Some(variants[variant]),
                Role::Shadow { .. } => None,
            })
            .collect();
        let shadows: Vec<usize> = (0..self.jobs.len())
            .filter(|&i| matches!(self.jobs[i].role, Role::Shadow { .. }))
            .collect();
        let done = shadows
            .iter()
            .filter(|&&i| matches!(self.state[i], State::Done(_) | State::Skipped))
            .count();
        let running = shadows.iter().filter(|&&i| self.state[i] == State::Running).count();
        let shadows = (!shadows.is_empty() && (running > 0 || (done > 0 && done < shadows.len())))
            .then_some(ShadowCount {
                done,
                all: shadows.len(),
                running,
                per_model: self.config.shadow_models,
            });
        Doing {
            training,
            shadows,
            attacking: self.attacks.contains(&AttackState::Running),
            finished: self.finished(),
        }
    }

    /// The wall time by phase at `now`: until the last target model ended, then until the last
    /// shadow model ended, then the rest (the attacks, and the drawing). Workers overlap the
    /// phases; these are the times at which each ended, so the three add up to the total.
    pub fn times(&self, now: f64) -> PhaseTimes {
        let total = now - self.started;
        let t = self.targets_end.map_or(total, |e| e - self.started);
        let s = self.shadows_end.map_or(total, |e| e - self.started).max(t);
        PhaseTimes {
            targets_s: t,
            shadows_s: s.min(total) - t.min(total),
            attack_s: (total - s).max(0.0),
            total_s: total,
        }
    }

    fn note_phase_ends(&mut self, now: f64) {
        let ended = |i: usize| matches!(self.state[i], State::Done(_) | State::Skipped);
        let targets =
            (0..self.jobs.len()).filter(|&i| matches!(self.jobs[i].role, Role::Target { .. }));
        if self.targets_end.is_none() && targets.clone().all(ended) {
            self.targets_end = Some(now);
        }
        if self.targets_end.is_some()
            && self.shadows_end.is_none()
            && (0..self.jobs.len()).all(ended)
        {
            self.shadows_end = Some(now);
        }
    }

    fn shadows_of(&self, variant: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.jobs.len()).filter(
            move |&i| matches!(self.jobs[i].role, Role::Shadow { variant: v, .. } if v == variant),
        )
    }

    fn target_output(&self, variant: usize) -> Option<&JobOutput> {
        let i = (0..self.jobs.len()).find(|&i| self.jobs[i].role == Role::Target { variant })?;
        match &self.state[i] {
            State::Done(o) => Some(o),
            _ => None,
        }
    }

    fn shadow_phi(&self, index: usize) -> Option<Vec<f64>> {
        match &self.state[index] {
            State::Done(JobOutput::Shadow { phi }) => phi.clone(),
            _ => None,
        }
    }

    fn attack_ready(&self, variant: usize) -> bool {
        self.target_output(variant).is_some()
            && self.shadows_of(variant).all(|i| matches!(self.state[i], State::Done(_)))
    }
}
