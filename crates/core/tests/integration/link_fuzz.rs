//! Random and mutated query strings through the share-link parser: it never panics, always yields
//! a valid config, and round-trips what it produced. `SPOTLIGHT_FUZZ_CASES` sets the count
//! (default 5,000 in CI; `SPOTLIGHT_FUZZ_CASES=100000 cargo test --release --test link_fuzz` for
//! the full run).

use spotlight_core::Config;
use spotlight_core::config::FIELDS;
use spotlight_core::data::Rng;
use spotlight_core::link;

/// Every field of the table, the link's own keys, and two that are no key.
fn keys() -> Vec<&'static str> {
    FIELDS.iter().map(|f| f.name).chain(link::LINK_KEYS).chain(["unknown", ""]).collect()
}
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "0.5",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "true",
    "false",
    "mnist",
    "fashion",
    "adam",
    "sgd",
    "shuffle",
    "other",
    "18446744073709551615",
    "18446744073709551616",
    "1e-320",
    "0x10",
    "",
    " ",
    "%",
    "%zz",
    "%00",
    "<script>alert(1)</script>",
    "\"",
    "'",
    "\u{1F600}",
    "+",
    "==",
    "&",
    "99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999",
];
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz_0123456789.-+=&%e?#;/ \"'<>";

fn random_query(rng: &mut Rng) -> String {
    let mut q = String::new();
    match rng.index(3) {
        0 => {
            // Structured: known keys with nasty values.
            let keys = keys();
            for _ in 0..rng.index(12) {
                q.push_str(keys[rng.index(keys.len())]);
                q.push('=');
                q.push_str(VALUES[rng.index(VALUES.len())]);
                q.push('&');
            }
        }
        1 => {
            // Bytes from a URL-ish alphabet.
            for _ in 0..rng.index(120) {
                q.push(ALPHABET[rng.index(ALPHABET.len())] as char);
            }
        }
        _ => {
            // A valid link, mutated.
            let c = Config { seed: rng.next_u64(), ..Config::default() };
            let mut bytes = link::to_query(&c).into_bytes();
            for _ in 0..1 + rng.index(4) {
                let i = rng.index(bytes.len());
                bytes[i] = ALPHABET[rng.index(ALPHABET.len())];
            }
            q = String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    q
}

#[test]
fn the_link_parser_never_panics_and_always_gives_a_valid_config() {
    let cases: usize =
        std::env::var("SPOTLIGHT_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(5000);
    let mut rng = Rng::new(0x5eed);
    for i in 0..cases {
        let q = random_query(&mut rng);
        let parsed = link::parse(&q);
        assert!(
            parsed.config.validate().is_ok(),
            "case {i}: {q:?} gave an invalid config {:?}",
            parsed.config
        );
        let again = link::parse(&link::to_query(&parsed.config));
        assert!(again.notices.is_empty(), "case {i}: {q:?}: re-reading gave {:?}", again.notices);
        assert_eq!(again.config, parsed.config, "case {i}: {q:?}");
        for n in &parsed.notices {
            let _ = n.to_string();
        }
    }
    eprintln!("{cases} random links parsed");
}
