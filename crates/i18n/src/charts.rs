//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Charts {}

pub const EN: Charts = Charts {};
pub const ES: Charts = Charts {};
pub const PT: Charts = Charts {};
