//! The page's frame: its title, the lede under the heading and the footer.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Page {
    /// The browser tab's title.
    pub title: &'static str,
    /// The page's question, in one sentence, above everything else.
    pub question: &'static str,
    pub lede: &'static str,
    pub footer: &'static str,
}

pub const EN: Page = Page {
    title: "Spotlight — BatchNorm, memorization and privacy",
    question: "Does BatchNorm make a network memorize — and leak — the odd ones out?",
    lede: "Watch Batch Normalization make a neural network memorize outliers — and leak them to a membership-inference \
           attacker. Two LeNet-5s, one with BN and one without, train side by side on the same data and seed, in your browser.",
    footer: "After Doan, Gu & Alouani (2026), \"Batch Normalization Amplifies Memorization and Privacy Risks\". Runs entirely \
             in this page; no data leaves it.",
};

pub const ES: Page = Page {
    title: "Spotlight — BatchNorm, memorización y privacidad",
    question: "¿Hace BatchNorm que una red memorice — y filtre — los datos raros?",
    lede: "Mira cómo la normalización por lotes (Batch Normalization, BN) hace que una red neuronal memorice datos atípicos — y \
           los filtre a un atacante de inferencia de pertenencia. Dos LeNet-5, una con BN y otra sin ella, se entrenan lado a \
           lado con los mismos datos y la misma semilla, en tu navegador.",
    footer: "Según Doan, Gu y Alouani (2026), \"Batch Normalization Amplifies Memorization and Privacy Risks\". Todo se \
             ejecuta en esta página; ningún dato sale de ella.",
};

pub const PT: Page = Page {
    title: "Spotlight — BatchNorm, memorização e privacidade",
    question: "A BatchNorm faz uma rede memorizar — e vazar — os dados fora do comum?",
    lede: "Veja a normalização em lote (Batch Normalization, BN) fazer uma rede neural memorizar dados atípicos — e vazá-los \
           para um atacante de inferência de pertencimento. Duas LeNet-5, uma com BN e outra sem, treinam lado a lado com os \
           mesmos dados e a mesma semente, no seu navegador.",
    footer: "Segundo Doan, Gu e Alouani (2026), \"Batch Normalization Amplifies Memorization and Privacy Risks\". Tudo roda \
             nesta página; nenhum dado sai dela.",
};
