//! The texts of ...: one struct, one literal per language.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Page {}

pub const EN: Page = Page {};
pub const ES: Page = Page {};
pub const PT: Page = Page {};
