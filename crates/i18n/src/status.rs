//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Status {}

pub const EN: Status = Status {};
pub const ES: Status = Status {};
pub const PT: Status = Status {};
