//! The experiment's settings (the core's field table, `config::FIELDS`, has their names and kinds
//! only): each field's label, help and option texts, one member per field (a field left out is a
//! compile error), and the names of the parts of the page a course link can hide
//! (`course::parts`). The CLI's English is `EN`'s.

use serde::Serialize;

/// One field's texts: its control's label, its tooltip, and for a menu its options, in the order of
/// the core's `Kind::Choice` list (empty for the other kinds).
#[derive(Debug, Serialize)]
pub struct FieldText {
    pub label: &'static str,
    pub help: &'static str,
    pub options: &'static [&'static str],
}

/// A field without options.
const fn plain(label: &'static str, help: &'static str) -> FieldText {
    FieldText { label, help, options: &[] }
}

/// A menu's field.
const fn choice(
    label: &'static str,
    help: &'static str,
    options: &'static [&'static str],
) -> FieldText {
    FieldText { label, help, options }
}

/// The parts of the page a course link hides that are not controls (`course::VIEWS`, `EXTRAS`).
#[derive(Debug, Serialize)]
pub struct Parts {
    pub preset: &'static str,
    pub share: &'static str,
    pub teach: &'static str,
    pub accuracy: &'static str,
    pub gradients: &'static str,
    pub gamma: &'static str,
    pub attack: &'static str,
    pub canary: &'static str,
    pub gallery: &'static str,
    pub theory: &'static str,
    pub paper: &'static str,
    pub bench: &'static str,
}

/// Every field of `Config`, by its name, in the field table's order; then the course link's parts.
#[derive(Debug, Serialize)]
pub struct Fields {
    pub dataset: FieldText,
    pub compare: FieldText,
    pub norm: FieldText,
    pub versus: FieldText,
    pub groups: FieldText,
    pub label_noise: FieldText,
    pub ood_fraction: FieldText,
    pub ood_source: FieldText,
    pub regularizer: FieldText,
    pub reg_kind: FieldText,
    pub reg_strength: FieldText,
    pub reg_bound: FieldText,
    pub epochs: FieldText,
    pub batch_size: FieldText,
    pub learning_rate: FieldText,
    pub optimizer: FieldText,
    pub train_size: FieldText,
    pub test_size: FieldText,
    pub probe_size: FieldText,
    pub live_points: FieldText,
    pub shadow_models: FieldText,
    pub seed: FieldText,
    pub canary: FieldText,
    pub canary_label: FieldText,
    pub parts: Parts,
}

impl Fields {
    /// A field's texts, by the core's field name (`label_noise`).
    pub fn field(&self, name: &str) -> Option<&FieldText> {
        Some(match name {
            "dataset" => &self.dataset,
            "compare" => &self.compare,
            "norm" => &self.norm,
            "versus" => &self.versus,
            "groups" => &self.groups,
            "label_noise" => &self.label_noise,
            "ood_fraction" => &self.ood_fraction,
            "ood_source" => &self.ood_source,
            "regularizer" => &self.regularizer,
            "reg_kind" => &self.reg_kind,
            "reg_strength" => &self.reg_strength,
            "reg_bound" => &self.reg_bound,
            "epochs" => &self.epochs,
            "batch_size" => &self.batch_size,
            "learning_rate" => &self.learning_rate,
            "optimizer" => &self.optimizer,
            "train_size" => &self.train_size,
            "test_size" => &self.test_size,
            "probe_size" => &self.probe_size,
            "live_points" => &self.live_points,
            "shadow_models" => &self.shadow_models,
            "seed" => &self.seed,
            "canary" => &self.canary,
            "canary_label" => &self.canary_label,
            _ => return None,
        })
    }

    /// What the course link builder calls a part of the page, by its name in the link
    /// (`course::parts`): a view or an extra by its own name (`canary` is the canary's view), a
    /// control by its field's label.
    pub fn part(&self, name: &str) -> Option<&'static str> {
        let p = &self.parts;
        Some(match name {
            "preset" => p.preset,
            "share" => p.share,
            "teach" => p.teach,
            "accuracy" => p.accuracy,
            "gradients" => p.gradients,
            "gamma" => p.gamma,
            "attack" => p.attack,
            "canary" => p.canary,
            "gallery" => p.gallery,
            "theory" => p.theory,
            "paper" => p.paper,
            "bench" => p.bench,
            _ => return self.field(name).map(|f| f.label),
        })
    }
}

pub const EN: Fields = Fields {
    dataset: choice("Dataset", "The images to train on.", &["MNIST", "Fashion-MNIST"]),
    compare: plain(
        "Compare two models side by side",
        "Train two models, BN and no-BN unless you pick others below, on the same data and seed (the comparison \
         is the lesson).",
    ),
    norm: choice(
        "Normalization",
        "The first model's normalization layers (the only model's with the comparison off). BatchNorm divides by \
         the batch's statistics, so each sample's scale depends on the others; GroupNorm and LayerNorm by each \
         sample's own.",
        &["none", "BatchNorm", "GroupNorm", "LayerNorm"],
    ),
    versus: choice(
        "Compared with",
        "The second model's normalization: is it BN, or any normalization? Put BN beside GroupNorm or LayerNorm.",
        &["none", "BatchNorm", "GroupNorm", "LayerNorm"],
    ),
    groups: plain(
        "GroupNorm groups",
        "How many groups GroupNorm splits each layer's channels into (each layer takes the largest count up to \
         this that divides its channels; 1 is LayerNorm).",
    ),
    label_noise: plain(
        "Flipped labels",
        "The share of training labels flipped to another class: samples only memorization can fit.",
    ),
    ood_fraction: plain(
        "OOD images",
        "The share of training images replaced by out-of-distribution images.",
    ),
    ood_source: choice(
        "OOD source",
        "Where the OOD images come from.",
        &["pixel-shuffled images", "the other dataset"],
    ),
    regularizer: plain("γ/σ regularizer", "Restrain γ/σ in the BN model (BN models only)."),
    reg_kind: choice(
        "Regularizer kind",
        "Which rule restrains γ/σ.",
        &[
            "γ only, σ held fixed (inert; for comparison)",
            "(γ/σ)², gradient through σ",
            "hinge max(0, γ/σ − 1)²",
            "clip |γ| ≤ τ·σ after each step",
        ],
    ),
    reg_strength: plain(
        "strength λ",
        "λ, the penalty's strength (for the γ-only, the (γ/σ)² and the hinge rules).",
    ),
    reg_bound: plain("bound τ (clip)", "τ, the bound on γ/σ (for the clipping rule)."),
    epochs: plain("Epochs", "Passes over the training set."),
    batch_size: plain("Batch size", "Samples per training step (and per BN batch)."),
    learning_rate: plain("Learning rate", "The optimizer's step size."),
    optimizer: choice(
        "Optimizer",
        "Adam, or SGD with momentum 0.9.",
        &["Adam", "SGD (momentum 0.9)"],
    ),
    train_size: plain("Training samples", "Training samples: the members, for the attack."),
    test_size: plain("Test samples", "Test samples used for test accuracy."),
    probe_size: plain(
        "Mechanism probe per group",
        "How much one step moves a sample's own margin, and its gradient, are measured on this many clean and this many \
         noisy samples, each inside a training batch, before training and after every epoch.",
    ),
    live_points: plain(
        "Live read-outs per epoch",
        "How often per epoch the curves move while a model trains: accuracy on a fixed sample of noisy and clean members \
         and the loss attack against a sample of non-members (0: only at each epoch's end).",
    ),
    shadow_models: plain(
        "Shadow models (attack)",
        "Shadow models for LiRA: 0 turns the attack off; else at least 2, so that every candidate has an IN and an OUT \
         model.",
    ),
    seed: plain("Seed", "One seed for the data split, the noise, the weights and the batches."),
    canary: plain(
        "Your drawing (the canary)",
        "A 28×28 drawing planted among the training samples with the label you give it; the run then follows it alone: \
         what each model predicts for it, its gradient norm, and the attacker's confidence that it was trained on.",
    ),
    canary_label: plain(
        "Its label",
        "The label your drawing is planted with (a class number, 0–9).",
    ),
    parts: Parts {
        preset: "Preset menu",
        share: "Share link",
        teach: "Explanations",
        accuracy: "Memorization chart",
        gradients: "Gradient norms",
        gamma: "γ/σ per BN layer",
        attack: "Membership attack",
        canary: "Be the outlier (the canary)",
        gallery: "Exposed samples",
        paper: "The paper's claims",
        theory: "Theory lab",
        bench: "Benchmark",
    },
};

pub const ES: Fields = Fields {
    dataset: choice(
        "Conjunto de datos",
        "Las imágenes con las que se entrena.",
        &["MNIST", "Fashion-MNIST"],
    ),
    compare: plain(
        "Comparar dos modelos lado a lado",
        "Entrena dos modelos, con BN y sin BN salvo que elijas otros abajo, con los mismos datos y la misma semilla \
         (la comparación es la lección).",
    ),
    norm: choice(
        "Normalización",
        "Las capas de normalización del primer modelo (del único, sin comparación). BatchNorm divide por las \
         estadísticas del lote, así que la escala de cada muestra depende de las demás; GroupNorm y LayerNorm por \
         las de cada muestra.",
        &["ninguna", "BatchNorm", "GroupNorm", "LayerNorm"],
    ),
    versus: choice(
        "Comparado con",
        "La normalización del segundo modelo: ¿es BN o cualquier normalización? Pon BN junto a GroupNorm o \
         LayerNorm.",
        &["ninguna", "BatchNorm", "GroupNorm", "LayerNorm"],
    ),
    groups: plain(
        "Grupos de GroupNorm",
        "En cuántos grupos divide GroupNorm los canales de cada capa (cada capa toma el mayor número hasta este que \
         divide sus canales; 1 es LayerNorm).",
    ),
    label_noise: plain(
        "Etiquetas invertidas",
        "La proporción de etiquetas de entrenamiento cambiadas a otra clase: muestras que solo la memorización puede \
         ajustar.",
    ),
    ood_fraction: plain(
        "Imágenes OOD",
        "La proporción de imágenes de entrenamiento reemplazadas por imágenes fuera de la distribución (OOD).",
    ),
    ood_source: choice(
        "Origen de las OOD",
        "De dónde vienen las imágenes OOD.",
        &["imágenes con los píxeles barajados", "el otro conjunto de datos"],
    ),
    regularizer: plain(
        "Regularizador γ/σ",
        "Restringe γ/σ en el modelo con BN (solo modelos con BN).",
    ),
    reg_kind: choice(
        "Tipo de regularizador",
        "Qué regla restringe γ/σ.",
        &[
            "solo γ, σ fija (inerte; para comparar)",
            "(γ/σ)², gradiente a través de σ",
            "bisagra (hinge) max(0, γ/σ − 1)²",
            "recorta |γ| ≤ τ·σ tras cada paso",
        ],
    ),
    reg_strength: plain(
        "fuerza λ",
        "λ, la fuerza de la penalización (para las reglas de solo γ, de (γ/σ)² y de bisagra).",
    ),
    reg_bound: plain("cota τ (recorte)", "τ, la cota de γ/σ (para la regla de recorte)."),
    epochs: plain("Épocas", "Pasadas por el conjunto de entrenamiento."),
    batch_size: plain("Tamaño del lote", "Muestras por paso de entrenamiento (y por lote de BN)."),
    learning_rate: plain("Tasa de aprendizaje", "El tamaño del paso del optimizador."),
    optimizer: choice(
        "Optimizador",
        "Adam, o SGD con momento 0,9.",
        &["Adam", "SGD (momento 0,9)"],
    ),
    train_size: plain(
        "Muestras de entrenamiento",
        "Muestras de entrenamiento: los miembros, para el ataque.",
    ),
    test_size: plain(
        "Muestras de prueba",
        "Muestras de prueba con las que se mide la exactitud en prueba.",
    ),
    probe_size: plain(
        "Sonda del mecanismo por grupo",
        "Cuánto mueve un paso el margen de una muestra, y su gradiente, se miden en esta cantidad de muestras limpias y \
         otras tantas ruidosas, cada una dentro de un lote de entrenamiento, antes de entrenar y después de cada época.",
    ),
    live_points: plain(
        "Lecturas en vivo por época",
        "Cuántas veces por época se mueven las curvas mientras un modelo entrena: la exactitud en una muestra fija de \
         miembros ruidosos y limpios y el ataque por pérdida contra una muestra de no miembros (0: solo al final de cada \
         época).",
    ),
    shadow_models: plain(
        "Modelos sombra (ataque)",
        "Modelos sombra para LiRA: 0 desactiva el ataque; si no, al menos 2, para que cada candidato tenga un modelo IN \
         y uno OUT.",
    ),
    seed: plain(
        "Semilla",
        "Una sola semilla para la división de los datos, el ruido, los pesos y los lotes.",
    ),
    canary: plain(
        "Tu dibujo (el canario)",
        "Un dibujo de 28×28 plantado entre las muestras de entrenamiento con la etiqueta elegida; luego la ejecución lo \
         sigue por separado: qué predice cada modelo para él, su norma del gradiente y la confianza del atacante en que \
         se entrenó con él.",
    ),
    canary_label: plain(
        "Tu etiqueta",
        "La etiqueta con la que plantas tu dibujo (un número de clase, 0–9).",
    ),
    parts: Parts {
        preset: "Menú de ajustes predefinidos",
        share: "Enlace para compartir",
        teach: "Explicaciones",
        accuracy: "Gráfico de memorización",
        gradients: "Normas del gradiente",
        gamma: "γ/σ por capa BN",
        attack: "Ataque de pertenencia",
        canary: "Sé el atípico (el canario)",
        gallery: "Muestras expuestas",
        paper: "Las afirmaciones del artículo",
        theory: "Laboratorio de teoría",
        bench: "Prueba de rendimiento",
    },
};

pub const PT: Fields = Fields {
    dataset: choice(
        "Conjunto de dados",
        "As imagens usadas no treino.",
        &["MNIST", "Fashion-MNIST"],
    ),
    compare: plain(
        "Comparar dois modelos lado a lado",
        "Treina dois modelos, com BN e sem BN se você não escolher outros abaixo, com os mesmos dados e a mesma \
         semente (a comparação é a lição).",
    ),
    norm: choice(
        "Normalização",
        "As camadas de normalização do primeiro modelo (do único, sem comparação). BatchNorm divide pelas \
         estatísticas do lote, então a escala de cada amostra depende das outras; GroupNorm e LayerNorm pelas de \
         cada amostra.",
        &["nenhuma", "BatchNorm", "GroupNorm", "LayerNorm"],
    ),
    versus: choice(
        "Comparado com",
        "A normalização do segundo modelo: é o BN ou qualquer normalização? Ponha BN ao lado de GroupNorm ou \
         LayerNorm.",
        &["nenhuma", "BatchNorm", "GroupNorm", "LayerNorm"],
    ),
    groups: plain(
        "Grupos do GroupNorm",
        "Em quantos grupos o GroupNorm divide os canais de cada camada (cada camada usa o maior número até este que \
         divide seus canais; 1 é LayerNorm).",
    ),
    label_noise: plain(
        "Rótulos trocados",
        "A proporção de rótulos de treino trocados por outra classe: amostras que só a memorização consegue ajustar.",
    ),
    ood_fraction: plain(
        "Imagens OOD",
        "A proporção de imagens de treino substituídas por imagens fora da distribuição (OOD).",
    ),
    ood_source: choice(
        "Origem das OOD",
        "De onde vêm as imagens OOD.",
        &["imagens com os pixels embaralhados", "o outro conjunto de dados"],
    ),
    regularizer: plain("Regularizador γ/σ", "Restringe γ/σ no modelo com BN (só modelos com BN)."),
    reg_kind: choice(
        "Tipo de regularizador",
        "Qual regra restringe γ/σ.",
        &[
            "só γ, σ fixo (inerte; para comparação)",
            "(γ/σ)², gradiente através de σ",
            "dobradiça (hinge) max(0, γ/σ − 1)²",
            "corta |γ| ≤ τ·σ após cada passo",
        ],
    ),
    reg_strength: plain(
        "força λ",
        "λ, a força da penalidade (para as regras de só γ, de (γ/σ)² e de dobradiça).",
    ),
    reg_bound: plain("limite τ (corte)", "τ, o limite de γ/σ (para a regra de corte)."),
    epochs: plain("Épocas", "Passagens pelo conjunto de treino."),
    batch_size: plain("Tamanho do lote", "Amostras por passo de treino (e por lote de BN)."),
    learning_rate: plain("Taxa de aprendizado", "O tamanho do passo do otimizador."),
    optimizer: choice(
        "Otimizador",
        "Adam, ou SGD com momento 0,9.",
        &["Adam", "SGD (momento 0,9)"],
    ),
    train_size: plain("Amostras de treino", "Amostras de treino: os membros, para o ataque."),
    test_size: plain("Amostras de teste", "Amostras de teste usadas para a acurácia de teste."),
    probe_size: plain(
        "Sonda do mecanismo por grupo",
        "Quanto um passo move a margem de uma amostra, e seu gradiente, são medidos neste número de amostras limpas e \
         em outras tantas ruidosas, cada uma dentro de um lote de treino, antes do treino e após cada época.",
    ),
    live_points: plain(
        "Leituras ao vivo por época",
        "Quantas vezes por época as curvas se movem enquanto um modelo treina: a acurácia numa amostra fixa de membros \
         ruidosos e limpos e o ataque por perda contra uma amostra de não membros (0: só ao fim de cada época).",
    ),
    shadow_models: plain(
        "Modelos-sombra (ataque)",
        "Modelos-sombra para o LiRA: 0 desliga o ataque; senão, pelo menos 2, para que cada candidato tenha um modelo \
         IN e um OUT.",
    ),
    seed: plain(
        "Semente",
        "Uma só semente para a divisão dos dados, o ruído, os pesos e os lotes.",
    ),
    canary: plain(
        "Seu desenho (o canário)",
        "Um desenho 28×28 plantado entre as amostras de treino com o rótulo escolhido; depois a execução o acompanha à \
         parte: o que cada modelo prevê para ele, sua norma do gradiente e a confiança do atacante de que ele foi usado \
         no treino.",
    ),
    canary_label: plain(
        "Seu rótulo",
        "O rótulo com que o desenho é plantado (um número de classe, 0–9).",
    ),
    parts: Parts {
        preset: "Menu de predefinições",
        share: "Link para compartilhar",
        teach: "Explicações",
        accuracy: "Gráfico de memorização",
        gradients: "Normas do gradiente",
        gamma: "γ/σ por camada BN",
        attack: "Ataque de pertencimento",
        canary: "Seja o atípico (o canário)",
        gallery: "Amostras expostas",
        paper: "As afirmações do artigo",
        theory: "Laboratório de teoria",
        bench: "Teste de desempenho",
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use spotlight_core::config::{FIELDS, Kind};
    use spotlight_core::course;

    const ALL: [&Fields; 3] = [&EN, &ES, &PT];

    #[test]
    fn every_field_has_its_texts_in_every_language() {
        for f in FIELDS {
            let core_options: &[&str] = match f.kind {
                Kind::Choice(options) => options,
                _ => &[],
            };
            for (i, texts) in ALL.iter().enumerate() {
                let t = texts
                    .field(f.name)
                    .unwrap_or_else(|| panic!("language {i}: no texts for {}", f.name));
                assert_eq!(
                    t.options.len(),
                    core_options.len(),
                    "language {i}: the options of {}",
                    f.name
                );
                assert!(!t.label.is_empty() && !t.help.is_empty(), "language {i}: {}", f.name);
            }
        }
        assert!(EN.field("nonsense").is_none());
    }

    #[test]
    fn every_part_of_a_course_link_has_its_name_in_every_language() {
        for name in course::parts() {
            for (i, texts) in ALL.iter().enumerate() {
                assert!(
                    texts.part(name).is_some_and(|p| !p.is_empty()),
                    "language {i}: no name for the part {name}"
                );
            }
        }
        assert!(EN.part("run").is_none());
    }
}
