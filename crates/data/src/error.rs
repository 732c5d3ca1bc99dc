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
    Format { file: String, message: String },
}

impl DataError {
    pub(crate) fn format(file: &str, message: impl Into<String>) -> Self {
        Self::Format { file: file.to_string(), message: message.into() }
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
            Self::Format { file, message } => write!(f, "{file}: {message}"),
        }
    }
}

impl std::error::Error for DataError {}
