//! Spotlight's web app. This first version is a placeholder that proves the pipeline — the core
//! compiled to wasm32, served by trunk with the datasets — and shows the experiment's defaults.

use leptos::prelude::*;
use spotlight_core::Config;

#[component]
fn App() -> impl IntoView {
    let config = Config::default();
    view! {
        <main>
            <h1>"Spotlight"</h1>
            <p>
                "Watch Batch Normalization make a neural network memorize outliers — and leak them to a "
                "membership-inference attacker. The interactive experiment is under construction; the "
                "core that will run it is already in this page."
            </p>
            <h2>"Default experiment"</h2>
            <pre id="default-config">{config.to_json()}</pre>
        </main>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
