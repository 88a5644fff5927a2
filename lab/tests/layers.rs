//! The crates are layered, each depending only on crates below it; within the model, the lab and
//! the CLI no module imports a module that imports it back, directly or through others; in the
//! codec only the one cycle its module explains. The test reads every source file as Rust, resolves each path it names
//! (`use` items, types, calls; `crate::`, `super::` and `self::`, through re-exports) to the file
//! that defines it, and fails on a cycle between the top-level modules of a crate (`oracle`,
//! `corpus`, `conform`, ...) or between its files. Test modules (`#[cfg(test)]`) are left out:
//! they are not part of what a module needs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use syn::visit::Visit;

/// A module, by its path from the crate root (`["oracle", "engine"]`); the root is empty.
type ModPath = Vec<String>;

/// What one file says: the modules it names, and the names it re-exports from elsewhere.
struct FileFacts {
    /// Every path the file names that starts at `crate`, `super` or `self`, made absolute.
    named: Vec<ModPath>,
    /// `pub use` items: the name as seen from this module, and the absolute path it stands for.
    reexports: BTreeMap<String, ModPath>,
}

/// The crate's files by module path.
fn modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder reads") {
            let path = entry.expect("a folder entry reads").path();
            if path.is_dir() {
                // src/bin/ holds binaries of their own, each a crate root.
                if path != src.join("bin") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let mut parts: ModPath = rel
                .with_extension("")
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// `segments` as seen from the module `at`, made absolute; `None` for a path that does not start
/// at this crate (std, a dependency, a local name). A path may start at a child module of `at`
/// without `self::`.
fn absolute(at: &[String], segments: &[String], known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let first = segments.first()?;
    let mut child = at.to_vec();
    child.push(first.clone());
    let (mut base, mut rest): (ModPath, &[String]) = match first.as_str() {
        "crate" => (Vec::new(), &segments[1..]),
        "self" | "super" => (at.to_vec(), &segments[1..]),
        _ if known.contains(&child) => (at.to_vec(), segments),
        _ => return None,
    };
    if first == "super" {
        base.pop();
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The paths a `use` tree names, each as its segments (a glob or a group expands to its items).
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut full = prefix.clone();
            if name != "self" {
                full.push(name.clone());
            }
            let seen = if name == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                name
            };
            out.push((full, seen));
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix.clone();
            full.push(r.ident.to_string());
            out.push((full, r.rename.to_string()));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), "*".to_string())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

/// Collects the paths of one file, skipping `#[cfg(test)]` items.
struct Collector<'a> {
    at: &'a [String],
    known: &'a BTreeSet<ModPath>,
    facts: FileFacts,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            _ => &Vec::new(),
        };
        if is_test(attrs) {
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut found = Vec::new();
        use_paths(&item.tree, &mut Vec::new(), &mut found);
        let public = !matches!(item.vis, syn::Visibility::Inherited);
        for (segments, seen) in found {
            let Some(path) = absolute(self.at, &segments, self.known) else {
                continue;
            };
            if public && seen != "*" {
                self.facts.reexports.insert(seen, path);
            } else {
                self.facts.named.push(path);
            }
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(p) = absolute(self.at, &segments, self.known) {
            self.facts.named.push(p);
        }
        syn::visit::visit_path(self, path);
    }
}

fn facts(at: &[String], file: &Path, known: &BTreeSet<ModPath>) -> FileFacts {
    let text = std::fs::read_to_string(file).expect("a source file reads");
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut c = Collector {
        at,
        known,
        facts: FileFacts {
            named: Vec::new(),
            reexports: BTreeMap::new(),
        },
    };
    c.visit_file(&ast);
    c.facts
}

/// The module that defines what `path` names: the longest module prefix, followed through the
/// re-exports of the modules on the way.
fn resolve(
    path: &[String],
    files: &BTreeMap<ModPath, PathBuf>,
    reexports: &BTreeMap<ModPath, BTreeMap<String, ModPath>>,
    depth: usize,
) -> ModPath {
    let mut module: ModPath = Vec::new();
    for (i, segment) in path.iter().enumerate() {
        let mut next = module.clone();
        next.push(segment.clone());
        if files.contains_key(&next) {
            module = next;
            continue;
        }
        if depth < 8
            && let Some(target) = reexports.get(&module).and_then(|r| r.get(segment))
        {
            let mut through = target.clone();
            through.extend(path[i + 1..].iter().cloned());
            return resolve(&through, files, reexports, depth + 1);
        }
        break;
    }
    module
}

/// Every edge "this file's module uses that module", between distinct modules.
fn edges(src: &Path) -> BTreeSet<(ModPath, ModPath)> {
    let files = modules(src);
    let known: BTreeSet<ModPath> = files.keys().cloned().collect();
    let all: BTreeMap<ModPath, FileFacts> = files
        .iter()
        .map(|(m, f)| (m.clone(), facts(m, f, &known)))
        .collect();
    let reexports = all
        .iter()
        .map(|(m, f)| (m.clone(), f.reexports.clone()))
        .collect();
    let mut out = BTreeSet::new();
    for (from, f) in &all {
        for path in &f.named {
            let to = resolve(path, &files, &reexports, 0);
            // A module is made of its children: its use of them is not counted (their use of
            // its shared items is). The root (lib.rs, main.rs) only declares and re-exports.
            if !to.starts_with(from) && !to.is_empty() && !from.is_empty() {
                out.insert((from.clone(), to));
            }
        }
    }
    out
}

/// The cycles of a graph, each as its sorted members with the edges among them.
fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<String> {
    let graph: DiGraphMap<&str, ()> =
        DiGraphMap::from_edges(edges.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    let mut out = Vec::new();
    for mut scc in tarjan_scc(&graph) {
        if scc.len() < 2 {
            continue;
        }
        scc.sort();
        let within: Vec<String> = edges
            .iter()
            .filter(|(a, b)| scc.contains(&a.as_str()) && scc.contains(&b.as_str()))
            .map(|(a, b)| format!("{a} -> {b}"))
            .collect();
        out.push(format!("{}: {}", scc.join(", "), within.join("; ")));
    }
    out
}

/// The crate's cycles (between top-level modules, then between files) and how many file and
/// module edges the walk found.
fn cycles_of(crate_src: &str) -> (Vec<String>, usize, usize) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(crate_src);
    let edges = edges(&src);
    let name = |m: &ModPath| m.join("::");
    let files: BTreeSet<(String, String)> = edges.iter().map(|(a, b)| (name(a), name(b))).collect();
    let top: BTreeSet<(String, String)> = edges
        .iter()
        .filter(|(a, b)| a[0] != b[0])
        .map(|(a, b)| (a[0].clone(), b[0].clone()))
        .collect();
    let mut found = cycles(&top);
    found.extend(cycles(&files));
    (found, files.len(), top.len())
}

fn check(crate_src: &str) -> (usize, usize) {
    let (found, files, top) = cycles_of(crate_src);
    assert!(
        found.is_empty(),
        "import cycles in {crate_src}:\n{}",
        found.join("\n")
    );
    (files, top)
}

#[test]
fn the_lab_has_no_import_cycle() {
    let (files, top) = check("lab/src");
    // The walk found the lab's imports (a resolver that found none would pass any tree).
    assert!(
        files > 300 && top > 30,
        "{files} file edges, {top} module edges"
    );
}

#[test]
fn the_cli_has_no_import_cycle() {
    let (files, _) = check("cli/src");
    assert!(files > 15, "{files} file edges");
}

#[test]
fn the_codec_has_no_import_cycle_but_the_one_its_module_explains() {
    let (found, files, _) = cycles_of("src");
    assert!(files > 60, "{files} file edges");
    // string.rs's opening comment says why it and text.rs use each other (through utf8.rs).
    let members: Vec<&str> = found
        .iter()
        .map(|c| c.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(members, ["string, text, utf8"; 2], "{found:#?}");
    let string =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/string.rs"))
            .unwrap();
    assert!(string.contains("[`crate::text`] (through [`crate::utf8`]) use each other"));
}

/// The workspace's crates from the bottom up: each may depend (outside its tests) only on crates
/// of a lower layer.
const CRATE_LAYERS: &[&[&str]] = &[
    &["gdmarshal"],
    &[
        "gdmarshal-corpus",
        "gdmarshal-kits",
        "gdmarshal-vectors",
        "gdmarshal-model",
    ],
    &["gdmarshal-lab"],
    &["gdmarshal-testkit", "gdmarshal-cli"],
    &[
        "gdmarshal-own-testee",
        "gdmarshal-web",
        "gdmarshal-python",
        "gdmarshal-npm",
    ],
];

/// Each workspace crate's dependencies on other workspace crates, tests' own left out, from
/// `cargo metadata`.
fn crate_dependencies() -> BTreeMap<String, Vec<String>> {
    // Its own process group, killed with whatever it left when it ends or the test fails.
    let out = gdmarshal_testkit::Group::spawn(
        gdmarshal_testkit::command(std::env::var("CARGO").unwrap_or("cargo".into()))
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo's JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|d| names.contains(d))
                .map(str::to_string)
                .collect();
            (p["name"].as_str().unwrap_or_default().to_string(), deps)
        })
        .collect()
}

#[test]
fn each_crate_depends_only_on_crates_below_it() {
    let layer = |name: &str| CRATE_LAYERS.iter().position(|l| l.contains(&name));
    let deps = crate_dependencies();
    let mut wrong = Vec::new();
    for (krate, on) in &deps {
        let Some(at) = layer(krate) else {
            wrong.push(format!("{krate}: in no layer of CRATE_LAYERS"));
            continue;
        };
        for d in on {
            if layer(d).is_none_or(|below| below >= at) {
                wrong.push(format!("{krate} -> {d}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // The model is what every room shares: the codec and data crates, no process, file-system,
    // network or engine code.
    assert_eq!(deps["gdmarshal-model"], ["gdmarshal"]);
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../model/Cargo.toml"))
            .unwrap();
    let table = manifest
        .split("[dependencies]")
        .nth(1)
        .expect("the model's dependencies");
    let external: Vec<&str> = table
        .lines()
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split_once(" = ").map(|(name, _)| name.trim()))
        .collect();
    assert_eq!(
        external,
        ["gdmarshal", "serde", "serde_json", "strum", "thiserror"]
    );
}

#[test]
fn the_model_has_no_import_cycle() {
    let (files, _) = check("model/src");
    assert!(files > 15, "{files} file edges");
}

#[test]
fn a_cycle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(dir.path().join("a.rs"), "pub struct A(crate::b::B);\n").unwrap();
    std::fs::create_dir(dir.path().join("b")).unwrap();
    std::fs::write(dir.path().join("b/mod.rs"), "mod c;\npub use c::B;\n").unwrap();
    std::fs::write(
        dir.path().join("b/c.rs"),
        "pub struct B;\nfn f(_: super::super::a::A) {}\n",
    )
    .unwrap();
    let edges = edges(dir.path());
    let files: BTreeSet<(String, String)> = edges
        .iter()
        .map(|(a, b)| (a.join("::"), b.join("::")))
        .collect();
    assert_eq!(
        cycles(&files),
        vec!["a, b::c: a -> b::c; b::c -> a".to_string()],
        "{files:?}"
    );
}
