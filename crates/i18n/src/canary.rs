//! The texts of the canary (the drawing pad and, after a run, what the models made of the drawing)
//! and of the gallery of the most exposed training samples: one struct, one literal per language.

use serde::Serialize;

/// What one model made of the student's drawing, for a sentence: whether it learned the planted
/// label (its prediction at the end), and whether the attacker would call it a member at 1 % false
/// positives (`None`: no attack) — with how many of 100 outsiders it outscores and its rank, written.
pub struct Verdict<'a> {
    pub model: &'a str,
    pub learned: bool,
    pub likely: Option<bool>,
    pub above: String,
    pub rank: String,
    pub of: String,
}

/// One model's score on the drawing, each number written already.
pub struct Scored<'a> {
    pub model: &'a str,
    /// The attacker's confidence that the drawing was trained on.
    pub confidence: &'a str,
    /// Its rank among the candidates, of how many.
    pub rank: &'a str,
    pub of: &'a str,
    /// The confidence for a typical clean member, and for a typical non-member.
    pub clean: &'a str,
    pub non_member: &'a str,
}

#[derive(Debug, Serialize)]
pub struct Canary {
    /// The pad's section, for a screen reader.
    pub pad_aria: &'static str,
    pub pad_title: &'static str,
    pub pad_teach: &'static str,
    /// The drawing pad itself, for a screen reader.
    pub canvas_aria: &'static str,
    /// How to draw with the keyboard.
    pub keys: &'static str,
    /// The label picker's name.
    pub label: &'static str,
    pub undo: &'static str,
    pub clear: &'static str,
    /// The pad's status, with a drawing and without.
    pub planted: &'static str,
    pub empty: &'static str,
    /// Fashion-MNIST's classes by number (MNIST's are its digits).
    pub fashion: [&'static str; 10],
    /// The panel after a run.
    pub title: &'static str,
    /// Before the class the drawing was planted as ("planted as 3").
    pub planted_as: &'static str,
    /// Without shadow models.
    pub no_attack: &'static str,
    /// Before the models' scores, which are joined by "; " and followed by a full stop.
    pub confidence: &'static str,
    /// One model's score on the drawing.
    #[serde(skip)]
    pub scored: fn(&Scored) -> String,
    /// One model's verdict on the drawing, in words.
    #[serde(skip)]
    pub verdict: fn(&Verdict) -> String,
    /// The table's column of what a model predicts, by the model's name.
    #[serde(skip)]
    pub predicts: fn(&str) -> String,
    pub p_label: &'static str,
    pub epoch: &'static str,
    pub teach: &'static str,
    pub gallery: Gallery,
}

/// The gallery of the members LiRA is most sure about.
#[derive(Debug, Serialize)]
pub struct Gallery {
    pub title: &'static str,
    pub teach: &'static str,
    /// A model's heading, by its name.
    #[serde(skip)]
    pub model: fn(&str) -> String,
    /// Caption: "given 3 · true 5", "given 3 · your drawing", "given 3 · OOD image".
    pub given: &'static str,
    pub true_label: &'static str,
    pub your_drawing: &'static str,
    pub ood_image: &'static str,
    /// The tags under the captions (the drawing's is `your_drawing`).
    pub clean: &'static str,
    pub flipped: &'static str,
    pub ood: &'static str,
    /// Under the drawing when it is not among the most exposed: its place among the members, by
    /// its place and the member count.
    #[serde(skip)]
    pub ranked: fn(usize, usize) -> String,
    /// Under the gallery: what a click on a sample shows.
    pub open_hint: &'static str,
    /// Under the chart of one sample as LiRA saw it: its φ, the IN and OUT means (each written
    /// already; `None` without IN shadows) and the attack's score.
    #[serde(skip)]
    pub sample_says: fn(&SampleSaid) -> String,
    /// Under the chart of its margin over the epochs: its loss and margin before training and at
    /// the end, and from which epoch on the model predicts the label it was given (`None`: not at
    /// the end).
    #[serde(skip)]
    pub history_says: fn(&HistorySaid) -> String,
    pub close: &'static str,
}

/// What [`Gallery::history_says`] says of one sample (each number written already).
pub struct HistorySaid<'a> {
    pub loss_first: &'a str,
    pub loss_last: &'a str,
    pub margin_first: &'a str,
    pub margin_last: &'a str,
    pub last_epoch: &'a str,
    pub since: Option<&'a str>,
}

/// What [`Gallery::sample_says`] says of one sample.
pub struct SampleSaid<'a> {
    pub phi: &'a str,
    pub mu_in: Option<&'a str>,
    pub mu_out: &'a str,
    pub score: &'a str,
}

pub const EN: Canary = Canary {
    pad_aria: "your drawing, the canary",
    pad_title: "Be the outlier",
    pad_teach: "Draw something and give it a label: it is planted among the training samples of the next run. Afterwards, \
                see beside this whether each model learned your label, and how sure the attacker is that your drawing was \
                trained on.",
    canvas_aria: "drawing pad, 28 by 28 pixels",
    keys: "Keyboard: Tab to the pad, arrows move, Space lowers or lifts the pen.",
    label: "Its label",
    undo: "Undo",
    clear: "Clear",
    planted: "Planted in the next run (and in the share link).",
    empty: "Nothing drawn: no canary.",
    fashion: [
        "T-shirt/top",
        "trouser",
        "pullover",
        "dress",
        "coat",
        "sandal",
        "shirt",
        "sneaker",
        "bag",
        "ankle boot",
    ],
    title: "Your drawing, the outlier",
    planted_as: "planted as ",
    no_attack: "The attack did not run (no shadow models), so there is no attacker's confidence.",
    confidence: "The attacker's confidence that your drawing was in the training data: ",
    scored: |&Scored { model, confidence: conf, rank, of, clean, non_member: non }| {
        format!(
            "{model} {conf} (ranked {rank} of {of} candidates; a typical clean member {clean}, a non-member {non})"
        )
    },
    verdict: |v| {
        let attacker = match v.likely {
            None => String::new(),
            Some(true) => format!(
                " The attacker: likely trained on — it looks more like a member than {} of 100 outsiders (ranked {} of {}).",
                v.above, v.rank, v.of
            ),
            Some(false) => format!(
                " The attacker: can't tell — it looks more like a member than only {} of 100 outsiders (ranked {} of {}).",
                v.above, v.rank, v.of
            ),
        };
        format!(
            "{}: learned your label — {}.{attacker}",
            v.model,
            if v.learned { "yes" } else { "no" }
        )
    },
    predicts: |model| format!("{model} predicts"),
    p_label: "p(your label)",
    epoch: "epoch",
    teach: "Epoch 0 is the untrained model. A model that predicts your label for a drawing that looks like something else \
            has memorized it. ‖∇ℓ‖ is the length of the gradient of your drawing's own loss inside a training batch: large \
            while the model gets it wrong, small once it fits it — compare it across the epochs of one model, not between \
            models (a BN model's gradients have another scale).",
    gallery: Gallery {
        title: "Most exposed training samples",
        teach: "The members LiRA is most sure about. Count the red (flipped) and orange (OOD) tags: the outliers the model \
                memorized are the ones it leaks.",
        model: |model| format!("{model} model"),
        given: "given",
        true_label: "true",
        your_drawing: "your drawing",
        ood_image: "OOD image",
        clean: "clean",
        flipped: "flipped",
        ood: "OOD",
        ranked: |at, of| format!("No. {at} of {of} members"),
        open_hint: "Click a sample (or Tab to it and press Enter) to see how the attack scored it.",
        history_says: |h| {
            let end = match h.since {
                Some(e) => {
                    format!("the model has predicted the label it was given since epoch {e}")
                }
                None => "the model does not predict the label it was given".to_string(),
            };
            format!(
                "Its loss went from {} before training to {} at epoch {}, its margin (its label's logit minus the largest other) from {} to {}: {end}.",
                h.loss_first, h.loss_last, h.last_epoch, h.margin_first, h.margin_last
            )
        },
        sample_says: |s| match s.mu_in {
            Some(mu_in) => format!(
                "The attacked model gives it φ = {}. The shadow models that trained on it gave {} on average, those that did not {}: the attack's score, how much likelier IN than OUT (log), is {}.",
                s.phi, mu_in, s.mu_out, s.score
            ),
            None => format!(
                "The attacked model gives it φ = {}; the shadow models that did not train on it gave {} on average.",
                s.phi, s.mu_out
            ),
        },
        close: "Close",
    },
};

pub const ES: Canary = Canary {
    pad_aria: "tu dibujo, el canario",
    pad_title: "Sé el atípico",
    pad_teach: "Dibuja algo y ponle una etiqueta: se planta entre las muestras de entrenamiento de la próxima ejecución. \
                Después, mira aquí al lado si cada modelo aprendió tu etiqueta y qué tan seguro está el atacante de que tu \
                dibujo se usó en el entrenamiento.",
    canvas_aria: "lienzo de dibujo, 28 por 28 píxeles",
    keys: "Teclado: Tab hasta el lienzo, las flechas mueven, Espacio baja o levanta el lápiz.",
    label: "Tu etiqueta",
    undo: "Deshacer",
    clear: "Borrar",
    planted: "Plantado en la próxima ejecución (y en el enlace para compartir).",
    empty: "Nada dibujado: sin canario.",
    fashion: [
        "camiseta/top",
        "pantalón",
        "suéter",
        "vestido",
        "abrigo",
        "sandalia",
        "camisa",
        "zapatilla deportiva",
        "bolso",
        "botín",
    ],
    title: "Tu dibujo, el atípico",
    planted_as: "plantado como ",
    no_attack: "El ataque no se ejecutó (sin modelos sombra), así que no hay confianza del atacante.",
    confidence: "Confianza del atacante en que tu dibujo estaba en los datos de entrenamiento: ",
    scored: |&Scored { model, confidence: conf, rank, of, clean, non_member: non }| {
        format!(
            "{model} {conf} (puesto {rank} de {of} candidatos; un miembro limpio típico {clean}, un no miembro {non})"
        )
    },
    verdict: |v| {
        let attacker = match v.likely {
            None => String::new(),
            Some(true) => format!(
                " El atacante: probablemente entrenó con él — parece más miembro que {} de cada 100 ajenos (puesto {} de {}).",
                v.above, v.rank, v.of
            ),
            Some(false) => format!(
                " El atacante: no puede saberlo — parece más miembro que solo {} de cada 100 ajenos (puesto {} de {}).",
                v.above, v.rank, v.of
            ),
        };
        format!(
            "{}: aprendió tu etiqueta — {}.{attacker}",
            v.model,
            if v.learned { "sí" } else { "no" }
        )
    },
    predicts: |model| format!("predicción ({model})"),
    p_label: "p(tu etiqueta)",
    epoch: "época",
    teach: "La época 0 es el modelo sin entrenar. Un modelo que predice tu etiqueta para un dibujo que parece otra cosa lo \
            ha memorizado. ‖∇ℓ‖ es la longitud del gradiente de la pérdida de tu dibujo dentro de un lote de entrenamiento: \
            grande mientras el modelo se equivoca, pequeña cuando ya lo ajusta; compárala entre las épocas de un mismo \
            modelo, no entre modelos (los gradientes de un modelo con BN tienen otra escala).",
    gallery: Gallery {
        title: "Muestras de entrenamiento más expuestas",
        teach: "Los miembros de los que LiRA está más seguro. Cuenta las marcas rojas (invertida) y naranjas (OOD): los \
                atípicos que el modelo memorizó son los que filtra.",
        model: |model| format!("Modelo {model}"),
        given: "etiqueta",
        true_label: "real",
        your_drawing: "tu dibujo",
        ood_image: "imagen OOD",
        clean: "limpia",
        flipped: "invertida",
        ood: "OOD",
        ranked: |at, of| format!("n.º {at} de {of} miembros"),
        open_hint: "Haz clic en una muestra (o llega con Tab y pulsa Intro) para ver cómo la puntuó el ataque.",
        history_says: |h| {
            let end = match h.since {
                Some(e) => {
                    format!("el modelo predice la etiqueta que se le dio desde la época {e}")
                }
                None => "el modelo no predice la etiqueta que se le dio".to_string(),
            };
            format!(
                "Su pérdida pasó de {} antes de entrenar a {} en la época {}, su margen (el logit de su etiqueta menos el mayor de los otros) de {} a {}: {end}.",
                h.loss_first, h.loss_last, h.last_epoch, h.margin_first, h.margin_last
            )
        },
        sample_says: |s| match s.mu_in {
            Some(mu_in) => format!(
                "El modelo atacado le da φ = {}. Los modelos sombra que la entrenaron dieron {} de media, los que no, {}: la puntuación del ataque, cuánto más probable es IN que OUT (log), es {}.",
                s.phi, mu_in, s.mu_out, s.score
            ),
            None => format!(
                "El modelo atacado le da φ = {}; los modelos sombra que no la entrenaron dieron {} de media.",
                s.phi, s.mu_out
            ),
        },
        close: "Cerrar",
    },
};

pub const PT: Canary = Canary {
    pad_aria: "seu desenho, o canário",
    pad_title: "Seja o atípico",
    pad_teach: "Desenhe algo e dê a ele um rótulo: ele é plantado entre as amostras de treino da próxima execução. Depois, \
                veja aqui ao lado se cada modelo aprendeu o seu rótulo e quão seguro o atacante está de que o seu desenho \
                foi usado no treino.",
    canvas_aria: "área de desenho, 28 por 28 pixels",
    keys: "Teclado: Tab até a área de desenho, as setas movem, Espaço abaixa ou levanta a caneta.",
    label: "Seu rótulo",
    undo: "Desfazer",
    clear: "Limpar",
    planted: "Plantado na próxima execução (e no link de compartilhamento).",
    empty: "Nada desenhado: sem canário.",
    fashion: [
        "camiseta/top",
        "calça",
        "pulôver",
        "vestido",
        "casaco",
        "sandália",
        "camisa",
        "tênis",
        "bolsa",
        "bota de cano curto",
    ],
    title: "Seu desenho, o atípico",
    planted_as: "plantado como ",
    no_attack: "O ataque não rodou (sem modelos-sombra), então não há confiança do atacante.",
    confidence: "Confiança do atacante de que o seu desenho estava nos dados de treino: ",
    scored: |&Scored { model, confidence: conf, rank, of, clean, non_member: non }| {
        format!(
            "{model} {conf} (posição {rank} de {of} candidatos; um membro limpo típico {clean}, um não membro {non})"
        )
    },
    verdict: |v| {
        let attacker = match v.likely {
            None => String::new(),
            Some(true) => format!(
                " O atacante: provavelmente treinou com ele — parece mais membro que {} em cada 100 de fora (posição {} de {}).",
                v.above, v.rank, v.of
            ),
            Some(false) => format!(
                " O atacante: não dá para saber — parece mais membro que só {} em cada 100 de fora (posição {} de {}).",
                v.above, v.rank, v.of
            ),
        };
        format!(
            "{}: aprendeu o seu rótulo — {}.{attacker}",
            v.model,
            if v.learned { "sim" } else { "não" }
        )
    },
    predicts: |model| format!("predição ({model})"),
    p_label: "p(seu rótulo)",
    epoch: "época",
    teach: "A época 0 é o modelo sem treino. Um modelo que prevê o seu rótulo para um desenho que parece outra coisa o \
            memorizou. ‖∇ℓ‖ é o comprimento do gradiente da perda do seu desenho dentro de um lote de treino: grande \
            enquanto o modelo erra, pequeno quando já o ajusta; compare-o entre as épocas de um mesmo modelo, não entre \
            modelos (os gradientes de um modelo com BN têm outra escala).",
    gallery: Gallery {
        title: "Amostras de treino mais expostas",
        teach: "Os membros sobre os quais o LiRA tem mais certeza. Conte as marcas vermelhas (trocada) e laranja (OOD): os \
                atípicos que o modelo memorizou são os que ele vaza.",
        model: |model| format!("Modelo {model}"),
        given: "rótulo",
        true_label: "real",
        your_drawing: "seu desenho",
        ood_image: "imagem OOD",
        clean: "limpa",
        flipped: "trocada",
        ood: "OOD",
        ranked: |at, of| format!("nº {at} de {of} membros"),
        open_hint: "Clique numa amostra (ou chegue com Tab e aperte Enter) para ver como o ataque a pontuou.",
        history_says: |h| {
            let end = match h.since {
                Some(e) => format!("o modelo prevê o rótulo que lhe foi dado desde a época {e}"),
                None => "o modelo não prevê o rótulo que lhe foi dado".to_string(),
            };
            format!(
                "Sua perda foi de {} antes do treino a {} na época {}, sua margem (o logit do seu rótulo menos o maior dos outros) de {} a {}: {end}.",
                h.loss_first, h.loss_last, h.last_epoch, h.margin_first, h.margin_last
            )
        },
        sample_says: |s| match s.mu_in {
            Some(mu_in) => format!(
                "O modelo atacado lhe dá φ = {}. Os modelos-sombra que a treinaram deram {} em média, os que não, {}: a pontuação do ataque, quanto mais provável é IN que OUT (log), é {}.",
                s.phi, mu_in, s.mu_out, s.score
            ),
            None => format!(
                "O modelo atacado lhe dá φ = {}; os modelos-sombra que não a treinaram deram {} em média.",
                s.phi, s.mu_out
            ),
        },
        close: "Fechar",
    },
};
