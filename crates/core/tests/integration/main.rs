//! The core's integration tests, one binary (one link, not eight): training, attacks, the jobs and
//! the live read-outs on the real datasets (`./x.sh datasets` first), links fuzzed, the backends.

mod attack_mnist;
mod backends;
mod canary;
mod common;
mod jobs;
mod link_fuzz;
mod live;
mod stack;
mod train_mnist;
