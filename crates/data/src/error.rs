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

/// What is wrong with a file's bytes. The asset's problems come first: the page and the CLI show
/// them, in words that are `spotlight-i18n`'s (`say::data`), by variant. The IDX and Fashion-MNIST
/// class files' only reach the `prepare-data` tool, a binary of this crate (which
/// `spotlight-i18n` depends on, so it cannot use it): their English is here, in
/// [`FormatProblem::tool_text`], and only here.
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

impl FormatProblem {
    /// A pinned source file's problem (IDX, Fashion-MNIST class files) in the `prepare-data`
    /// tool's English; `None` for an asset's problem.
    pub fn tool_text(&self) -> Option<String> {
        Some(match self {
            Self::IdxTooShort { len } => format!("too short for an IDX header ({len} bytes)"),
            Self::IdxMagic => {
                String::from("not an IDX file (the magic number must start with two zero bytes)")
            }
            Self::IdxType { byte } => {
                format!("IDX element type 0x{byte:02x} is not supported (only 0x08, unsigned byte)")
            }
            Self::IdxZeroDims => String::from("IDX file has zero dimensions"),
            Self::IdxHeaderTruncated { rank, header, len } => {
                format!(
                    "truncated IDX header: {rank} dimensions need {header} bytes, file has {len}"
                )
            }
            Self::IdxOverflow { dims } => format!("IDX dimensions {dims:?} overflow"),
            Self::IdxBodySize { dims, count, len } => format!(
                "IDX dimensions {dims:?} need {count} data bytes, file has {len}{}",
                if len < count { " (truncated)" } else { " (trailing bytes)" }
            ),
            Self::NotLabelFile { dims } => {
                format!("expected a 1-D label file, got dimensions {dims:?}")
            }
            Self::NotImageFile { dims } => {
                format!("expected a 3-D image file, got dimensions {dims:?}")
            }
            Self::LabelCount { labels, images } => format!("{labels} labels for {images} images"),
            Self::ImageShapes { rows, cols, train_rows, train_cols } => {
                format!("images are {rows}x{cols}, train images {train_rows}x{train_cols}")
            }
            Self::NotClassFile(e) => format!("not a Fashion-MNIST class file: {e}"),
            Self::EntryPixels { entry, pixels } => {
                format!("entry {entry} has {pixels} pixels, expected 784")
            }
            Self::PixelValue { entry, value } => {
                format!("entry {entry} has pixel value {value} > 255")
            }
            Self::TooFewImages { count, need_more_than } => {
                format!("only {count} images; need more than {need_more_than}")
            }
            Self::SplitSizes { .. }
            | Self::LabelOutOfRange { .. }
            | Self::Shape { .. }
            | Self::EmptySplit { .. }
            | Self::NeitherGzipNorAsset
            | Self::BadGzip(_)
            | Self::TooLarge { .. }
            | Self::NotAsset
            | Self::NameNotUtf8
            | Self::SizesOverflow
            | Self::TrailingBytes { .. }
            | Self::Truncated { .. } => return None,
        })
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
            Self::Format { file, problem } => match problem.tool_text() {
                Some(text) => write!(f, "{file}: {text}"),
                // An asset's problem as its variant: its words are `spotlight-i18n`'s.
                None => write!(f, "{file}: {problem:?}"),
            },
        }
    }
}

impl std::error::Error for DataError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The source files' problems, in the `prepare-data` tool's English (the only place it is).
    #[test]
    fn the_tools_english_is_todays() {
        let cases = [
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
            assert_eq!(problem.tool_text().as_deref(), Some(text));
            assert_eq!(DataError::format("f.gz", problem).to_string(), format!("f.gz: {text}"));
        }
    }

    /// An asset's problems have no words here (they are `spotlight-i18n`'s): their `Display` is
    /// the variant and its values.
    #[test]
    fn an_assets_problem_is_shown_as_its_variant() {
        let problem =
            FormatProblem::SplitSizes { split: SplitName::Train, labels: 3, pixel_bytes: 11 };
        assert_eq!(problem.tool_text(), None);
        assert_eq!(
            DataError::format("f.gz", problem).to_string(),
            "f.gz: SplitSizes { split: Train, labels: 3, pixel_bytes: 11 }"
        );
        assert_eq!(FormatProblem::NotAsset.tool_text(), None);
    }
}
