//! The settings' frame: the preset menu, the run buttons, the share and course links, and the
//! language menu (each field's own texts are in `fields`).

use serde::Serialize;

use crate::Lang;

/// A link with a copy button (the share link, the course link).
#[derive(Debug, Serialize)]
pub struct LinkTexts {
    /// The copy button.
    pub button: &'static str,
    /// The link's box, for a screen reader.
    pub label: &'static str,
    /// Said once the link was copied.
    pub done: &'static str,
}

/// How many presets the app's menu has (`spotlight_core::config::presets`, checked by a test).
pub const PRESETS: usize = 8;

/// A default run's size on the CPU and on a GPU: training samples and epochs.
pub struct CpuSize {
    pub train: u64,
    pub epochs: u64,
    pub gpu_train: u64,
    pub gpu_epochs: u64,
}

#[derive(Debug, Serialize)]
pub struct Controls {
    /// The settings' section, for a screen reader.
    pub section_label: &'static str,
    pub preset: &'static str,
    /// The preset menu's first option (none picked).
    pub paper_settings: &'static str,
    /// The presets, in the order of the app's list (`views::controls::presets`).
    pub presets: [&'static str; PRESETS],
    /// The settings' fold.
    pub settings: &'static str,
    /// The fold of the settings a first look does not need.
    pub advanced: &'static str,
    /// Said beside the controls on a CPU backend: what its default run is sized for.
    #[serde(skip)]
    pub sized: fn(&CpuSize) -> String,
    pub run: &'static str,
    pub rerun: &'static str,
    pub cancel: &'static str,
    pub share: LinkTexts,
    pub course_link: LinkTexts,
    /// "Copy failed (the browser's reason); select the link below.": the part before the reason …
    pub copy_failed: &'static str,
    /// … and the part after it.
    pub select_below: &'static str,
    /// The course link builder's fold.
    pub course: &'static str,
    pub course_hint: &'static str,
    /// The course builder's buttons: untick every part, tick every part.
    pub course_none: &'static str,
    pub course_all: &'static str,
    pub tour_opens: &'static str,
    pub no_tour: &'static str,
    /// The language menu's label.
    pub language: &'static str,
}

pub const EN: Controls = Controls {
    section_label: "experiment settings",
    preset: "Preset",
    paper_settings: "— the paper's settings —",
    presets: [
        "MNIST, 5% flipped labels, BN vs no-BN",
        "MNIST, 5% flipped, with the γ/σ regularizer",
        "MNIST, 20% flipped (strong memorization)",
        "MNIST, clean data (no outliers)",
        "MNIST, 5% OOD images (Fashion-MNIST)",
        "Fashion-MNIST, 5% flipped labels",
        "MNIST, 5% flipped, BN vs GroupNorm",
        "Tiny (a quick look)",
    ],
    settings: "Settings",
    advanced: "Advanced settings, presets and links",
    // The numbers ungrouped, as the page has always written them (the browser tests match "3000").
    sized: |z| {
        format!(
            "Sized for your processor: {} training samples × {} epochs, the smallest run in which BN's memorization \
             stood out in 5 of 5 seeds ({} × {} on a GPU); the presets keep that size.",
            z.train, z.epochs, z.gpu_train, z.gpu_epochs
        )
    },
    run: "Run",
    rerun: "Rerun",
    cancel: "Cancel",
    share: LinkTexts { button: "Copy link", label: "share link", done: "Link copied." },
    course_link: LinkTexts {
        button: "Copy course link",
        label: "course link",
        done: "Course link copied.",
    },
    copy_failed: "Copy failed",
    select_below: "select the link below.",
    course: "Course link, for a class",
    course_hint: "Untick what the class should not see. The link opens this experiment, with the tour at the step you pick.",
    course_none: "Untick all",
    course_all: "Tick all",
    tour_opens: "Tour opens at",
    no_tour: "no tour",
    language: "Language",
};

pub const ES: Controls = Controls {
    section_label: "ajustes del experimento",
    preset: "Ajuste predefinido",
    paper_settings: "— los ajustes del artículo —",
    presets: [
        "MNIST, 5\u{a0}% de etiquetas invertidas, BN frente a sin BN",
        "MNIST, 5\u{a0}% invertidas, con el regularizador γ/σ",
        "MNIST, 20\u{a0}% invertidas (memorización fuerte)",
        "MNIST, datos limpios (sin atípicos)",
        "MNIST, 5\u{a0}% de imágenes OOD (Fashion-MNIST)",
        "Fashion-MNIST, 5\u{a0}% de etiquetas invertidas",
        "MNIST, 5\u{a0}% invertidas, BN frente a GroupNorm",
        "Mínimo (un vistazo rápido)",
    ],
    settings: "Ajustes",
    advanced: "Ajustes avanzados, predefinidos y enlaces",
    sized: |z| {
        let l = Lang::Es;
        format!(
            "Ajustado a tu procesador: {} muestras de entrenamiento × {} épocas, la ejecución más pequeña en la que la \
             memorización de BN destacó en 5 de 5 semillas ({} × {} en una GPU); los ajustes predefinidos mantienen ese \
             tamaño.",
            l.int(z.train),
            z.epochs,
            l.int(z.gpu_train),
            z.gpu_epochs
        )
    },
    run: "Ejecutar",
    rerun: "Volver a ejecutar",
    cancel: "Cancelar",
    share: LinkTexts {
        button: "Copiar enlace",
        label: "enlace para compartir",
        done: "Enlace copiado.",
    },
    course_link: LinkTexts {
        button: "Copiar enlace de curso",
        label: "enlace de curso",
        done: "Enlace de curso copiado.",
    },
    copy_failed: "No se pudo copiar",
    select_below: "selecciona el enlace de abajo.",
    course: "Enlace de curso, para una clase",
    course_hint: "Desmarca lo que la clase no debe ver. El enlace abre este experimento, con el recorrido guiado en el \
                  paso elegido.",
    course_none: "Desmarcar todo",
    course_all: "Marcar todo",
    tour_opens: "El recorrido empieza en",
    no_tour: "sin recorrido",
    language: "Idioma",
};

pub const PT: Controls = Controls {
    section_label: "configurações do experimento",
    preset: "Predefinição",
    paper_settings: "— as configurações do artigo —",
    presets: [
        "MNIST, 5% de rótulos trocados, BN vs. sem BN",
        "MNIST, 5% trocados, com o regularizador γ/σ",
        "MNIST, 20% trocados (memorização forte)",
        "MNIST, dados limpos (sem atípicos)",
        "MNIST, 5% de imagens OOD (Fashion-MNIST)",
        "Fashion-MNIST, 5% de rótulos trocados",
        "MNIST, 5% trocados, BN vs. GroupNorm",
        "Mínimo (uma olhada rápida)",
    ],
    settings: "Configurações",
    advanced: "Configurações avançadas, predefinições e links",
    sized: |z| {
        let l = Lang::Pt;
        format!(
            "Dimensionado para o seu processador: {} amostras de treino × {} épocas, a menor execução em que a \
             memorização da BN se destacou em 5 de 5 sementes ({} × {} numa GPU); as predefinições mantêm esse tamanho.",
            l.int(z.train),
            z.epochs,
            l.int(z.gpu_train),
            z.gpu_epochs
        )
    },
    run: "Executar",
    rerun: "Executar de novo",
    cancel: "Cancelar",
    share: LinkTexts {
        button: "Copiar link",
        label: "link para compartilhar",
        done: "Link copiado.",
    },
    course_link: LinkTexts {
        button: "Copiar link de curso",
        label: "link de curso",
        done: "Link de curso copiado.",
    },
    copy_failed: "A cópia falhou",
    select_below: "selecione o link abaixo.",
    course: "Link de curso, para uma turma",
    course_hint: "Desmarque o que a turma não deve ver. O link abre este experimento, com o tour guiado no passo \
                  escolhido.",
    course_none: "Desmarcar tudo",
    course_all: "Marcar tudo",
    tour_opens: "O tour começa em",
    no_tour: "sem tour",
    language: "Idioma",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_for_every_preset_of_the_core_and_each_one_runs() {
        for gpu in [false, true] {
            let p = spotlight_core::config::presets(&spotlight_core::Config::for_backend(gpu));
            assert_eq!(p.len(), PRESETS);
            assert!(p.iter().all(|c| c.validate().is_ok()), "{p:?}");
        }
    }

    #[test]
    fn the_cpu_note_writes_numbers_each_languages_way() {
        let z = CpuSize { train: 1000, epochs: 6, gpu_train: 2000, gpu_epochs: 8 };
        assert!(
            (EN.sized)(&z)
                .starts_with("Sized for your processor: 1000 training samples × 6 epochs,"),
            "{}",
            (EN.sized)(&z)
        );
        assert!((EN.sized)(&z).contains("(2000 × 8 on a GPU)"));
        assert!(
            (ES.sized)(&z).contains("1000 muestras de entrenamiento × 6 épocas")
                && (ES.sized)(&z).contains("(2000 × 8 en una GPU)")
        );
        assert!(
            (PT.sized)(&z).contains("1.000 amostras de treino × 6 épocas")
                && (PT.sized)(&z).contains("(2.000 × 8 numa GPU)")
        );
    }
}
