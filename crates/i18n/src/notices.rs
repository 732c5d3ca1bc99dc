//! The texts of the notices: what in a link or a control could not be used as given, and why a
//! config cannot run. One struct, one literal per language.
//!
//! The core's notices and errors are enums (`link::Notice`, `read::ReadError`,
//! `config::ConfigProblem`, `canary::CanaryError`, `theory::TheoryError`); the page (in its
//! language) and the CLI (in English) write them with these texts by variant
//! ([`crate::say::notice`]). Values come in already written: numbers in the language's way, a key
//! or value the link gave quoted (`"abc"`), a field by its link name (`label_noise`).

use serde::Serialize;

/// Why a `run=1` link waits: its cost (epochs × samples × models = sample passes), how many times
/// the default comparison that is, and the most a link starts by itself.
pub struct Large<'a> {
    pub epochs: &'a str,
    pub samples: &'a str,
    pub models: &'a str,
    pub passes: &'a str,
    pub times: &'a str,
    pub budget: &'a str,
}

/// A control's text its field refused: the field's link name, what was typed (quoted), why, and
/// the value the control shows again.
pub struct InvalidControl<'a> {
    pub name: &'a str,
    pub raw: &'a str,
    pub reason: &'a str,
    pub kept: &'a str,
}

/// A control's number outside its field's range: the field's link name, what was typed, the value
/// it was set to, the range, and whether whole numbers only.
pub struct ClampedControl<'a> {
    pub name: &'a str,
    pub raw: &'a str,
    pub to: &'a str,
    pub min: &'a str,
    pub max: &'a str,
    pub whole: bool,
}

#[derive(Debug, Serialize)]
pub struct Notices {
    // A link's notices (`link::Notice`).
    /// Before a quoted key: `ignored unknown setting "foo"`.
    pub unknown_key: &'static str,
    /// key, quoted value, reason.
    #[serde(skip)]
    pub invalid: fn(&str, &str, &str) -> String,
    /// key, quoted value, the number it was clamped to.
    #[serde(skip)]
    pub clamped: fn(&str, &str, &str) -> String,
    /// key.
    #[serde(skip)]
    pub repeated: fn(&str) -> String,
    /// What of a link was ignored (`too_many` or `too_long`).
    #[serde(skip)]
    pub ignored: fn(&str) -> String,
    /// The settings after the first `link::MAX_PAIRS` (how many a link may have).
    #[serde(skip)]
    pub too_many: fn(&str) -> String,
    /// A setting of that many characters.
    #[serde(skip)]
    pub too_long: fn(&str) -> String,
    /// key, why the combination cannot run.
    #[serde(skip)]
    pub conflict: fn(&str, &str) -> String,
    /// How many more notices there were.
    #[serde(skip)]
    pub more: fn(&str) -> String,

    // Why a `run=1` link waits for a click (`link::AskWhy`).
    pub ask_foreign_frame: &'static str,
    #[serde(skip)]
    pub ask_large: fn(&Large) -> String,

    // Why a value does not fit (`read::ReadError`).
    pub expected_bool: &'static str,
    /// Before the allowed values, joined by ", ".
    pub expected_one_of: &'static str,
    /// min, max.
    #[serde(skip)]
    pub expected_number: fn(&str, &str) -> String,
    /// Before the largest seed.
    pub expected_seed: &'static str,
    /// Before why the text is not a drawing.
    pub not_drawing: &'static str,
    /// Before the allowed names, joined by ", ".
    pub allowed: &'static str,
    pub not_a_part: &'static str,
    /// Before the tour's last step.
    pub tour_step: &'static str,

    // Why a text is not a drawing (`canary::CanaryError`).
    /// A drawing's length, this one's.
    #[serde(skip)]
    pub drawing_length: fn(&str, &str) -> String,
    /// The quoted character.
    #[serde(skip)]
    pub drawing_character: fn(&str) -> String,
    pub drawing_spill: &'static str,
    pub drawing_empty: &'static str,

    // Why a config cannot run (`config::ConfigProblem`; serde's own texts stay English).
    /// value, min, max.
    #[serde(skip)]
    pub out_of_range: fn(&str, &str, &str) -> String,
    /// label_noise + ood_fraction, the most allowed.
    #[serde(skip)]
    pub too_few_clean: fn(&str, &str) -> String,
    pub one_shadow: &'static str,
    /// batch size, training set size.
    #[serde(skip)]
    pub batch_over_train: fn(&str, &str) -> String,
    /// The normalization compared with itself (its name, as the `norm` menu writes it).
    #[serde(skip)]
    pub same_norm: fn(&str) -> String,
    /// Before serde's text.
    pub not_json: &'static str,
    pub not_object: &'static str,

    // What is wrong with a theory lab's setting (`theory::TheoryError`; out of range: `out_of_range`).
    pub not_finite: &'static str,
    pub not_positive: &'static str,

    // The controls' notices.
    #[serde(skip)]
    pub invalid_control: fn(&InvalidControl) -> String,
    #[serde(skip)]
    pub clamped_control: fn(&ClampedControl) -> String,
    /// The error (field: why).
    #[serde(skip)]
    pub not_applied: fn(&str) -> String,
}

pub const EN: Notices = Notices {
    unknown_key: "ignored unknown setting ",
    invalid: |key, value, reason| {
        format!("{key}: {value} is not valid ({reason}); kept the default")
    },
    clamped: |key, value, to| format!("{key}: {value} is out of range; clamped to {to}"),
    repeated: |key| format!("{key} was given more than once; the last value counts"),
    ignored: |what| format!("ignored {what}"),
    too_many: |max| format!("everything after the first {max} settings"),
    too_long: |len| format!("a setting of {len} characters"),
    conflict: |key, reason| format!("{key}: {reason}; kept the default"),
    more: |count| format!("and {count} more not listed"),
    ask_foreign_frame: "This page is shown inside another site's page, so its link does not start a run by itself.",
    ask_large: |&Large { epochs: e, samples: s, models: m, passes: p, times: x, budget: b }| {
        format!(
            "This link asks to start a large run at once: {e} epochs × {s} samples × {m} models = {p} sample passes, \
             {x}× the default comparison (the most a link starts by itself on this backend is {b})."
        )
    },

    expected_bool: "expected true or false",
    expected_one_of: "expected one of ",
    expected_number: |min, max| format!("expected a number from {min} to {max}"),
    expected_seed: "expected a whole number from 0 to ",
    not_drawing: "not a drawing: ",
    allowed: "allowed: ",
    not_a_part: "not a part of the page",
    tour_step: "a tour step is a whole number from 1 to ",

    drawing_length: |n, len| format!("a drawing is {n} characters, this is {len}"),
    drawing_character: |c| format!("{c} is not one of A–Z a–z 0–9 - _"),
    drawing_spill: "its last character has bits beyond the 784 pixels",
    drawing_empty: "the drawing is empty",

    out_of_range: |value, min, max| format!("{value} is out of range; allowed {min} to {max}"),
    too_few_clean: |sum, max| {
        format!(
            "label_noise + ood_fraction = {sum} leaves too few clean samples; allowed at most {max}"
        )
    },
    one_shadow: "1 is not enough: LiRA needs an IN and an OUT model for every candidate; use 0 (no attack) or at least 2",
    batch_over_train: |batch, train| format!("{batch} is larger than train_size ({train})"),
    same_norm: |norm| format!("{norm} is compared with itself; choose another normalization"),
    not_json: "not valid JSON: ",
    not_object: "expected a JSON object",

    not_finite: "not a finite number",
    not_positive: "must be above 0",

    invalid_control: |&InvalidControl { name, raw, reason, kept }| {
        format!("{name}: {raw} is not valid ({reason}); kept {kept}")
    },
    clamped_control: |&ClampedControl { name, raw, to, min, max, whole }| {
        format!(
            "{name}: {raw} set to {to} (allowed {min} to {max}{})",
            if whole { ", whole numbers" } else { "" }
        )
    },
    not_applied: |e| format!("{e}; not applied"),
};

pub const ES: Notices = Notices {
    unknown_key: "se ignoró un ajuste desconocido: ",
    invalid: |key, value, reason| {
        format!("{key}: {value} no es válido ({reason}); se mantiene el valor predeterminado")
    },
    clamped: |key, value, to| format!("{key}: {value} está fuera de rango; se ajustó a {to}"),
    repeated: |key| format!("{key} aparece más de una vez; vale el último valor"),
    ignored: |what| format!("se ignoró {what}"),
    too_many: |max| format!("todo lo que sigue a los primeros {max} ajustes"),
    too_long: |len| format!("un ajuste de {len} caracteres"),
    conflict: |key, reason| format!("{key}: {reason}; se mantiene el valor predeterminado"),
    more: |count| format!("y {count} más sin listar"),
    ask_foreign_frame: "Esta página se muestra dentro de la página de otro sitio, así que su enlace no inicia un entrenamiento por sí solo.",
    ask_large: |&Large { epochs: e, samples: s, models: m, passes: p, times: x, budget: b }| {
        format!(
            "Este enlace pide iniciar de inmediato un entrenamiento grande: {e} épocas × {s} muestras × {m} modelos = {p} pasadas \
             de muestras, {x}× la comparación por defecto (lo máximo que un enlace inicia por sí solo en este backend es {b})."
        )
    },

    expected_bool: "se esperaba true o false",
    expected_one_of: "se esperaba uno de estos: ",
    expected_number: |min, max| format!("se esperaba un número de {min} a {max}"),
    expected_seed: "se esperaba un número entero de 0 a ",
    not_drawing: "no es un dibujo: ",
    allowed: "valores permitidos: ",
    not_a_part: "no es una parte de la página",
    tour_step: "un paso del recorrido es un número entero de 1 a ",

    drawing_length: |n, len| format!("un dibujo tiene {n} caracteres, este tiene {len}"),
    drawing_character: |c| format!("{c} no es uno de A–Z a–z 0–9 - _"),
    drawing_spill: "su último carácter tiene bits más allá de los 784 píxeles",
    drawing_empty: "el dibujo está vacío",

    out_of_range: |value, min, max| {
        format!("{value} está fuera de rango; se permite de {min} a {max}")
    },
    too_few_clean: |sum, max| {
        format!(
            "label_noise + ood_fraction = {sum} deja muy pocas muestras limpias; se permite como máximo {max}"
        )
    },
    one_shadow: "1 no alcanza: LiRA necesita un modelo IN y uno OUT para cada candidato; usa 0 (sin ataque) o al menos 2",
    batch_over_train: |batch, train| format!("{batch} es mayor que train_size ({train})"),
    same_norm: |norm| format!("{norm} se compara consigo misma; elige otra normalización"),
    not_json: "JSON no válido: ",
    not_object: "se esperaba un objeto JSON",

    not_finite: "no es un número finito",
    not_positive: "debe ser mayor que 0",

    invalid_control: |&InvalidControl { name, raw, reason, kept }| {
        format!("{name}: {raw} no es válido ({reason}); se mantiene {kept}")
    },
    clamped_control: |&ClampedControl { name, raw, to, min, max, whole }| {
        format!(
            "{name}: {raw} se ajustó a {to} (se permite de {min} a {max}{})",
            if whole { ", solo números enteros" } else { "" }
        )
    },
    not_applied: |e| format!("{e}; no se aplicó"),
};

pub const PT: Notices = Notices {
    unknown_key: "configuração desconhecida ignorada: ",
    invalid: |key, value, reason| {
        format!("{key}: {value} não é válido ({reason}); mantido o valor padrão")
    },
    clamped: |key, value, to| format!("{key}: {value} está fora do intervalo; ajustado para {to}"),
    repeated: |key| format!("{key} aparece mais de uma vez; vale o último valor"),
    ignored: |what| format!("ignorou-se {what}"),
    too_many: |max| format!("tudo o que vem depois das primeiras {max} configurações"),
    too_long: |len| format!("uma configuração de {len} caracteres"),
    conflict: |key, reason| format!("{key}: {reason}; mantido o valor padrão"),
    more: |count| format!("e mais {count} não listados"),
    ask_foreign_frame: "Esta página aparece dentro da página de outro site, então o link dela não inicia um treino sozinho.",
    ask_large: |&Large { epochs: e, samples: s, models: m, passes: p, times: x, budget: b }| {
        format!(
            "Este link pede para iniciar já um treino grande: {e} épocas × {s} amostras × {m} modelos = {p} passagens de \
             amostras, {x}× a comparação padrão (o máximo que um link inicia sozinho neste backend é {b})."
        )
    },

    expected_bool: "esperado true ou false",
    expected_one_of: "esperado um destes: ",
    expected_number: |min, max| format!("esperado um número de {min} a {max}"),
    expected_seed: "esperado um número inteiro de 0 a ",
    not_drawing: "não é um desenho: ",
    allowed: "valores permitidos: ",
    not_a_part: "não é uma parte da página",
    tour_step: "um passo do tour é um número inteiro de 1 a ",

    drawing_length: |n, len| format!("um desenho tem {n} caracteres, este tem {len}"),
    drawing_character: |c| format!("{c} não é um de A–Z a–z 0–9 - _"),
    drawing_spill: "seu último caractere tem bits além dos 784 pixels",
    drawing_empty: "o desenho está vazio",

    out_of_range: |value, min, max| {
        format!("{value} está fora do intervalo; permitido de {min} a {max}")
    },
    too_few_clean: |sum, max| {
        format!(
            "label_noise + ood_fraction = {sum} deixa poucas amostras limpas; permitido no máximo {max}"
        )
    },
    one_shadow: "1 não basta: o LiRA precisa de um modelo IN e um OUT para cada candidato; use 0 (sem ataque) ou pelo menos 2",
    batch_over_train: |batch, train| format!("{batch} é maior que train_size ({train})"),
    same_norm: |norm| format!("{norm} é comparada consigo mesma; escolha outra normalização"),
    not_json: "JSON inválido: ",
    not_object: "esperado um objeto JSON",

    not_finite: "não é um número finito",
    not_positive: "deve ser maior que 0",

    invalid_control: |&InvalidControl { name, raw, reason, kept }| {
        format!("{name}: {raw} não é válido ({reason}); mantido {kept}")
    },
    clamped_control: |&ClampedControl { name, raw, to, min, max, whole }| {
        format!(
            "{name}: {raw} ajustado para {to} (permitido de {min} a {max}{})",
            if whole { ", só números inteiros" } else { "" }
        )
    },
    not_applied: |e| format!("{e}; não aplicado"),
};
