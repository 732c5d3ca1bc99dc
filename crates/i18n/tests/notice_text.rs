//! The app's notices in every language (`app/src/notice_text.rs`, which uses only the core and this
//! crate), tested natively: each language writes every notice, and English is the core's text.

#[path = "../../../app/src/notice_text.rs"]
mod notice_text;
