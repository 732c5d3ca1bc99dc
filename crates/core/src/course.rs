//! Course links: what a teacher's link hides of the page, and the step its guided tour opens at.
//!
//! A part of the page is named the way the link names it: a control by its `Config` field
//! (`label_noise`), the preset menu and the share link (`preset`, `share`), a view by its short
//! name (`accuracy`, `attack`, …) and the explanation texts as `teach`. `hide=a,b` hides those;
//! `show=a,b` hides every part but those (a link can show only the noise slider and the
//! memorization chart); `tour=N` opens the tour at step N; `lang=es` opens the page in that
//! language (one of [`LANGS`]). The Run and Cancel buttons and the progress are never hidden.

use crate::fields::{BASIC, FIELDS, Kind};
use crate::read::ReadError;

/// The views a link can hide, by name (what the page calls them is `spotlight-i18n`'s,
/// `fields::Parts`).
pub const VIEWS: [&str; 9] =
    ["accuracy", "gradients", "gamma", "attack", "canary", "gallery", "theory", "paper", "bench"];

/// The other parts: the preset menu, the share link and the explanation texts.
pub const EXTRAS: [&str; 3] = ["preset", "share", "teach"];

/// The page's languages, by code (their texts are the app's, `spotlight-i18n`).
pub const LANGS: [&str; 3] = ["en", "es", "pt"];

/// How many steps the guided tour has.
pub const TOUR_STEPS: usize = 4;

/// The part each step of the tour points at: flip labels, watch memorization, the attack, restrain γ/σ.
pub const TOUR_PARTS: [&str; TOUR_STEPS] = ["label_noise", "accuracy", "attack", "regularizer"];

/// Every part a link can hide, in the page's order: the controls (the canary's fields are its
/// view's), then the extras and the views.
pub fn parts() -> Vec<&'static str> {
    FIELDS
        .iter()
        .filter(|f| !matches!(f.kind, Kind::Drawing) && f.name != "canary_label")
        .map(|f| f.name)
        .chain(EXTRAS)
        .chain(VIEWS)
        .collect()
}

fn is_part(name: &str) -> bool {
    parts().contains(&name)
}

/// What a link hides, and where its tour opens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Course {
    /// Hidden parts, each a name of [`parts`], in the page's order, without repeats.
    hidden: Vec<&'static str>,
    /// The tour's step (1 to [`TOUR_STEPS`]) to open at.
    pub tour: Option<usize>,
    /// The page's language (one of [`LANGS`]), when the link names one.
    pub lang: Option<&'static str>,
}

impl Course {
    /// A course hiding `hidden` (unknown names are left out), its tour opening at `tour`.
    pub fn new<'a>(hidden: impl IntoIterator<Item = &'a str>, tour: Option<usize>) -> Self {
        let mut c = Self {
            hidden: Vec::new(),
            tour: tour.filter(|t| (1..=TOUR_STEPS).contains(t)),
            lang: None,
        };
        for h in hidden {
            c.hide(h);
        }
        c
    }

    /// The same course in language `lang` (none when it is not one of [`LANGS`]).
    pub fn with_lang(self, lang: Option<&str>) -> Self {
        Self { lang: lang.and_then(|l| read_lang(l).ok()), ..self }
    }

    /// Hides `part` (nothing when it is not a part's name).
    pub fn hide(&mut self, part: &str) {
        if let Some(&p) = parts().iter().find(|p| **p == part)
            && !self.hidden.contains(&p)
        {
            self.hidden.push(p);
            let order = parts();
            self.hidden.sort_by_key(|h| order.iter().position(|p| p == h));
        }
    }

    /// The tour's steps (1-based) whose part this course shows: a class page's tour skips the rest.
    pub fn tour_steps(&self) -> Vec<usize> {
        (1..=TOUR_STEPS).filter(|&n| !self.hides(TOUR_PARTS[n - 1])).collect()
    }

    /// The experiment a page with this course runs for `config`: without shadow models (no attack)
    /// when the course hides every part that shows the attack's results (its lens and the gallery of
    /// exposed members, and the canary's panel with the attacker's call) — a class that does not
    /// see the attack does not wait for it.
    pub fn trim(&self, config: &crate::Config) -> crate::Config {
        let mut c = config.clone();
        if self.hides("attack") && self.hides("gallery") && self.hides("canary") {
            c.shadow_models = 0;
        }
        c
    }

    /// Whether the page opens with the "Advanced" settings unfolded: a course link that picks the
    /// controls a class sees (it hides some) and keeps one that is not among the basic ones.
    pub fn unfolds_advanced(&self) -> bool {
        let control = |f: &&crate::fields::Field| {
            !matches!(f.kind, Kind::Drawing) && f.name != "canary_label"
        };
        FIELDS.iter().filter(control).any(|f| self.hides(f.name))
            && FIELDS
                .iter()
                .filter(control)
                .any(|f| !BASIC.contains(&f.name) && !self.hides(f.name))
    }

    /// Whether the link hides `part`.
    pub fn hides(&self, part: &str) -> bool {
        self.hidden.contains(&part)
    }

    pub fn hidden(&self) -> &[&'static str] {
        &self.hidden
    }

    /// Whether the course changes nothing (an ordinary link).
    pub fn is_empty(&self) -> bool {
        self.hidden.is_empty() && self.tour.is_none() && self.lang.is_none()
    }

    /// The link's part for the course (without a leading `&`; empty for an empty course): `show=`
    /// or `hide=`, whichever is shorter, then `tour=` and `lang=`.
    pub fn to_query(&self) -> String {
        let mut out = Vec::new();
        if !self.hidden.is_empty() {
            let shown: Vec<&str> = parts().into_iter().filter(|p| !self.hides(p)).collect();
            let hidden = self.hidden.join(",");
            out.push(if shown.join(",").len() < hidden.len() {
                format!("show={}", shown.join(","))
            } else {
                format!("hide={hidden}")
            });
        }
        if let Some(t) = self.tour {
            out.push(format!("tour={t}"));
        }
        if let Some(l) = self.lang {
            out.push(format!("lang={l}"));
        }
        out.join("&")
    }
}

/// Reads a `hide=` or `show=` value: the parts it names, and the names that are not parts.
pub fn read_list(value: &str) -> (Vec<&str>, Vec<&str>) {
    value.split(',').map(str::trim).filter(|s| !s.is_empty()).partition(|s| is_part(s))
}

/// Reads a `tour=` value: a step from 1 to [`TOUR_STEPS`].
pub fn read_tour(value: &str) -> Result<usize, ReadError> {
    match value.trim().parse::<usize>() {
        Ok(t) if (1..=TOUR_STEPS).contains(&t) => Ok(t),
        _ => Err(ReadError::TourStep { max: TOUR_STEPS }),
    }
}

/// Reads a `lang=` value: one of [`LANGS`].
pub fn read_lang(value: &str) -> Result<&'static str, ReadError> {
    let v = value.trim();
    LANGS.into_iter().find(|l| *l == v).ok_or_else(|| ReadError::ExpectedOneOf(LANGS.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_unique_and_named_as_the_link_names_them() {
        let p = parts();
        for (i, a) in p.iter().enumerate() {
            assert!(!p[i + 1..].contains(a), "{a} twice");
            assert!(a.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{a}");
        }
        assert!(is_part("label_noise") && is_part("accuracy") && is_part("teach"));
        assert!(!is_part("canary_label") && !is_part("run"));
    }

    #[test]
    fn a_course_writes_the_shorter_list() {
        let c = Course::new(["teach", "seed", "seed", "nonsense"], Some(2));
        assert_eq!(c.hidden(), ["seed", "teach"]);
        assert_eq!(c.to_query(), "hide=seed,teach&tour=2");
        // Everything but the noise slider and the memorization chart: `show=` is shorter.
        let all = parts();
        let only = Course::new(
            all.iter().copied().filter(|p| !matches!(*p, "label_noise" | "accuracy")),
            None,
        );
        assert_eq!(only.to_query(), "show=label_noise,accuracy");
        assert!(Course::default().is_empty() && Course::default().to_query().is_empty());
        assert_eq!(Course::new([], Some(9)).tour, None);
        assert_eq!(read_list("seed, x ,,accuracy"), (vec!["seed", "accuracy"], vec!["x"]));
        assert_eq!(read_tour("3"), Ok(3));
        assert!(read_tour("0").is_err() && read_tour("5").is_err() && read_tour("x").is_err());
        let es = Course::new(["seed"], None).with_lang(Some("es"));
        assert_eq!(es.to_query(), "hide=seed&lang=es");
        assert!(!Course::default().with_lang(Some("pt")).is_empty());
        assert_eq!(Course::default().with_lang(Some("de")).lang, None);
        assert_eq!(read_lang("pt"), Ok("pt"));
        assert_eq!(read_lang("de"), Err(ReadError::ExpectedOneOf(vec!["en", "es", "pt"])));
    }

    #[test]
    fn a_hidden_attack_is_not_run_and_a_picked_advanced_setting_unfolds() {
        let c = crate::Config::default();
        assert_eq!(
            Course::new(["attack"], None).trim(&c),
            c,
            "the gallery still shows the attack's results"
        );
        assert_eq!(
            Course::new(["attack", "gallery"], None).trim(&c),
            c,
            "the canary's panel still shows the attacker's call"
        );
        assert_eq!(Course::new(["attack", "gallery", "canary"], None).trim(&c).shadow_models, 0);
        assert_eq!(Course::new(["attack", "gallery", "canary"], None).trim(&c).epochs, c.epochs);
        assert!(!Course::default().unfolds_advanced(), "a plain page opens with Advanced folded");
        let all = parts();
        let only =
            |keep: &[&str]| Course::new(all.iter().copied().filter(|p| !keep.contains(p)), None);
        assert!(
            !only(&["label_noise", "accuracy"]).unfolds_advanced(),
            "only a basic setting shown"
        );
        assert!(only(&["label_noise", "seed"]).unfolds_advanced(), "the teacher kept the seed");
        assert_eq!(Course::default().tour_steps(), [1, 2, 3, 4]);
        assert_eq!(
            only(&["label_noise", "attack"]).tour_steps(),
            [1, 3],
            "steps at hidden parts are skipped"
        );
    }
}
