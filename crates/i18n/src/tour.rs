//! The texts of the guided tour (its four steps, its buttons): one struct, one literal per language.
//! The element each step points at stays in the app (`views/tour.rs`).

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Tour {
    /// The header's button that opens the tour.
    pub open: &'static str,
    /// "Step 2 of 4".
    #[serde(skip)]
    pub count: fn(usize, usize) -> String,
    /// The steps, in order (as many as `spotlight_core::course::TOUR_STEPS`).
    pub steps: [Step; 4],
    pub back: &'static str,
    pub next: &'static str,
    pub finish: &'static str,
    pub close: &'static str,
}

/// One step: its title and what to do and see.
#[derive(Debug, Serialize)]
pub struct Step {
    pub title: &'static str,
    pub text: &'static str,
}

pub const EN: Tour = Tour {
    open: "Take the tour (4 steps)",
    count: |n, of| format!("Step {n} of {of}"),
    steps: [
        Step {
            title: "Flip some labels",
            text: "Set “Flipped labels” to 20%: one training image in five gets a wrong label on purpose. Nothing in such an \
                   image points to its new label, so a model can only get it “right” by memorizing that one sample.",
        },
        Step {
            title: "Watch memorization",
            text: "Press Run. The upper panel is the accuracy on the flipped samples — memorization; the lower one is \
                   learning. Does the model with BN climb faster and higher than the one without?",
        },
        Step {
            title: "Run the attack",
            text: "After training, shadow models — trained with and without each sample — let an attacker tell the members \
                   of the training set from the rest. AUC 0.5 is guessing; look at the true-positive rate at 1% false \
                   positives. Which model leaks more?",
        },
        Step {
            title: "Restrain γ/σ",
            text: "Turn on the γ/σ regularizer and run again. It holds down BN's amplifier: the flipped samples should be \
                   memorized less, and leak less, while test accuracy holds.",
        },
    ],
    back: "Back",
    next: "Next",
    finish: "Finish",
    close: "Close",
};

pub const ES: Tour = Tour {
    open: "Haz el recorrido (4 pasos)",
    count: |n, of| format!("Paso {n} de {of}"),
    steps: [
        Step {
            title: "Invierte algunas etiquetas",
            text: "Pon “Etiquetas invertidas” en 20 %: una de cada cinco imágenes de entrenamiento recibe a propósito una \
                   etiqueta equivocada. Nada en esa imagen apunta a su nueva etiqueta, así que un modelo solo puede \
                   “acertarla” memorizando esa muestra.",
        },
        Step {
            title: "Observa la memorización",
            text: "Pulsa Ejecutar. El panel de arriba es la exactitud en las muestras con etiqueta invertida — la memorización; el \
                   de abajo es el aprendizaje. ¿El modelo con BN sube más rápido y más alto que el modelo sin BN?",
        },
        Step {
            title: "Ejecuta el ataque",
            text: "Tras el entrenamiento, los modelos sombra — entrenados con y sin cada muestra — permiten a un atacante \
                   distinguir a los miembros del conjunto de entrenamiento del resto. Un AUC de 0,5 es adivinar; mira la \
                   tasa de verdaderos positivos con 1 % de falsos positivos. ¿Qué modelo filtra más?",
        },
        Step {
            title: "Frena γ/σ",
            text: "Activa el regularizador γ/σ y vuelve a ejecutar. Frena el amplificador de BN: las muestras con etiqueta invertida \
                   deberían memorizarse menos, y filtrarse menos, mientras la exactitud de prueba se mantiene.",
        },
    ],
    back: "Atrás",
    next: "Siguiente",
    finish: "Terminar",
    close: "Cerrar",
};

pub const PT: Tour = Tour {
    open: "Faça o tour (4 passos)",
    count: |n, of| format!("Passo {n} de {of}"),
    steps: [
        Step {
            title: "Troque alguns rótulos",
            text: "Coloque “Rótulos trocados” em 20%: uma em cada cinco imagens de treino recebe um rótulo errado de \
                   propósito. Nada nessa imagem aponta para o novo rótulo, então um modelo só consegue “acertá-la” \
                   memorizando essa amostra.",
        },
        Step {
            title: "Observe a memorização",
            text: "Clique em Executar. O painel de cima é a acurácia nas amostras com rótulo trocado — a memorização; o de baixo é \
                   o aprendizado. O modelo com BN sobe mais rápido e mais alto que o modelo sem BN?",
        },
        Step {
            title: "Execute o ataque",
            text: "Depois do treino, os modelos-sombra — treinados com e sem cada amostra — permitem a um atacante \
                   distinguir os membros do conjunto de treino dos demais. AUC 0,5 é chute; veja a taxa de verdadeiros \
                   positivos com 1% de falsos positivos. Qual modelo vaza mais?",
        },
        Step {
            title: "Contenha γ/σ",
            text: "Ative o regularizador γ/σ e execute de novo. Ele segura o amplificador da BN: as amostras com rótulo trocado devem \
                   ser menos memorizadas, e vazar menos, enquanto a acurácia de teste se mantém.",
        },
    ],
    back: "Voltar",
    next: "Próximo",
    finish: "Concluir",
    close: "Fechar",
};

#[cfg(test)]
mod tests {
    #[test]
    fn one_text_per_step_of_the_course() {
        for lang in crate::Lang::ALL {
            assert_eq!(lang.texts().tour.steps.len(), spotlight_core::course::TOUR_STEPS);
        }
        assert_eq!((super::EN.count)(2, 4), "Step 2 of 4");
    }
}
