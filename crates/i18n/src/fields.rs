//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Fields {}

pub const EN: Fields = Fields {};
pub const ES: Fields = Fields {};
pub const PT: Fields = Fields {};
