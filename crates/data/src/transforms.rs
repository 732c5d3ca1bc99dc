//! The paper's data transforms, pure and seeded: symmetric label flipping, out-of-distribution
//! (OOD) injection, and member / non-member splits for membership attacks.

use serde::{Deserialize, Serialize};

use crate::Rng;

/// What a training sample is, after corruption.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SampleKind {
    /// Image and label as in the dataset.
    Clean,
    /// Label replaced by a different class: fitting it can only be memorization.
    Flipped,
    /// Image replaced by an out-of-distribution one, with a random label.
    Ood,
    /// A drawing a student planted, with the label they chose (never made by the transforms here).
    Canary,
}

impl SampleKind {
    /// Whether only memorization can fit it: a flipped label or an OOD image (the canary is
    /// followed on its own).
    pub fn is_noisy(self) -> bool {
        matches!(self, Self::Flipped | Self::Ood)
    }
}

/// The number of items a fraction of `n` means: `round(fraction · n)`, clamped to `0..=n`.
pub fn count_for(fraction: f64, n: usize) -> usize {
    if !fraction.is_finite() || fraction <= 0.0 {
        return 0;
    }
    ((fraction * n as f64).round() as usize).min(n)
}

/// A different class than `label`, uniform over the other `classes - 1`.
pub fn other_class(label: u8, classes: u8, rng: &mut Rng) -> u8 {
    assert!(classes >= 2, "flipping needs at least two classes");
    let shift = 1 + rng.below(u64::from(classes) - 1) as u8;
    ((u16::from(label) + u16::from(shift)) % u16::from(classes)) as u8
}

/// Symmetric label flipping: exactly `count` of the `eligible` indices get a different class,
/// chosen uniformly. Returns the flipped indices, sorted.
pub fn flip_labels_among(
    labels: &mut [u8],
    eligible: &[usize],
    count: usize,
    classes: u8,
    rng: &mut Rng,
) -> Vec<usize> {
    let count = count.min(eligible.len());
    let mut chosen: Vec<usize> =
        rng.sample_indices(eligible.len(), count).into_iter().map(|i| eligible[i]).collect();
    chosen.sort_unstable();
    for &i in &chosen {
        labels[i] = other_class(labels[i], classes, rng);
    }
    chosen
}

/// Labels after flipping, and which were flipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flipped {
    pub labels: Vec<u8>,
    /// Sorted indices of the flipped labels.
    pub flipped: Vec<usize>,
}

/// Symmetric label flipping at a fraction: exactly `round(fraction · n)` labels change, each to a
/// different class chosen uniformly. Same seed → same result.
pub fn flip_labels(labels: &[u8], fraction: f64, classes: u8, seed: u64) -> Flipped {
    let mut rng = Rng::derive(seed, "flip");
    let mut out = labels.to_vec();
    let all: Vec<usize> = (0..labels.len()).collect();
    let flipped =
        flip_labels_among(&mut out, &all, count_for(fraction, labels.len()), classes, &mut rng);
    Flipped { labels: out, flipped }
}

/// Where OOD images come from.
#[derive(Debug, Clone, Copy)]
pub enum OodSource<'a> {
    /// The sample's own pixels in a random order: its intensity histogram stays, its shape is gone.
    PixelShuffle,
    /// Images from another dataset of the same size (e.g. Fashion-MNIST in an MNIST run),
    /// `pixels` bytes each.
    Pool(&'a [u8]),
}

/// Replaces the images at `chosen` by OOD images, each with a uniformly random label.
pub fn inject_ood_at(
    images: &mut [u8],
    labels: &mut [u8],
    pixels: usize,
    chosen: &[usize],
    classes: u8,
    source: OodSource<'_>,
    rng: &mut Rng,
) {
    let pool_len = match source {
        OodSource::Pool(pool) => pool.len() / pixels,
        OodSource::PixelShuffle => 0,
    };
    // Distinct pool images while the pool is large enough.
    let picks = if pool_len >= chosen.len() {
        rng.sample_indices(pool_len, chosen.len())
    } else {
        Vec::new()
    };
    for (k, &i) in chosen.iter().enumerate() {
        let img = &mut images[i * pixels..(i + 1) * pixels];
        match source {
            OodSource::PixelShuffle => rng.shuffle(img),
            OodSource::Pool(pool) => {
                assert!(pool_len > 0, "empty OOD pool");
                let j = if picks.is_empty() { rng.index(pool_len) } else { picks[k] };
                img.copy_from_slice(&pool[j * pixels..(j + 1) * pixels]);
            }
        }
        labels[i] = rng.below(u64::from(classes)) as u8;
    }
}

/// A training set after corruption.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Corrupted {
    pub images: Vec<u8>,
    /// The labels the model is trained on.
    pub labels: Vec<u8>,
    /// The dataset's labels (for OOD samples: the label of the image that was replaced).
    pub true_labels: Vec<u8>,
    pub kinds: Vec<SampleKind>,
}

impl Corrupted {
    /// Indices of the samples of one kind.
    pub fn indices_of(&self, kind: SampleKind) -> Vec<usize> {
        self.kinds.iter().enumerate().filter(|(_, k)| **k == kind).map(|(i, _)| i).collect()
    }
}

/// Corrupts a training set the paper's way: first `round(ood_fraction · n)` samples become OOD
/// (random label), then `round(label_noise · n)` of the remaining ones get a flipped label. The
/// two groups are disjoint. Same seed → same result.
pub fn corrupt(
    images: &[u8],
    labels: &[u8],
    pixels: usize,
    classes: u8,
    label_noise: f64,
    ood_fraction: f64,
    ood_source: OodSource<'_>,
    seed: u64,
) -> Corrupted {
    corrupt_stratified(
        images,
        labels,
        pixels,
        classes,
        label_noise,
        ood_fraction,
        ood_source,
        &vec![0; labels.len()],
        seed,
    )
}

/// [`corrupt`] within each stratum separately: stratum `s` (the samples `i` with
/// `strata[i] == s`, e.g. members and non-members) gets exactly `round(ood_fraction · n_s)` OOD
/// samples and `round(label_noise · n_s)` flipped ones, so "5 % of the training set" is exactly
/// true of the members. Same seed and strata → same result.
#[allow(clippy::too_many_arguments)]
pub fn corrupt_stratified(
    images: &[u8],
    labels: &[u8],
    pixels: usize,
    classes: u8,
    label_noise: f64,
    ood_fraction: f64,
    ood_source: OodSource<'_>,
    strata: &[u8],
    seed: u64,
) -> Corrupted {
    let n = labels.len();
    assert_eq!(images.len(), n * pixels, "images and labels disagree");
    assert_eq!(strata.len(), n, "one stratum per sample");
    let mut out = Corrupted {
        images: images.to_vec(),
        labels: labels.to_vec(),
        true_labels: labels.to_vec(),
        kinds: vec![SampleKind::Clean; n],
    };
    let mut ids: Vec<u8> = strata.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let mut ood_rng = Rng::derive(seed, "ood");
    let mut flip_rng = Rng::derive(seed, "flip");
    for s in ids {
        let members: Vec<usize> = (0..n).filter(|&i| strata[i] == s).collect();
        let m = members.len();
        let mut ood: Vec<usize> = ood_rng
            .sample_indices(m, count_for(ood_fraction, m))
            .into_iter()
            .map(|j| members[j])
            .collect();
        ood.sort_unstable();
        inject_ood_at(
            &mut out.images,
            &mut out.labels,
            pixels,
            &ood,
            classes,
            ood_source,
            &mut ood_rng,
        );
        for &i in &ood {
            out.kinds[i] = SampleKind::Ood;
        }
        let eligible: Vec<usize> =
            members.iter().copied().filter(|&i| out.kinds[i] == SampleKind::Clean).collect();
        let flipped = flip_labels_among(
            &mut out.labels,
            &eligible,
            count_for(label_noise, m),
            classes,
            &mut flip_rng,
        );
        for &i in &flipped {
            out.kinds[i] = SampleKind::Flipped;
        }
    }
    out
}

/// A member / non-member split of `n` candidates: `round(member_fraction · n)` members chosen at
/// random. Returns one flag per candidate (true = member).
pub fn member_split(n: usize, member_fraction: f64, seed: u64) -> Vec<bool> {
    let mut rng = Rng::derive(seed, "members");
    let mut is_member = vec![false; n];
    for i in rng.sample_indices(n, count_for(member_fraction, n)) {
        is_member[i] = true;
    }
    is_member
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i % 10) as u8).collect()
    }

    #[test]
    fn flipping_at_five_percent_flips_exactly_round_pn_to_other_classes() {
        for n in [1000usize, 999, 2000, 37] {
            let l = labels(n);
            let f = flip_labels(&l, 0.05, 10, 1);
            let expect = (0.05 * n as f64).round() as usize;
            assert_eq!(f.flipped.len(), expect, "n = {n}");
            let changed: Vec<usize> = (0..n).filter(|&i| f.labels[i] != l[i]).collect();
            assert_eq!(changed, f.flipped, "every flipped label changed, nothing else did");
            assert!(f.labels.iter().all(|&x| x < 10));
        }
    }

    #[test]
    fn flipping_is_deterministic_by_seed() {
        let l = labels(5000);
        assert_eq!(flip_labels(&l, 0.05, 10, 7), flip_labels(&l, 0.05, 10, 7));
        assert_ne!(flip_labels(&l, 0.05, 10, 7).flipped, flip_labels(&l, 0.05, 10, 8).flipped);
    }

    #[test]
    fn flipped_labels_are_uniform_over_the_other_classes() {
        let l = vec![3u8; 90_000];
        let f = flip_labels(&l, 1.0, 10, 2);
        let mut counts = [0usize; 10];
        for &x in &f.labels {
            counts[x as usize] += 1;
        }
        assert_eq!(counts[3], 0);
        for (c, &k) in counts.iter().enumerate() {
            if c != 3 {
                assert!((9_500..10_500).contains(&k), "class {c}: {k}");
            }
        }
    }

    #[test]
    fn edge_fractions() {
        let l = labels(10);
        assert!(flip_labels(&l, 0.0, 10, 1).flipped.is_empty());
        assert_eq!(flip_labels(&l, 1.0, 10, 1).flipped.len(), 10);
        assert!(flip_labels(&l, f64::NAN, 10, 1).flipped.is_empty());
        assert_eq!(count_for(2.0, 10), 10);
    }

    #[test]
    fn corrupt_makes_disjoint_groups_of_the_right_sizes() {
        let n = 1000;
        let px = 4;
        let images: Vec<u8> = (0..n * px).map(|i| (i % 251) as u8).collect();
        let l = labels(n);
        let c = corrupt(&images, &l, px, 10, 0.2, 0.05, OodSource::PixelShuffle, 3);
        assert_eq!(c.indices_of(SampleKind::Ood).len(), 50);
        assert_eq!(c.indices_of(SampleKind::Flipped).len(), 200);
        assert_eq!(c.indices_of(SampleKind::Clean).len(), 750);
        for i in c.indices_of(SampleKind::Flipped) {
            assert_ne!(c.labels[i], c.true_labels[i]);
            assert_eq!(&c.images[i * px..(i + 1) * px], &images[i * px..(i + 1) * px]);
        }
        for i in c.indices_of(SampleKind::Clean) {
            assert_eq!(c.labels[i], l[i]);
        }
        // Pixel shuffling keeps the histogram.
        for i in c.indices_of(SampleKind::Ood) {
            let mut a = c.images[i * px..(i + 1) * px].to_vec();
            let mut b = images[i * px..(i + 1) * px].to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
        assert_eq!(c, corrupt(&images, &l, px, 10, 0.2, 0.05, OodSource::PixelShuffle, 3));
    }

    #[test]
    fn stratified_corruption_is_exact_in_each_stratum() {
        let n = 1000;
        let px = 4;
        let images: Vec<u8> = (0..n * px).map(|i| (i % 251) as u8).collect();
        let l = labels(n);
        // Strata of 700 and 300: 5 % flips and 2 % OOD must be exact in each.
        let strata: Vec<u8> = (0..n).map(|i| u8::from(i % 10 < 3)).collect();
        let c = corrupt_stratified(
            &images,
            &l,
            px,
            10,
            0.05,
            0.02,
            OodSource::PixelShuffle,
            &strata,
            5,
        );
        for (s, size) in [(0u8, 700usize), (1, 300)] {
            let count = |kind| (0..n).filter(|&i| strata[i] == s && c.kinds[i] == kind).count();
            assert_eq!(
                count(SampleKind::Flipped),
                (0.05 * size as f64).round() as usize,
                "stratum {s}"
            );
            assert_eq!(
                count(SampleKind::Ood),
                (0.02 * size as f64).round() as usize,
                "stratum {s}"
            );
        }
        assert_eq!(
            c,
            corrupt_stratified(
                &images,
                &l,
                px,
                10,
                0.05,
                0.02,
                OodSource::PixelShuffle,
                &strata,
                5
            )
        );
    }

    #[test]
    fn ood_from_a_pool_copies_pool_images() {
        let px = 2;
        let images = vec![0u8; 10 * px];
        let pool: Vec<u8> = (1..=40).collect(); // 20 pool images
        let c = corrupt(&images, &labels(10), px, 10, 0.0, 0.5, OodSource::Pool(&pool), 9);
        let ood = c.indices_of(SampleKind::Ood);
        assert_eq!(ood.len(), 5);
        let mut seen = Vec::new();
        for i in ood {
            let img = &c.images[i * px..(i + 1) * px];
            assert!(pool.chunks(px).any(|p| p == img));
            seen.push(img.to_vec());
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 5, "distinct pool images");
    }

    #[test]
    fn member_split_has_the_right_size_and_is_seeded() {
        let m = member_split(1001, 0.5, 4);
        assert_eq!(m.iter().filter(|&&x| x).count(), 501);
        assert_eq!(m, member_split(1001, 0.5, 4));
        assert_ne!(m, member_split(1001, 0.5, 5));
    }
}
