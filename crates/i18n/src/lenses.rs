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

    pub gradients_heading: &'static str,
    pub gradients_teach: &'static str,
    /// The gradient table's columns after the model: noisy, clean, their ratio.
    pub grad_columns: [&'static str; 3],

    pub gamma_heading: &'static str,
    pub gamma_teach: &'static str,

    pub attack_heading: &'static str,
    /// In place of the ROC until LiRA has run.
    pub lira_pending: &'static str,
    pub attack_teach: &'static str,
    /// The attack table's columns after the model.
    pub attack_columns: [&'static str; 5],
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
        format!("After epoch {}: {first} has learned {n} of its {} {what} by heart{}.", o.epoch, o.of, rest(&o.models, "; "))
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
        let all: Vec<String> = models.iter().map(|(m, p)| format!("{p} of {m}'s members")).collect();
        format!("The attacker (LiRA) finds {} while wrongly accusing only 1 in 100 outsiders.", all.join(", "))
    },
    epoch_columns: ["epoch", "flipped", "OOD", "clean train", "test"],
    gradients_heading: "Per-sample influence: gradient norms",
    gradients_teach: "How hard one sample pulls on the model. Each probe sample joins a training batch of batch_size−1 clean \
        members; BN uses that batch's statistics (the running statistics are left alone); we take the length of the gradient of \
        that sample's own loss over every weight, before training (epoch 0) and after each epoch. The paper: with BN, noisy \
        samples' norms shift much higher than clean ones'. The histogram is the last epoch; the curves are the medians per \
        epoch; the table averages those medians over the trained epochs.",
    grad_columns: ["noisy ‖∇ℓ‖ (median; mean over epochs 1…n)", "clean ‖∇ℓ‖ (median; mean over epochs 1…n)", "noisy / clean"],
    gamma_heading: "The amplifier: γ/σ per BN layer",
    gamma_teach: "BN divides each channel by the batch's standard deviation σ and multiplies it by a learned scale γ. The paper \
        shows that in a (stochastic) gradient-descent step the progress on an outlier is multiplied by (γ/σ)², and that outliers \
        push γ up — a feedback loop. With Adam (the default optimizer) the step on each weight is normalized by the running size \
        of that weight's own gradients, so the factor enters once, not squared. The chart shows, per BN layer, the median over \
        channels of γ/σ with the batch σ (measured on a fixed batch), from epoch 0, the untrained model. Above the line γ/σ = 1, \
        BN amplifies — but γ/σ starts above 1 already at initialization (γ = 1, and with PyTorch-style initialization the σ of \
        the pre-BN activations is below 1), so what shows the feedback loop is the change from epoch 0 and the difference \
        between noise levels (compare a run with 0% and one with 20% flipped labels). The regularizer holds γ/σ down, by one of \
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
    attack_columns: ["LiRA AUC", "TPR @ 1% FPR", "offline AUC", "loss-attack AUC", "LiRA AUC, noisy only"],
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
        format!("Tras la época {}: {first} se ha aprendido de memoria {n} de sus {} {what}{}.", o.epoch, o.of, rest(&o.models, "; "))
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
        let all: Vec<String> = models.iter().map(|(m, p)| format!("el {p} de los miembros de {m}")).collect();
        format!("El atacante (LiRA) encuentra {} acusando por error solo a 1 de cada 100 ajenos.", all.join(", "))
    },
    epoch_columns: ["época", "etiqueta invertida", "OOD", "entrenamiento limpio", "prueba"],
    gradients_heading: "Influencia por muestra: normas del gradiente",
    gradients_teach: "Cuánto tira una sola muestra del modelo. Cada muestra de sondeo se une a un lote de entrenamiento de \
        batch_size−1 miembros limpios; BN usa las estadísticas de ese lote (las estadísticas acumuladas no se tocan); se toma \
        la longitud del gradiente de la pérdida de esa muestra respecto de todos los pesos, antes de entrenar (época 0) y \
        después de cada época. El artículo: con BN, las normas de las muestras ruidosas suben mucho más que las de las limpias. \
        El histograma es la última época; las curvas son las medianas por época; la tabla promedia esas medianas sobre las \
        épocas entrenadas.",
    grad_columns: [
        "‖∇ℓ‖ ruidosas (mediana; media sobre las épocas 1…n)",
        "‖∇ℓ‖ limpias (mediana; media sobre las épocas 1…n)",
        "ruidosas / limpias",
    ],
    gamma_heading: "El amplificador: γ/σ por capa BN",
    gamma_teach: "BN divide cada canal por la desviación estándar σ del lote y lo multiplica por una escala aprendida γ. El \
        artículo muestra que, en un paso de descenso por gradiente (estocástico), el avance sobre un dato atípico se multiplica \
        por (γ/σ)², y que los atípicos empujan γ hacia arriba: un ciclo de retroalimentación. Con Adam (el optimizador por \
        defecto), el paso de cada peso se normaliza por el tamaño acumulado de los gradientes de ese mismo peso, así que el \
        factor entra una vez, no al cuadrado. El gráfico muestra, por capa BN, la mediana sobre los canales de γ/σ con la σ \
        del lote (medida en un lote fijo), desde la época 0, el modelo sin entrenar. Por encima de la línea γ/σ = 1, BN \
        amplifica; pero γ/σ ya empieza por encima de 1 en la inicialización (γ = 1, y con la inicialización al estilo de \
        PyTorch la σ de las activaciones previas a BN es menor que 1), así que lo que muestra el ciclo de retroalimentación es \
        el cambio desde la época 0 y la diferencia entre niveles de ruido (compara una ejecución con 0 % y otra con 20 % de \
        etiquetas invertidas). El regularizador mantiene γ/σ bajo, con una de cuatro reglas: una penalización λ por la suma \
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
    attack_columns: ["AUC de LiRA", "TPR con FPR del 1 %", "AUC offline", "AUC del ataque por pérdida", "AUC de LiRA, solo ruidosas"],
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
        format!("Após a época {}: {first} decorou {n} dos seus {} {what}{}.", o.epoch, o.of, rest(&o.models, "; "))
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
        let all: Vec<String> = models.iter().map(|(m, p)| format!("{p} dos membros de {m}")).collect();
        format!("O atacante (LiRA) encontra {} acusando por engano só 1 em cada 100 de fora.", all.join(", "))
    },
    epoch_columns: ["época", "rótulo trocado", "OOD", "treino limpo", "teste"],
    gradients_heading: "Influência por amostra: normas do gradiente",
    gradients_teach: "O quanto uma única amostra puxa o modelo. Cada amostra de sondagem entra em um lote de treino com \
        batch_size−1 membros limpos; a BN usa as estatísticas desse lote (as estatísticas acumuladas ficam intactas); mede-se \
        o comprimento do gradiente da perda dessa amostra em relação a todos os pesos, antes do treino (época 0) e após cada \
        época. O artigo: com BN, as normas das amostras ruidosas sobem muito mais que as das limpas. O histograma é a última \
        época; as curvas são as medianas por época; a tabela faz a média dessas medianas sobre as épocas treinadas.",
    grad_columns: [
        "‖∇ℓ‖ ruidosas (mediana; média sobre as épocas 1…n)",
        "‖∇ℓ‖ limpas (mediana; média sobre as épocas 1…n)",
        "ruidosas / limpas",
    ],
    gamma_heading: "O amplificador: γ/σ por camada BN",
    gamma_teach: "A BN divide cada canal pelo desvio padrão σ do lote e o multiplica por uma escala aprendida γ. O artigo \
        mostra que, em um passo de descida do gradiente (estocástica), o avanço sobre um dado atípico é multiplicado por \
        (γ/σ)², e que os atípicos empurram γ para cima: um ciclo de realimentação. Com Adam (o otimizador padrão), o passo de \
        cada peso é normalizado pelo tamanho acumulado dos gradientes desse mesmo peso, então o fator entra uma vez, não ao \
        quadrado. O gráfico mostra, por camada BN, a mediana sobre os canais de γ/σ com o σ do lote (medido em um lote fixo), \
        desde a época 0, o modelo sem treino. Acima da linha γ/σ = 1, a BN amplifica; mas γ/σ já começa acima de 1 na \
        inicialização (γ = 1, e com a inicialização no estilo do PyTorch o σ das ativações antes da BN é menor que 1), então o \
        que mostra o ciclo de realimentação é a mudança desde a época 0 e a diferença entre níveis de ruído (compare uma \
        execução com 0% e outra com 20% de rótulos trocados). O regularizador segura γ/σ, por uma de quatro regras: uma \
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
    attack_columns: ["AUC do LiRA", "TPR com FPR de 1%", "AUC offline", "AUC do ataque por perda", "AUC do LiRA, só ruidosas"],
};
