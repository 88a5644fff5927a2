//! `gdmarshal implementations`: the matrix of a folder of adapters, run through conform. Here the
//! adapters are this crate's own codec and two versions of a deliberately wrong testee
//! (tests/testees/wrong.py), so what the page must say is known.

mod common;

use std::path::{Path, PathBuf};

use common::{BIN, gdmarshal_in};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn adapter(dir: &Path, id: &str, package: &str, version: &str, testee: &str) {
    std::fs::create_dir_all(dir.join(id)).unwrap();
    let manifest = serde_json::json!({
        "package": package, "registry": "npm", "version": version, "language": "Python",
        "license": "MIT", "repository": "https://example.org/wrong",
        "claims": "what wrong.py claims", "testee": testee,
    });
    std::fs::write(
        dir.join(id).join("implementation.json"),
        manifest.to_string(),
    )
    .unwrap();
}

#[test]
fn the_matrix_lists_each_library_and_only_defects_that_reproduce() {
    let root = root();
    // Under the repository: the testees' sandbox has a /tmp of its own.
    let scratch = tempfile::tempdir_in(root.join("target")).unwrap();
    let dir = scratch.path().join("implementations");
    let wrong = root.join("tests/testees/wrong.py");
    let wrong = wrong.display();
    adapter(&dir, "own", "own-codec", "1.0.0", &format!("{BIN} testee"));
    adapter(
        &dir,
        "wrong-0.9",
        "wrong",
        "0.9.0",
        &format!("python3 {wrong} deep-float-off"),
    );
    adapter(
        &dir,
        "wrong-1.0",
        "wrong",
        "1.0.0",
        &format!("python3 {wrong} float64"),
    );
    let page = scratch.path().join("page.md");
    let json = scratch.path().join("matrix.json");
    let args = |extra: &[&str]| -> Vec<String> {
        // Two groups of cases keep the debug build's runs short: floats (which wrong.py float64
        // writes wrongly) and every valid decode.
        let mut a: Vec<String> = [
            "implementations",
            "--godot",
            "3.6",
            "--run",
            "*/float/**",
            "--run",
            "decode/valid/**",
            "--dir",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(dir.display().to_string());
        a.extend(["--out".into(), page.display().to_string()]);
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        gdmarshal_in(&root, &a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, _, err) = run(&["--json", &json.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let text = std::fs::read_to_string(&page).unwrap();

    // One row per adapter on 3.6; the codec passes all it claims, the others do not.
    let rows = m["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{m:#}");
    let row = |id: &str| rows.iter().find(|r| r["implementation"] == id).unwrap();
    let own = &row("own")["total"];
    assert!(own["claimed"].as_u64().unwrap() > 200, "{own}");
    // Its known differences (the engines' own, in its handshake) are no failures.
    assert_eq!(
        (&own["wrong"], &own["errors"]),
        (&0.into(), &0.into()),
        "{own}"
    );
    for id in ["wrong-0.9", "wrong-1.0"] {
        let t = &row(id)["total"];
        assert!(t["passed"].as_u64() < t["claimed"].as_u64(), "{id}: {t}");
    }
    assert!(text.contains("| own-codec | npm | 1.0.0 | 3.6 |"), "{text}");
    assert!(
        text.contains("No defects: no claimed case was answered otherwise than the engine did."),
        "{text}"
    );

    // Every listed defect was re-run: it fails again, the codec passes it, and an older version's
    // defect says how the newest version does.
    let defects = m["defects"].as_array().unwrap();
    let listed: Vec<_> = defects
        .iter()
        .filter(|d| d["check"]["fails_again"] == true && d["check"]["own_codec_passes"] == true)
        .collect();
    assert!(!listed.is_empty(), "{m:#}");
    assert!(
        listed
            .iter()
            .filter(|d| d["implementation"] == "wrong-0.9")
            .all(|d| d["check"]["in_newest"].is_string()),
        "{m:#}"
    );
    assert!(
        listed
            .iter()
            .filter(|d| d["implementation"] == "wrong-1.0")
            .all(|d| d["check"]["in_newest"].is_null()),
        "{m:#}"
    );
    // A float64 writer's reproducer: a float the engine writes in 32 bits.
    let float = listed
        .iter()
        .find(|d| d["implementation"] == "wrong-1.0")
        .unwrap();
    let replay = float["reproducer"]["replay"].as_str().unwrap();
    assert!(
        text.contains(replay),
        "the page shows the replay line:\n{text}"
    );

    // The replay line, as a user runs it, fails; the same line with the codec passes.
    let words = shlex::split(replay).unwrap();
    assert_eq!(words[0], "gdmarshal");
    let words: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let (code, out, _) = gdmarshal_in(&root, &words);
    assert_eq!(code, 1, "{out}");
    let at = words.iter().position(|w| *w == "--testee").unwrap() + 1;
    let own_testee = format!("{BIN} testee");
    let mut with_codec = words.clone();
    with_codec[at] = &own_testee;
    let (code, out, _) = gdmarshal_in(&root, &with_codec);
    assert_eq!(code, 0, "{out}");

    // --check: up to date now; a changed figure is found, with its line.
    let json_arg = json.display().to_string();
    let (code, _, err) = run(&["--check", "--json", &json_arg]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("measuring again"), "{err}");
    std::fs::write(&page, text.replacen("| 3.6 |", "| 3.5 |", 1)).unwrap();
    let (code, _, err) = run(&["--check"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("page.md:") && err.contains("would change"),
        "{err}"
    );
    // A row whose counts part from the committed JSON is measured again before it is called
    // changed; a real difference stays.
    let mut committed = m.clone();
    let total = &mut committed["rows"][0]["total"]["passed"];
    *total = (total.as_u64().unwrap() + 1).into();
    std::fs::write(&json, serde_json::to_string_pretty(&committed).unwrap()).unwrap();
    let (code, _, err) = run(&["--check", "--json", &json_arg]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.matches("measuring again").count(), 2, "{err}");
    assert!(
        err.contains("matrix.json:") && err.contains("would change"),
        "{err}"
    );
}

#[test]
fn a_broken_adapter_folder_is_named() {
    let root = root();
    let scratch = tempfile::tempdir_in(root.join("target")).unwrap();
    std::fs::create_dir(scratch.path().join("lib")).unwrap();
    std::fs::write(
        scratch.path().join("lib/implementation.json"),
        "{\"package\": 1}",
    )
    .unwrap();
    let dir = scratch.path().display().to_string();
    let (code, _, err) = gdmarshal_in(&root, &["implementations", "--dir", &dir, "--check"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("lib/implementation.json") && err.contains("line 1"),
        "{err}"
    );
}
