//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Notices {}

pub const EN: Notices = Notices {};
pub const ES: Notices = Notices {};
pub const PT: Notices = Notices {};
