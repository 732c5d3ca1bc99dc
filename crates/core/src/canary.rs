//! The canary: a drawing a student plants among the training samples with a label of their choice,
//! to see whether the models memorize it and whether the attacker can tell it was there.
//!
//! It travels in the [`Config`](crate::Config) (and so in the share link) as text: a 28×28 one-bit
//! image, row by row, eight pixels to a byte (the first pixel in the highest bit), the 98 bytes in
//! base64url without padding — 131 characters of `A–Z a–z 0–9 - _`. [`ExperimentData`] plants it
//! in place of one clean member, as a candidate of the attack like any other pool sample (every
//! candidate is IN for half of the shadow models).
//!
//! [`ExperimentData`]: crate::experiment_data::ExperimentData

use std::fmt;

/// The drawing's side, in pixels (MNIST's and Fashion-MNIST's).
pub const SIDE: usize = 28;
/// Its bytes: one bit per pixel.
pub const BYTES: usize = SIDE * SIDE / 8;
/// Its length as text.
pub const TEXT_LEN: usize = (BYTES * 8).div_ceil(6);

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The drawing's pixels (`SIDE`², row-major, `true` = ink) as link text.
pub fn encode(pixels: &[bool]) -> String {
    assert_eq!(pixels.len(), SIDE * SIDE, "a canary is {SIDE}×{SIDE} pixels");
    let bytes: Vec<u8> =
        pixels.chunks(8).map(|c| c.iter().fold(0u8, |b, &p| (b << 1) | u8::from(p))).collect();
    let mut out = String::with_capacity(TEXT_LEN);
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().enumerate().fold(0u32, |n, (k, &b)| n | (u32::from(b) << (16 - 8 * k)));
        for k in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize]));
        }
    }
    out
}

/// Why a text is not a drawing. The page and the CLI write it with `spotlight-i18n`'s words
/// (`say::notice::canary_error`, by variant), the only place its sentences are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CanaryError {
    /// Not [`TEXT_LEN`] characters long: its length (in bytes).
    Length { len: usize },
    /// A character outside `A–Z a–z 0–9 - _`.
    Character(char),
    /// Its last character sets bits beyond the 784 pixels.
    Spill,
    /// Not one pixel drawn.
    Empty,
}

/// The variant and its values, not a sentence (see the type's docs).
impl fmt::Display for CanaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl std::error::Error for CanaryError {}

/// The pixels of a canary given as text; an error says what is wrong (length, a character, an
/// empty drawing).
pub fn decode(text: &str) -> Result<Vec<bool>, CanaryError> {
    if text.len() != TEXT_LEN {
        return Err(CanaryError::Length { len: text.len() });
    }
    let mut bits = Vec::with_capacity(TEXT_LEN * 6);
    for c in text.bytes() {
        let v =
            ALPHABET.iter().position(|&a| a == c).ok_or(CanaryError::Character(char::from(c)))?;
        bits.extend((0..6).rev().map(|k| (v >> k) & 1 == 1));
    }
    // 131 characters carry 786 bits: the last two must be zero, as `encode` writes them.
    if bits[SIDE * SIDE..].iter().any(|&b| b) {
        return Err(CanaryError::Spill);
    }
    bits.truncate(SIDE * SIDE);
    if !bits.iter().any(|&b| b) {
        return Err(CanaryError::Empty);
    }
    Ok(bits)
}

/// The canary as image bytes (0 or 255 per pixel, the datasets' range).
pub fn to_image(pixels: &[bool]) -> Vec<u8> {
    pixels.iter().map(|&p| if p { 255 } else { 0 }).collect()
}

/// The attacker's confidence that a candidate was a member, from its LiRA (online) score — the log
/// of the ratio of its likelihoods under the IN and the OUT Gaussians: with even odds beforehand,
/// P(member | score) = 1 / (1 + e^−score).
pub fn member_confidence(lira_score: f64) -> f64 {
    1.0 / (1.0 + (-lira_score).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawing() -> Vec<bool> {
        // A diagonal stroke and a box: asymmetric, so that a transposition or a bit-order slip shows.
        (0..SIDE * SIDE)
            .map(|i| {
                (i / SIDE == i % SIDE && i % SIDE > 3)
                    || (i / SIDE == 5 && (10..20).contains(&(i % SIDE)))
            })
            .collect()
    }

    #[test]
    fn a_drawing_round_trips_through_its_text() {
        let d = drawing();
        let t = encode(&d);
        assert_eq!(t.len(), TEXT_LEN);
        assert_eq!(TEXT_LEN, 131);
        assert!(t.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'), "{t}");
        assert_eq!(decode(&t).unwrap(), d);
        // The first row's first pixels are blank, the sixth row holds the stroke.
        assert!(!d[0] && d[5 * SIDE + 10]);
        let mut one = vec![false; SIDE * SIDE];
        one[0] = true;
        assert!(encode(&one).starts_with('g'), "the first pixel is the highest bit: 100000 = 'g'");
        assert_eq!(decode(&encode(&one)).unwrap(), one);
    }

    #[test]
    fn bad_text_is_refused_with_the_reason() {
        let t = encode(&drawing());
        assert_eq!(decode(&t[1..]), Err(CanaryError::Length { len: TEXT_LEN - 1 }));
        assert_eq!(decode(&format!("{t}A")), Err(CanaryError::Length { len: TEXT_LEN + 1 }));
        let bad = format!("{}+", &t[..TEXT_LEN - 1]);
        assert_eq!(decode(&bad), Err(CanaryError::Character('+')));
        let spill = format!("{}B", &t[..TEXT_LEN - 1]);
        assert_eq!(decode(&spill), Err(CanaryError::Spill));
        assert_eq!(decode(&"A".repeat(TEXT_LEN)), Err(CanaryError::Empty));
        assert!(decode("<script>").is_err());
    }

    #[test]
    fn confidence_is_even_at_a_zero_score_and_grows_with_it() {
        assert_eq!(member_confidence(0.0), 0.5);
        assert!(member_confidence(3.0) > 0.95 && member_confidence(-3.0) < 0.05);
        assert!(member_confidence(1.0) > member_confidence(0.5));
    }

    #[test]
    fn the_image_is_ink_on_black_in_the_datasets_range() {
        let img = to_image(&drawing());
        assert_eq!(img.len(), SIDE * SIDE);
        assert!(img.iter().all(|&p| p == 0 || p == 255));
    }
}
