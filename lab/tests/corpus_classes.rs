//! The engines' classes recorded in the corpus (`corpus/classes/`): checked by their checksums,
//! read into the class lists `corpus check` and the codec's own testee judge full objects and
//! script paths with, and, with the engines installed, still what the engines answer.

use gdmarshal_lab::corpus::classes::{DIR, SUMS, file_name, load, record};
use gdmarshal_lab::corpus::{CorpusError, Source, default_dir, load_from};
use gdmarshal_lab::oracle::{EngineConfig, start_all};

/// The classes folder of the committed corpus, copied.
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::create_dir(dir.path().join(DIR)).unwrap();
    for entry in std::fs::read_dir(default_dir().join(DIR)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        std::fs::copy(&path, dir.path().join(DIR).join(name)).unwrap();
    }
    dir
}

/// Every corpus engine has its classes recorded: the class list, 4.x's project scripts, and the
/// defaults of the classes its full objects hold.
#[test]
fn every_corpus_engine_has_its_classes() {
    let source = Source::Dir(default_dir());
    for c in load_from(&source).unwrap() {
        let list = load(&source, &c.entry.version, c.profile)
            .unwrap()
            .unwrap_or_else(|| panic!("{}: no classes recorded", c.entry.version));
        assert!(list.len() > 300, "{}: {}", c.entry.version, list.len());
        assert!(list.instantiable("Resource") && list.inherits("Node2D", "Node"));
        let stored: Vec<&str> = list.defaults("Resource").unwrap().stored_names().collect();
        assert_eq!(
            stored,
            ["resource_local_to_scene", "resource_name", "script"]
        );
        assert_eq!(
            list.has_script("res://none.gd"),
            !c.profile.typed_arrays(),
            "{}: only 4.x tells its scripts",
            c.entry.version
        );
        assert!(list.has_script("res://fixtures/item.gd"));
    }
}

/// A file changed after it was recorded, or listed in no checksum line, is refused, naming the
/// file; a version without a file has no classes.
#[test]
fn a_changed_classes_file_is_refused() {
    let dir = copy();
    let source = Source::Dir(dir.path().to_path_buf());
    let version = "4.6.3.stable";
    let profile = "4.6".parse().unwrap();
    assert!(load(&source, version, profile).unwrap().is_some());
    assert!(load(&source, "9.9.9.stable", profile).unwrap().is_none());
    let path = dir.path().join(file_name(version));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace(
            "\"Resource\",\"RefCounted\",true",
            "\"Resource\",\"RefCounted\",false",
        ),
    )
    .unwrap();
    let refused = |source: &Source| match load(source, version, profile) {
        Err(CorpusError::Classes { file, problem }) => (file, problem),
        other => panic!("{other:?}"),
    };
    let (file, problem) = refused(&source);
    assert_eq!(file, path);
    assert!(problem.contains("SHA-256"), "{problem}");
    std::fs::write(&path, text).unwrap();
    std::fs::write(dir.path().join(SUMS), "").unwrap();
    assert!(refused(&source).1.contains("no line"));
    // The same file, unchanged, is read again once listed.
    std::fs::copy(default_dir().join(SUMS), dir.path().join(SUMS)).unwrap();
    assert!(load(&source, version, profile).unwrap().is_some());
}

/// With the CI engines installed, each still answers as its classes file records (which classes
/// it has, its project's scripts, the defaults of the classes in its records).
#[test]
fn the_engines_answer_as_their_classes_files_record() {
    let source = Source::Dir(default_dir());
    let corpora = load_from(&source).unwrap();
    let specs = gdmarshal_testkit::engines::ci();
    for (spec, engine) in start_all(specs, &EngineConfig::default()) {
        let mut engine = engine.unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        let version = engine.info().version.clone();
        let c = corpora.iter().find(|c| c.entry.version == version).unwrap();
        let answered = record(&mut engine, &c.records).unwrap();
        let recorded = std::fs::read(default_dir().join(file_name(&version))).unwrap();
        let recorded: serde_json::Value = serde_json::from_slice(&recorded).unwrap();
        assert!(
            answered == recorded,
            "{version}: the engine answers otherwise; run `gdmarshal corpus classes`"
        );
    }
}
