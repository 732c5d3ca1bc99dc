//! The lenses beside the charts: memorization, per-sample influence, the amplifier (γ/σ) and the
//! privacy attack — their headings, explanations and table headers. One struct, one literal per
//! language.

use serde::Serialize;

/// What the models of a run have memorized so far, written out for a sentence: the epoch, whether
/// the outliers are OOD images (else flipped labels), how many there are, and per model its name
/// and how many of them it fits by their given label.
pub struct Outliers<'a> {
    pub epoch: String,
    pub ood: bool,
    pub of: String,
    pub models: Vec<(&'a str, String)>,
}

/// "BN 41; no-BN 3" after the first model: the others, each with its count.
fn rest(models: &[(&str, String)], sep: &str) -> String {
    models.iter().skip(1).map(|(m, n)| format!("{sep}{m}: {n}")).collect()
}

#[derive(Debug, Serialize)]
pub struct Lenses {
    /// The fold under each lens's chart.
    pub more: &'static str,
    /// The fold under the γ/σ chart (no numbers there).
    pub read: &'static str,
    /// Tables' first column.
    pub model: &'static str,

    pub accuracy_heading: &'static str,
    /// The accuracy chart's own title (drawn in it).
    pub accuracy_chart: &'static str,
    pub accuracy_teach: &'static str,
    /// Under the memorization chart, always shown: this run's numbers so far.
    #[serde(skip)]
    pub memorized_says: fn(&Outliers<'_>) -> String,
    /// The same before the page's first run.
    pub memorized_waits: &'static str,
    /// … during a run, before its first epoch ends.
    pub memorized_soon: &'static str,
    /// … for a run without outliers.
    pub memorized_none: &'static str,
    /// Under the attack's charts once LiRA has run: per model, the share of its members found at 1 % FPR.
    #[serde(skip)]
    pub attack_says: fn(&[(&str, String)]) -> String,
    /// Above the lenses before the first run: they show a run measured earlier (its training
    /// samples and epochs, written).
    #[serde(skip)]
    pub measured_earlier: fn(&str, &str) -> String,
    /// The epoch table's columns after the model: epoch, flipped, OOD, clean train, test.
    pub epoch_columns: [&'static str; 5],

    /// At a run's end, above its sentences: the heading, and the last sentence (where to go next)
    /// after a run without and with the regularizer.
    pub just_happened: &'static str,
    pub next_regularizer: &'static str,
    pub next_canary: &'static str,
    pub gradients_heading: &'static str,
    pub gradients_teach: &'static str,
    /// The gradient table's columns after the model: noisy, clean, their ratio.
    pub grad_columns: [&'static str; 4],

    pub gamma_heading: &'static str,
    /// The heading when a GroupNorm or LayerNorm model is in the run.
    pub gamma_heading_any: &'static str,
    pub gamma_teach: &'static str,
    /// Under the γ/σ chart when a GroupNorm or LayerNorm model is in it.
    pub gamma_per_sample: &'static str,
    /// The bridge from the theory lab to LeNet (`Report::bridge`), under the γ/σ chart: what it
    /// compares, and its table's columns.
    pub bridge_teach: &'static str,
    pub bridge_columns: [&'static str; 4],

    pub attack_heading: &'static str,
    /// In place of the ROC until LiRA has run.
    pub lira_pending: &'static str,
    pub attack_teach: &'static str,
    /// The attack table's columns after the model.
    pub attack_columns: [&'static str; 6],
    /// In the TPR-at-0.1 %-FPR column: under 1,000 non-members, 0.1 % of them is not one sample.
    pub too_few: &'static str,
    /// Under the shadow-count chart: the share of one model's members LiRA finds at 1 % FPR with the
    /// fewest shadow models that score every candidate and with all K, written already.
    #[serde(skip)]
    pub budget_says: fn(&BudgetSaid) -> String,
    /// The slider that steps along the ROC: the false-positive rate the attacker accepts.
    pub roc_step: &'static str,
    /// At one step, per model: what the attack flags (each figure written already).
    #[serde(skip)]
    pub roc_flags: fn(&RocFlags) -> String,
}

/// What [`Lenses::budget_says`] says: a model, and its TPR at 1 % FPR with 2 and with `k` shadows.
pub struct BudgetSaid<'a> {
    pub model: &'a str,
    /// The fewest shadow models that score every candidate, and the share found with them.
    pub first: &'a str,
    pub with_first: &'a str,
    pub with_k: &'a str,
    pub k: &'a str,
}

/// What [`Lenses::roc_flags`] says of one model at one point of its ROC curve.
pub struct RocFlags<'a> {
    pub model: &'a str,
    /// The false-positive rate, and the non-members it wrongly flags there.
    pub fpr: &'a str,
    pub false_positives: &'a str,
    /// The members it flags, of all.
    pub flagged: &'a str,
    pub members: &'a str,
    /// How many of those are shown (the ones it is surest of) and the outliers among them; `None`
    /// where the report holds none of them (a report drawn before any run keeps no images).
    pub shown: Option<(&'a str, &'a str)>,
}

pub const EN: Lenses = Lenses {
    more: "How to read it, and the numbers",
    read: "How to read it",
    model: "model",
    accuracy_heading: "Memorization: accuracy on flipped labels",
    accuracy_chart: "Accuracy while training",
    accuracy_teach: "A flipped label is wrong on purpose: nothing in the image points to it, so the only way to get it \
        \"right\" is to memorize that one sample. Accuracy on flipped samples (the upper panel) is memorization; clean-train \
        and test accuracy (the lower panel, test dashed) are learning. The paper: models with BN fit the flipped labels faster and further. The lines move \
        while a model trains: they follow a fixed sample of the training set (up to 64 noisy and 64 clean members), several \
        times per epoch; the markers are each epoch's measurement of all of them.",
    memorized_says: |o| {
        let what = if o.ood { "odd (OOD) images" } else { "wrong labels" };
        let Some((first, n)) = o.models.first() else { return String::new() };
        format!(
            "After epoch {}: {first} has learned {n} of its {} {what} by heart{}.",
            o.epoch,
            o.of,
            rest(&o.models, "; ")
        )
    },
    memorized_waits: "Press Run: the sentence here will count how many of the wrong labels each model learns by heart.",
    measured_earlier: |n, e| {
        format!(
            "Measured earlier, on the default run for a processor ({n} training samples × {e} epochs) — press Run to see it happen live, on your computer."
        )
    },
    memorized_soon: "Training: the count comes after the first epoch.",
    memorized_none: "No flipped labels and no odd images in this run: nothing that only memorization can fit.",
    attack_says: |models| {
        let all: Vec<String> =
            models.iter().map(|(m, p)| format!("{p} of {m}'s members")).collect();
        format!(
            "The attacker (LiRA) finds {} while wrongly accusing only 1 in 100 outsiders.",
            all.join(", ")
        )
    },
    epoch_columns: ["epoch", "flipped", "OOD", "clean train", "test"],
    just_happened: "What just happened",
    next_regularizer: "Next: switch on the γ/σ regularizer and run again — a third model, BN held back, trains beside \
        these two. Or read, at the bottom, what the paper found and what we measured over five seeds.",
    next_canary: "Next: draw an odd one out of your own below and run again — will the models learn your label, and \
        will the attacker spot your drawing? Or read, at the bottom, what the paper found and what we measured.",
    gradients_heading: "Per-sample influence: how far one step moves a sample",
    gradients_teach: "The paper's quantity: how much one training step moves a sample's own margin (the logit of its label \
        minus the largest other). Each probe sample joins a training batch of batch_size−1 clean members (BN uses that \
        batch's statistics); from the current weights we take one step of the run's optimizer on that batch and read the \
        sample's margin, then the same step with the sample swapped for a clean member: the difference, per unit of learning \
        rate, is the sample's pull on itself. Margins are logits, so the models can be compared with each other. Measured \
        before training (epoch 0) and after each epoch; the curves are medians, noisy probes thick. The paper's theorem is \
        about SGD; Adam (the default) divides each weight's step by its own running gradient size, so the paper's factor need \
        not show here — the paper panel below measures both. The histograms are another lens: each probe's gradient made \
        scale-free (‖W‖·‖∇W‖ per layer, per unit of error), to compare noisy with clean inside one model only: raw gradient \
        norms of a BN and a no-BN model cannot be compared (a weight feeding BN gets a gradient ∝ 1/‖W‖).",
    grad_columns: [
        "noisy: one step's push (median, last epoch)",
        "clean: one step's push (median, last epoch)",
        "noisy ÷ clean",
        "scale-free gradient: noisy above clean (AUC)",
    ],
    bridge_teach: "The theory lab's question in LeNet: if each BN layer multiplied a step's progress by its (γ/σ)², one \
        step would move a sample's own margin Π(γ/σ)² times as far with BN. Measured: one plain-SGD step's self-influence, \
        BN model ÷ no-BN model (two trained models, so their weights differ too), on the noisy and the clean probes.",
    bridge_columns: [
        "epoch",
        "Π (γ/σ)², BN layers (median γ/σ each)",
        "measured BN ÷ no-BN, noisy",
        "measured BN ÷ no-BN, clean",
    ],
    gamma_heading: "The amplifier: γ/σ per BN layer",
    gamma_heading_any: "The amplifier: γ/σ per normalization layer",
    gamma_per_sample: "GroupNorm and LayerNorm divide each sample by its own σ (per group of channels), not the batch's: \
        their lines show |γ| times the mean over the batch's samples of 1/σ, and inference divides by the same σ. No other \
        sample's σ enters, so the paper's batch factor (γ/σ)² does not couple a sample to its batch there.",
    gamma_teach: "BN divides each channel by the batch's standard deviation σ and multiplies it by a learned scale γ. The paper \
        shows that in a stochastic-gradient-descent step the progress on an outlier is multiplied by (γ/σ)², and that outliers \
        push γ up — a feedback loop. Adam (the default optimizer) divides each weight's step by the running size of that \
        weight's own gradients, so under Adam the factor is not the theorem's; the paper panel measures SGD and Adam. The chart \
        shows, per BN layer, the median over channels of γ/σ with the batch σ (measured on a fixed batch), from epoch 0, the \
        untrained model. γ/σ starts above 1 already (γ = 1, and with PyTorch-style initialization the σ of the pre-BN \
        activations is below 1), and from epoch 0 to 1 σ jumps as the weights before each BN grow: read the change from epoch 1 \
        on, and compare runs with different noise (e.g. 0% and 20% flipped labels); the paper panel's claim (d) says what our \
        grid found. The regularizer holds γ/σ down, by one of \
        four rules: a penalty λ times the sum over BN layers of the mean over channels of (γ/σ)² with σ held fixed (the gradient \
        reaches γ alone: inert, kept for comparison), of (γ/σ)² with the gradient through σ too, or of the hinge \
        max(0, γ/σ − 1)², which charges only channels above 1; or no penalty but clipping |γ| ≤ τ·σ after each step.",
    attack_heading: "Privacy: the membership attack",
    lira_pending: "LiRA runs after training (it needs at least 2 shadow models).",
    attack_teach: "An attacker who can query the model guesses whether a sample was in its training set. LiRA trains shadow \
        models with and without each sample and compares the target's confidence with both. AUC 0.5 is guessing; what matters \
        most is the true-positive rate at a tiny false-positive rate (1%): the share of members the attacker finds while wrongly \
        accusing only 1 in 100 non-members. The last column runs LiRA on the outliers alone: flipped and OOD members against \
        flipped and OOD non-members. While the models train, the simplest attack — \"a low loss means member\" — is tried on a \
        small fixed sample of members and non-members, several times per epoch.",
    attack_columns: [
        "LiRA AUC",
        "TPR @ 1% FPR",
        "offline AUC",
        "loss-attack AUC",
        "LiRA AUC, noisy only",
        "TPR @ 0.1% FPR",
    ],
    too_few: "too few candidates",
    roc_step: "Step along the ROC: the false-positive rate the attacker accepts",
    roc_flags: |r| {
        let head = format!(
            "{}: at {} false positives ({} non-members wrongly flagged) LiRA flags {} of {} members",
            r.model, r.fpr, r.false_positives, r.flagged, r.members
        );
        match r.shown {
            Some((shown, outliers)) => {
                format!("{head}; the {shown} it is surest of, {outliers} of them outliers:")
            }
            None => format!("{head}."),
        }
    },
    budget_says: |b| {
        format!(
            "At 1% false positives, LiRA finds {} of {}'s members with {} shadow models, {} with {}: what an attacker's extra training buys.",
            b.with_first, b.model, b.first, b.with_k, b.k
        )
    },
};

pub const ES: Lenses = Lenses {
    more: "Cómo leerlo, y los números",
    read: "Cómo leerlo",
    model: "modelo",
    accuracy_heading: "Memorización: exactitud en etiquetas invertidas",
    accuracy_chart: "Exactitud durante el entrenamiento",
    accuracy_teach: "Una etiqueta invertida es incorrecta a propósito: nada en la imagen apunta a ella, así que la única forma \
        de \"acertarla\" es memorizar esa muestra. La exactitud en las muestras con etiqueta invertida (el panel de arriba) \
        es memorización; la exactitud en entrenamiento limpio y en prueba (el panel de abajo, la prueba a trazos) es aprendizaje. El artículo: los modelos \
        con BN ajustan las etiquetas invertidas más rápido y más a fondo. Las líneas se mueven mientras un modelo entrena: \
        siguen una muestra fija del conjunto de entrenamiento (hasta 64 miembros ruidosos y 64 limpios), varias veces por \
        época; los marcadores son la medición, en cada época, de todos los miembros.",
    memorized_says: |o| {
        let what = if o.ood { "imágenes ajenas (OOD)" } else { "etiquetas erróneas" };
        let Some((first, n)) = o.models.first() else { return String::new() };
        format!(
            "Tras la época {}: {first} se ha aprendido de memoria {n} de sus {} {what}{}.",
            o.epoch,
            o.of,
            rest(&o.models, "; ")
        )
    },
    memorized_waits: "Pulsa Ejecutar: esta frase contará cuántas etiquetas erróneas aprende de memoria cada modelo.",
    measured_earlier: |n, e| {
        format!(
            "Medido antes, con la ejecución por defecto para un procesador ({n} muestras de entrenamiento × {e} épocas): pulsa Ejecutar para verlo en vivo, en tu ordenador."
        )
    },
    memorized_soon: "Entrenando: la cuenta llega tras la primera época.",
    memorized_none: "Ni etiquetas invertidas ni imágenes ajenas en esta ejecución: nada que solo la memorización pueda ajustar.",
    attack_says: |models| {
        let all: Vec<String> =
            models.iter().map(|(m, p)| format!("el {p} de los miembros de {m}")).collect();
        format!(
            "El atacante (LiRA) encuentra {} acusando por error solo a 1 de cada 100 ajenos.",
            all.join(", ")
        )
    },
    epoch_columns: ["época", "etiqueta invertida", "OOD", "entrenamiento limpio", "prueba"],
    just_happened: "Lo que acaba de pasar",
    next_regularizer: "Ahora: activa el regularizador γ/σ y vuelve a ejecutar: un tercer modelo, con BN contenida, se \
        entrena junto a estos dos. O lee, al final, lo que encontró el artículo y lo que medimos con cinco semillas.",
    next_canary: "Ahora: dibuja abajo tu propio dato atípico y vuelve a ejecutar: ¿aprenderán los modelos tu etiqueta, \
        y descubrirá el atacante tu dibujo? O lee, al final, lo que encontró el artículo y lo que medimos.",
    gradients_heading: "Influencia por muestra: cuánto mueve un paso a una muestra",
    gradients_teach: "La magnitud del artículo: cuánto mueve un paso de entrenamiento el margen de la propia muestra (el logit \
        de su etiqueta menos el mayor de los otros). Cada muestra de sondeo se une a un lote de entrenamiento de batch_size−1 \
        miembros limpios (BN usa las estadísticas de ese lote); desde los pesos actuales damos un paso del optimizador de la \
        ejecución sobre ese lote y leemos el margen de la muestra, y luego el mismo paso con la muestra cambiada por un miembro \
        limpio: la diferencia, por unidad de tasa de aprendizaje, es lo que la muestra tira de sí misma. Los márgenes son \
        logits, así que los modelos se pueden comparar entre sí. Se mide antes de entrenar (época 0) y después de cada época; \
        las curvas son medianas, las ruidosas en trazo grueso. El teorema del artículo habla de SGD; Adam (el predeterminado) \
        divide el paso de cada peso por el tamaño acumulado de sus propios gradientes, así que el factor del artículo puede no \
        verse aquí: el panel del artículo, más abajo, mide ambos. Los histogramas son otra lente: el gradiente de cada muestra \
        sin escala (‖W‖·‖∇W‖ por capa, por unidad de error), para comparar ruidosas con limpias solo dentro de un modelo: las \
        normas del gradiente en bruto de un modelo con BN y uno sin BN no se pueden comparar (un peso que alimenta a BN recibe \
        un gradiente ∝ 1/‖W‖).",
    grad_columns: [
        "ruidosas: empuje de un paso (mediana, última época)",
        "limpias: empuje de un paso (mediana, última época)",
        "ruidosas ÷ limpias",
        "gradiente sin escala: ruidosas por encima de limpias (AUC)",
    ],
    bridge_teach: "La pregunta del laboratorio de teoría en LeNet: si cada capa BN multiplicara el avance de un paso por su \
        (γ/σ)², un paso movería el margen propio de una muestra Π(γ/σ)² veces más con BN. Medido: la autoinfluencia de un \
        paso de SGD simple, modelo con BN ÷ modelo sin BN (dos modelos entrenados: también difieren sus pesos), en las \
        sondas ruidosas y en las limpias.",
    bridge_columns: [
        "época",
        "Π (γ/σ)², capas BN (mediana de γ/σ en cada una)",
        "medido con BN ÷ sin BN, ruidosas",
        "medido con BN ÷ sin BN, limpias",
    ],
    gamma_heading: "El amplificador: γ/σ por capa BN",
    gamma_heading_any: "El amplificador: γ/σ por capa de normalización",
    gamma_per_sample: "GroupNorm y LayerNorm dividen cada muestra por su propia σ (por grupo de canales), no por la del \
        lote: sus líneas muestran |γ| por la media sobre las muestras del lote de 1/σ, y la inferencia divide por la misma σ. \
        No entra la σ de ninguna otra muestra, así que allí el factor del lote (γ/σ)² del artículo no acopla una muestra a su \
        lote.",
    gamma_teach: "BN divide cada canal por la desviación estándar σ del lote y lo multiplica por una escala aprendida γ. El \
        artículo muestra que, en un paso de descenso por gradiente estocástico, el avance sobre un dato atípico se multiplica \
        por (γ/σ)², y que los atípicos empujan γ hacia arriba: un ciclo de retroalimentación. Adam (el optimizador por defecto) \
        divide el paso de cada peso por el tamaño acumulado de los gradientes de ese mismo peso, así que con Adam el factor no \
        es el del teorema; el panel del artículo mide SGD y Adam. El gráfico muestra, por capa BN, la mediana sobre los canales \
        de γ/σ con la σ del lote (medida en un lote fijo), desde la época 0, el modelo sin entrenar. γ/σ ya empieza por encima \
        de 1 (γ = 1, y con la inicialización al estilo de PyTorch la σ de las activaciones previas a BN es menor que 1), y de la \
        época 0 a la 1 σ salta mientras crecen los pesos previos a cada BN: lee el cambio desde la época 1, y compara \
        ejecuciones con distinto ruido (por ejemplo 0 % y 20 % de etiquetas invertidas); la afirmación (d) del panel del \
        artículo dice lo que encontró nuestra malla. El regularizador mantiene γ/σ bajo, con una de cuatro reglas: una penalización λ por la suma \
        sobre las capas BN de la media sobre los canales de (γ/σ)² con σ fija (el gradiente llega solo a γ: inerte, se \
        conserva para comparar), de (γ/σ)² con el gradiente también a través de σ, o de la función bisagra \
        max(0, γ/σ − 1)², que penaliza solo los canales por encima de 1; o ninguna penalización, sino recortar |γ| ≤ τ·σ \
        después de cada paso.",
    attack_heading: "Privacidad: el ataque de inferencia de pertenencia",
    lira_pending: "LiRA se ejecuta después del entrenamiento (necesita al menos 2 modelos sombra).",
    attack_teach: "Un atacante que puede consultar el modelo adivina si una muestra estaba en su conjunto de entrenamiento. \
        LiRA entrena modelos sombra con y sin cada muestra y compara la confianza del modelo atacado con ambos. Un AUC de 0,5 \
        es adivinar al azar; lo que más importa es la tasa de verdaderos positivos con una tasa de falsos positivos diminuta \
        (1 %): la proporción de miembros que el atacante encuentra acusando por error solo a 1 de cada 100 no miembros. La \
        última columna aplica LiRA solo a los atípicos: miembros con etiqueta invertida y OOD frente a no miembros con \
        etiqueta invertida y OOD. Mientras los modelos entrenan, el ataque más simple (\"una pérdida baja significa \
        miembro\") se prueba con una pequeña muestra fija de miembros y no miembros, varias veces por época.",
    attack_columns: [
        "AUC de LiRA",
        "TPR con FPR del 1 %",
        "AUC offline",
        "AUC del ataque por pérdida",
        "AUC de LiRA, solo ruidosas",
        "TPR con FPR del 0,1 %",
    ],
    too_few: "muy pocos candidatos",
    roc_step: "Recorre la ROC: la tasa de falsos positivos que acepta el atacante",
    roc_flags: |r| {
        let head = format!(
            "{}: con {} de falsos positivos ({} no miembros marcados por error) LiRA marca {} de {} miembros",
            r.model, r.fpr, r.false_positives, r.flagged, r.members
        );
        match r.shown {
            Some((shown, outliers)) => format!(
                "{head}; los {shown} de los que está más seguro, {outliers} de ellos atípicos:"
            ),
            None => format!("{head}."),
        }
    },
    budget_says: |b| {
        format!(
            "Con un 1 % de falsos positivos, LiRA encuentra {} de los miembros de {} con {} modelos sombra y {} con {}: lo que compra el entrenamiento extra del atacante.",
            b.with_first, b.model, b.first, b.with_k, b.k
        )
    },
};

pub const PT: Lenses = Lenses {
    more: "Como ler, e os números",
    read: "Como ler",
    model: "modelo",
    accuracy_heading: "Memorização: acurácia em rótulos trocados",
    accuracy_chart: "Acurácia durante o treino",
    accuracy_teach: "Um rótulo trocado está errado de propósito: nada na imagem aponta para ele, então o único jeito de \
        \"acertá-lo\" é memorizar aquela amostra. A acurácia nas amostras com rótulo trocado (o painel de cima) é \
        memorização; a acurácia no treino limpo e no teste (o painel de baixo, o teste tracejado) é aprendizado. O artigo: modelos com BN ajustam os rótulos \
        trocados mais rápido e mais a fundo. As linhas se movem enquanto um modelo treina: acompanham uma amostra fixa do \
        conjunto de treino (até 64 membros ruidosos e 64 limpos), várias vezes por época; os marcadores são a medição, a \
        cada época, de todos os membros.",
    memorized_says: |o| {
        let what = if o.ood { "imagens estranhas (OOD)" } else { "rótulos errados" };
        let Some((first, n)) = o.models.first() else { return String::new() };
        format!(
            "Após a época {}: {first} decorou {n} dos seus {} {what}{}.",
            o.epoch,
            o.of,
            rest(&o.models, "; ")
        )
    },
    memorized_waits: "Clique em Executar: esta frase contará quantos rótulos errados cada modelo decora.",
    measured_earlier: |n, e| {
        format!(
            "Medido antes, com a execução padrão para um processador ({n} amostras de treino × {e} épocas): clique em Executar para ver acontecer ao vivo, no seu computador."
        )
    },
    memorized_soon: "Treinando: a contagem vem depois da primeira época.",
    memorized_none: "Nem rótulos trocados nem imagens estranhas nesta execução: nada que só a memorização consiga ajustar.",
    attack_says: |models| {
        let all: Vec<String> =
            models.iter().map(|(m, p)| format!("{p} dos membros de {m}")).collect();
        format!(
            "O atacante (LiRA) encontra {} acusando por engano só 1 em cada 100 de fora.",
            all.join(", ")
        )
    },
    epoch_columns: ["época", "rótulo trocado", "OOD", "treino limpo", "teste"],
    just_happened: "O que acabou de acontecer",
    next_regularizer: "Agora: ligue o regularizador γ/σ e execute de novo: um terceiro modelo, com a BN contida, treina \
        ao lado destes dois. Ou leia, no fim, o que o artigo encontrou e o que medimos com cinco sementes.",
    next_canary: "Agora: desenhe abaixo o seu próprio dado atípico e execute de novo: os modelos vão aprender o seu \
        rótulo, e o atacante vai descobrir o seu desenho? Ou leia, no fim, o que o artigo encontrou e o que medimos.",
    gradients_heading: "Influência por amostra: quanto um passo move uma amostra",
    gradients_teach: "A grandeza do artigo: quanto um passo de treino move a margem da própria amostra (o logit do seu rótulo \
        menos o maior dos outros). Cada amostra de sondagem entra em um lote de treino com batch_size−1 membros limpos (a BN \
        usa as estatísticas desse lote); a partir dos pesos atuais damos um passo do otimizador da execução nesse lote e lemos \
        a margem da amostra, e depois o mesmo passo com a amostra trocada por um membro limpo: a diferença, por unidade de taxa \
        de aprendizado, é o quanto a amostra puxa a si mesma. As margens são logits, então os modelos podem ser comparados \
        entre si. Medido antes do treino (época 0) e após cada época; as curvas são medianas, as ruidosas em traço grosso. O \
        teorema do artigo fala de SGD; o Adam (o padrão) divide o passo de cada peso pelo tamanho acumulado dos seus próprios \
        gradientes, então o fator do artigo pode não aparecer aqui: o painel do artigo, mais abaixo, mede os dois. Os \
        histogramas são outra lente: o gradiente de cada amostra sem escala (‖W‖·‖∇W‖ por camada, por unidade de erro), para \
        comparar ruidosas com limpas só dentro de um modelo: as normas brutas do gradiente de um modelo com BN e de um sem BN \
        não podem ser comparadas (um peso que alimenta a BN recebe um gradiente ∝ 1/‖W‖).",
    grad_columns: [
        "ruidosas: empurrão de um passo (mediana, última época)",
        "limpas: empurrão de um passo (mediana, última época)",
        "ruidosas ÷ limpas",
        "gradiente sem escala: ruidosas acima das limpas (AUC)",
    ],
    bridge_teach: "A pergunta do laboratório de teoria na LeNet: se cada camada BN multiplicasse o avanço de um passo pelo seu \
        (γ/σ)², um passo moveria a margem própria de uma amostra Π(γ/σ)² vezes mais com BN. Medido: a autoinfluência de um \
        passo de SGD simples, modelo com BN ÷ modelo sem BN (dois modelos treinados: os pesos também diferem), nas sondas \
        ruidosas e nas limpas.",
    bridge_columns: [
        "época",
        "Π (γ/σ)², camadas BN (mediana de γ/σ em cada)",
        "medido com BN ÷ sem BN, ruidosas",
        "medido com BN ÷ sem BN, limpas",
    ],
    gamma_heading: "O amplificador: γ/σ por camada BN",
    gamma_heading_any: "O amplificador: γ/σ por camada de normalização",
    gamma_per_sample: "GroupNorm e LayerNorm dividem cada amostra pelo próprio σ (por grupo de canais), não pelo do lote: \
        suas linhas mostram |γ| vezes a média sobre as amostras do lote de 1/σ, e a inferência divide pelo mesmo σ. Nenhum σ \
        de outra amostra entra, então ali o fator do lote (γ/σ)² do artigo não acopla uma amostra ao seu lote.",
    gamma_teach: "A BN divide cada canal pelo desvio padrão σ do lote e o multiplica por uma escala aprendida γ. O artigo \
        mostra que, em um passo de descida do gradiente estocástica, o avanço sobre um dado atípico é multiplicado por (γ/σ)², \
        e que os atípicos empurram γ para cima: um ciclo de realimentação. O Adam (o otimizador padrão) divide o passo de cada \
        peso pelo tamanho acumulado dos gradientes desse mesmo peso, então com Adam o fator não é o do teorema; o painel do \
        artigo mede SGD e Adam. O gráfico mostra, por camada BN, a mediana sobre os canais de γ/σ com o σ do lote (medido em \
        um lote fixo), desde a época 0, o modelo sem treino. γ/σ já começa acima de 1 (γ = 1, e com a inicialização no estilo \
        do PyTorch o σ das ativações antes da BN é menor que 1), e da época 0 para a 1 o σ salta enquanto crescem os pesos \
        antes de cada BN: leia a mudança a partir da época 1, e compare execuções com ruído diferente (por exemplo 0% e 20% de \
        rótulos trocados); a afirmação (d) do painel do artigo diz o que a nossa grade encontrou. O regularizador segura γ/σ, por uma de quatro regras: uma \
        penalidade λ vezes a soma sobre as camadas BN da média sobre os canais de (γ/σ)² com σ fixo (o gradiente chega só a \
        γ: inerte, mantida para comparação), de (γ/σ)² com o gradiente passando também por σ, ou da função dobradiça (hinge) \
        max(0, γ/σ − 1)², que penaliza só os canais acima de 1; ou nenhuma penalidade, mas cortar |γ| ≤ τ·σ após cada passo.",
    attack_heading: "Privacidade: o ataque de inferência de pertencimento",
    lira_pending: "O LiRA roda depois do treino (precisa de pelo menos 2 modelos-sombra).",
    attack_teach: "Um atacante que pode consultar o modelo tenta adivinhar se uma amostra estava no seu conjunto de treino. O \
        LiRA treina modelos-sombra com e sem cada amostra e compara a confiança do modelo-alvo com ambos. AUC 0,5 é chute; o \
        que mais importa é a taxa de verdadeiros positivos com uma taxa de falsos positivos minúscula (1%): a fração de \
        membros que o atacante encontra acusando por engano só 1 em cada 100 não membros. A última coluna roda o LiRA só nos \
        atípicos: membros com rótulo trocado e OOD contra não membros com rótulo trocado e OOD. Enquanto os modelos treinam, o \
        ataque mais simples (\"perda baixa significa membro\") é testado em uma pequena amostra fixa de membros e não \
        membros, várias vezes por época.",
    attack_columns: [
        "AUC do LiRA",
        "TPR com FPR de 1%",
        "AUC offline",
        "AUC do ataque por perda",
        "AUC do LiRA, só ruidosas",
        "TPR com FPR de 0,1%",
    ],
    too_few: "poucos candidatos",
    roc_step: "Percorra a ROC: a taxa de falsos positivos que o atacante aceita",
    roc_flags: |r| {
        let head = format!(
            "{}: com {} de falsos positivos ({} não membros marcados por engano) o LiRA marca {} de {} membros",
            r.model, r.fpr, r.false_positives, r.flagged, r.members
        );
        match r.shown {
            Some((shown, outliers)) => {
                format!("{head}; os {shown} de que tem mais certeza, {outliers} deles atípicos:")
            }
            None => format!("{head}."),
        }
    },
    budget_says: |b| {
        format!(
            "Com 1% de falsos positivos, o LiRA encontra {} dos membros de {} com {} modelos-sombra e {} com {}: o que o treino extra do atacante compra.",
            b.with_first, b.model, b.first, b.with_k, b.k
        )
    },
};
