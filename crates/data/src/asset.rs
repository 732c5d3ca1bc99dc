//! The compact dataset asset that the app serves and the CLI reads: one gzip'd file per dataset.
//!
//! Layout of the uncompressed bytes (all integers little-endian):
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `SPOTDS01` |
//! | 1 | length L of the dataset's name, then L bytes of UTF-8 name |
//! | 1 | number of classes |
//! | 2 + 2 | rows, columns |
//! | 4 + 4 | number of train and test images |
//! | n_train, n_test | train labels, then test labels (one byte each) |
//! | n_train·rows·cols, n_test·rows·cols | train images, then test images (u8 pixels, row-major) |

use std::io::{Read, Write};

use crate::{DataError, FormatProblem, SplitName};

const MAGIC: &[u8; 8] = b"SPOTDS01";

/// The most bytes an asset may decompress to: MNIST and Fashion-MNIST (70,000 images of 28×28
/// and their labels) take 55 MB; a gzip bomb stops here instead of filling the memory.
pub const MAX_ASSET_BYTES: usize = 64 << 20;

/// Whether bytes are gzip'd (they start with gzip's magic number). A server that sends the `.gz`
/// file with `Content-Encoding: gzip` makes the browser hand over the raw asset instead.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The unpacked size a gzip file states in its last four bytes (ISIZE: the size modulo 2³², exact
/// for one member under 4 GiB, as our assets are): a hint to size the output once. Not checked —
/// whoever unpacks still stops at its own cap. `None` for bytes too short to hold it.
pub fn gzip_stated_size(gz: &[u8]) -> Option<usize> {
    let tail: [u8; 4] = gz.get(gz.len().checked_sub(4)?..)?.try_into().ok()?;
    Some(u32::from_le_bytes(tail) as usize)
}

/// One split (train or test) of a dataset: u8 images and their labels.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Split {
    /// `len() · rows · cols` pixels.
    pub images: Vec<u8>,
    /// One label per image.
    pub labels: Vec<u8>,
}

impl Split {
    /// The number of images.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the split has no images.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// A whole dataset: its name, shape, and train/test splits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dataset {
    pub name: String,
    pub classes: u8,
    pub rows: usize,
    pub cols: usize,
    pub train: Split,
    pub test: Split,
}

impl Dataset {
    /// Pixels per image.
    pub fn pixels(&self) -> usize {
        self.rows * self.cols
    }

    /// Image `i` of a split.
    pub fn image<'a>(&self, split: &'a Split, i: usize) -> &'a [u8] {
        let p = self.pixels();
        &split.images[i * p..(i + 1) * p]
    }

    /// Checks that sizes agree and labels are in range. `file` names the source in errors.
    pub fn validate(&self, file: &str) -> Result<(), DataError> {
        for (split, s) in [(SplitName::Train, &self.train), (SplitName::Test, &self.test)] {
            if s.images.len() != s.labels.len() * self.pixels() {
                let problem = FormatProblem::SplitSizes {
                    split,
                    labels: s.labels.len(),
                    pixel_bytes: s.images.len(),
                };
                return Err(DataError::format(file, problem));
            }
            if let Some(&label) = s.labels.iter().find(|&&l| l >= self.classes) {
                return Err(DataError::format(
                    file,
                    FormatProblem::LabelOutOfRange { split, label, classes: self.classes },
                ));
            }
        }
        Ok(())
    }

    /// Checks the image shape and the number of classes against what a model expects.
    pub fn check_shape(
        &self,
        file: &str,
        rows: usize,
        cols: usize,
        classes: u8,
    ) -> Result<(), DataError> {
        if (self.rows, self.cols, self.classes) != (rows, cols, classes) {
            let problem = FormatProblem::Shape {
                rows: self.rows,
                cols: self.cols,
                classes: self.classes,
                want_rows: rows,
                want_cols: cols,
                want_classes: classes,
            };
            return Err(DataError::format(file, problem));
        }
        if self.train.is_empty() || self.test.is_empty() {
            return Err(DataError::format(
                file,
                FormatProblem::EmptySplit { train: self.train.len(), test: self.test.len() },
            ));
        }
        Ok(())
    }

    /// Encodes the asset (gzip'd).
    pub fn encode(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(32 + self.train.images.len() + self.test.images.len());
        raw.extend_from_slice(MAGIC);
        let name = self.name.as_bytes();
        raw.push(name.len().min(255) as u8);
        raw.extend_from_slice(&name[..name.len().min(255)]);
        raw.push(self.classes);
        raw.extend_from_slice(&(self.rows as u16).to_le_bytes());
        raw.extend_from_slice(&(self.cols as u16).to_le_bytes());
        raw.extend_from_slice(&(self.train.len() as u32).to_le_bytes());
        raw.extend_from_slice(&(self.test.len() as u32).to_le_bytes());
        raw.extend_from_slice(&self.train.labels);
        raw.extend_from_slice(&self.test.labels);
        raw.extend_from_slice(&self.train.images);
        raw.extend_from_slice(&self.test.images);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&raw).expect("writing to a Vec cannot fail");
        gz.finish().expect("writing to a Vec cannot fail")
    }

    /// Decodes an asset, gzip'd or already decompressed (a web server may serve the `.gz` file
    /// with `Content-Encoding: gzip`, and the browser then hands over the raw bytes). `file` names
    /// the source in errors.
    pub fn decode(file: &str, gz: &[u8]) -> Result<Self, DataError> {
        // Bytes already decompressed are read where they are (the page's are 55 MB).
        let mut unpacked = Vec::new();
        let raw: &[u8] = if !is_gzip(gz) {
            if !gz.starts_with(MAGIC) {
                return Err(DataError::format(file, FormatProblem::NeitherGzipNorAsset));
            }
            gz
        } else {
            flate2::read::GzDecoder::new(gz)
                .take(MAX_ASSET_BYTES as u64 + 1)
                .read_to_end(&mut unpacked)
                .map_err(|e| DataError::format(file, FormatProblem::BadGzip(e.to_string())))?;
            &unpacked
        };
        if raw.len() > MAX_ASSET_BYTES {
            return Err(DataError::format(
                file,
                FormatProblem::TooLarge { mb: MAX_ASSET_BYTES >> 20 },
            ));
        }
        let mut r = Reader { file, bytes: raw, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(DataError::format(file, FormatProblem::NotAsset));
        }
        let name_len = r.take(1)?[0] as usize;
        let name = String::from_utf8(r.take(name_len)?.to_vec())
            .map_err(|_| DataError::format(file, FormatProblem::NameNotUtf8))?;
        let classes = r.take(1)?[0];
        let rows = r.u16()? as usize;
        let cols = r.u16()? as usize;
        let n_train = r.u32()? as usize;
        let n_test = r.u32()? as usize;
        let px = rows * cols;
        let train_labels = r.take(n_train)?.to_vec();
        let test_labels = r.take(n_test)?.to_vec();
        let train_images = r
            .take(n_train.checked_mul(px).ok_or_else(|| r.err(FormatProblem::SizesOverflow))?)?
            .to_vec();
        let test_images = r
            .take(n_test.checked_mul(px).ok_or_else(|| r.err(FormatProblem::SizesOverflow))?)?
            .to_vec();
        if r.at != raw.len() {
            return Err(DataError::format(
                file,
                FormatProblem::TrailingBytes { count: raw.len() - r.at },
            ));
        }
        let ds = Dataset {
            name,
            classes,
            rows,
            cols,
            train: Split { images: train_images, labels: train_labels },
            test: Split { images: test_images, labels: test_labels },
        };
        ds.validate(file)?;
        Ok(ds)
    }
}

struct Reader<'a> {
    file: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, problem: FormatProblem) -> DataError {
        DataError::format(self.file, problem)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DataError> {
        if self.bytes.len() - self.at < n {
            return Err(self.err(FormatProblem::Truncated {
                needed: n,
                at: self.at,
                left: self.bytes.len() - self.at,
            }));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u16(&mut self) -> Result<u16, DataError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, DataError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Dataset {
        Dataset {
            name: "tiny".into(),
            classes: 3,
            rows: 2,
            cols: 2,
            train: Split { images: (0..12).collect(), labels: vec![0, 1, 2] },
            test: Split { images: vec![9, 9, 9, 9], labels: vec![1] },
        }
    }

    #[test]
    fn round_trips() {
        let d = tiny();
        assert_eq!(Dataset::decode("t", &d.encode()).unwrap(), d);
        assert_eq!(d.image(&d.train, 1), &[4, 5, 6, 7]);
    }

    #[test]
    fn truncated_asset_is_a_clear_error() {
        let d = tiny();
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&d.encode()[..]).read_to_end(&mut raw).unwrap();
        raw.truncate(raw.len() - 3);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&raw).unwrap();
        let e = Dataset::decode("mnist.spds.gz", &gz.finish().unwrap()).unwrap_err();
        assert_eq!(e.file(), "mnist.spds.gz");
        assert!(
            matches!(e, DataError::Format { problem: FormatProblem::Truncated { .. }, .. }),
            "{e:?}"
        );
    }

    #[test]
    fn gzip_states_its_unpacked_size() {
        let d = tiny();
        let gz = d.encode();
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut raw).unwrap();
        assert_eq!(gzip_stated_size(&gz), Some(raw.len()));
        assert_eq!(gzip_stated_size(&[0x1f, 0x8b, 8]), None);
    }

    #[test]
    fn raw_bytes_decode_too() {
        let d = tiny();
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&d.encode()[..]).read_to_end(&mut raw).unwrap();
        assert_eq!(Dataset::decode("t", &raw).unwrap(), d);
    }

    #[test]
    fn garbage_is_a_clear_error() {
        let e = Dataset::decode("x", b"hello").unwrap_err();
        assert_eq!(e, DataError::format("x", FormatProblem::NeitherGzipNorAsset));
        let half = &tiny().encode()[..20];
        assert!(Dataset::decode("x", half).is_err());
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..(MAX_ASSET_BYTES >> 20) + 2 {
            gz.write_all(&zeros).unwrap();
        }
        let bomb = gz.finish().unwrap();
        assert!(bomb.len() < 1 << 20, "{} bytes", bomb.len());
        let e = Dataset::decode("bomb.spds.gz", &bomb).unwrap_err();
        assert_eq!(e, DataError::format("bomb.spds.gz", FormatProblem::TooLarge { mb: 64 }));
    }

    #[test]
    fn the_shape_is_checked() {
        let d = tiny();
        d.check_shape("t", 2, 2, 3).unwrap();
        let e = d.check_shape("t", 28, 28, 10).unwrap_err();
        let shape = FormatProblem::Shape {
            rows: 2,
            cols: 2,
            classes: 3,
            want_rows: 28,
            want_cols: 28,
            want_classes: 10,
        };
        assert_eq!(e, DataError::format("t", shape));
        let empty = Dataset { test: Split::default(), ..tiny() };
        assert_eq!(
            empty.check_shape("t", 2, 2, 3).unwrap_err(),
            DataError::format("t", FormatProblem::EmptySplit { train: 3, test: 0 })
        );
    }

    #[test]
    fn out_of_range_label_is_rejected() {
        let mut d = tiny();
        d.train.labels[0] = 7;
        assert!(matches!(
            Dataset::decode("x", &d.encode()).unwrap_err(),
            DataError::Format {
                problem: FormatProblem::LabelOutOfRange { split: SplitName::Train, label: 7, .. },
                ..
            }
        ));
    }
}
