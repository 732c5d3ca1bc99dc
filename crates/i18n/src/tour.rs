//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Tour {}

pub const EN: Tour = Tour {};
pub const ES: Tour = Tour {};
pub const PT: Tour = Tour {};
