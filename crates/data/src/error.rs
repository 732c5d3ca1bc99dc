use std::fmt;

/// Everything that can go wrong reading or converting a dataset. Each error names the file (or
/// asset) it is about, so that a truncated download or a wrong file is easy to find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataError {
    /// The file could not be read at all.
    Io { file: String, message: String },
    /// The file's sha256 is not the pinned one.
    Checksum { file: String, expected: String, actual: String },
    /// The bytes are not of the expected format.
    Format { file: String, problem: FormatProblem },
}

/// A dataset's split, as errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitName {
    Train,
    Test,
}

impl fmt::Display for SplitName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Train => "train",
            Self::Test => "test",
        })
    }
}

/// What is wrong with a file's bytes. Its `Display` is the English the CLI (and the page in
/// English) writes; the page writes it in its language by variant. The asset's problems come
/// first (the page can show them); the IDX and Fashion-MNIST class files' only reach the
/// `prepare-data` tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatProblem {
    /// A split's pixel bytes are not `labels · pixels`.
    SplitSizes {
        split: SplitName,
        labels: usize,
        pixel_bytes: usize,
    },
    /// A split's label is not below the number of classes.
    LabelOutOfRange {
        split: SplitName,
        label: u8,
        classes: u8,
    },
    /// The images' shape or the number of classes is not the models'.
    Shape {
        rows: usize,
        cols: usize,
        classes: u8,
        want_rows: usize,
        want_cols: usize,
        want_classes: u8,
    },
    /// A split has no images.
    EmptySplit {
        train: usize,
        test: usize,
    },
    /// Bytes that are neither gzip nor the raw asset (e.g. an HTML page).
    NeitherGzipNorAsset,
    /// gzip that does not unpack (flate2's error, English only).
    BadGzip(String),
    /// Unpacks to more than the cap, in MB (a gzip bomb).
    TooLarge {
        mb: usize,
    },
    /// Unpacked bytes without the asset's magic.
    NotAsset,
    NameNotUtf8,
    SizesOverflow,
    /// Bytes after the dataset's end.
    TrailingBytes {
        count: usize,
    },
    /// The asset ends early: `needed` more bytes at offset `at`, `left` left.
    Truncated {
        needed: usize,
        at: usize,
        left: usize,
    },
    /// IDX: fewer than 4 bytes.
    IdxTooShort {
        len: usize,
    },
    IdxMagic,
    /// IDX: an element type other than unsigned byte.
    IdxType {
        byte: u8,
    },
    IdxZeroDims,
    /// IDX: `rank` dimensions need a `header` of that many bytes, the file has `len`.
    IdxHeaderTruncated {
        rank: usize,
        header: usize,
        len: usize,
    },
    IdxOverflow {
        dims: Vec<usize>,
    },
    /// IDX: the dimensions need `count` data bytes, the file has `len`.
    IdxBodySize {
        dims: Vec<usize>,
        count: usize,
        len: usize,
    },
    /// IDX: a label file that is not 1-D.
    NotLabelFile {
        dims: Vec<usize>,
    },
    /// IDX: an image file that is not 3-D.
    NotImageFile {
        dims: Vec<usize>,
    },
    /// MNIST: a label file's count is not its image file's.
    LabelCount {
        labels: usize,
        images: usize,
    },
    /// MNIST: the test images' shape is not the train images'.
    ImageShapes {
        rows: usize,
        cols: usize,
        train_rows: usize,
        train_cols: usize,
    },
    /// Fashion-MNIST: not a class file (serde's error, English only).
    NotClassFile(String),
    /// Fashion-MNIST: an entry that is not 784 pixels.
    EntryPixels {
        entry: usize,
        pixels: usize,
    },
    /// Fashion-MNIST: a pixel value above 255.
    PixelValue {
        entry: usize,
        value: u16,
    },
    /// Fashion-MNIST: a class with too few images for the test split.
    TooFewImages {
        count: usize,
        need_more_than: usize,
    },
}

impl fmt::Display for FormatProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SplitSizes { split, labels, pixel_bytes } => {
                write!(f, "{split} split: {labels} labels but {pixel_bytes} pixel bytes")
            }
            Self::LabelOutOfRange { split, label, classes } => {
                write!(f, "{split} split: label {label} is out of range for {classes} classes")
            }
            Self::Shape { rows, cols, classes, want_rows, want_cols, want_classes } => {
                let of = |n: u8| format!("{n} class{}", if n == 1 { "" } else { "es" });
                write!(
                    f,
                    "{rows}×{cols} images in {}, expected {want_rows}×{want_cols} in {}",
                    of(*classes),
                    of(*want_classes)
                )
            }
            Self::EmptySplit { train, test } => {
                write!(f, "{train} train and {test} test images; both splits must have some")
            }
            Self::NeitherGzipNorAsset => {
                f.write_str("neither gzip nor a Spotlight dataset asset (bad magic)")
            }
            Self::BadGzip(e) => write!(f, "not a valid gzip'd dataset asset: {e}"),
            Self::TooLarge { mb } => {
                write!(f, "decompresses to more than {mb} MB, too large for a dataset asset")
            }
            Self::NotAsset => f.write_str("not a Spotlight dataset asset (bad magic)"),
            Self::NameNotUtf8 => f.write_str("dataset name is not UTF-8"),
            Self::SizesOverflow => f.write_str("sizes overflow"),
            Self::TrailingBytes { count } => write!(f, "{count} trailing bytes after the dataset"),
            Self::Truncated { needed, at, left } => {
                write!(
                    f,
                    "truncated dataset asset: needed {needed} more bytes at offset {at}, {left} left"
                )
            }
            Self::IdxTooShort { len } => write!(f, "too short for an IDX header ({len} bytes)"),
            Self::IdxMagic => {
                f.write_str("not an IDX file (the magic number must start with two zero bytes)")
            }
            Self::IdxType { byte } => write!(
                f,
                "IDX element type 0x{byte:02x} is not supported (only 0x08, unsigned byte)"
            ),
            Self::IdxZeroDims => f.write_str("IDX file has zero dimensions"),
            Self::IdxHeaderTruncated { rank, header, len } => {
                write!(
                    f,
                    "truncated IDX header: {rank} dimensions need {header} bytes, file has {len}"
                )
            }
            Self::IdxOverflow { dims } => write!(f, "IDX dimensions {dims:?} overflow"),
            Self::IdxBodySize { dims, count, len } => write!(
                f,
                "IDX dimensions {dims:?} need {count} data bytes, file has {len}{}",
                if len < count { " (truncated)" } else { " (trailing bytes)" }
            ),
            Self::NotLabelFile { dims } => {
                write!(f, "expected a 1-D label file, got dimensions {dims:?}")
            }
            Self::NotImageFile { dims } => {
                write!(f, "expected a 3-D image file, got dimensions {dims:?}")
            }
            Self::LabelCount { labels, images } => write!(f, "{labels} labels for {images} images"),
            Self::ImageShapes { rows, cols, train_rows, train_cols } => {
                write!(f, "images are {rows}x{cols}, train images {train_rows}x{train_cols}")
            }
            Self::NotClassFile(e) => write!(f, "not a Fashion-MNIST class file: {e}"),
            Self::EntryPixels { entry, pixels } => {
                write!(f, "entry {entry} has {pixels} pixels, expected 784")
            }
            Self::PixelValue { entry, value } => {
                write!(f, "entry {entry} has pixel value {value} > 255")
            }
            Self::TooFewImages { count, need_more_than } => {
                write!(f, "only {count} images; need more than {need_more_than}")
            }
        }
    }
}

impl DataError {
    pub(crate) fn format(file: &str, problem: FormatProblem) -> Self {
        Self::Format { file: file.to_string(), problem }
    }

    /// The file (or asset) the error is about.
    pub fn file(&self) -> &str {
        match self {
            Self::Io { file, .. } | Self::Checksum { file, .. } | Self::Format { file, .. } => file,
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { file, message } => write!(f, "{file}: cannot read: {message}"),
            Self::Checksum { file, expected, actual } => write!(
                f,
                "{file}: sha256 mismatch (expected {expected}, got {actual}); the file is \
                 corrupt or not the pinned version — delete it and fetch the datasets again"
            ),
            Self::Format { file, problem } => write!(f, "{file}: {problem}"),
        }
    }
}

impl std::error::Error for DataError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_english_is_todays() {
        let cases = [
            (
                FormatProblem::SplitSizes { split: SplitName::Train, labels: 3, pixel_bytes: 11 },
                "train split: 3 labels but 11 pixel bytes",
            ),
            (
                FormatProblem::LabelOutOfRange { split: SplitName::Test, label: 7, classes: 3 },
                "test split: label 7 is out of range for 3 classes",
            ),
            (
                FormatProblem::Shape {
                    rows: 28,
                    cols: 28,
                    classes: 1,
                    want_rows: 28,
                    want_cols: 28,
                    want_classes: 10,
                },
                "28×28 images in 1 class, expected 28×28 in 10 classes",
            ),
            (
                FormatProblem::EmptySplit { train: 5, test: 0 },
                "5 train and 0 test images; both splits must have some",
            ),
            (
                FormatProblem::NeitherGzipNorAsset,
                "neither gzip nor a Spotlight dataset asset (bad magic)",
            ),
            (
                FormatProblem::BadGzip("corrupt deflate stream".into()),
                "not a valid gzip'd dataset asset: corrupt deflate stream",
            ),
            (
                FormatProblem::TooLarge { mb: 64 },
                "decompresses to more than 64 MB, too large for a dataset asset",
            ),
            (FormatProblem::NotAsset, "not a Spotlight dataset asset (bad magic)"),
            (FormatProblem::NameNotUtf8, "dataset name is not UTF-8"),
            (FormatProblem::SizesOverflow, "sizes overflow"),
            (FormatProblem::TrailingBytes { count: 2 }, "2 trailing bytes after the dataset"),
            (
                FormatProblem::Truncated { needed: 4, at: 30, left: 1 },
                "truncated dataset asset: needed 4 more bytes at offset 30, 1 left",
            ),
            (FormatProblem::IdxTooShort { len: 2 }, "too short for an IDX header (2 bytes)"),
            (
                FormatProblem::IdxMagic,
                "not an IDX file (the magic number must start with two zero bytes)",
            ),
            (
                FormatProblem::IdxType { byte: 0x0d },
                "IDX element type 0x0d is not supported (only 0x08, unsigned byte)",
            ),
            (FormatProblem::IdxZeroDims, "IDX file has zero dimensions"),
            (
                FormatProblem::IdxHeaderTruncated { rank: 3, header: 16, len: 10 },
                "truncated IDX header: 3 dimensions need 16 bytes, file has 10",
            ),
            (FormatProblem::IdxOverflow { dims: vec![1, 2] }, "IDX dimensions [1, 2] overflow"),
            (
                FormatProblem::IdxBodySize { dims: vec![2, 3], count: 6, len: 5 },
                "IDX dimensions [2, 3] need 6 data bytes, file has 5 (truncated)",
            ),
            (
                FormatProblem::IdxBodySize { dims: vec![2, 3], count: 6, len: 7 },
                "IDX dimensions [2, 3] need 6 data bytes, file has 7 (trailing bytes)",
            ),
            (
                FormatProblem::NotLabelFile { dims: vec![2, 3] },
                "expected a 1-D label file, got dimensions [2, 3]",
            ),
            (
                FormatProblem::NotImageFile { dims: vec![2] },
                "expected a 3-D image file, got dimensions [2]",
            ),
            (FormatProblem::LabelCount { labels: 3, images: 2 }, "3 labels for 2 images"),
            (
                FormatProblem::ImageShapes { rows: 2, cols: 3, train_rows: 28, train_cols: 28 },
                "images are 2x3, train images 28x28",
            ),
            (FormatProblem::NotClassFile("EOF".into()), "not a Fashion-MNIST class file: EOF"),
            (
                FormatProblem::EntryPixels { entry: 4, pixels: 2 },
                "entry 4 has 2 pixels, expected 784",
            ),
            (
                FormatProblem::PixelValue { entry: 4, value: 300 },
                "entry 4 has pixel value 300 > 255",
            ),
            (
                FormatProblem::TooFewImages { count: 900, need_more_than: 1000 },
                "only 900 images; need more than 1000",
            ),
        ];
        for (problem, text) in cases {
            assert_eq!(problem.to_string(), text);
            assert_eq!(DataError::format("f.gz", problem).to_string(), format!("f.gz: {text}"));
        }
    }
}
