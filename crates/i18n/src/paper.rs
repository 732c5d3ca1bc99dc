//! The texts of the panel "What the paper found / what we measured": the claims (by their letter),
//! the table, the notes and the charts' captions. The core decides the claims
//! (`spotlight_core::paper::claims_list`, by letter); their texts are only here (the CLI's English
//! too), a test checks that every claim has them.

use serde::Serialize;
use spotlight_core::paper::Outcome;

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
    /// The verdicts, of a claim (then "(2/3 seeds)", with `seeds`) and of each tested number.
    pub held: &'static str,
    pub not_held: &'static str,
    pub inconclusive: &'static str,
    pub unchecked: &'static str,
    /// A claim's result in one plain sentence with its rounded number (`None`: a claim it does not
    /// know, or a number missing).
    #[serde(skip)]
    pub plain: fn(char, &Said) -> Option<String>,
    pub claims: [ClaimText; 10],
    pub stats: StatWords,
    pub captions: Captions,
}

/// What a claim's plain sentence reads: the mean over seeds of its numbers, by the core's name,
/// and the language's way of writing a number with so many decimals.
pub struct Said<'a> {
    pub get: &'a dyn Fn(&str) -> Option<f64>,
    pub num: &'a dyn Fn(f64, usize) -> String,
}

impl Said<'_> {
    fn get(&self, name: &str) -> Option<f64> {
        (self.get)(name).filter(|v| v.is_finite())
    }

    fn num(&self, x: f64, decimals: usize) -> String {
        (self.num)(x, decimals)
    }

    /// `x` with its sign, "+3" or "−2".
    fn signed(&self, x: f64, decimals: usize) -> String {
        if x >= 0.0 {
            format!("+{}", self.num(x, decimals))
        } else {
            format!("−{}", self.num(-x, decimals))
        }
    }

    /// 10^x, "1.8".
    fn times(&self, log10: f64) -> String {
        self.num(10f64.powf(log10), 1)
    }
}

fn plain_en(id: char, s: &Said) -> Option<String> {
    Some(match id {
        'a' => format!(
            "With 5 % wrong labels, BN got {} points more of them “right” — memorized — than no-BN.",
            s.num(s.get("Δ flipped 5% (pts)")?, 0)
        ),
        'g' => format!(
            "Compared when both fit the clean images equally well, that gap is {} points.",
            s.signed(s.get("Δ flipped 5% at that fit (pts)")?, 1)
        ),
        'b' | 'h' => format!(
            "One {} step moves a wrong label's own margin {}× as far with BN as without; measured against a clean sample's, {}× as far.",
            if id == 'b' { "SGD" } else { "Adam" },
            s.times(s.get("log10 BN/no-BN noisy")?),
            s.times(s.get("log10 noisy/clean BN − no-BN")?)
        ),
        'c' => format!(
            "With 5 % wrong labels, the attacker's AUC is {} points higher against BN.",
            s.num(s.get("Δ AUC 5% (pts)")?, 0)
        ),
        'i' => format!(
            "With 5 % wrong labels, BN memorized {} points more of them than GroupNorm, and the attacker's AUC was {} points higher against BN.",
            s.signed(s.get("Δ flipped 5% BN − GN (pts)")?, 0),
            s.signed(s.get("Δ AUC 5% BN − GN (pts)")?, 0)
        ),
        'j' => format!(
            "With 5 % wrong labels, GroupNorm memorized {} points more of them than no-BN, and the attacker's AUC was {} points higher against GroupNorm.",
            s.signed(s.get("Δ flipped 5% GN − no-BN (pts)")?, 0),
            s.signed(s.get("Δ AUC 5% GN − no-BN (pts)")?, 0)
        ),
        'd' => format!(
            "From epoch 1 on, γ/σ grew {} more with 5 % wrong labels than with none (Adam).",
            s.signed(s.get("Adam Δγ/σ 5% − 0%, mean over layers")?, 2)
        ),
        'f' => {
            let x = s.get("Adam push noisy − clean (scaled)")?;
            format!(
                "Compared with clean samples, wrong labels' own gradients push |γ| {} (by {} % of a typical push).",
                if x < 0.0 { "down" } else { "up" },
                s.num(100.0 * x.abs(), 0)
            )
        }
        'e' => format!(
            "The regularizer cut memorized wrong labels by {} points; test accuracy moved {} points.",
            s.num(s.get("drop in flipped acc (pts)")?, 0),
            s.signed(s.get("Δ test acc (pts)")?, 1)
        ),
        _ => return None,
    })
}

fn plain_es(id: char, s: &Said) -> Option<String> {
    Some(match id {
        'a' => format!(
            "Con un 5 % de etiquetas erróneas, BN “acertó” —memorizó— {} puntos más de ellas que el modelo sin BN.",
            s.num(s.get("Δ flipped 5% (pts)")?, 0)
        ),
        'g' => format!(
            "Comparados cuando ambos ajustan igual de bien las imágenes limpias, esa diferencia es de {} puntos.",
            s.signed(s.get("Δ flipped 5% at that fit (pts)")?, 1)
        ),
        'b' | 'h' => format!(
            "Un paso de {} mueve el margen de una etiqueta errónea {} veces más lejos con BN que sin BN; frente al de una muestra limpia, {} veces.",
            if id == 'b' { "SGD" } else { "Adam" },
            s.times(s.get("log10 BN/no-BN noisy")?),
            s.times(s.get("log10 noisy/clean BN − no-BN")?)
        ),
        'c' => format!(
            "Con un 5 % de etiquetas erróneas, el AUC del atacante es {} puntos mayor contra BN.",
            s.num(s.get("Δ AUC 5% (pts)")?, 0)
        ),
        'i' => format!(
            "Con un 5 % de etiquetas erróneas, BN memorizó {} puntos más de ellas que GroupNorm, y el AUC del atacante fue {} puntos mayor contra BN.",
            s.signed(s.get("Δ flipped 5% BN − GN (pts)")?, 0),
            s.signed(s.get("Δ AUC 5% BN − GN (pts)")?, 0)
        ),
        'j' => format!(
            "Con un 5 % de etiquetas erróneas, GroupNorm memorizó {} puntos más de ellas que el modelo sin BN, y el AUC del atacante fue {} puntos mayor contra GroupNorm.",
            s.signed(s.get("Δ flipped 5% GN − no-BN (pts)")?, 0),
            s.signed(s.get("Δ AUC 5% GN − no-BN (pts)")?, 0)
        ),
        'd' => format!(
            "Desde la época 1, γ/σ creció {} más con un 5 % de etiquetas erróneas que sin ninguna (Adam).",
            s.signed(s.get("Adam Δγ/σ 5% − 0%, mean over layers")?, 2)
        ),
        'f' => {
            let x = s.get("Adam push noisy − clean (scaled)")?;
            format!(
                "Frente a las muestras limpias, los gradientes propios de las etiquetas erróneas empujan |γ| hacia {} (un {} % de un empuje típico).",
                if x < 0.0 { "abajo" } else { "arriba" },
                s.num(100.0 * x.abs(), 0)
            )
        }
        'e' => format!(
            "El regularizador redujo en {} puntos las etiquetas erróneas memorizadas; la exactitud en prueba cambió {} puntos.",
            s.num(s.get("drop in flipped acc (pts)")?, 0),
            s.signed(s.get("Δ test acc (pts)")?, 1)
        ),
        _ => return None,
    })
}

fn plain_pt(id: char, s: &Said) -> Option<String> {
    Some(match id {
        'a' => format!(
            "Com 5% de rótulos errados, a BN “acertou” — decorou — {} pontos a mais deles que o modelo sem BN.",
            s.num(s.get("Δ flipped 5% (pts)")?, 0)
        ),
        'g' => format!(
            "Comparados quando os dois ajustam igualmente bem as imagens limpas, essa diferença é de {} pontos.",
            s.signed(s.get("Δ flipped 5% at that fit (pts)")?, 1)
        ),
        'b' | 'h' => format!(
            "Um passo de {} move a margem de um rótulo errado {} vezes mais longe com BN do que sem; comparado ao de uma amostra limpa, {} vezes.",
            if id == 'b' { "SGD" } else { "Adam" },
            s.times(s.get("log10 BN/no-BN noisy")?),
            s.times(s.get("log10 noisy/clean BN − no-BN")?)
        ),
        'c' => format!(
            "Com 5% de rótulos errados, a AUC do atacante é {} pontos maior contra a BN.",
            s.num(s.get("Δ AUC 5% (pts)")?, 0)
        ),
        'i' => format!(
            "Com 5% de rótulos errados, a BN decorou {} pontos a mais deles que o GroupNorm, e a AUC do atacante foi {} pontos maior contra a BN.",
            s.signed(s.get("Δ flipped 5% BN − GN (pts)")?, 0),
            s.signed(s.get("Δ AUC 5% BN − GN (pts)")?, 0)
        ),
        'j' => format!(
            "Com 5% de rótulos errados, o GroupNorm decorou {} pontos a mais deles que o modelo sem BN, e a AUC do atacante foi {} pontos maior contra o GroupNorm.",
            s.signed(s.get("Δ flipped 5% GN − no-BN (pts)")?, 0),
            s.signed(s.get("Δ AUC 5% GN − no-BN (pts)")?, 0)
        ),
        'd' => format!(
            "A partir da época 1, γ/σ cresceu {} a mais com 5% de rótulos errados do que sem nenhum (Adam).",
            s.signed(s.get("Adam Δγ/σ 5% − 0%, mean over layers")?, 2)
        ),
        'f' => {
            let x = s.get("Adam push noisy − clean (scaled)")?;
            format!(
                "Comparados às amostras limpas, os gradientes próprios dos rótulos errados empurram |γ| para {} ({}% de um empurrão típico).",
                if x < 0.0 { "baixo" } else { "cima" },
                s.num(100.0 * x.abs(), 0)
            )
        }
        'e' => format!(
            "O regularizador cortou {} pontos dos rótulos errados decorados; a acurácia de teste mudou {} pontos.",
            s.num(s.get("drop in flipped acc (pts)")?, 0),
            s.signed(s.get("Δ test acc (pts)")?, 1)
        ),
        _ => return None,
    })
}

/// One claim: what it says, what the paper's rule is and what its verdict does not say, by its
/// letter.
#[derive(Debug, Serialize)]
pub struct ClaimText {
    #[serde(skip)]
    pub id: char,
    pub claim: &'static str,
    pub paper: &'static str,
    pub caveat: &'static str,
}

/// The words in the names of our numbers ("Δ flipped 5% at that fit (pts)", "SGD push noisy −
/// clean (scaled)", …), each replaced by its translation, in this order (a longer name before a
/// word it holds).
#[derive(Debug, Serialize)]
pub struct StatWords {
    pub drop_in_flipped_acc: &'static str,
    pub flipped_acc: &'static str,
    pub test_acc: &'static str,
    pub clean_fit: &'static str,
    pub at_that_fit: &'static str,
    pub scale_free_grad_auc: &'static str,
    pub noisy_only_auc: &'static str,
    pub mean_over_layers: &'static str,
    pub push: &'static str,
    pub scaled: &'static str,
    pub flipped: &'static str,
    pub noisy: &'static str,
    pub clean: &'static str,
    pub no_bn: &'static str,
    /// "(pts)", percentage points.
    pub points: &'static str,
    pub from_epoch_1_at: &'static str,
}

impl StatWords {
    /// The words in the order they are replaced.
    pub fn list(&self) -> [&'static str; 16] {
        [
            self.from_epoch_1_at,
            self.drop_in_flipped_acc,
            self.flipped_acc,
            self.test_acc,
            self.clean_fit,
            self.at_that_fit,
            self.scale_free_grad_auc,
            self.noisy_only_auc,
            self.mean_over_layers,
            self.push,
            self.scaled,
            self.flipped,
            self.noisy,
            self.clean,
            self.no_bn,
            self.points,
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
    intro_end: "; mean ± sd over seeds. Each claim is decided on a few of its numbers, each against a bar. A tested number \
                held when its mean over the seeds clears the bar by two standard errors and more than half of all the \
                grid's seeds clear it (a seed with missing runs counts against); it did not hold when it falls below the \
                bar the same way; otherwise it is inconclusive. A claim held when all its tested numbers held, did not hold \
                when any did not, and is inconclusive otherwise.",
    reading: "Reading it: a verdict is the rule applied to the numbers, not the whole story. Beside each verdict, the seeds \
              where every tested number cleared its bar; under it, each tested number with its bar and its own verdict, \
              and what the verdict does not say. The ± beside a number is its spread over seeds (a standard deviation); the rule \
              uses the standard error of the mean, that spread divided by the square root of the number of seeds. The \
              bars are the paper's words or zero, never tuned to our results. A claim that did not hold after a faithful \
              measurement is a finding, reported as it came out.",
    charts: "The charts behind the claims (means over seeds)",
    claim_head: "claim",
    paper_head: "the paper",
    ours_head: "ours",
    verdict_head: "verdict",
    held: "held",
    not_held: "did not hold",
    inconclusive: "inconclusive",
    unchecked: "could not be checked",
    plain: plain_en,
    claims: [
        ClaimText {
            id: 'a',
            claim: "BN fits outliers further: accuracy on flipped labels and on OOD images",
            paper: "BN above no-BN; ours: the mean over epochs, at 1 % and 5 % flipped (≥ 30 flipped members) and 5 % OOD",
            caveat: "within our epochs no-BN barely fits its outliers, so this mixes faster and further; (g) compares at the \
                     same fit",
        },
        ClaimText {
            id: 'g',
            claim: "At the same fit of the clean members, BN has memorized more outliers",
            paper: "our reading of \"further\": outlier accuracy when each model first reaches the clean accuracy both reach",
            caveat: "the fit is read at epoch ends and interpolated between them",
        },
        ClaimText {
            id: 'b',
            claim: "With BN, one SGD step moves an outlier's own margin more (per-step self-influence)",
            paper: "SGD arm at 5 %, epochs 0–2: one step's growth of the probe's margin, minus the same step with the probe \
                    swapped out; BN's noisy median above no-BN's, and BN's noisy/clean ratio above no-BN's",
            caveat: "the theorem is stated for SGD; epochs 0–2 are before either model fits a noisy sample",
        },
        ClaimText {
            id: 'h',
            claim: "The same under Adam, the step the page's runs take",
            paper: "as (b), with the run's optimizer (Adam) stepped from its current state",
            caveat: "Adam divides each weight's step by its own running gradient size: the paper's factor need not survive it",
        },
        ClaimText {
            id: 'c',
            claim: "LiRA wins more against BN models (AUC, BN − no-BN)",
            paper: "positive on clean data, ≥ +3 pts at 1 %, ≥ +4 pts at 5 %",
            caveat: "at the end of training, not at matched fit; the OOD arm is shown, not tested",
        },
        ClaimText {
            id: 'i',
            claim: "GroupNorm, normalizing each sample by its own statistics, memorizes and leaks less than BN (our question)",
            paper: "our test of the paper's explanation, that BN couples the samples of a batch: at 5 % flipped, BN minus a \
                    GroupNorm model of the same seed (2 groups a layer), flipped accuracy (mean over epochs) and LiRA AUC \
                    above 0",
            caveat: "one choice of groups; the GroupNorm model trains alone, on the same data, initial weights and order as \
                     the comparison's",
        },
        ClaimText {
            id: 'j',
            claim: "GroupNorm still memorizes and leaks more than no normalization (our question)",
            paper: "at 5 % flipped, GroupNorm minus no-BN: flipped accuracy (mean over epochs) and LiRA AUC above 0",
            caveat: "read with (i): both held, GroupNorm lies in between; (i) alone, it is like no normalization; (i) not \
                     held, it is like BN",
        },
        ClaimText {
            id: 'd',
            claim: "Outliers push γ/σ up: from epoch 1 to the end, γ/σ grows more at 5 % than at 0 %",
            paper: "the feedback loop; ours: per seed, the change of median γ/σ (batch σ) from epoch 1, 5 % minus 0 %, mean \
                    over BN layers, under Adam and under SGD",
            caveat: "from epoch 1: epoch 0 → 1 is a transient of σ as the weights before each BN grow",
        },
        ClaimText {
            id: 'f',
            claim: "Outliers' own gradients push |γ| up more than clean samples' do",
            paper: "our measure of the loop's push: per sample, −sign(γ)·∂ℓ/∂γ; noisy minus clean, per layer over the mean \
                    |push|, at 5 %",
            caveat: "a gradient, not a step: Adam's step on γ is about the learning rate whatever the push",
        },
        ClaimText {
            id: 'e',
            claim: "The γ/σ regularizer cuts memorization while clean accuracy holds (at 5 %, first λ of the sweep)",
            paper: "flipped accuracy at the end lower with the regularizer; test accuracy no more than 1 pt lower",
            caveat: "one λ and one kind of regularizer (ours); the sweep below shows the others",
        },
    ],
    stats: StatWords {
        drop_in_flipped_acc: "drop in flipped acc",
        flipped_acc: "flipped acc",
        test_acc: "test acc",
        clean_fit: "clean fit",
        at_that_fit: "at that fit",
        scale_free_grad_auc: "scale-free grad AUC",
        noisy_only_auc: "noisy-only AUC",
        mean_over_layers: "mean over layers",
        push: "push",
        scaled: "scaled",
        flipped: "flipped",
        noisy: "noisy",
        clean: "clean",
        no_bn: "no-BN",
        points: "(pts)",
        from_epoch_1_at: "from epoch 1 at",
    },
    captions: Captions {
        memorization: "Memorization: accuracy on flipped members per epoch, BN (red) and no-BN (blue); thicker lines for \
                       more noise.",
        gradients: "Median per-step self-influence: one Adam step's growth of a probe's own margin, per unit learning rate, \
                    minus the same step with the probe swapped for a clean member; noisy probes (thick) and clean ones \
                    (light), per model and noise level. Margins are logits, comparable across models.",
        gamma_sigma: "BN models: median γ/σ with the batch σ, mean over layers, from the untrained model (epoch 0). Epoch \
                      0 → 1 is a transient of σ as the weights before each BN grow; the comparison to read is the change \
                      from epoch 1 between noise levels (claim d), not the line at 1.",
        gamma: "BN models: mean |γ| per epoch by noise level. Under Adam each γ moves by about the learning rate per step \
                whatever its gradient, so these curves show at most the direction of a push; claim (f) measures the push \
                per sample.",
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
    intro_end: "; media ± d.e. sobre las semillas. Cada afirmación se decide con algunos de sus números, cada uno frente a \
                un umbral. Un número probado se cumplió cuando su media sobre las semillas supera el umbral por dos errores \
                estándar y más de la mitad de todas las semillas del experimento lo superan (una semilla con ejecuciones \
                faltantes cuenta en contra); no se cumplió cuando queda por debajo del umbral de la misma forma; si no, no \
                es concluyente. Una afirmación se cumplió cuando todos sus números probados se cumplieron, no se cumplió \
                cuando alguno no se cumplió, y si no, no es concluyente.",
    reading: "Cómo leerlo: un veredicto es la regla aplicada a los números, no toda la historia. Junto a cada veredicto, las \
              semillas en las que cada número probado superó su umbral; debajo, cada número probado con su umbral y su \
              propio veredicto, y lo que el veredicto no dice. El ± junto a un número es su dispersión entre semillas (una \
              desviación estándar); la regla usa el error estándar de la media, esa dispersión dividida por la raíz \
              cuadrada del número de semillas. Los umbrales son las palabras del artículo o cero, nunca ajustados a \
              nuestros resultados. Una afirmación que no se cumplió tras una medición fiel es un hallazgo, informado tal \
              como salió.",
    charts: "Los gráficos detrás de las afirmaciones (medias sobre las semillas)",
    claim_head: "afirmación",
    paper_head: "el artículo",
    ours_head: "nuestros números",
    verdict_head: "veredicto",
    held: "se cumplió",
    not_held: "no se cumplió",
    inconclusive: "no concluyente",
    unchecked: "no se pudo comprobar",
    plain: plain_es,
    claims: [
        ClaimText {
            id: 'a',
            claim: "BN ajusta los atípicos más a fondo: exactitud en las etiquetas invertidas y en las imágenes OOD",
            paper: "BN por encima de sin BN; nuestra medida: la media sobre las épocas, con 1 % y 5 % de etiquetas invertidas \
                    (≥ 30 miembros con etiqueta invertida) y con 5 % de OOD",
            caveat: "en nuestras épocas el modelo sin BN apenas ajusta sus atípicos, así que esto mezcla «más rápido» y «más a \
                     fondo»; (g) compara con el mismo ajuste",
        },
        ClaimText {
            id: 'g',
            claim: "Con el mismo ajuste de los miembros limpios, el modelo con BN ha memorizado más atípicos",
            paper: "nuestra lectura de «más a fondo»: la exactitud en los atípicos cuando cada modelo alcanza por primera vez \
                    la exactitud en los limpios que ambos alcanzan",
            caveat: "el ajuste se lee al final de cada época y se interpola entre ellas",
        },
        ClaimText {
            id: 'b',
            claim: "Con BN, un paso de SGD mueve más el propio margen de un atípico (autoinfluencia por paso)",
            paper: "brazo SGD al 5 %, épocas 0–2: cuánto crece el margen de la sonda en un paso, menos el mismo paso con la \
                    sonda reemplazada; la mediana de las ruidosas de BN por encima de la de sin BN, y la razón \
                    ruidosas/limpias de BN por encima de la de sin BN",
            caveat: "el teorema se enuncia para SGD; las épocas 0–2 son anteriores a que cualquiera de los dos modelos ajuste \
                     una muestra ruidosa",
        },
        ClaimText {
            id: 'h',
            claim: "Lo mismo con Adam, el paso que dan las ejecuciones de la página",
            paper: "como (b), con el optimizador de la ejecución (Adam) dando el paso desde su estado actual",
            caveat: "Adam divide el paso de cada peso por el tamaño reciente de su propio gradiente: el factor del artículo no \
                     tiene por qué sobrevivir a eso",
        },
        ClaimText {
            id: 'c',
            claim: "LiRA gana más contra los modelos con BN (AUC, BN − sin BN)",
            paper: "diferencia positiva con datos limpios, ≥ +3 pts al 1 %, ≥ +4 pts al 5 %",
            caveat: "al final del entrenamiento, no con el mismo ajuste; el brazo OOD se muestra, no se prueba",
        },
        ClaimText {
            id: 'i',
            claim: "GroupNorm, que normaliza cada muestra con sus propias estadísticas, memoriza y filtra menos que BN \
                    (nuestra pregunta)",
            paper: "nuestra prueba de la explicación del artículo, que BN acopla las muestras de un lote: al 5 % de \
                    etiquetas invertidas, BN menos un modelo GroupNorm de la misma semilla (2 grupos por capa), la \
                    exactitud en las invertidas (media sobre las épocas) y el AUC de LiRA por encima de 0",
            caveat: "una sola elección de grupos; el modelo GroupNorm se entrena solo, con los mismos datos, pesos \
                     iniciales y orden que la comparación",
        },
        ClaimText {
            id: 'j',
            claim: "GroupNorm aún memoriza y filtra más que sin normalización (nuestra pregunta)",
            paper: "al 5 % de etiquetas invertidas, GroupNorm menos sin BN: la exactitud en las invertidas (media sobre las \
                    épocas) y el AUC de LiRA por encima de 0",
            caveat: "se lee junto con (i): si ambas se cumplen, GroupNorm queda en medio; si solo (i), se parece a no \
                     normalizar; si (i) no se cumple, se parece a BN",
        },
        ClaimText {
            id: 'd',
            claim: "Los atípicos empujan γ/σ hacia arriba: desde la época 1 hasta el final, γ/σ crece más al 5 % que al 0 %",
            paper: "el ciclo de retroalimentación; nuestra medida: por semilla, el cambio de la mediana de γ/σ (σ del lote) \
                    desde la época 1, 5 % menos 0 %, media sobre las capas BN, con Adam y con SGD",
            caveat: "desde la época 1: de la época 0 a la 1, σ pasa por un transitorio mientras crecen los pesos antes de \
                     cada BN",
        },
        ClaimText {
            id: 'f',
            claim: "Los propios gradientes de los atípicos empujan |γ| hacia arriba más que los de las muestras limpias",
            paper: "nuestra medida del empuje del ciclo: por muestra, −sign(γ)·∂ℓ/∂γ; ruidosas menos limpias, por capa \
                    dividido por el |empuje| medio, al 5 %",
            caveat: "un gradiente, no un paso: el paso de Adam sobre γ es de alrededor de la tasa de aprendizaje, sea cual sea \
                     el empuje",
        },
        ClaimText {
            id: 'e',
            claim: "El regularizador γ/σ reduce la memorización mientras la exactitud en datos limpios se mantiene (al 5 %, \
                    primer λ del barrido)",
            paper: "la exactitud en etiquetas invertidas al final, más baja con el regularizador; la exactitud de prueba, no \
                    más de 1 pt menor",
            caveat: "un solo λ y un solo tipo de regularizador (el nuestro); el barrido de abajo muestra los demás",
        },
    ],
    stats: StatWords {
        drop_in_flipped_acc: "caída de la exactitud en invertidas",
        flipped_acc: "exactitud en invertidas",
        test_acc: "exactitud de prueba",
        clean_fit: "ajuste de limpias en",
        at_that_fit: "con ese ajuste",
        scale_free_grad_auc: "AUC del gradiente invariante a la escala",
        noisy_only_auc: "AUC solo ruidosas",
        mean_over_layers: "media sobre las capas",
        push: "empuje",
        scaled: "normalizado",
        flipped: "invertidas",
        noisy: "ruidosas",
        clean: "limpias",
        no_bn: "sin BN",
        points: "(puntos)",
        from_epoch_1_at: "desde la época 1 con",
    },
    captions: Captions {
        memorization: "Memorización: exactitud en los miembros con etiqueta invertida por época, BN (rojo) y sin BN (azul); líneas más \
                       gruesas para más ruido.",
        gradients: "Mediana de la autoinfluencia por paso: cuánto crece el propio margen de una sonda en un paso de Adam, por \
                    unidad de tasa de aprendizaje, menos el mismo paso con la sonda cambiada por un miembro limpio; sondas \
                    ruidosas (gruesas) y limpias (claras), por modelo y nivel de ruido. Los márgenes son logits, \
                    comparables entre modelos.",
        gamma_sigma: "Modelos con BN: mediana de γ/σ con la σ del lote, media sobre las capas, desde el modelo sin entrenar \
                      (época 0). De la época 0 a la 1, σ pasa por un transitorio mientras crecen los pesos antes de cada BN; \
                      la comparación que hay que leer es el cambio desde la época 1 entre niveles de ruido (afirmación d), no \
                      la línea en 1.",
        gamma: "Modelos con BN: |γ| medio por época según el nivel de ruido. Con Adam cada γ se mueve más o menos la tasa de \
                aprendizaje por paso, sea cual sea su gradiente, así que estas curvas muestran a lo sumo la dirección de un \
                empuje; la afirmación (f) mide el empuje por muestra.",
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
    intro_end: "; média ± dp entre as sementes. Cada afirmação é decidida por alguns dos seus números, cada um diante de \
                um limiar. Um número testado se confirmou quando sua média entre as sementes passa do limiar por dois erros \
                padrão e mais da metade de todas as sementes do experimento passam dele (uma semente com execuções \
                faltando conta contra); não se confirmou quando fica abaixo do limiar do mesmo jeito; caso contrário, é \
                inconclusivo. Uma afirmação se confirmou quando todos os seus números testados se confirmaram, não se \
                confirmou quando algum não se confirmou, e é inconclusiva nos outros casos.",
    reading: "Como ler: um veredito é a regra aplicada aos números, não a história toda. Ao lado de cada veredito, as \
              sementes em que todo número testado passou do seu limiar; embaixo, cada número testado com seu limiar e seu \
              próprio veredito, e o que o veredito não diz. O ± ao lado de um número é a sua dispersão entre sementes (um \
              desvio padrão); a regra usa o erro padrão da média, essa dispersão dividida pela raiz quadrada do número de \
              sementes. Os limiares são as palavras do artigo ou zero, nunca ajustados aos nossos resultados. Uma \
              afirmação que não se confirmou após uma medição fiel é um achado, relatado como saiu.",
    charts: "Os gráficos por trás das afirmações (médias entre as sementes)",
    claim_head: "afirmação",
    paper_head: "o artigo",
    ours_head: "nossos números",
    verdict_head: "veredito",
    held: "confirmada",
    not_held: "não confirmada",
    inconclusive: "inconclusiva",
    unchecked: "não pôde ser verificada",
    plain: plain_pt,
    claims: [
        ClaimText {
            id: 'a',
            claim: "BN ajusta os atípicos mais a fundo: acurácia nos rótulos trocados e nas imagens OOD",
            paper: "BN acima de sem BN; nossa medida: a média entre as épocas, com 1% e 5% de rótulos trocados (≥ 30 membros \
                    com rótulo trocado) e com 5% de OOD",
            caveat: "nas nossas épocas o modelo sem BN mal ajusta seus atípicos, então isto mistura “mais rápido” e “mais a \
                     fundo”; (g) compara no mesmo ajuste",
        },
        ClaimText {
            id: 'g',
            claim: "No mesmo ajuste dos membros limpos, o modelo com BN memorizou mais atípicos",
            paper: "nossa leitura de “mais a fundo”: a acurácia nos atípicos quando cada modelo atinge pela primeira vez a \
                    acurácia nos limpos que ambos atingem",
            caveat: "o ajuste é lido no fim de cada época e interpolado entre elas",
        },
        ClaimText {
            id: 'b',
            claim: "Com BN, um passo de SGD move mais a própria margem de um atípico (autoinfluência por passo)",
            paper: "braço SGD a 5%, épocas 0–2: quanto a margem da sonda cresce em um passo, menos o mesmo passo com a sonda \
                    substituída; a mediana das ruidosas da BN acima da sem BN, e a razão ruidosas/limpas da BN acima da sem \
                    BN",
            caveat: "o teorema é enunciado para SGD; as épocas 0–2 vêm antes de qualquer um dos modelos ajustar uma amostra \
                     ruidosa",
        },
        ClaimText {
            id: 'h',
            claim: "O mesmo com Adam, o passo que as execuções da página dão",
            paper: "como (b), com o otimizador da execução (Adam) dando o passo a partir do seu estado atual",
            caveat: "o Adam divide o passo de cada peso pelo tamanho recente do seu próprio gradiente: o fator do artigo não \
                     precisa sobreviver a isso",
        },
        ClaimText {
            id: 'c',
            claim: "O LiRA ganha mais contra modelos com BN (AUC, BN − sem BN)",
            paper: "positiva com dados limpos, ≥ +3 pts a 1%, ≥ +4 pts a 5%",
            caveat: "no fim do treino, não no mesmo ajuste; o braço OOD é mostrado, não testado",
        },
        ClaimText {
            id: 'i',
            claim: "O GroupNorm, que normaliza cada amostra pelas próprias estatísticas, decora e vaza menos que a BN \
                    (nossa pergunta)",
            paper: "nosso teste da explicação do artigo, de que a BN acopla as amostras de um lote: com 5% de rótulos \
                    trocados, BN menos um modelo GroupNorm da mesma semente (2 grupos por camada), a acurácia nos \
                    trocados (média sobre as épocas) e a AUC do LiRA acima de 0",
            caveat: "uma só escolha de grupos; o modelo GroupNorm treina sozinho, com os mesmos dados, pesos iniciais e \
                     ordem da comparação",
        },
        ClaimText {
            id: 'j',
            claim: "O GroupNorm ainda decora e vaza mais que sem normalização (nossa pergunta)",
            paper: "com 5% de rótulos trocados, GroupNorm menos sem BN: a acurácia nos trocados (média sobre as épocas) e a \
                    AUC do LiRA acima de 0",
            caveat: "leia com (i): as duas confirmadas, o GroupNorm fica no meio; só (i), parece não normalizar; (i) não \
                     confirmada, parece a BN",
        },
        ClaimText {
            id: 'd',
            claim: "Os atípicos empurram γ/σ para cima: da época 1 até o fim, γ/σ cresce mais a 5% do que a 0%",
            paper: "o ciclo de realimentação; nossa medida: por semente, a mudança da mediana de γ/σ (σ do lote) desde a \
                    época 1, 5% menos 0%, média entre as camadas BN, com Adam e com SGD",
            caveat: "desde a época 1: da época 0 para a 1, σ passa por um transitório enquanto crescem os pesos antes de cada \
                     BN",
        },
        ClaimText {
            id: 'f',
            claim: "Os próprios gradientes dos atípicos empurram |γ| para cima mais que os das amostras limpas",
            paper: "nossa medida do empurrão do ciclo: por amostra, −sign(γ)·∂ℓ/∂γ; ruidosas menos limpas, por camada \
                    dividido pelo |empurrão| médio, a 5%",
            caveat: "um gradiente, não um passo: o passo do Adam em γ é de cerca da taxa de aprendizado, qualquer que seja o \
                     empurrão",
        },
        ClaimText {
            id: 'e',
            claim: "O regularizador γ/σ reduz a memorização enquanto a acurácia limpa se mantém (a 5%, primeiro λ da \
                    varredura)",
            paper: "acurácia nos rótulos trocados no fim menor com o regularizador; acurácia de teste no máximo 1 pt menor",
            caveat: "um só λ e um só tipo de regularizador (o nosso); a varredura abaixo mostra os outros",
        },
    ],
    stats: StatWords {
        drop_in_flipped_acc: "queda da acurácia nos trocados",
        flipped_acc: "acurácia nos trocados",
        test_acc: "acurácia de teste",
        clean_fit: "ajuste das limpas em",
        at_that_fit: "nesse ajuste",
        scale_free_grad_auc: "AUC do gradiente invariante à escala",
        noisy_only_auc: "AUC só ruidosas",
        mean_over_layers: "média entre as camadas",
        push: "empurrão",
        scaled: "normalizado",
        flipped: "trocados",
        noisy: "ruidosas",
        clean: "limpas",
        no_bn: "sem BN",
        points: "(pontos)",
        from_epoch_1_at: "desde a época 1 com",
    },
    captions: Captions {
        memorization: "Memorização: acurácia nos membros com rótulo trocado por época, BN (vermelho) e sem BN (azul); linhas mais \
                       grossas para mais ruído.",
        gradients: "Mediana da autoinfluência por passo: quanto a própria margem de uma sonda cresce em um passo do Adam, por \
                    unidade de taxa de aprendizado, menos o mesmo passo com a sonda trocada por um membro limpo; sondas \
                    ruidosas (grossas) e limpas (claras), por modelo e nível de ruído. As margens são logits, comparáveis \
                    entre modelos.",
        gamma_sigma: "Modelos com BN: mediana de γ/σ com o σ do lote, média entre as camadas, a partir do modelo sem treino \
                      (época 0). Da época 0 para a 1, σ passa por um transitório enquanto crescem os pesos antes de cada BN; \
                      a comparação a ler é a mudança desde a época 1 entre níveis de ruído (afirmação d), não a linha em 1.",
        gamma: "Modelos com BN: |γ| médio por época por nível de ruído. Com o Adam cada γ se move cerca da taxa de \
                aprendizado por passo, qualquer que seja o seu gradiente, então estas curvas mostram no máximo a direção de \
                um empurrão; a afirmação (f) mede o empurrão por amostra.",
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

    /// A verdict in words: "held", "did not hold", …
    pub fn outcome(&self, o: Outcome) -> &'static str {
        match o {
            Outcome::Held => self.held,
            Outcome::Failed => self.not_held,
            Outcome::Inconclusive => self.inconclusive,
            Outcome::Unchecked => self.unchecked,
        }
    }
}

#[cfg(test)]
mod tests {
    use spotlight_core::paper::{REG_NOISE, claims_list};

    #[test]
    fn every_claim_has_a_plain_sentence_with_its_number() {
        // A sentence reads only numbers its claim is tested on (so the core writes them whenever
        // the claim has a verdict), and writes one of them: here a marked made-up value.
        let core = claims_list();
        let names: Vec<&str> =
            core.iter().flat_map(|c| c.tests.iter().map(|(name, _)| *name)).collect();
        let get = |n: &str| names.contains(&n).then_some(0.5);
        let num = |x: f64, _: usize| format!("<{x}>");
        let said = super::Said { get: &get, num: &num };
        for lang in crate::Lang::ALL {
            let p = &lang.texts().paper;
            for c in &p.claims {
                let s = (p.plain)(c.id, &said)
                    .unwrap_or_else(|| panic!("{lang:?} ({}) has no sentence", c.id));
                assert!(s.contains('<'), "{lang:?} ({}): {s}", c.id);
            }
            assert_eq!((p.plain)('z', &said), None);
        }
    }

    #[test]
    fn every_claim_of_the_core_has_its_texts_in_its_order() {
        let core = claims_list();
        for lang in crate::Lang::ALL {
            let p = &lang.texts().paper;
            let ids: Vec<char> = p.claims.iter().map(|c| c.id).collect();
            assert_eq!(ids, core.iter().map(|c| c.id).collect::<Vec<_>>(), "{lang:?}");
            assert!(p.claims.iter().all(|c| ![c.claim, c.paper, c.caveat].contains(&"")));
        }
        let caption = (super::EN.captions.tradeoff)(&crate::Lang::En.pct(REG_NOISE, 0));
        assert!(
            caption.starts_with("The regularizer at 5% flipped labels: flipped-label accuracy"),
            "{caption}"
        );
    }

    #[test]
    fn every_word_of_our_numbers_is_in_the_list() {
        // The names of one seed's numbers, as the core's numbers functions write them
        // (results/paper-mid.json), and every name a claim is tested on.
        let written = [
            "BN flipped 1% (%)",
            "no-BN flipped 5% (%)",
            "Δ OOD 5% (pts)",
            "clean fit flipped 5% (%)",
            "clean fit OOD 5% (%)",
            "Δ flipped 5% at that fit (pts)",
            "BN noisy",
            "no-BN clean",
            "scale-free grad AUC noisy>clean BN",
            "scale-free grad AUC noisy>clean no-BN",
            "Δ AUC OOD 5% (pts)",
            "noisy-only AUC no-BN 5%",
            "conv1 Δγ/σ 5% − 0%",
            "flipped acc BN+reg (%)",
            "test acc BN (%)",
            "LiRA AUC BN+reg",
            "Adam Δγ/σ from epoch 1 at 5%",
        ];
        let core = claims_list();
        let tested = core.iter().flat_map(|c| c.tests.iter().map(|(name, _)| *name));
        let en = super::EN.stats.list();
        for lang in [crate::Lang::Es, crate::Lang::Pt] {
            let words = lang.texts().paper.stats.list();
            for name in written.into_iter().chain(tested.clone()) {
                let out = en.iter().zip(words).fold(name.to_string(), |s, (e, x)| s.replace(e, x));
                assert!(
                    ![
                        "flipped",
                        "noisy",
                        "clean",
                        "no-BN",
                        "fit",
                        "scale-free",
                        "acc",
                        "drop",
                        "push",
                        "scaled",
                        "mean",
                        "layers",
                        "from",
                        "(pts)"
                    ]
                    .iter()
                    .any(|w| out.contains(w)),
                    "{lang:?}: {name} → {out}"
                );
            }
        }
    }
}
