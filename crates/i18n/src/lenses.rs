//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Lenses {}

pub const EN: Lenses = Lenses {};
pub const ES: Lenses = Lenses {};
pub const PT: Lenses = Lenses {};
