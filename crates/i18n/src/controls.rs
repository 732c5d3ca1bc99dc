//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Controls {}

pub const EN: Controls = Controls {};
pub const ES: Controls = Controls {};
pub const PT: Controls = Controls {};
