//! Every text of Spotlight's page and CLI, in English, Spanish and Portuguese.
//!
//! One struct of texts per area of the page (`controls`, `charts`, …), and one literal of it per
//! language (`EN`, `ES`, `PT` in the area's file): a text missing from a language is a compile
//! error, not an English leftover. A text with numbers in it is a function (`fn(..) -> String`),
//! written per language, numbers by [`Lang`]'s `num`/`int`/`pct`; one with many values of one
//! type takes them in a struct, by name.
//!
//! Each text exists once, here: the core keeps names and variants (a `Config` field's name, a
//! course part's, a claim's letter, a `Variant`, a notice's variant), and the page and the CLI (its
//! English is [`EN`]) take the words by those names; [`say`] writes the core's notices and errors,
//! and a run's progress and failures, by variant. A test below checks that no Spanish or
//! Portuguese text is left equal to its English one (except the few names listed there: "MNIST",
//! "Adam", …); `fn_texts.rs` does the same for the texts that are functions, called.

use serde::Serialize;

pub mod canary;
pub mod charts;
pub mod controls;
pub mod fields;
#[cfg(test)]
mod fn_texts;
pub mod lenses;
pub mod notices;
pub mod page;
pub mod paper;
pub mod say;
pub mod status;
pub mod theory;
pub mod tour;

/// A language of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Es,
    Pt,
}

/// Every text of the page in one language, by area.
#[derive(Debug, Serialize)]
pub struct Texts {
    pub page: page::Page,
    pub controls: controls::Controls,
    pub fields: fields::Fields,
    pub lenses: lenses::Lenses,
    pub status: status::Status,
    pub canary: canary::Canary,
    pub tour: tour::Tour,
    pub theory: theory::Theory,
    pub paper: paper::Paper,
    pub charts: charts::Charts,
    pub notices: notices::Notices,
}

pub const EN: Texts = Texts {
    page: page::EN,
    controls: controls::EN,
    fields: fields::EN,
    lenses: lenses::EN,
    status: status::EN,
    canary: canary::EN,
    tour: tour::EN,
    theory: theory::EN,
    paper: paper::EN,
    charts: charts::EN,
    notices: notices::EN,
};

pub const ES: Texts = Texts {
    page: page::ES,
    controls: controls::ES,
    fields: fields::ES,
    lenses: lenses::ES,
    status: status::ES,
    canary: canary::ES,
    tour: tour::ES,
    theory: theory::ES,
    paper: paper::ES,
    charts: charts::ES,
    notices: notices::ES,
};

pub const PT: Texts = Texts {
    page: page::PT,
    controls: controls::PT,
    fields: fields::PT,
    lenses: lenses::PT,
    status: status::PT,
    canary: canary::PT,
    tour: tour::PT,
    theory: theory::PT,
    paper: paper::PT,
    charts: charts::PT,
    notices: notices::PT,
};

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Es, Lang::Pt];

    /// The link's and the page's code (`lang=es`, `<html lang="es">`).
    pub fn code(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Es => "es",
            Self::Pt => "pt",
        }
    }

    /// The language's name in itself (the language menu).
    pub fn name(self) -> &'static str {
        match self {
            Self::En => "English",
            Self::Es => "Español",
            Self::Pt => "Português",
        }
    }

    /// The language of a code: `es`, or a browser's tag such as `es-AR`, `pt-BR` (case ignored).
    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Self::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The first of the browser's preferred languages (`navigator.languages`, in order) that the
    /// page has; English when none is.
    pub fn preferred<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::parse).unwrap_or_default()
    }

    /// Every text in this language.
    pub fn texts(self) -> &'static Texts {
        match self {
            Self::En => &EN,
            Self::Es => &ES,
            Self::Pt => &PT,
        }
    }

    /// `x` with `decimals` decimals, written the language's way: `1,234.5` in English, `1234,5`
    /// and `12.345,5` in Spanish (four-digit numbers ungrouped), `1.234,5` in Portuguese.
    pub fn num(self, x: f64, decimals: usize) -> String {
        if !x.is_finite() {
            return format!("{x}");
        }
        let fixed = format!("{:.*}", decimals, x.abs());
        let negative = x < 0.0 && fixed.bytes().any(|b| b.is_ascii_digit() && b != b'0');
        let (whole, frac) = fixed.split_once('.').unwrap_or((&fixed, ""));
        self.digits(negative, whole, frac)
    }

    /// A number as Rust's `{}` writes it (`0.05`, `30000`: the core's texts), in the language's
    /// way: English unchanged (so it equals the core's text), Spanish and Portuguese with a decimal
    /// comma and thousands grouped as [`Lang::num`] groups them. Anything else (`NaN`, `inf`) is
    /// left as it is.
    pub fn plain(self, x: impl std::fmt::Display) -> String {
        let text = x.to_string();
        if self == Self::En {
            return text;
        }
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.as_str()),
        };
        let (whole, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !digits(frac) {
            return text;
        }
        self.digits(negative, whole, frac)
    }

    /// A number from its sign and its whole and decimal digits: grouped and pointed as the
    /// language writes them.
    fn digits(self, negative: bool, whole: &str, frac: &str) -> String {
        let (group, point, min_grouped) = match self {
            Self::En => (',', '.', 4),
            Self::Es => ('.', ',', 5),
            Self::Pt => ('.', ',', 4),
        };
        let mut out = String::from(if negative { "-" } else { "" });
        for (i, d) in whole.chars().enumerate() {
            if i > 0 && whole.len() >= min_grouped && (whole.len() - i).is_multiple_of(3) {
                out.push(group);
            }
            out.push(d);
        }
        if !frac.is_empty() {
            out.push(point);
            out.push_str(frac);
        }
        out
    }

    /// A number as typed in this language, in the form Rust reads (`0.001`): the inverse of
    /// [`Lang::plain`]. In Spanish and Portuguese a comma is the decimal point and dots group
    /// thousands; a text with dots and no comma reads its one dot as a decimal point (many type
    /// it so), several dots as groups — so a whole number grouped by one dot ("30.000") reads as
    /// 30: the page uses this for real numbers only. In English commas group thousands (any other
    /// comma is kept, so "0,01" is refused). Spaces are dropped; anything else is left for the
    /// reader to refuse.
    pub fn typed_number(self, text: &str) -> String {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        match self {
            // Commas group thousands: each followed by exactly three digits ("1,234.5"); any
            // other comma ("0,01") is left for the reader to refuse, never read as another number.
            Self::En => {
                let whole = t.split('.').next().unwrap_or("");
                let grouped = whole.split(',').skip(1).all(|g| g.len() == 3);
                if grouped { t.replace(',', "") } else { t }
            }
            Self::Es | Self::Pt if t.contains(',') => t.replace('.', "").replace(',', "."),
            Self::Es | Self::Pt if t.matches('.').count() > 1 => t.replace('.', ""),
            Self::Es | Self::Pt => t,
        }
    }

    /// A whole number, grouped the language's way.
    pub fn int(self, n: u64) -> String {
        self.digits(false, &n.to_string(), "")
    }

    /// A share (0.05) as a percentage with `decimals` decimals: `5%`, `5 %` in Spanish.
    pub fn pct(self, share: f64, decimals: usize) -> String {
        let n = self.num(100.0 * share, decimals);
        match self {
            Self::Es => format!("{n}\u{a0}%"),
            Self::En | Self::Pt => format!("{n}%"),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn typed_numbers_read_back_what_plain_writes() {
        for lang in Lang::ALL {
            // (A whole number of five digits or more would be written "30.000" in Spanish, which
            // reads back as 30: the page types whole numbers in number boxes, not here.)
            for x in [0.001, 0.5, 2.25, 1234.5, 12345.5, 0.0001, 7.0] {
                let typed = lang.typed_number(&lang.plain(x));
                assert_eq!(typed.parse::<f64>(), Ok(x), "{lang:?} {x}: {typed}");
            }
        }
        assert_eq!(Lang::Es.typed_number("0,05"), "0.05");
        assert_eq!(Lang::Pt.typed_number(" 1.234,5 "), "1234.5");
        assert_eq!(Lang::Es.typed_number("0.05"), "0.05", "a point typed in Spanish");
        assert_eq!(Lang::Pt.typed_number("1.234.567"), "1234567");
        assert_eq!(Lang::En.typed_number("1,234.5"), "1234.5");
        assert_eq!(Lang::En.typed_number("abc"), "abc", "left for the reader to refuse");
        assert_eq!(Lang::En.typed_number("0,01"), "0,01", "not a group: refused, not read as 1");
    }

    use super::*;
    use serde_json::Value;

    /// Names and symbols that read the same in every language.
    const SAME_EVERYWHERE: &[&str] = &[
        "",
        "MNIST",
        "Fashion-MNIST",
        "Adam",
        "BN",
        "no-BN",
        "BatchNorm",
        "GroupNorm",
        "LayerNorm",
        "LiRA",
        "AUC",
        "TPR",
        "FPR",
        "γ/σ",
        "γ",
        "λ",
        "τ",
        "ROC",
        "LeNet-5",
        "Spotlight",
        "CSV",
        "JSON",
        "SVG",
        "WebGPU",
        "CPU",
        "GPU",
        "OOD",
        "—",
        "×",
    ];

    /// Every text of a language, by its path (`controls.run`), in order.
    fn leaves(path: &str, v: &Value, out: &mut Vec<(String, String)>) {
        match v {
            Value::String(s) => out.push((path.to_string(), s.clone())),
            Value::Object(m) => m.iter().for_each(|(k, v)| leaves(&format!("{path}.{k}"), v, out)),
            Value::Array(a) => {
                a.iter().enumerate().for_each(|(i, v)| leaves(&format!("{path}[{i}]"), v, out))
            }
            _ => {}
        }
    }

    fn texts(t: &Texts) -> Vec<(String, String)> {
        let mut out = Vec::new();
        leaves("", &serde_json::to_value(t).expect("texts serialize"), &mut out);
        out
    }

    #[test]
    fn every_language_translates_every_text() {
        let en = texts(&EN);
        for lang in [Lang::Es, Lang::Pt] {
            let other = texts(lang.texts());
            assert_eq!(
                other.len(),
                en.len(),
                "{lang:?}: lists of texts of another length than English's"
            );
            let left: Vec<_> = en
                .iter()
                .zip(&other)
                .filter(|((_, e), (_, o))| e == o && !SAME_EVERYWHERE.contains(&e.as_str()))
                .map(|((p, e), _)| format!("{p}: {e:?}"))
                .collect();
            assert!(
                left.is_empty(),
                "{lang:?} leaves these texts in English:\n{}",
                left.join("\n")
            );
        }
    }

    #[test]
    fn the_links_languages_are_the_pages() {
        assert_eq!(
            spotlight_core::course::LANGS,
            Lang::ALL.map(Lang::code),
            "lang= must accept exactly the page's languages"
        );
    }

    #[test]
    fn languages_by_code_and_by_browser() {
        assert_eq!(Lang::parse("es"), Some(Lang::Es));
        assert_eq!(Lang::parse("pt-BR"), Some(Lang::Pt));
        assert_eq!(Lang::parse("EN_gb"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(Lang::preferred(["de-DE", "pt-PT", "es"]), Lang::Pt);
        assert_eq!(Lang::preferred(["fr"]), Lang::En);
        for l in Lang::ALL {
            assert_eq!(Lang::parse(l.code()), Some(l));
        }
    }

    #[test]
    fn numbers_are_written_the_languages_way() {
        assert_eq!(Lang::En.num(1234.5, 1), "1,234.5");
        assert_eq!(Lang::Es.num(1234.5, 1), "1234,5");
        assert_eq!(Lang::Es.num(12345.5, 1), "12.345,5");
        assert_eq!(Lang::Pt.num(1234.5, 1), "1.234,5");
        assert_eq!(Lang::Pt.num(-0.004, 2), "0,00");
        assert_eq!(Lang::En.num(-3.25, 1), "-3.2");
        assert_eq!(Lang::En.int(1_000_000), "1,000,000");
        assert_eq!(Lang::Pt.int(u64::MAX), "18.446.744.073.709.551.615", "exact, not through f64");
        assert_eq!(Lang::En.num(999.0, 0), "999");
        assert_eq!(Lang::En.pct(0.05, 0), "5%");
        assert_eq!(Lang::Es.pct(0.125, 1), "12,5\u{a0}%");
        assert_eq!(Lang::Pt.pct(0.5, 0), "50%");
        // As Rust writes it: English untouched, the others grouped and with a decimal comma.
        assert_eq!(Lang::En.plain(30000), "30000");
        assert_eq!(Lang::En.plain(0.05), "0.05");
        assert_eq!(Lang::Es.plain(0.05), "0,05");
        assert_eq!(Lang::Es.plain(3000), "3000");
        assert_eq!(Lang::Es.plain(30000), "30.000");
        assert_eq!(Lang::Pt.plain(3000), "3.000");
        assert_eq!(Lang::Pt.plain(-1234.5), "-1.234,5");
        assert_eq!(Lang::Es.plain(u64::MAX), "18.446.744.073.709.551.615");
        assert_eq!(Lang::Pt.plain(f64::NAN), "NaN");
        assert_eq!(Lang::Es.plain(f64::INFINITY), "inf");
        assert_eq!(Lang::Pt.plain(1e-6), "0,000001");
    }
}
