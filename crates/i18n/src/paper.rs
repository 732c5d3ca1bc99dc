//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Paper {}

pub const EN: Paper = Paper {};
pub const ES: Paper = Paper {};
pub const PT: Paper = Paper {};
