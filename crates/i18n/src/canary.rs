//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Canary {}

pub const EN: Canary = Canary {};
pub const ES: Canary = Canary {};
pub const PT: Canary = Canary {};
