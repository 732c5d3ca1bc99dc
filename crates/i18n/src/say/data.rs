//! A dataset that could not be loaded, and an experiment whose data could not be built, in a
//! language (the page's; the CLI's English). The data crate's [`FormatProblem`] and the core's
//! [`BuildError`] say what went wrong, [`crate::status::Data`] holds the sentences (the CLI's and
//! the browser tests' texts). Numbers are written as the notices write them ([`Lang::plain`]: in
//! English as Rust writes them). Texts that come from elsewhere (the unpacker's error) stay as they
//! are, inside the translated sentence.

use crate::Lang;
use crate::status::{Data, PoolTooLarge, Shape};
use spotlight_core::experiment_data::BuildError;
use spotlight_data::{DataError, FormatProblem, SplitName};

use super::notice::config_error;

fn texts(lang: Lang) -> &'static Data {
    &lang.texts().status.data
}

/// A dataset's error: "file: what is wrong". The page and the CLI read only assets, so only their
/// problems are written here; the pinned source files' (a file that cannot be read, a checksum, IDX
/// and Fashion-MNIST class files) reach only the `prepare-data` tool, a binary of the data crate
/// that cannot use this crate, and stay in its English (the data crate's `Display`, the only place
/// those words are).
pub fn data_error(lang: Lang, e: &DataError) -> String {
    match e {
        DataError::Format { file, problem } => match format_problem(lang, problem) {
            Some(text) => format!("{file}: {text}"),
            None => e.to_string(),
        },
        DataError::Io { .. } | DataError::Checksum { .. } => e.to_string(),
    }
}

/// What is wrong with an asset's bytes; `None` for a source file's problem (see [`data_error`]).
fn format_problem(lang: Lang, p: &FormatProblem) -> Option<String> {
    let t = texts(lang);
    let n = |x: usize| lang.plain(x);
    let split = |s: &SplitName| match s {
        SplitName::Train => t.train,
        SplitName::Test => t.test,
    };
    Some(match p {
        FormatProblem::SplitSizes { split: s, labels, pixel_bytes } => {
            (t.split_sizes)(split(s), &n(*labels), &n(*pixel_bytes))
        }
        FormatProblem::LabelOutOfRange { split: s, label, classes } => {
            (t.label_out_of_range)(split(s), &label.to_string(), &classes.to_string())
        }
        FormatProblem::Shape { rows, cols, classes, want_rows, want_cols, want_classes } => {
            (t.shape)(&Shape {
                size: &format!("{}×{}", n(*rows), n(*cols)),
                classes: &(t.classes)(*classes),
                want: &format!("{}×{}", n(*want_rows), n(*want_cols)),
                want_classes: &(t.classes)(*want_classes),
            })
        }
        FormatProblem::EmptySplit { train, test } => (t.empty_split)(&n(*train), &n(*test)),
        FormatProblem::NeitherGzipNorAsset => t.neither_gzip_nor_asset.to_string(),
        FormatProblem::BadGzip(e) => (t.bad_gzip)(e),
        FormatProblem::TooLarge { mb } => (lang.texts().status.load.inflates_too_big)(&n(*mb)),
        FormatProblem::NotAsset => t.not_asset.to_string(),
        FormatProblem::NameNotUtf8 => t.name_not_utf8.to_string(),
        FormatProblem::SizesOverflow => t.sizes_overflow.to_string(),
        FormatProblem::TrailingBytes { count } => (t.trailing_bytes)(&n(*count)),
        FormatProblem::Truncated { needed, at, left } => {
            (t.truncated)(&n(*needed), &n(*at), &n(*left))
        }
        FormatProblem::IdxTooShort { .. }
        | FormatProblem::IdxMagic
        | FormatProblem::IdxType { .. }
        | FormatProblem::IdxZeroDims
        | FormatProblem::IdxHeaderTruncated { .. }
        | FormatProblem::IdxOverflow { .. }
        | FormatProblem::IdxBodySize { .. }
        | FormatProblem::NotLabelFile { .. }
        | FormatProblem::NotImageFile { .. }
        | FormatProblem::LabelCount { .. }
        | FormatProblem::ImageShapes { .. }
        | FormatProblem::NotClassFile(_)
        | FormatProblem::EntryPixels { .. }
        | FormatProblem::PixelValue { .. }
        | FormatProblem::TooFewImages { .. } => return None,
    })
}

/// Why an experiment's data could not be built.
pub fn build_error(lang: Lang, e: &BuildError) -> String {
    let t = texts(lang);
    let n = |x: usize| lang.plain(x);
    match e {
        BuildError::Config(e) => config_error(lang, e),
        BuildError::PoolTooLarge { pool, attack, train, dataset } => {
            (t.pool_too_large)(&PoolTooLarge {
                pool: &n(*pool),
                attack: *attack,
                train: &n(*train),
                dataset,
            })
        }
        BuildError::NoOtherDataset => t.no_other_dataset.to_string(),
        BuildError::OtherSize => t.other_size.to_string(),
        BuildError::CanarySize { drawing, image } => (t.canary_size)(&n(*drawing), &n(*image)),
        BuildError::NoCleanMember => t.no_clean_member.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::say::assert_written;
    use spotlight_core::canary::CanaryError;
    use spotlight_core::config::{Config, ConfigError, ConfigProblem, DatasetName};
    use spotlight_core::data::{Dataset, Split};
    use spotlight_core::experiment_data::ExperimentData;

    /// Every problem an asset can have.
    fn asset_problems() -> Vec<FormatProblem> {
        vec![
            FormatProblem::SplitSizes { split: SplitName::Train, labels: 30000, pixel_bytes: 11 },
            FormatProblem::LabelOutOfRange { split: SplitName::Test, label: 12, classes: 10 },
            FormatProblem::Shape {
                rows: 32,
                cols: 32,
                classes: 10,
                want_rows: 28,
                want_cols: 28,
                want_classes: 10,
            },
            FormatProblem::Shape {
                rows: 28,
                cols: 28,
                classes: 1,
                want_rows: 28,
                want_cols: 28,
                want_classes: 10,
            },
            FormatProblem::EmptySplit { train: 60000, test: 0 },
            FormatProblem::NeitherGzipNorAsset,
            FormatProblem::BadGzip("corrupt deflate stream".into()),
            FormatProblem::TooLarge { mb: 64 },
            FormatProblem::NotAsset,
            FormatProblem::NameNotUtf8,
            FormatProblem::SizesOverflow,
            FormatProblem::TrailingBytes { count: 3 },
            FormatProblem::Truncated { needed: 47040000, at: 70030, left: 1234 },
        ]
    }

    /// Every problem of the pinned source files, which only the `prepare-data` tool reads.
    fn source_problems() -> Vec<FormatProblem> {
        vec![
            FormatProblem::IdxTooShort { len: 2 },
            FormatProblem::IdxMagic,
            FormatProblem::IdxType { byte: 0x0d },
            FormatProblem::IdxZeroDims,
            FormatProblem::IdxHeaderTruncated { rank: 3, header: 16, len: 10 },
            FormatProblem::IdxOverflow { dims: vec![1, 2] },
            FormatProblem::IdxBodySize { dims: vec![2, 3], count: 6, len: 5 },
            FormatProblem::NotLabelFile { dims: vec![2, 3] },
            FormatProblem::NotImageFile { dims: vec![2] },
            FormatProblem::LabelCount { labels: 3, images: 2 },
            FormatProblem::ImageShapes { rows: 2, cols: 3, train_rows: 28, train_cols: 28 },
            FormatProblem::NotClassFile("EOF".into()),
            FormatProblem::EntryPixels { entry: 4, pixels: 2 },
            FormatProblem::PixelValue { entry: 4, value: 300 },
            FormatProblem::TooFewImages { count: 900, need_more_than: 1000 },
        ]
    }

    fn build_errors() -> Vec<BuildError> {
        vec![
            BuildError::Config(ConfigError {
                field: "canary".into(),
                problem: ConfigProblem::NotDrawing(CanaryError::Spill),
            }),
            BuildError::Config(ConfigError {
                field: "epochs".into(),
                problem: ConfigProblem::OutOfRange { value: 0.0, min: 1.0, max: 200.0 },
            }),
            BuildError::PoolTooLarge {
                pool: 60000,
                attack: true,
                train: 50000,
                dataset: "mnist".into(),
            },
            BuildError::PoolTooLarge {
                pool: 30000,
                attack: false,
                train: 20000,
                dataset: "fashion".into(),
            },
            BuildError::NoOtherDataset,
            BuildError::OtherSize,
            BuildError::CanarySize { drawing: 784, image: 1024 },
            BuildError::NoCleanMember,
        ]
    }

    #[test]
    fn every_asset_error_is_written_in_every_language() {
        for problem in asset_problems() {
            let e = DataError::Format { file: "mnist.spds.gz".into(), problem };
            let [en, es, pt] = Lang::ALL.map(|l| data_error(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt);
            assert!(
                es.starts_with("mnist.spds.gz: ") && pt.starts_with("mnist.spds.gz: "),
                "{es} / {pt}"
            );
        }
        // What the decoder itself gives, for the bytes the browser tests send.
        let tiny = |rows: usize, classes: u8| Dataset {
            name: "mnist".into(),
            classes,
            rows,
            cols: rows,
            train: Split { images: vec![0; rows * rows], labels: vec![0] },
            test: Split { images: vec![0; rows * rows], labels: vec![0] },
        };
        let mut cut = tiny(28, 10).encode();
        cut.truncate(cut.len() / 2);
        let bad = [
            tiny(32, 10).encode(),
            tiny(28, 1).encode(),
            tiny(28, 12).encode(),
            b"<html>a page</html>".to_vec(),
            cut,
        ];
        for bytes in bad {
            let e = DatasetName::Mnist.decode("mnist.spds.gz", &bytes).unwrap_err();
            let [en, es, pt] = Lang::ALL.map(|l| data_error(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt);
        }
        let e = DatasetName::Mnist.decode("mnist.spds.gz", &tiny(32, 10).encode()).unwrap_err();
        assert_eq!(
            data_error(Lang::En, &e),
            "mnist.spds.gz: 32×32 images in 10 classes, expected 28×28 in 10 classes"
        );
        assert_eq!(
            data_error(Lang::Es, &e),
            "mnist.spds.gz: imágenes de 32×32 en 10 clases; se esperaban de 28×28 en 10 clases"
        );
        let e = DataError::Format {
            file: "f".into(),
            problem: FormatProblem::SplitSizes {
                split: SplitName::Train,
                labels: 3000,
                pixel_bytes: 11,
            },
        };
        assert_eq!(
            data_error(Lang::Pt, &e),
            "f: partição de treino: 3.000 rótulos, mas 11 bytes de pixels"
        );
    }

    #[test]
    fn the_source_files_errors_stay_in_the_tools_english() {
        // The two kinds of problem are the data crate's split too: it writes only the tool's.
        assert!(source_problems().iter().all(|p| p.tool_text().is_some()));
        assert!(asset_problems().iter().all(|p| p.tool_text().is_none()));
        let mut errors: Vec<DataError> = source_problems()
            .into_iter()
            .map(|problem| DataError::Format { file: "train-labels-idx1-ubyte".into(), problem })
            .collect();
        errors.push(DataError::Io {
            file: "x".into(),
            message: "No such file or directory (os error 2)".into(),
        });
        errors.push(DataError::Checksum {
            file: "x".into(),
            expected: "ab".into(),
            actual: "cd".into(),
        });
        for e in errors {
            for lang in Lang::ALL {
                assert_eq!(data_error(lang, &e), e.to_string());
            }
        }
    }

    #[test]
    fn every_build_error_is_written_in_every_language() {
        for e in build_errors() {
            let [en, es, pt] = Lang::ALL.map(|l| build_error(l, &e));
            assert_written(&format!("{e:?}"), &en, &es, &pt);
        }
        let e = &build_errors()[2];
        assert_eq!(
            build_error(Lang::En, e),
            "train_size: 60000 samples (members + non-members for the attack) do not fit in the 50000 training images of mnist"
        );
        assert_eq!(
            build_error(Lang::Es, e),
            "train_size: 60.000 muestras (miembros + no miembros para el ataque) no caben en las 50.000 imágenes de entrenamiento de mnist"
        );
        // What the core itself gives.
        let ds = Dataset {
            name: "mnist".into(),
            classes: 10,
            rows: 28,
            cols: 28,
            train: Split { images: vec![0; 4 * 784], labels: vec![0, 1, 2, 3] },
            test: Split { images: vec![0; 784], labels: vec![0] },
        };
        let too_many = Config { train_size: 100, batch_size: 32, ..Config::default() };
        let e = ExperimentData::build(&too_many, &ds, None).unwrap_err();
        assert!(matches!(e, BuildError::PoolTooLarge { .. }), "{e:?}");
        let [en, es, pt] = Lang::ALL.map(|l| build_error(l, &e));
        assert_written(&format!("{e:?}"), &en, &es, &pt);
        let e = ExperimentData::build(&Config { epochs: 0, ..Config::default() }, &ds, None)
            .unwrap_err();
        let [en, es, pt] = Lang::ALL.map(|l| build_error(l, &e));
        assert_written(&format!("{e:?}"), &en, &es, &pt);
    }

    /// The English is the words the CLI and the page have always written (the data crate's
    /// `Display` before these texts were the only English).
    #[test]
    fn an_assets_english_is_todays() {
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
        ];
        assert_eq!(cases.len(), asset_problems().len() - 1, "every asset problem (Shape once)");
        for (problem, text) in cases {
            let e = DataError::Format { file: "f.gz".into(), problem };
            assert_eq!(data_error(Lang::En, &e), format!("f.gz: {text}"));
        }
    }

    #[test]
    fn a_build_errors_english_is_todays() {
        let en: Vec<String> = build_errors().iter().map(|e| build_error(Lang::En, e)).collect();
        assert_eq!(
            en,
            [
                "canary: not a drawing: its last character has bits beyond the 784 pixels",
                "epochs: 0 is out of range; allowed 1 to 200",
                "train_size: 60000 samples (members + non-members for the attack) do not fit in the 50000 training images of mnist",
                "train_size: 30000 samples do not fit in the 20000 training images of fashion",
                "ood_source: \"other\" needs the other dataset loaded",
                "ood_source: the other dataset's images are of another size",
                "canary: a drawing is 784 pixels, this dataset's images 1024",
                "canary: no clean member to put it in place of",
            ]
        );
    }
}
