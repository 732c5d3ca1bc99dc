//! The IDX format of the MNIST files (LeCun et al.): a big-endian header — two zero bytes, a type
//! byte (0x08 = unsigned byte), the number of dimensions, then one u32 per dimension — followed by
//! the data in row-major order.

use crate::{DataError, FormatProblem};

/// A parsed IDX file of unsigned bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Idx {
    /// The size of each dimension, outermost first.
    pub dims: Vec<usize>,
    /// The data, `dims.iter().product()` bytes.
    pub data: Vec<u8>,
}

/// Parses IDX bytes. `file` names the source in errors.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Idx, DataError> {
    if bytes.len() < 4 {
        return Err(DataError::format(file, FormatProblem::IdxTooShort { len: bytes.len() }));
    }
    if bytes[0] != 0 || bytes[1] != 0 {
        return Err(DataError::format(file, FormatProblem::IdxMagic));
    }
    if bytes[2] != 0x08 {
        return Err(DataError::format(file, FormatProblem::IdxType { byte: bytes[2] }));
    }
    let rank = bytes[3] as usize;
    if rank == 0 {
        return Err(DataError::format(file, FormatProblem::IdxZeroDims));
    }
    let header = 4 + 4 * rank;
    if bytes.len() < header {
        return Err(DataError::format(
            file,
            FormatProblem::IdxHeaderTruncated { rank, header, len: bytes.len() },
        ));
    }
    let dims: Vec<usize> = (0..rank)
        .map(|i| {
            let o = 4 + 4 * i;
            u32::from_be_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]) as usize
        })
        .collect();
    let count = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)).ok_or_else(|| {
        DataError::format(file, FormatProblem::IdxOverflow { dims: dims.clone() })
    })?;
    let body = &bytes[header..];
    if body.len() != count {
        return Err(DataError::format(
            file,
            FormatProblem::IdxBodySize { dims, count, len: body.len() },
        ));
    }
    Ok(Idx { dims, data: body.to_vec() })
}

/// Parses an IDX label file: one dimension.
pub fn parse_labels(file: &str, bytes: &[u8]) -> Result<Vec<u8>, DataError> {
    let idx = parse(file, bytes)?;
    if idx.dims.len() != 1 {
        return Err(DataError::format(file, FormatProblem::NotLabelFile { dims: idx.dims }));
    }
    Ok(idx.data)
}

/// Parses an IDX image file: three dimensions. Returns (count, rows, cols, data).
pub fn parse_images(file: &str, bytes: &[u8]) -> Result<(usize, usize, usize, Vec<u8>), DataError> {
    let idx = parse(file, bytes)?;
    if idx.dims.len() != 3 {
        return Err(DataError::format(file, FormatProblem::NotImageFile { dims: idx.dims }));
    }
    Ok((idx.dims[0], idx.dims[1], idx.dims[2], idx.data))
}

/// Writes IDX bytes of unsigned bytes (the tests make small IDX files with it).
pub fn encode(dims: &[usize], data: &[u8]) -> Vec<u8> {
    let mut out = vec![0, 0, 0x08, dims.len() as u8];
    for d in dims {
        out.extend_from_slice(&(*d as u32).to_be_bytes());
    }
    out.extend_from_slice(data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand_made_images() -> Vec<u8> {
        // 2 images of 2x3, written out byte by byte.
        vec![
            0x00, 0x00, 0x08, 0x03, // magic: ubyte, 3 dims
            0x00, 0x00, 0x00, 0x02, // 2 images
            0x00, 0x00, 0x00, 0x02, // 2 rows
            0x00, 0x00, 0x00, 0x03, // 3 cols
            1, 2, 3, 4, 5, 6, // image 0
            7, 8, 9, 10, 11, 255, // image 1
        ]
    }

    #[test]
    fn parses_hand_made_images() {
        let (n, r, c, data) = parse_images("imgs", &hand_made_images()).unwrap();
        assert_eq!((n, r, c), (2, 2, 3));
        assert_eq!(data, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255]);
    }

    #[test]
    fn parses_hand_made_labels() {
        let bytes = [0u8, 0, 8, 1, 0, 0, 0, 3, 7, 0, 9];
        assert_eq!(parse_labels("labels", &bytes).unwrap(), vec![7, 0, 9]);
    }

    #[test]
    fn encode_round_trips() {
        let bytes = encode(&[2, 2, 3], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255]);
        assert_eq!(bytes, hand_made_images());
    }

    #[test]
    fn truncated_body_is_an_error_naming_the_file() {
        let mut b = hand_made_images();
        b.pop();
        let e = parse_images("train-images-idx3-ubyte", &b).unwrap_err();
        assert_eq!(e.file(), "train-images-idx3-ubyte");
        assert!(e.to_string().contains("truncated"), "{e}");
    }

    #[test]
    fn trailing_bytes_are_an_error() {
        let mut b = hand_made_images();
        b.push(0);
        assert!(parse_images("f", &b).unwrap_err().to_string().contains("trailing"));
    }

    #[test]
    fn truncated_header_is_an_error() {
        let b = &hand_made_images()[..10];
        assert!(parse_images("f", b).unwrap_err().to_string().contains("truncated IDX header"));
        assert!(parse("f", &[0, 0]).unwrap_err().to_string().contains("too short"));
    }

    #[test]
    fn bad_magic_and_type_are_errors() {
        let mut b = hand_made_images();
        b[0] = 0x1f; // e.g. a gzip file handed over by mistake
        assert!(parse("f", &b).unwrap_err().to_string().contains("not an IDX file"));
        let mut b = hand_made_images();
        b[2] = 0x0d; // float
        assert!(parse("f", &b).unwrap_err().to_string().contains("not supported"));
    }

    #[test]
    fn wrong_rank_is_an_error() {
        let labels = [0u8, 0, 8, 1, 0, 0, 0, 1, 5];
        assert!(parse_images("f", &labels).unwrap_err().to_string().contains("3-D"));
        assert!(parse_labels("f", &hand_made_images()).unwrap_err().to_string().contains("1-D"));
    }

    #[test]
    fn huge_dimensions_do_not_panic() {
        let b =
            [0u8, 0, 8, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert!(parse("f", &b).is_err());
    }
}
