//! The theory lab's texts (its panel, its controls, its four charts): one struct, one literal per
//! language. What the lab computes is the core's (`spotlight_core::theory`).

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Theory {
    /// The panel's heading.
    pub title: &'static str,
    /// What the model is and what to do, above the controls.
    pub teach: &'static str,
    /// Where our choices are (the paper's text gives only its abstract).
    pub ours: &'static str,
    /// The button under the γ/σ lens that opens the lab.
    pub open: &'static str,
    /// Controls.
    pub outlier_x: &'static str,
    pub outlier_y: &'static str,
    pub learning_rate: &'static str,
    pub batch_size: &'static str,
    pub optimizer: &'static str,
    pub freeze_gamma: &'static str,
    pub freeze_help: &'static str,
    pub bn: &'static str,
    pub step: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub reset: &'static str,
    /// "Step 40 of 200".
    #[serde(skip)]
    pub at_step: fn(usize, usize) -> String,
    /// A setting the lab cannot take (the core's reason, in English).
    #[serde(skip)]
    pub bad_setting: fn(&str) -> String,
    /// The charts: titles, axes, keys.
    pub data_title: &'static str,
    pub margin_title: &'static str,
    pub ratio_title: &'static str,
    pub gamma_title: &'static str,
    pub class_pos: &'static str,
    pub class_neg: &'static str,
    pub outlier: &'static str,
    pub step_axis: &'static str,
    pub margin_axis: &'static str,
    pub predicted_axis: &'static str,
    pub measured_axis: &'static str,
    pub gamma_axis: &'static str,
    pub with_outlier: &'static str,
    pub without_outlier: &'static str,
    pub same_g: &'static str,
    pub two_models: &'static str,
    pub diagonal: &'static str,
    /// One sentence under each chart, with this run's numbers. The data chart: the outlier's
    /// margin per model (`plain`, then `bn` if trained) at the step shown.
    #[serde(skip)]
    pub data_says: fn(&str, Option<&str>) -> String,
    /// The margins: the step each model fitted the outlier from (`None`: not fitted), BN's `None`
    /// when the run has no BN model.
    #[serde(skip)]
    pub margin_says: fn(Option<Option<usize>>, Option<usize>) -> String,
    /// The scatter: measured steps, the median of measured ÷ predicted, and how many measured
    /// ratios were ≤ 0 (not drawn on log axes).
    #[serde(skip)]
    pub ratio_says: fn(usize, &str, usize) -> String,
    /// γ at the step shown with and without the outlier in training.
    #[serde(skip)]
    pub gamma_says: fn(&str, &str) -> String,
    /// No BN model: the γ charts have nothing to show.
    pub no_bn: &'static str,
}

pub const EN: Theory = Theory {
    title: "Theory lab: watch BN multiply an outlier's progress by (γ/σ)²",
    teach: "The paper's analysis model, small enough to see: one linear filter h = w·x, then BatchNorm (γ·(h − μ)/σ + β, \
            with the batch's mean μ and standard deviation σ) or nothing, then a linear classifier. Two classes of points, and \
            one outlier carrying the other class's label. Both models start from the same weights and see the same batches. \
            The theorem: in one step of gradient descent, BN multiplies the outlier's progress by (γ/σ)². Click the plane to \
            move the outlier, change the learning rate, freeze γ — and check the theorem against what is measured.",
    ours: "Our choices (only the paper's abstract is public): extra coordinates of small per-sample noise, so that a \
           linear model can fit one odd point through its own quirks, as a large network fits a pixel pattern; read-outs \
           with the statistics of the whole training set; “measured” is BN's own step on w against the same step without \
           (γ/σ)² — the plain parameterization with BN's per-sample errors and head.",
    open: "Open the theory lab: (γ/σ)² in a model small enough to see",
    outlier_x: "Outlier: along the classes' axis",
    outlier_y: "Outlier: across it",
    learning_rate: "Learning rate",
    batch_size: "Batch size",
    optimizer: "Optimizer",
    freeze_gamma: "Freeze γ (cut the loop)",
    freeze_help: "γ stays 1: BN still divides by σ, but cannot grow its scale to fit the outlier.",
    bn: "Train the BN model",
    step: "Step",
    play: "Play",
    pause: "Pause",
    reset: "Reset",
    at_step: |n, of| format!("Step {n} of {of}"),
    bad_setting: |why| format!("Not applied: {why}"),
    data_title: "The data and each model's boundary",
    margin_title: "The outlier's margin (above 0: its wrong label fitted)",
    ratio_title: "Measured growth factor vs the theorem's (γ/σ)²",
    gamma_title: "γ with and without the outlier",
    class_pos: "class +1",
    class_neg: "class −1",
    outlier: "outlier (labelled +1)",
    step_axis: "step",
    margin_axis: "margin",
    predicted_axis: "predicted (γ/σ)²",
    measured_axis: "measured",
    gamma_axis: "γ",
    with_outlier: "with the outlier",
    without_outlier: "without it",
    same_g: "BN's step ÷ the same step without (γ/σ)²",
    two_models: "BN's step ÷ no-BN's step",
    diagonal: "measured = predicted",
    data_says: |plain, bn| match bn {
        Some(bn) => format!("The outlier's margin now: BN {bn}, no-BN {plain} (above 0: fitted)."),
        None => format!("The outlier's margin now: {plain} (above 0: fitted)."),
    },
    margin_says: |bn, plain| {
        let at = |s: Option<usize>| {
            s.map_or_else(|| "not yet".to_string(), |s| format!("from step {s}"))
        };
        match bn {
            Some(bn) => {
                format!("Fitted the outlier's wrong label — BN: {}; no-BN: {}.", at(bn), at(plain))
            }
            None => format!("Fitted the outlier's wrong label — no-BN: {}.", at(plain)),
        }
    },
    ratio_says: |n, median, non_positive| {
        format!(
            "{n} steps held the outlier; on them BN's measured factor was {median} times the predicted (γ/σ)², in the \
             median ({non_positive} steps measured ≤ 0 are not drawn on these log axes)."
        )
    },
    gamma_says: |with, without| {
        format!("γ now: {with} with the outlier in training, {without} without it.")
    },
    no_bn: "No BN model in this run: turn it on to see γ/σ.",
};

pub const ES: Theory = Theory {
    title: "Laboratorio de teoría: mira cómo BN multiplica el avance de un atípico por (γ/σ)²",
    teach: "El modelo de análisis del artículo, lo bastante pequeño para verlo: un filtro lineal h = w·x, luego BatchNorm \
            (γ·(h − μ)/σ + β, con la media μ y la desviación típica σ del lote) o nada, y después un clasificador lineal. Dos \
            clases de puntos y un atípico con la etiqueta de la otra clase. Ambos modelos parten de los mismos pesos y ven \
            los mismos lotes. El teorema: en un paso de descenso de gradiente, BN multiplica el avance del atípico por \
            (γ/σ)². Haz clic en el plano para mover el atípico, cambia la tasa de aprendizaje, congela γ — y contrasta el teorema con lo que se mide.",
    ours: "Decisiones nuestras (solo el resumen del artículo es público): coordenadas extra de ruido pequeño por muestra, \
           para que un modelo lineal pueda ajustar un punto raro por sus propias peculiaridades, como una red grande ajusta \
           un patrón de píxeles; lecturas con las estadísticas de todo el conjunto de entrenamiento; lo “medido” es el paso \
           de BN sobre w frente al mismo paso sin (γ/σ)² — la parametrización simple con los errores por muestra y la \
           cabeza de BN.",
    open: "Abre el laboratorio de teoría: (γ/σ)² en un modelo tan pequeño que se ve",
    outlier_x: "Atípico: a lo largo del eje de las clases",
    outlier_y: "Atípico: perpendicular al eje",
    learning_rate: "Tasa de aprendizaje",
    batch_size: "Tamaño de lote",
    optimizer: "Optimizador",
    freeze_gamma: "Congelar γ (cortar el bucle)",
    freeze_help: "γ se queda en 1: BN sigue dividiendo por σ, pero no puede agrandar su escala para ajustar el atípico.",
    bn: "Entrenar el modelo con BN",
    step: "Paso",
    play: "Reproducir",
    pause: "Pausa",
    reset: "Reiniciar",
    at_step: |n, of| format!("Paso {n} de {of}"),
    bad_setting: |why| format!("No aplicado: {why}"),
    data_title: "Los datos y la frontera de cada modelo",
    margin_title: "El margen del atípico (sobre 0: su etiqueta errónea ajustada)",
    ratio_title: "Factor de crecimiento medido frente al (γ/σ)² del teorema",
    gamma_title: "γ con y sin el atípico",
    class_pos: "clase +1",
    class_neg: "clase −1",
    outlier: "atípico (etiqueta +1)",
    step_axis: "paso",
    margin_axis: "margen",
    predicted_axis: "(γ/σ)² previsto",
    measured_axis: "medido",
    gamma_axis: "γ",
    with_outlier: "con el atípico",
    without_outlier: "sin él",
    same_g: "paso de BN ÷ el mismo paso sin (γ/σ)²",
    two_models: "paso de BN ÷ paso sin BN",
    diagonal: "medido = previsto",
    data_says: |plain, bn| match bn {
        Some(bn) => {
            format!("Margen del atípico ahora: BN {bn}, sin BN {plain} (sobre 0: ajustado).")
        }
        None => format!("Margen del atípico ahora: {plain} (sobre 0: ajustado)."),
    },
    margin_says: |bn, plain| {
        let at = |s: Option<usize>| {
            s.map_or_else(|| "aún no".to_string(), |s| format!("desde el paso {s}"))
        };
        match bn {
            Some(bn) => format!(
                "Etiqueta errónea del atípico ajustada — BN: {}; sin BN: {}.",
                at(bn),
                at(plain)
            ),
            None => format!("Etiqueta errónea del atípico ajustada — sin BN: {}.", at(plain)),
        }
    },
    ratio_says: |n, median, non_positive| {
        format!(
            "{n} pasos contenían el atípico; en ellos el factor medido de BN fue {median} veces el (γ/σ)² previsto, en la \
             mediana ({non_positive} pasos medidos ≤ 0 no se dibujan en estos ejes logarítmicos)."
        )
    },
    gamma_says: |with, without| {
        format!("γ ahora: {with} con el atípico en el entrenamiento, {without} sin él.")
    },
    no_bn: "No hay modelo con BN en esta ejecución: actívalo para ver γ/σ.",
};

pub const PT: Theory = Theory {
    title: "Laboratório de teoria: veja a BN multiplicar o avanço de um atípico por (γ/σ)²",
    teach: "O modelo de análise do artigo, pequeno o bastante para ver: um filtro linear h = w·x, depois BatchNorm \
            (γ·(h − μ)/σ + β, com a média μ e o desvio padrão σ do lote) ou nada, e então um classificador linear. Duas \
            classes de pontos e um atípico com o rótulo da outra classe. Os dois modelos partem dos mesmos pesos e veem os \
            mesmos lotes. O teorema: num passo de descida de gradiente, a BN multiplica o avanço do atípico por (γ/σ)². \
            Clique no plano para mover o atípico, mude a taxa de aprendizado, congele γ — e confira o teorema com o que é medido.",
    ours: "Escolhas nossas (só o resumo do artigo é público): coordenadas extras de ruído pequeno por amostra, para que \
           um modelo linear possa ajustar um ponto estranho por suas próprias peculiaridades, como uma rede grande ajusta \
           um padrão de pixels; leituras com as estatísticas de todo o conjunto de treino; o “medido” é o passo da BN em w \
           contra o mesmo passo sem (γ/σ)² — a parametrização simples com os erros por amostra e a cabeça da BN.",
    open: "Abra o laboratório de teoria: (γ/σ)² num modelo tão pequeno que se vê",
    outlier_x: "Atípico: ao longo do eixo das classes",
    outlier_y: "Atípico: transversal ao eixo",
    learning_rate: "Taxa de aprendizado",
    batch_size: "Tamanho do lote",
    optimizer: "Otimizador",
    freeze_gamma: "Congelar γ (cortar o laço)",
    freeze_help: "γ fica em 1: a BN ainda divide por σ, mas não pode aumentar sua escala para ajustar o atípico.",
    bn: "Treinar o modelo com BN",
    step: "Passo",
    play: "Reproduzir",
    pause: "Pausar",
    reset: "Reiniciar",
    at_step: |n, of| format!("Passo {n} de {of}"),
    bad_setting: |why| format!("Não aplicado: {why}"),
    data_title: "Os dados e a fronteira de cada modelo",
    margin_title: "A margem do atípico (acima de 0: seu rótulo errado ajustado)",
    ratio_title: "Fator de crescimento medido contra o (γ/σ)² do teorema",
    gamma_title: "γ com e sem o atípico",
    class_pos: "classe +1",
    class_neg: "classe −1",
    outlier: "atípico (rótulo +1)",
    step_axis: "passo",
    margin_axis: "margem",
    predicted_axis: "(γ/σ)² previsto",
    measured_axis: "medido",
    gamma_axis: "γ",
    with_outlier: "com o atípico",
    without_outlier: "sem ele",
    same_g: "passo da BN ÷ o mesmo passo sem (γ/σ)²",
    two_models: "passo da BN ÷ passo sem BN",
    diagonal: "medido = previsto",
    data_says: |plain, bn| match bn {
        Some(bn) => {
            format!("Margem do atípico agora: BN {bn}, sem BN {plain} (acima de 0: ajustado).")
        }
        None => format!("Margem do atípico agora: {plain} (acima de 0: ajustado)."),
    },
    margin_says: |bn, plain| {
        let at = |s: Option<usize>| {
            s.map_or_else(|| "ainda não".to_string(), |s| format!("desde o passo {s}"))
        };
        match bn {
            Some(bn) => format!(
                "Rótulo errado do atípico ajustado — BN: {}; sem BN: {}.",
                at(bn),
                at(plain)
            ),
            None => format!("Rótulo errado do atípico ajustado — sem BN: {}.", at(plain)),
        }
    },
    ratio_says: |n, median, non_positive| {
        format!(
            "{n} passos continham o atípico; neles o fator medido da BN foi {median} vezes o (γ/σ)² previsto, na mediana \
             ({non_positive} passos medidos ≤ 0 não aparecem nestes eixos logarítmicos)."
        )
    },
    gamma_says: |with, without| {
        format!("γ agora: {with} com o atípico no treino, {without} sem ele.")
    },
    no_bn: "Sem modelo com BN nesta execução: ative-o para ver γ/σ.",
};
