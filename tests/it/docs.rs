//! The docs hold what the code, the spec and the measurements say. The README is the
//! front door (at most 8 KiB); every relative link in the markdown files, and every link
//! of the docs into this repository, points at a file of the tree; and the figures the
//! docs state are checked where they live: the opt-out count in the README, the spec's
//! counts in the crate docs, the method markers in CONTRIBUTING.md, the layers' defaults,
//! the write path's bounds and the performance figures in the guide (`src/guide/`). (The
//! comparison with near-api-rs and the examples' list are checked in `examples.rs`, the
//! CHANGELOG's generated blocks in `codegen_diff.rs`.)

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs of whitespace as one space.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The documentation text of a file of the tree (a path relative to the root): a
/// markdown file as it is; of a Rust file, its `//!` lines without their marker.
fn doc_text(path: &str) -> String {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    if !path.ends_with(".rs") {
        return text;
    }
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Directories that hold no docs of ours: build output, git data, installed packages.
fn skipped(name: &str) -> bool {
    matches!(name, "target" | ".git" | "node_modules")
}

/// Every file under `dir` whose name ends with `ext`, relative to the root, sorted.
fn files_under(dir: &Path, ext: &str, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if !skipped(name) {
                files_under(&path, ext, found);
            }
        } else if name.ends_with(ext) {
            let relative = path.strip_prefix(root()).expect("under the root");
            found.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn markdown_files() -> Vec<String> {
    let mut found = Vec::new();
    files_under(root(), ".md", &mut found);
    found.sort();
    found
}

/// The docs users read: every markdown file, the crate docs and the guide, the mock's.
fn doc_files() -> Vec<String> {
    let mut files = markdown_files();
    files.push("src/lib.rs".to_owned());
    files.push("mock/src/lib.rs".to_owned());
    files_under(&root().join("src/guide"), ".rs", &mut files);
    files
}

#[test]
fn the_readme_is_at_most_8_kib() {
    let size = std::fs::metadata(root().join("README.md"))
        .expect("README.md")
        .len();
    assert!(
        size <= 8192,
        "README.md is {size} bytes: the front door holds at most 8192; move the rest to \
         the guide (src/guide/), cli/README.md, mock/README.md or CONTRIBUTING.md"
    );
}

/// A markdown text without its fenced code blocks and inline code spans, where a `](`
/// or a `[x]: y` is code, not a link.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        // Odd-numbered pieces between backticks are code spans.
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(piece);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of a markdown text's links: inline (`[text](target)`, images too),
/// reference definitions (`[name]: target`) and HTML `href`s.
fn link_targets(markdown: &str) -> Vec<String> {
    let text = prose(markdown);
    let mut targets = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(rest[..end].to_owned());
        }
    }
    for line in text.lines() {
        let line = line.trim_start();
        if let Some((label, target)) = line.strip_prefix('[').and_then(|l| l.split_once("]:")) {
            if !label.is_empty() && !label.contains(['[', ']', '(']) {
                targets.push(target.trim().to_owned());
            }
        }
    }
    for (at, _) in text.match_indices("href=\"") {
        let rest = &text[at + 6..];
        if let Some(end) = rest.find('"') {
            targets.push(rest[..end].to_owned());
        }
    }
    targets
        .into_iter()
        // A title after the target (`(path "title")`) is not part of it.
        .map(|t| t.split_whitespace().next().unwrap_or_default().to_owned())
        .collect()
}

/// Where a relative link from `file` leads, inside the tree, or why it doesn't.
fn resolve(file: &str, target: &str) -> Result<PathBuf, String> {
    let path = target.split('#').next().unwrap_or_default();
    let mut resolved = root().join(file);
    resolved.pop();
    for part in Path::new(path).components() {
        use std::path::Component;
        match part {
            Component::ParentDir => {
                if !resolved.pop() || !resolved.starts_with(root()) {
                    return Err(format!("{target} leaves the repository"));
                }
            }
            Component::Normal(name) => resolved.push(name),
            Component::CurDir => {}
            _ => return Err(format!("{target} is not relative")),
        }
    }
    if resolved.starts_with(root()) {
        Ok(resolved)
    } else {
        Err(format!("{target} leaves the repository"))
    }
}

/// Every relative link of every markdown file points at a file or directory of the tree,
/// and so does every link of the docs (markdown and `//!`) into this repository on
/// GitHub (`https://github.com/near-rpc/near-rpc/blob/main/PATH`: the crate docs link to
/// the READMEs that way, as docs.rs has no file of the tree).
#[test]
fn every_relative_link_in_the_docs_points_at_a_file() {
    const REPOSITORY: &str = "https://github.com/near-rpc/near-rpc/blob/main/";
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = doc_text(&file);
        for target in link_targets(&text) {
            let external = target.contains("://") || target.starts_with("mailto:");
            if external || target.starts_with('#') || target.is_empty() {
                continue;
            }
            checked += 1;
            match resolve(&file, &target) {
                Ok(path) if path.exists() => {}
                Ok(_) => broken.push(format!("{file}: {target} does not exist")),
                Err(why) => broken.push(format!("{file}: {why}")),
            }
        }
    }
    for file in doc_files() {
        let text = doc_text(&file);
        for (at, _) in text.match_indices(REPOSITORY) {
            let rest = &text[at + REPOSITORY.len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | '"' | '#'))
                .unwrap_or(rest.len());
            checked += 1;
            if !root().join(&rest[..end]).exists() {
                broken.push(format!(
                    "{file}: {REPOSITORY}{} does not exist",
                    &rest[..end]
                ));
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} links found: is the parser broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The link finder sees what a reader clicks, and not what is code.
#[test]
fn the_link_finder_reads_links_and_skips_code() {
    let text = "see [a](x.md), ![b](img/y.png \"title\") and [c][r]\n\
                [r]: ../z.md#part\n\
                `[not](code.md)` and <a href=\"w.md\">w</a>\n\
                ```rust\nlet v = a[i](j);\n[k]: no.md\n```\n";
    assert_eq!(
        link_targets(text),
        ["x.md", "img/y.png", "../z.md#part", "w.md"]
    );
    assert_eq!(
        resolve("docs/comparison.md", "../README.md#read-write-test").unwrap(),
        root().join("README.md")
    );
    assert!(resolve("README.md", "../shared/spec").is_err());
}

/// The guide's and the CHANGELOG's bounds of the write path are the constants': how many
/// transactions one intent signs and how many of them can execute.
#[test]
#[cfg(feature = "client")]
fn the_guide_states_the_write_paths_bounds() {
    use near_rpc::client::{MAX_NONCE_RESIGNS, MAX_RESIGNS};
    let guide = words(&doc_text("src/guide/writing.rs"));
    for stated in [
        format!(
            "signs at most 1 + [`MAX_RESIGNS`][max-resigns] = {} transactions",
            1 + MAX_RESIGNS
        ),
        format!(
            "at most 1 + [`MAX_NONCE_RESIGNS`][max-nonce] = {} of them can ever execute",
            1 + MAX_NONCE_RESIGNS
        ),
    ] {
        assert!(guide.contains(&stated), "the guide should say {stated:?}");
    }
    let changelog = words(&doc_text("CHANGELOG.md"));
    for stated in [
        format!("`MAX_RESIGNS` ({MAX_RESIGNS}), `MAX_NONCE_RESIGNS` ({MAX_NONCE_RESIGNS})"),
        format!(
            "signs at most {} transactions, of which at most {} can execute",
            1 + MAX_RESIGNS,
            1 + MAX_NONCE_RESIGNS
        ),
    ] {
        assert!(
            changelog.contains(&stated),
            "CHANGELOG.md should say {stated:?}"
        );
    }
}

/// The README's count of the opt-out run (`NEAR_RPC_SKIP_SHARED=1`) is this binary's:
/// its tests, less those marked to be ignored without the upstream data. Checked in the
/// default build, the one the README's command makes.
#[test]
#[cfg(near_rpc_default_spec)]
fn the_readme_counts_the_opt_out_run() {
    let listed = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--list", "--format", "terse"])
        .output()
        .expect("the test binary lists its tests");
    let total = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter(|l| l.ends_with(": test"))
        .count();
    fn marked(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .expect("tests/it")
            .map(|entry| entry.expect("entry").path())
            .map(|path| {
                if path.is_dir() {
                    marked(&path)
                } else if path.extension().is_some_and(|e| e == "rs") {
                    std::fs::read_to_string(&path)
                        .expect("a test source")
                        .lines()
                        .filter(|l| {
                            l.trim_start()
                                .starts_with("#[cfg_attr(near_rpc_skip_shared, ignore")
                        })
                        .count()
                } else {
                    0
                }
            })
            .sum()
    }
    let ignored = marked(&root().join("tests/it"));
    assert!(
        total > ignored && ignored > 0,
        "{total} tests, {ignored} marked"
    );
    let expected = format!(
        "`{} passed; 0 failed; {ignored} ignored` in `tests/it`",
        total - ignored
    );
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(
        readme.contains(&expected),
        "README.md should say {expected}"
    );
}

/// The crate docs' counts of the default spec's schemas and methods and the OpenRPC-only
/// methods they name, every "all N methods" the docs promise, and CONTRIBUTING.md's
/// method markers of every shipped version are what the spec and `generated/` hold.
#[test]
#[cfg(near_rpc_default_spec)]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn the_docs_count_the_spec_and_the_markers() {
    let crate_docs = words(&doc_text("src/lib.rs"));
    let shared = common::shared_dir();
    let openapi: serde_json::Value = serde_json::from_slice(
        &std::fs::read(common::spec_path(&shared, near_rpc::SPEC_VERSION)).expect("the spec"),
    )
    .expect("the spec is JSON");
    let schemas = openapi["components"]["schemas"]
        .as_object()
        .expect("schemas")
        .len();
    let paths = openapi["paths"].as_object().expect("paths").len();
    let stated = format!("the spec's {schemas} schemas");
    assert!(
        crate_docs.contains(&stated),
        "src/lib.rs's docs should say {stated:?}"
    );
    let stated = format!("its {paths} methods, plus the two only nearcore's OpenRPC");
    assert!(
        crate_docs.contains(&stated),
        "src/lib.rs's docs should say {stated:?}"
    );
    // The two it names are methods here and not paths of the OpenAPI document.
    for name in ["light_client_block_proof", "EXPERIMENTAL_client_config"] {
        assert!(near_rpc::methods::ALL.contains(&name), "{name}");
        assert!(openapi["paths"].get(format!("/{name}")).is_none(), "{name}");
    }
    let all = near_rpc::methods::ALL.len();
    assert_eq!(all, paths + 2);
    // Every "all N methods" the docs promise (the README, the crate docs and the guide,
    // the CLI's, the mock's, ...).
    let mut counted = Vec::new();
    for file in doc_files() {
        let text = words(&doc_text(&file));
        for n in text
            .split("all ")
            .skip(1)
            .filter_map(|rest| rest.split_once(" methods").map(|(n, _)| n))
            .filter(|n| n.parse::<usize>().is_ok())
        {
            counted.push((file.clone(), n.to_owned()));
        }
    }
    assert!(
        counted.len() >= 3,
        "the docs promise all N methods: {counted:?}"
    );
    for (file, n) in counted {
        assert_eq!(n, all.to_string(), "{file} says \"all {n} methods\"");
    }
    // `generated/`'s markers, per version, as the layout table states them.
    let markers = |module: &str| {
        std::fs::read_to_string(root().join("generated").join(module).join("methods.rs"))
            .expect("methods.rs")
            .matches("RpcMethod for ")
            .count()
    };
    // The published versions after the default one, in their order, and the derived one.
    let (published, derived): (Vec<_>, Vec<_>) = near_rpc_codegen::load::shipped()
        .into_iter()
        .filter(|pin| pin.version != near_rpc::SPEC_VERSION)
        .partition(|pin| !pin.version.starts_with("nearcore-"));
    let (Some(first), Some(last), [derived]) = (published.first(), published.last(), &derived[..])
    else {
        panic!("expected published versions after the default and one derived version");
    };
    let later: Vec<usize> = published.iter().map(|pin| markers(&pin.module())).collect();
    assert!(later.windows(2).all(|w| w[0] == w[1]), "{later:?}");
    let stated = format!(
        "the method markers: {} in {}, which merges the OpenRPC document; {} in {} to {}; \
         {} in {}",
        markers(&format!("v{}", near_rpc::SPEC_VERSION.replace('.', "_"))),
        near_rpc::SPEC_VERSION,
        later[0],
        first.version,
        last.version,
        markers(&derived.module()),
        derived.version,
    );
    let contributing = words(&doc_text("CONTRIBUTING.md"));
    assert!(
        contributing.contains(&stated),
        "CONTRIBUTING.md should say {stated:?}"
    );
}

/// The guide's table of layers (`src/guide/errors.rs`) states the defaults the code has.
#[test]
#[cfg(feature = "client")]
fn the_guide_states_the_layers_defaults() {
    use near_rpc::client::{
        layers::{self, RetryPolicy},
        transport,
    };
    let guide = doc_text("src/guide/errors.rs");
    let row = |layer: &str| {
        guide
            .lines()
            .find(|l| l.starts_with(&format!("| `{layer}` |")))
            .unwrap_or_else(|| panic!("the guide's layer table has no row for {layer}"))
            .to_owned()
    };
    let mib = |bytes: usize| {
        assert_eq!(bytes % (1024 * 1024), 0, "{bytes}");
        bytes / (1024 * 1024)
    };
    let retry = RetryPolicy::default();
    for (layer, stated) in [
        (
            "Deadline",
            format!(
                "| {} s (`.deadline(..)`) |",
                near_rpc::client::layers::DEFAULT_DEADLINE.as_secs()
            ),
        ),
        (
            "SizeLimit",
            format!(
                "| request {} MiB, response {} MiB |",
                mib(near_rpc::client::layers::DEFAULT_MAX_REQUEST_BYTES),
                mib(near_rpc::client::transport::DEFAULT_MAX_RESPONSE_BYTES)
            ),
        ),
        (
            "Retry",
            format!(
                "| {} retries (more than {} refused by `build()`), {} ms doubling to {} s, \
                 `Retry-After` ≤ {} s |",
                retry.max_retries,
                layers::MAX_RETRIES,
                retry.initial_backoff.as_millis(),
                retry.max_backoff.as_secs(),
                retry.max_retry_after.as_secs()
            ),
        ),
        (
            "HttpTransport",
            format!(
                "| {} s per attempt, redirects within the origin only |",
                transport::DEFAULT_TIMEOUT.as_secs()
            ),
        ),
    ] {
        assert!(
            row(layer).ends_with(&stated),
            "the guide's {layer} row should end with {stated:?}: {}",
            row(layer)
        );
    }
    // Within the origin only: the transport's default policy.
    assert_eq!(
        transport::RedirectPolicy::default(),
        transport::RedirectPolicy::SameOrigin
    );
}

/// The guide's performance figures (`src/guide/decoding.rs`) are BENCHMARKS.md's, rounded
/// as the guide writes them: the decode ratios (instructions) and the release build
/// times. Compared with runs of whitespace as one space, so rewrapping the guide's
/// paragraph changes nothing.
#[test]
fn the_guide_performance_figures_are_the_benchmarks() {
    let guide = words(&doc_text("src/guide/decoding.rs"));
    let benchmarks = std::fs::read_to_string(root().join("BENCHMARKS.md")).expect("BENCHMARKS.md");
    // The first table row whose first cell starts with `starts`: its cells, `**` and
    // `×` stripped.
    let row = |starts: &str| -> Vec<String> {
        let line = benchmarks
            .lines()
            .find(|l| l.starts_with(&format!("| {starts}")))
            .unwrap_or_else(|| panic!("BENCHMARKS.md has no row starting {starts:?}"));
        line.split('|')
            .map(|c| c.trim().trim_matches('*').trim_end_matches('×').to_owned())
            .collect()
    };
    // A two-decimal figure in hundredths, exactly as written (no binary rounding).
    let hundredths = |cell: &str| -> u64 {
        let (whole, fraction) = cell
            .split_once('.')
            .unwrap_or_else(|| panic!("not a two-decimal figure in BENCHMARKS.md: {cell:?}"));
        assert_eq!(fraction.len(), 2, "{cell:?}");
        whole.parse::<u64>().expect("digits") * 100 + fraction.parse::<u64>().expect("digits")
    };
    let tenths = |tenths: u64| format!("{}.{}", tenths / 10, tenths % 10);
    // Half up, as a person rounds; "within" rounds up.
    let nearest = |cell: &str| tenths((hundredths(cell) + 5) / 10);
    let up = |cell: &str| tenths(hundredths(cell).div_ceil(10));
    // Decode: the columns "openapi-types / near-rpc" (7th) and "near-rpc / IgnoredAny"
    // (9th) of the instruction table.
    let tx = row("tx_status (");
    let genesis = row("genesis_config (");
    let protocol = row("protocol_config (");
    let floor = [&tx, &genesis, &protocol]
        .into_iter()
        .max_by_key(|r| hundredths(&r[9]))
        .expect("three rows");
    let stated = format!(
        "transaction status in {}× fewer instructions than near-openapi-types, a genesis config \
         in {}× and a protocol config in {}× fewer, within {}× of the instructions",
        nearest(&tx[7]),
        nearest(&genesis[7]),
        nearest(&protocol[7]),
        up(&floor[9]),
    );
    assert!(guide.contains(&stated), "the guide should say {stated:?}");
    // Build times: the release column (3rd) of the compile-time table, whose rows of the
    // decoding crate come first.
    let ours = row("decoding crate rebuilt alone: near-rpc");
    let openapi = row("… near-openapi-types");
    let openrpc = row("… near-openrpc-client");
    let library = row("library + decoding crate rebuilt");
    let ratio = row("**near-rpc / near-openapi-types** (target ≤ 0.75)");
    let stated = format!(
        "({} s to rebuild a crate decoding the three main methods in release, against {} s on \
         near-openrpc-client and {} s on near-openapi-types), near-rpc itself builds in {} s \
         in release (the library and that crate together: {}× near-openapi-types)",
        ours[3],
        nearest(&openrpc[3]),
        nearest(&openapi[3]),
        nearest(&library[3]),
        ratio[3],
    );
    assert!(guide.contains(&stated), "the guide should say {stated:?}");
}
