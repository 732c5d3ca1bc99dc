//! From a [`Config`] and a dataset to the experiment's data: the sample pool (members and, for
//! the attack, non-members), corrupted the paper's way, and the test set — on the host, then on a
//! device.

use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::config::{Config, ConfigError, ConfigProblem, OodSourceName};
use crate::data::transforms::{self, Corrupted, OodSource, SampleKind};
use crate::data::{Dataset, Rng};

/// An experiment's data on the host. Serializable, so that a host can hand it to a worker (the
/// app's Web Workers get it instead of the whole dataset).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExperimentData {
    pub classes: u8,
    pub rows: usize,
    pub cols: usize,
    /// The candidate pool, corrupted. With the attack on it holds `2 · train_size` samples
    /// (members and non-members), else `train_size`.
    pub pool: Corrupted,
    /// For each pool sample, its index in the dataset's train split.
    pub source_index: Vec<usize>,
    /// Which pool samples the target models train on.
    pub is_member: Vec<bool>,
    /// The pool index of the planted canary (a member), when the config has one.
    #[serde(default)]
    pub canary: Option<usize>,
    pub test_images: Vec<u8>,
    pub test_labels: Vec<u8>,
    /// Pixel normalization: (x/255 − mean) / std, from the dataset's clean train split.
    pub mean: f32,
    pub std: f32,
}

/// Why an experiment's data cannot be built. Its words are `spotlight-i18n`'s
/// (`say::data::build_error`, by variant: the page in its language, the CLI in English).
#[derive(Debug, Clone, PartialEq)]
pub enum BuildError {
    /// The config does not validate (a canary that is not a drawing is one too).
    Config(ConfigError),
    /// The pool (`pool` samples; `attack`: members and non-members) does not fit in the `train`
    /// training images of the dataset `dataset`.
    PoolTooLarge { pool: usize, attack: bool, train: usize, dataset: String },
    /// OOD images from the other dataset, which is not loaded.
    NoOtherDataset,
    /// The other dataset's images are of another size.
    OtherSize,
    /// The canary is `drawing` pixels, the dataset's images `image`.
    CanarySize { drawing: usize, image: usize },
    /// No clean member for the canary to replace.
    NoCleanMember,
}

/// The variant and its values, not a sentence (`NoCleanMember`, `Config(ConfigError { field:
/// "epochs", .. })`): for the callers whose errors are text (a job's, a benchmark's), which reach
/// a person only when something is broken.
impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for BuildError {}

/// For the callers whose errors are text (`jobs::run_job`'s).
impl From<BuildError> for String {
    fn from(e: BuildError) -> Self {
        e.to_string()
    }
}

impl ExperimentData {
    /// Builds the data of an experiment. `other` is the other dataset, needed when OOD images come
    /// from it. Same config → same data on every platform.
    pub fn build(
        config: &Config,
        dataset: &Dataset,
        other: Option<&Dataset>,
    ) -> Result<Self, BuildError> {
        config.validate().map_err(BuildError::Config)?;
        let px = dataset.pixels();
        let attack = config.shadow_models > 0;
        let pool_size = if attack { 2 * config.train_size } else { config.train_size };
        if pool_size > dataset.train.len() {
            return Err(BuildError::PoolTooLarge {
                pool: pool_size,
                attack,
                train: dataset.train.len(),
                dataset: dataset.name.clone(),
            });
        }
        let test_size = config.test_size.min(dataset.test.len());
        let mut rng = Rng::derive(config.seed, "subset");
        let source_index = rng.sample_indices(dataset.train.len(), pool_size);
        let mut images = Vec::with_capacity(pool_size * px);
        let mut labels = Vec::with_capacity(pool_size);
        for &i in &source_index {
            images.extend_from_slice(dataset.image(&dataset.train, i));
            labels.push(dataset.train.labels[i]);
        }
        let test_pick =
            Rng::derive(config.seed, "test").sample_indices(dataset.test.len(), test_size);
        let mut test_images = Vec::with_capacity(test_size * px);
        let mut test_labels = Vec::with_capacity(test_size);
        for &i in &test_pick {
            test_images.extend_from_slice(dataset.image(&dataset.test, i));
            test_labels.push(dataset.test.labels[i]);
        }
        let source = match config.ood_source {
            OodSourceName::Shuffle => OodSource::PixelShuffle,
            OodSourceName::Other => {
                let other = other.ok_or(BuildError::NoOtherDataset)?;
                if other.pixels() != px {
                    return Err(BuildError::OtherSize);
                }
                OodSource::Pool(&other.train.images)
            }
        };
        // Members first, then the corruption within members and within non-members, so that
        // "5 % flipped" is exactly true of the training set.
        let is_member = if attack {
            transforms::member_split(pool_size, 0.5, config.seed)
        } else {
            vec![true; pool_size]
        };
        let strata: Vec<u8> = is_member.iter().map(|&m| u8::from(m)).collect();
        let mut pool = transforms::corrupt_stratified(
            &images,
            &labels,
            px,
            dataset.classes,
            config.label_noise,
            config.ood_fraction,
            source,
            &strata,
            config.seed,
        );
        let canary = plant_canary(config, &mut pool, &is_member, px)?;
        let (mean, std) = pixel_stats(&dataset.train.images);
        Ok(Self {
            classes: dataset.classes,
            rows: dataset.rows,
            cols: dataset.cols,
            pool,
            source_index,
            is_member,
            canary,
            test_images,
            test_labels,
            mean,
            std,
        })
    }

    /// Indices of the member samples (the target's training set).
    pub fn members(&self) -> Vec<usize> {
        (0..self.pool.labels.len()).filter(|&i| self.is_member[i]).collect()
    }

    /// The kind of pool sample `i`.
    pub fn kind(&self, i: usize) -> SampleKind {
        self.pool.kinds[i]
    }

    /// Normalized float pixels of u8 images.
    pub fn normalize(&self, images: &[u8]) -> Vec<f32> {
        images.iter().map(|&p| (f32::from(p) / 255.0 - self.mean) / self.std).collect()
    }
}

/// Puts the config's canary in place of one clean member, drawn from the seed: its image, the label
/// it was given (also as its "true" label: a drawing has no other), its kind. Its index, if any.
fn plant_canary(
    config: &Config,
    pool: &mut Corrupted,
    is_member: &[bool],
    px: usize,
) -> Result<Option<usize>, BuildError> {
    if config.canary.is_empty() {
        return Ok(None);
    }
    let pixels = crate::canary::decode(&config.canary).map_err(|why| {
        BuildError::Config(ConfigError {
            field: "canary".into(),
            problem: ConfigProblem::NotDrawing(why),
        })
    })?;
    if pixels.len() != px {
        return Err(BuildError::CanarySize { drawing: pixels.len(), image: px });
    }
    let clean: Vec<usize> = (0..pool.labels.len())
        .filter(|&i| is_member[i] && pool.kinds[i] == SampleKind::Clean)
        .collect();
    let Some(&i) = clean.get(Rng::derive(config.seed, "canary").index(clean.len().max(1))) else {
        return Err(BuildError::NoCleanMember);
    };
    pool.images[i * px..(i + 1) * px].copy_from_slice(&crate::canary::to_image(&pixels));
    pool.labels[i] = config.canary_label;
    pool.true_labels[i] = config.canary_label;
    pool.kinds[i] = SampleKind::Canary;
    Ok(Some(i))
}

/// The mean and standard deviation of all pixels (in 0…1), from exact integer sums of the pixels
/// and of their squares: one pass that vectorizes over the whole training set (47 M pixels for
/// MNIST), which runs on the page's thread before a run. Over MNIST and Fashion-MNIST it gives
/// the same `f32`s as summing the floats pixel by pixel.
fn pixel_stats(images: &[u8]) -> (f32, f32) {
    let (mut sum, mut squares) = (0u64, 0u64);
    // 4096 · 255² < 2³²: a chunk's sums fit in u32.
    for chunk in images.chunks(4096) {
        let (s, q) = chunk
            .iter()
            .fold((0u32, 0u32), |(s, q), &p| (s + u32::from(p), q + u32::from(p) * u32::from(p)));
        sum += u64::from(s);
        squares += u64::from(q);
    }
    let n = images.len().max(1) as u128;
    let mean = sum as f64 / 255.0 / n as f64;
    // n² · variance · 255², exactly.
    let spread = n * u128::from(squares) - u128::from(sum) * u128::from(sum);
    let var = spread as f64 / (255.0 * 255.0) / (n * n) as f64;
    (mean as f32, var.sqrt().max(1e-6) as f32)
}

/// An experiment's data on a device (without autodiff): normalized images and given labels of the
/// pool, and the test set. Built once and shared by every model trained on the same device.
#[derive(Clone, Debug)]
pub struct DeviceData {
    pub images: Tensor<4>,
    pub labels: Tensor<1, Int>,
    pub test_images: Tensor<4>,
    pub test_labels: Tensor<1, Int>,
    pub device: Device,
}

impl DeviceData {
    /// Uploads the data to `device` (its non-autodiff form).
    pub fn new(data: &ExperimentData, device: &Device) -> Self {
        let device = device.clone().inner();
        let (r, c) = (data.rows, data.cols);
        let n = data.pool.labels.len();
        let nt = data.test_labels.len();
        let ints = |l: &[u8]| l.iter().map(|&x| i64::from(x)).collect::<Vec<i64>>();
        Self {
            images: Tensor::from_data(
                TensorData::new(data.normalize(&data.pool.images), [n, 1, r, c]),
                &device,
            ),
            labels: Tensor::from_data(TensorData::new(ints(&data.pool.labels), [n]), &device),
            test_images: Tensor::from_data(
                TensorData::new(data.normalize(&data.test_images), [nt, 1, r, c]),
                &device,
            ),
            test_labels: Tensor::from_data(TensorData::new(ints(&data.test_labels), [nt]), &device),
            device,
        }
    }

    /// Pool images at the given indices.
    pub fn pool_images(&self, idx: &[usize]) -> Tensor<4> {
        self.images.clone().select(0, index_tensor(idx, &self.device))
    }

    /// Pool labels at the given indices.
    pub fn pool_labels(&self, idx: &[usize]) -> Tensor<1, Int> {
        self.labels.clone().select(0, index_tensor(idx, &self.device))
    }
}

/// An index tensor for `select`.
pub fn index_tensor(idx: &[usize], device: &Device) -> Tensor<1, Int> {
    let v: Vec<i64> = idx.iter().map(|&i| i as i64).collect();
    Tensor::from_data(TensorData::new(v, [idx.len()]), device)
}

#[cfg(test)]
mod tests {
    use super::pixel_stats;

    #[test]
    fn pixel_stats_count_each_pixel() {
        assert_eq!(pixel_stats(&[0, 255]), (0.5, 0.5));
        assert_eq!(pixel_stats(&[51; 10]), (0.2, 1e-6));
        // Against the definition, pixel by pixel, on bytes of every value.
        let px: Vec<u8> =
            (0..10_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
        let n = px.len() as f64;
        let mean = px.iter().map(|&p| f64::from(p) / 255.0).sum::<f64>() / n;
        let std =
            (px.iter().map(|&p| (f64::from(p) / 255.0 - mean).powi(2)).sum::<f64>() / n).sqrt();
        let (m, s) = pixel_stats(&px);
        assert!(
            (f64::from(m) - mean).abs() < 1e-6 && (f64::from(s) - std).abs() < 1e-6,
            "{m} {s} vs {mean} {std}"
        );
    }
}
