//! The texts of the panel "What the paper found / what we measured": the claims (by their letter),
//! the table, the notes and the charts' captions. The claims' English is the core's
//! (`spotlight_core::paper::claims_list`, also in `results/paper-mid.json`), checked by a test.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Paper {
    pub title: &'static str,
    /// Before the reason `results/paper-mid.json` could not be read.
    pub error: &'static str,
    /// Above the claims: these numbers are not the reader's run.
    pub not_your_run: &'static str,
    /// The introduction: `intro`, the command, ", ", "seeds 1, 2, 3", `intro_end`.
    pub intro: &'static str,
    pub seed: &'static str,
    pub seeds: &'static str,
    pub intro_end: &'static str,
    /// How to read the verdicts, under the table.
    pub reading: &'static str,
    pub charts: &'static str,
    /// The table's headings.
    pub claim_head: &'static str,
    pub paper_head: &'static str,
    pub ours_head: &'static str,
    pub verdict_head: &'static str,
    /// The verdicts (then "(2/3 seeds)", with `seeds`).
    pub held: &'static str,
    pub not_held: &'static str,
    pub unchecked: &'static str,
    pub claims: [ClaimText; 6],
    pub stats: StatWords,
    pub captions: Captions,
}

/// One claim: what it says and what the paper's rule is, by its letter.
#[derive(Debug, Serialize)]
pub struct ClaimText {
    #[serde(skip)]
    pub id: char,
    pub claim: &'static str,
    pub paper: &'static str,
}

/// The words in the names of our numbers ("Δ mean flipped acc 5% (pts)", "conv1 at init", …),
/// each replaced by its translation, in this order (a longer name before a word it holds).
#[derive(Debug, Serialize)]
pub struct StatWords {
    pub mean_flipped_acc: &'static str,
    pub epochs_bn_above: &'static str,
    pub noisy_only_auc: &'static str,
    pub noisy: &'static str,
    pub clean: &'static str,
    pub no_bn: &'static str,
    pub median_gamma_sigma: &'static str,
    pub at_init: &'static str,
    pub mean_gamma: &'static str,
    pub flipped_acc: &'static str,
    pub test_acc: &'static str,
    pub noise_floor: &'static str,
}

impl StatWords {
    /// The words in the order they are replaced.
    pub fn list(&self) -> [&'static str; 12] {
        [
            self.mean_flipped_acc,
            self.epochs_bn_above,
            self.noisy_only_auc,
            self.noisy,
            self.clean,
            self.no_bn,
            self.median_gamma_sigma,
            self.at_init,
            self.mean_gamma,
            self.flipped_acc,
            self.test_acc,
            self.noise_floor,
        ]
    }
}

/// One line under each chart of the panel.
#[derive(Debug, Serialize)]
pub struct Captions {
    pub memorization: &'static str,
    pub gradients: &'static str,
    pub gamma_sigma: &'static str,
    pub gamma: &'static str,
    /// The trade-off chart's, by the noise level (a percentage written the language's way).
    #[serde(skip)]
    pub tradeoff: fn(&str) -> String,
}

pub const EN: Paper = Paper {
    title: "What the paper found / what we measured",
    error: "The measured results (results/paper-mid.json) could not be read: ",
    not_your_run: "Measured earlier with the command-line tool over several seeds — not your run. Your run is the lenses above.",
    intro: "The paper's claims, each against our numbers, measured with ",
    seed: "seed",
    seeds: "seeds",
    intro_end: "; mean ± sd over seeds. A claim held when its rule holds on the means and in more than half of the seeds \
                checked.",
    reading: "Reading it: a verdict is the rule applied to the numbers, not the whole story. Compare each difference with \
              its ± (the spread over seeds): a rule met by less than that is met by chance. For γ/σ compare the trained \
              value with the one at initialization beside it: above 1 from the start says nothing about training. A claim \
              that did not hold after a faithful measurement is a finding, reported as it came out.",
    charts: "The charts behind the claims (means over seeds)",
    claim_head: "claim",
    paper_head: "the paper",
    ours_head: "ours",
    verdict_head: "verdict",
    held: "held",
    not_held: "did not hold",
    unchecked: "could not be checked",
    claims: [
        ClaimText {
            id: 'a',
            claim: "BN fits flipped labels faster and further (accuracy on flipped members)",
            paper: "BN above no-BN at every epoch; here: mean over epochs higher, at each noise level with ≥ 30 flipped members",
        },
        ClaimText {
            id: 'b',
            claim: "With BN, noisy samples' gradient norms shift higher than clean ones' and than noisy ones' without BN",
            paper: "at 5 %: BN's noisy/clean ratio above no-BN's, and BN's noisy norm above no-BN's (medians in a batch, mean \
                    over epochs)",
        },
        ClaimText {
            id: 'c',
            claim: "LiRA wins more against BN models (AUC, BN − no-BN)",
            paper: "positive on clean data, ≥ +3 pts at 1 %, ≥ +4 pts at 5 %",
        },
        ClaimText {
            id: 'd',
            claim: "γ/σ > 1 in most BN layers (median over channels, batch σ, at 5 %)",
            paper: "γ/σ > 1 in most layers; the value at initialization is shown beside it",
        },
        ClaimText {
            id: 'f',
            claim: "Outliers push γ up: the feedback loop (growth of mean |γ| from initialization)",
            paper: "γ grows more with outliers: growth at 5 % above growth at 0 %",
        },
        ClaimText {
            id: 'e',
            claim: "The γ/σ regularizer cuts memorization while clean accuracy holds (at 5 %, first λ of the sweep)",
            paper: "flipped accuracy down by more than noise (≥ 2 binomial s.e., ≥ 1 pt); test accuracy no more than 1 pt \
                    lower",
        },
    ],
    stats: StatWords {
        mean_flipped_acc: "mean flipped acc",
        epochs_bn_above: "epochs BN above",
        noisy_only_auc: "noisy-only AUC",
        noisy: "noisy",
        clean: "clean",
        no_bn: "no-BN",
        median_gamma_sigma: "median γ/σ",
        at_init: "at init",
        mean_gamma: "mean |γ|",
        flipped_acc: "flipped acc",
        test_acc: "test acc",
        noise_floor: "noise floor",
    },
    captions: Captions {
        memorization: "Memorization: accuracy on flipped members per epoch, BN (red) and no-BN (blue); thicker lines for \
                       more noise.",
        gradients: "Median per-sample gradient norm inside a training batch, noisy probes (thick) and clean ones (light), \
                    per model and noise level.",
        gamma_sigma: "BN models: median γ/σ with the batch σ, mean over layers, from the untrained model (epoch 0); the \
                      change from epoch 0 and the gap between noise levels are the signal, not the line at 1.",
        gamma: "BN models: mean |γ| per epoch by noise level — outliers pushing γ up is the paper's feedback loop.",
        tradeoff: |noise| {
            format!(
                "The regularizer at {noise} flipped labels: flipped-label accuracy and LiRA AUC against test accuracy, one \
                 point per λ (λ = 0: without it)."
            )
        },
    },
};

pub const ES: Paper = Paper {
    title: "Lo que encontró el artículo / lo que medimos",
    error: "No se pudieron leer los resultados medidos (results/paper-mid.json): ",
    not_your_run: "Medido antes con la herramienta de línea de órdenes sobre varias semillas — no es tu ejecución. Tu ejecución son las lentes de arriba.",
    intro: "Las afirmaciones del artículo, cada una frente a nuestros números, medidos con ",
    seed: "semilla",
    seeds: "semillas",
    intro_end: "; media ± d.e. sobre las semillas. Una afirmación se cumplió cuando su regla se cumple en las medias y en más \
                de la mitad de las semillas comprobadas.",
    reading: "Cómo leerlo: un veredicto es la regla aplicada a los números, no toda la historia. Compara cada diferencia con \
              su ± (la dispersión entre semillas): una regla cumplida por menos que eso se cumple por azar. Para γ/σ compara \
              el valor entrenado con el de la inicialización a su lado: estar por encima de 1 desde el principio no dice \
              nada del entrenamiento. Una afirmación que no se cumplió tras una medición fiel es un hallazgo, informado tal \
              como salió.",
    charts: "Los gráficos detrás de las afirmaciones (medias sobre las semillas)",
    claim_head: "afirmación",
    paper_head: "el artículo",
    ours_head: "nuestros números",
    verdict_head: "veredicto",
    held: "se cumplió",
    not_held: "no se cumplió",
    unchecked: "no se pudo comprobar",
    claims: [
        ClaimText {
            id: 'a',
            claim: "BN ajusta las etiquetas invertidas más rápido y más a fondo (exactitud en los miembros con etiqueta invertida)",
            paper: "BN por encima de sin BN en cada época; aquí: media sobre las épocas más alta, en cada nivel de ruido con \
                    ≥ 30 miembros con etiqueta invertida",
        },
        ClaimText {
            id: 'b',
            claim: "Con BN, las normas del gradiente de las muestras ruidosas suben más que las de las limpias y que las de \
                    las ruidosas sin BN",
            paper: "al 5 %: la razón ruidosas/limpias de BN por encima de la de sin BN, y la norma de las ruidosas de BN por \
                    encima de la de sin BN (medianas en un lote, media sobre las épocas)",
        },
        ClaimText {
            id: 'c',
            claim: "LiRA gana más contra los modelos con BN (AUC, BN − sin BN)",
            paper: "diferencia positiva con datos limpios, ≥ +3 pts al 1 %, ≥ +4 pts al 5 %",
        },
        ClaimText {
            id: 'd',
            claim: "γ/σ > 1 en la mayoría de las capas BN (mediana sobre los canales, σ del lote, al 5 %)",
            paper: "γ/σ > 1 en la mayoría de las capas; el valor en la inicialización se muestra al lado",
        },
        ClaimText {
            id: 'f',
            claim: "Los atípicos empujan γ hacia arriba: el ciclo de retroalimentación (crecimiento de |γ| medio desde la \
                    inicialización)",
            paper: "γ crece más con atípicos: crecimiento al 5 % por encima del crecimiento al 0 %",
        },
        ClaimText {
            id: 'e',
            claim: "El regularizador γ/σ reduce la memorización mientras la exactitud en datos limpios se mantiene (al 5 %, \
                    primer λ del barrido)",
            paper: "la exactitud en etiquetas invertidas baja más que el ruido (≥ 2 e.e. binomiales, ≥ 1 pt); la exactitud de prueba, \
                    no más de 1 pt menor",
        },
    ],
    stats: StatWords {
        mean_flipped_acc: "exactitud media en invertidas",
        epochs_bn_above: "épocas con BN arriba",
        noisy_only_auc: "AUC solo ruidosas",
        noisy: "ruidosas",
        clean: "limpias",
        no_bn: "sin BN",
        median_gamma_sigma: "mediana γ/σ",
        at_init: "al inicio",
        mean_gamma: "|γ| medio",
        flipped_acc: "exactitud en invertidas",
        test_acc: "exactitud de prueba",
        noise_floor: "piso de ruido",
    },
    captions: Captions {
        memorization: "Memorización: exactitud en los miembros con etiqueta invertida por época, BN (rojo) y sin BN (azul); líneas más \
                       gruesas para más ruido.",
        gradients: "Mediana de la norma del gradiente por muestra dentro de un lote de entrenamiento, sondas ruidosas \
                    (gruesas) y limpias (claras), por modelo y nivel de ruido.",
        gamma_sigma: "Modelos con BN: mediana de γ/σ con la σ del lote, media sobre las capas, desde el modelo sin entrenar \
                      (época 0); la señal es el cambio desde la época 0 y la distancia entre niveles de ruido, no la línea \
                      en 1.",
        gamma: "Modelos con BN: |γ| medio por época según el nivel de ruido — que los atípicos empujen γ hacia arriba es el \
                ciclo de retroalimentación del artículo.",
        tradeoff: |noise| {
            format!(
                "El regularizador con {noise} de etiquetas invertidas: exactitud en etiquetas invertidas y AUC de LiRA \
                 frente a la exactitud de prueba, un punto por λ (λ = 0: sin él)."
            )
        },
    },
};

pub const PT: Paper = Paper {
    title: "O que o artigo encontrou / o que medimos",
    error: "Não foi possível ler os resultados medidos (results/paper-mid.json): ",
    not_your_run: "Medido antes com a ferramenta de linha de comando sobre várias sementes — não é a sua execução. A sua execução são as lentes acima.",
    intro: "As afirmações do artigo, cada uma diante dos nossos números, medidos com ",
    seed: "semente",
    seeds: "sementes",
    intro_end: "; média ± dp entre as sementes. Uma afirmação se confirmou quando sua regra vale nas médias e em mais da \
                metade das sementes verificadas.",
    reading: "Como ler: um veredito é a regra aplicada aos números, não a história toda. Compare cada diferença com o seu ± \
              (a dispersão entre sementes): uma regra cumprida por menos que isso é cumprida por acaso. Para γ/σ compare o \
              valor treinado com o da inicialização ao lado: acima de 1 desde o início não diz nada sobre o treino. Uma \
              afirmação que não se confirmou após uma medição fiel é um achado, relatado como saiu.",
    charts: "Os gráficos por trás das afirmações (médias entre as sementes)",
    claim_head: "afirmação",
    paper_head: "o artigo",
    ours_head: "nossos números",
    verdict_head: "veredito",
    held: "confirmada",
    not_held: "não confirmada",
    unchecked: "não pôde ser verificada",
    claims: [
        ClaimText {
            id: 'a',
            claim: "BN ajusta rótulos trocados mais rápido e mais a fundo (acurácia nos membros com rótulo trocado)",
            paper: "BN acima de sem BN em toda época; aqui: média entre as épocas maior, em cada nível de ruído com ≥ 30 \
                    membros com rótulo trocado",
        },
        ClaimText {
            id: 'b',
            claim: "Com BN, as normas do gradiente das amostras ruidosas sobem mais que as das limpas e que as das ruidosas \
                    sem BN",
            paper: "a 5%: a razão ruidosas/limpas da BN acima da sem BN, e a norma das ruidosas da BN acima da sem BN \
                    (medianas em um lote, média entre as épocas)",
        },
        ClaimText {
            id: 'c',
            claim: "O LiRA ganha mais contra modelos com BN (AUC, BN − sem BN)",
            paper: "positiva com dados limpos, ≥ +3 pts a 1%, ≥ +4 pts a 5%",
        },
        ClaimText {
            id: 'd',
            claim: "γ/σ > 1 na maioria das camadas BN (mediana entre os canais, σ do lote, a 5%)",
            paper: "γ/σ > 1 na maioria das camadas; o valor na inicialização aparece ao lado",
        },
        ClaimText {
            id: 'f',
            claim: "Os atípicos empurram γ para cima: o ciclo de realimentação (crescimento do |γ| médio desde a \
                    inicialização)",
            paper: "γ cresce mais com atípicos: crescimento a 5% acima do crescimento a 0%",
        },
        ClaimText {
            id: 'e',
            claim: "O regularizador γ/σ reduz a memorização enquanto a acurácia limpa se mantém (a 5%, primeiro λ da \
                    varredura)",
            paper: "acurácia nos rótulos trocados cai mais que o ruído (≥ 2 e.p. binomiais, ≥ 1 pt); acurácia de teste no máximo 1 pt \
                    menor",
        },
    ],
    stats: StatWords {
        mean_flipped_acc: "acurácia média nos trocados",
        epochs_bn_above: "épocas com BN acima",
        noisy_only_auc: "AUC só ruidosas",
        noisy: "ruidosas",
        clean: "limpas",
        no_bn: "sem BN",
        median_gamma_sigma: "mediana γ/σ",
        at_init: "no início",
        mean_gamma: "|γ| médio",
        flipped_acc: "acurácia nos trocados",
        test_acc: "acurácia de teste",
        noise_floor: "piso de ruído",
    },
    captions: Captions {
        memorization: "Memorização: acurácia nos membros com rótulo trocado por época, BN (vermelho) e sem BN (azul); linhas mais \
                       grossas para mais ruído.",
        gradients: "Mediana da norma do gradiente por amostra dentro de um lote de treino, sondas ruidosas (grossas) e limpas \
                    (claras), por modelo e nível de ruído.",
        gamma_sigma: "Modelos com BN: mediana de γ/σ com o σ do lote, média entre as camadas, a partir do modelo sem treino \
                      (época 0); o sinal é a mudança desde a época 0 e a distância entre níveis de ruído, não a linha em 1.",
        gamma: "Modelos com BN: |γ| médio por época por nível de ruído — atípicos empurrando γ para cima é o ciclo de \
                realimentação do artigo.",
        tradeoff: |noise| {
            format!(
                "O regularizador com {noise} de rótulos trocados: acurácia nos rótulos trocados e AUC do LiRA contra a \
                 acurácia de teste, um ponto por λ (λ = 0: sem ele)."
            )
        },
    },
};

impl Paper {
    /// A claim's texts by its letter.
    pub fn claim(&self, id: char) -> Option<&ClaimText> {
        self.claims.iter().find(|c| c.id == id)
    }
}

#[cfg(test)]
mod tests {
    use spotlight_core::paper::{REG_NOISE, claims_list};

    #[test]
    fn english_is_the_cores() {
        let core = claims_list();
        assert_eq!(core.len(), super::EN.claims.len());
        for (c, t) in core.iter().zip(&super::EN.claims) {
            assert_eq!((c.id, c.claim, c.paper), (t.id, t.claim, t.paper));
        }
        for lang in crate::Lang::ALL {
            let p = &lang.texts().paper;
            assert!(core.iter().all(|c| p.claim(c.id).is_some()), "{lang:?}");
        }
        let caption = (super::EN.captions.tradeoff)(&crate::Lang::En.pct(REG_NOISE, 0));
        assert!(caption.starts_with("The regularizer at 5% flipped labels: flipped-label accuracy"), "{caption}");
    }

    #[test]
    fn every_word_of_our_numbers_is_in_the_list() {
        // The names of one seed's numbers, as the core writes them (results/paper-mid.json).
        let names = [
            "Δ mean flipped acc 1% (pts)",
            "epochs BN above 1% (%)",
            "no-BN noisy/clean",
            "noisy-only AUC no-BN 5%",
            "conv1 median γ/σ",
            "conv1 at init",
            "Δ mean |γ| 0%",
            "flipped acc BN+reg (%)",
            "test acc BN (%)",
            "noise floor (pts)",
        ];
        let (en, es) = (super::EN.stats.list(), super::ES.stats.list());
        for name in names {
            let out = en.iter().zip(es).fold(name.to_string(), |s, (e, x)| s.replace(e, x));
            assert!(
                !["mean", "flipped", "noisy", "clean", "no-BN", "init", "acc", "floor", "above"].iter().any(|w| out.contains(w)),
                "{name} → {out}"
            );
        }
    }
}
