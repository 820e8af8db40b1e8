//! The docs hold what the code, the spec and the measurements say. The README is the
//! front door (at most 8 KiB); every relative link in the markdown files points at a file
//! of the tree; every URL in the manifests and the docs is one known to exist (or one the
//! published crates will have, or no link at all); and the figures the
//! docs state are checked where they live: the opt-out count in the README, the spec's
//! counts in the crate docs, the method markers in CONTRIBUTING.md, the layers' defaults,
//! the write path's bounds and the performance figures in the guide (`src/guide/`). (The
//! comparison with near-api-rs and the examples' list are checked in `examples.rs`, the
//! CHANGELOG's generated blocks in `codegen_diff.rs`.)

// The figure checks hold the default spec's docs; other versions' builds compile the
// helpers they use without running them.
#![cfg_attr(not(near_rpc_default_spec), allow(unused))]

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

/// Every relative link of every markdown file points at a file or directory of the tree.
/// (The crate docs link to no file of the tree: docs.rs has none; their URLs are checked
/// by `every_url_is_known`.)
#[test]
fn every_relative_link_in_the_docs_points_at_a_file() {
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

/// The guide's, the README's and the CHANGELOG's bounds of the write path are the
/// constants': how many transactions one intent signs and how many of them can execute.
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
    let readme = words(&std::fs::read_to_string(root().join("README.md")).expect("README.md"));
    let stated = format!(
        "one intent signs at most {} transactions, and at most one of them executes, \
         unless the node that received one says falsely both that it refused it and that \
         it does not know its hash (then at most {})",
        1 + MAX_RESIGNS,
        1 + MAX_NONCE_RESIGNS
    );
    assert!(readme.contains(&stated), "README.md should say {stated:?}");
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
                "| {} s per attempt, redirects within the origin only (none on wasm32) |",
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

/// URLs known to exist that the manifests and docs may name, each with why it is here.
/// A new URL fails `every_url_is_known` until it is looked at and added (there is no
/// network in the tests: existence was checked when the URL was added).
const KNOWN_URLS: &[(&str, &str)] = &[
    (
        "https://docs.near.org/api/rpc/introduction",
        "NEAR's JSON-RPC docs",
    ),
    (
        "https://rpc.mainnet.near.org",
        "NEAR's public mainnet RPC endpoint",
    ),
    (
        "https://rpc.testnet.near.org",
        "NEAR's public testnet RPC endpoint",
    ),
    (
        "https://archival-rpc.mainnet.near.org",
        "NEAR's public mainnet archival RPC endpoint (docs.near.org/api/rpc/setup)",
    ),
    (
        "https://docs.near.org/api/rpc/providers",
        "NEAR's list of RPC providers and their free tiers",
    ),
    (
        "https://github.com/near/near-api-rs",
        "the crate docs/comparison.md compares with",
    ),
    (
        "https://github.com/r-near/near-kit-rs",
        "the other crate docs/comparison.md compares with (near-kit's `repository`)",
    ),
    (
        "https://keepachangelog.com/en/1.1.0/",
        "the CHANGELOG's format",
    ),
    (
        "https://semver.org/spec/v2.0.0.html",
        "the CHANGELOG's versioning",
    ),
];

/// The URLs of nearcore's own descriptions, which the generator carries into
/// `generated/` as the spec has them (nearcore's docs, NEPs, issues and code). Listed so
/// that a spec bump bringing a new one is looked at too.
const UPSTREAM_URLS: &[&str] = &[
    "https://docs.rs/near-primitives/latest/near_primitives/types/enum.BlockReference.html",
    "https://docs.rs/near-primitives/latest/near_primitives/views/enum.QueryRequest.html",
    "https://github.com/near/NEPs/issues/518",
    "https://github.com/near/NEPs/pull/167",
    "https://github.com/near/nearcore/blob/560f7fc8f4b3106e0d5d46050688610b1f104ac6/chain/client/src/client.rs#L2232",
    "https://github.com/near/nearcore/issues/3779",
    "https://github.com/nearprotocol/NEPs/pull/71",
    "https://near-nodes.io/archival/split-storage-archival",
    "https://near.github.io/nearcore/architecture/gas/gas_profile.html?highlight=WASM_HOST_COST#example-transaction-gas-profile",
    "https://near.github.io/nearcore/architecture/how/receipt-congestion.html?highlight=congestion#receipt-congestion",
    "https://near.github.io/nearcore/architecture/how/sync.html#catchup",
    "https://nomicon.io/ChainSpec/LightClient",
    "https://nomicon.io/DataStructures/Account",
    "https://nomicon.io/Economics/Economics.html#state-stake",
    "https://wiki.parity.io/WebAssembly-StackHeight",
];

/// Every http(s) URL of `text`: up to whitespace, a quote, a bracket, a backtick or an
/// escape (`\n` in a doc string), less trailing punctuation.
fn urls(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = ["https://", "http://"]
        .iter()
        .filter_map(|scheme| rest.find(scheme))
        .min()
    {
        let from = &rest[at..];
        let end = from
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '"' | '\'' | '`' | '(' | ')' | '<' | '>' | '[' | ']' | '\\'
                    )
            })
            .unwrap_or(from.len());
        let url = from[..end].trim_end_matches(['.', ',', ';', ':']);
        found.push(url.to_owned());
        rest = &from[end..];
    }
    found
}

/// The docs of a Rust file: its `//!` and `///` lines and its `doc = "..."` strings.
fn rust_docs(path: &str) -> String {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut docs: Vec<&str> = text
        .lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with("//!") || line.starts_with("///"))
        .collect();
    for (at, _) in text.match_indices("doc = \"") {
        let literal = &text[at + 7..];
        let mut escaped = false;
        let end = literal
            .char_indices()
            .find(|&(_, c)| {
                let closes = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                closes
            })
            .map_or(literal.len(), |(end, _)| end);
        docs.push(&literal[..end]);
    }
    docs.join("\n")
}

/// The workspace's crates that are published (no `publish = false`), by name.
fn published_crates() -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the workspace's members")
        .0;
    let mut crates = Vec::new();
    for member in members.split(',').map(|m| m.trim().trim_matches('"')) {
        if member.is_empty() {
            continue;
        }
        let path = root().join(member).join("Cargo.toml");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{member}: {e}"));
        if text.lines().any(|l| l.trim() == "publish = false") {
            continue;
        }
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap_or_else(|| panic!("{member}: no package name"));
        crates.push(name.to_owned());
    }
    crates
}

/// Whether `path` (relative to the root) is one the root package's `include` patterns
/// (Cargo.toml) take: `*` within a name, `**` for any number of directories.
fn in_the_package(path: &str) -> bool {
    fn matches(pattern: &[&str], path: &[&str]) -> bool {
        match (pattern.first(), path.first()) {
            (Some(&"**"), _) => {
                matches(&pattern[1..], path) || (!path.is_empty() && matches(pattern, &path[1..]))
            }
            (Some(p), Some(name)) => glob(p, name) && matches(&pattern[1..], &path[1..]),
            (None, None) => true,
            _ => false,
        }
    }
    fn glob(pattern: &str, name: &str) -> bool {
        match pattern.split_once('*') {
            None => pattern == name,
            Some((before, after)) => {
                name.len() >= before.len() + after.len()
                    && name.starts_with(before)
                    && name.ends_with(after)
            }
        }
    }
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let include = manifest
        .split_once("\ninclude = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("the root package's include list")
        .0;
    let path: Vec<&str> = path.split('/').collect();
    include
        .split(',')
        .map(|p| p.trim().trim_matches('"').trim_start_matches('/'))
        .filter(|p| !p.is_empty())
        .any(|p| matches(&p.split('/').collect::<Vec<_>>(), &path))
}

/// The intra-doc path a docs.rs page of near-rpc documents (`client/struct.Client.html#
/// method.call` → `client::Client::call`), and the kind of item its file names, if any.
fn docs_rs_item(page: &str) -> (String, Option<(String, String)>) {
    let (file, anchor) = page.split_once('#').unwrap_or((page, ""));
    let mut parts: Vec<String> = Vec::new();
    let mut kind = None;
    for part in file.split('/') {
        if part == "index.html" || part.is_empty() {
            continue;
        }
        if let Some((k, name)) = part.strip_suffix(".html").and_then(|p| p.split_once('.')) {
            kind = Some((k.to_owned(), name.to_owned()));
            parts.push(name.to_owned());
        } else {
            parts.push(part.to_owned());
        }
    }
    if let Some(method) = anchor.strip_prefix("method.") {
        parts.push(method.to_owned());
    }
    (parts.join("::"), kind)
}

/// Why `url` will exist, or why it may not.
fn known(url: &str, published: &[String], intra_doc: &[(String, String)]) -> Result<(), String> {
    let after_scheme = url.split_once("://").map_or("", |(_, rest)| rest);
    let host = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default()
        .split(':')
        .next()
        .unwrap_or_default();
    // Not links: a local server's address, or a name reserved for examples (RFC 2606).
    let reserved = ["example.org", "example.com", "example.net"];
    if host == "127.0.0.1"
        || host == "localhost"
        || host.ends_with(".example")
        || reserved
            .iter()
            .any(|r| host == *r || host.ends_with(&format!(".{r}")))
    {
        return Ok(());
    }
    if KNOWN_URLS.iter().any(|(known, _)| *known == url) {
        return Ok(());
    }
    // This workspace's crates, on crates.io and docs.rs once published (the CI step's
    // `cargo publish --dry-run` shows they are publishable).
    for name in published {
        let pages = [
            format!("https://crates.io/crates/{name}"),
            format!("https://docs.rs/{name}"),
            format!("https://docs.rs/crate/{name}/latest"),
        ];
        if pages.iter().any(|p| p == url) {
            return Ok(());
        }
    }
    // A file of near-rpc's package, in docs.rs's view of its source.
    if let Some(path) = url.strip_prefix("https://docs.rs/crate/near-rpc/latest/source/") {
        return if !root().join(path).is_file() {
            Err(format!("{path} is no file of the tree"))
        } else if !in_the_package(path) {
            Err(format!(
                "{path} is not in the package (Cargo.toml's include)"
            ))
        } else {
            Ok(())
        };
    }
    // A page of near-rpc's docs on docs.rs, built with the default features: the page of
    // an item the crate docs link to within the crate when it has the client (rustdoc
    // checks those links), of the kind the crate declares.
    if let Some(page) = url.strip_prefix("https://docs.rs/near-rpc/latest/near_rpc/") {
        let (item, kind) = docs_rs_item(page);
        if !intra_doc.iter().any(|(_, path)| *path == item) {
            return Err(format!("{item} is no intra-doc link of src/lib.rs's"));
        }
        if let Some((kind, name)) = kind {
            let declared = format!("pub {kind} {name}");
            let mut sources = Vec::new();
            files_under(&root().join("src"), ".rs", &mut sources);
            if !sources.iter().any(|f| {
                std::fs::read_to_string(root().join(f)).is_ok_and(|text| text.contains(&declared))
            }) {
                return Err(format!("no `{declared}` in src/"));
            }
        }
        return Ok(());
    }
    Err("not a URL known to exist (KNOWN_URLS in tests/it/docs.rs)".to_owned())
}

/// The lines of a doc string as rustdoc reads them: its `\n` escapes split it, and a
/// backslash ending a source line continues it (without the next one's indentation).
fn doc_string_lines(literal: &str) -> Vec<String> {
    let mut joined = String::new();
    let mut pieces = literal.split("\\\n");
    joined.push_str(pieces.next().unwrap_or_default());
    for piece in pieces {
        joined.push_str(piece.trim_start());
    }
    joined
        .split("\\n")
        .flat_map(str::lines)
        .map(|line| line.trim().to_owned())
        .collect()
}

/// The `[label]: path` definitions of the crate docs' links within the crate (src/lib.rs,
/// with the client), whose docs.rs twins the build without the client uses.
fn intra_doc_links() -> Vec<(String, String)> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    let start = lib
        .find("feature = \"client\",\n    doc = \"")
        .expect("src/lib.rs's links with the client");
    let literal = &lib[start..];
    let literal = &literal[literal.find("doc = \"").expect("a doc string") + 7..];
    let literal = &literal[..literal.find("\"\n").expect("the doc string's end")];
    doc_string_lines(literal)
        .iter()
        .filter_map(|line| {
            let (label, path) = line.strip_prefix('[')?.split_once("]: ")?;
            Some((label.to_owned(), path.to_owned()))
        })
        .collect()
}

/// Every http(s) URL in the manifests (`Cargo.toml`: `documentation`, ...) and the docs
/// (every markdown file; the doc comments and doc strings of `src/`, `mock/src/`,
/// `cli/src/`, `codegen/src/`, and `generated/`, whose text is docs.rs's too) is one known
/// to exist, one of nearcore's descriptions carried by the generator, a page the
/// published crates will have, or no link at all (loopback, reserved example names). No
/// network: a new URL fails here until it is looked at. The repository's own address is
/// not among them: it is not established, so neither Cargo.toml nor the docs name it.
#[test]
fn every_url_is_known() {
    let mut files = Vec::new();
    files_under(root(), "Cargo.toml", &mut files);
    files.extend(markdown_files());
    for dir in ["src", "mock/src", "cli/src", "codegen/src", "generated"] {
        files_under(&root().join(dir), ".rs", &mut files);
    }
    let published = published_crates();
    assert!(
        published.len() >= 4 && published.iter().any(|c| c == "near-rpc-cli"),
        "the published crates: {published:?}"
    );
    let intra_doc = intra_doc_links();
    assert!(intra_doc.len() >= 10, "src/lib.rs's links: {intra_doc:?}");
    let mut unknown = Vec::new();
    let mut checked = 0;
    let mut seen_upstream = std::collections::BTreeSet::new();
    for file in &files {
        let text = if file.ends_with(".rs") {
            rust_docs(file)
        } else {
            std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
        };
        for url in urls(&text) {
            checked += 1;
            if file.starts_with("generated/") {
                if UPSTREAM_URLS.contains(&url.as_str()) {
                    seen_upstream.insert(url);
                } else {
                    unknown.push(format!("{file}: {url}: not in UPSTREAM_URLS"));
                }
                continue;
            }
            if let Err(why) = known(&url, &published, &intra_doc) {
                unknown.push(format!("{file}: {url}: {why}"));
            }
        }
    }
    assert!(
        checked >= 100,
        "only {checked} URLs found: is the finder broken?"
    );
    assert!(
        unknown.is_empty(),
        "URLs not known to exist:\n{}",
        unknown.join("\n")
    );
    // The list holds nothing the docs no longer carry.
    let stale: Vec<_> = UPSTREAM_URLS
        .iter()
        .filter(|url| !seen_upstream.contains(**url))
        .collect();
    assert!(
        stale.is_empty(),
        "UPSTREAM_URLS no generated file has: {stale:?}"
    );
    // Every docs.rs page the build without the client links to is the page of the link
    // with the same label in the build with it.
    let lib = doc_string_lines(&rust_docs("src/lib.rs"));
    for (label, path) in &intra_doc {
        let prefix = format!("[{label}]: https://docs.rs/near-rpc/latest/near_rpc/");
        let page = lib
            .iter()
            .find_map(|line| line.strip_prefix(prefix.as_str()))
            .unwrap_or_else(|| panic!("no docs.rs twin of [{label}] in src/lib.rs"));
        assert_eq!(&docs_rs_item(page).0, path, "[{label}]: {page}");
    }
}

/// The URL finder stops where a URL does in prose, markdown, code and doc strings, and
/// the checks refuse what they should.
#[test]
fn the_url_finder_and_its_checks() {
    assert_eq!(
        urls(
            "see https://a.example/x, [b](http://b.example/y) `https://c.example/<KEY>`\n\
              \"https://d.example/z\\n\\n[e]: https://e.example/f.\""
        ),
        [
            "https://a.example/x",
            "http://b.example/y",
            "https://c.example/",
            "https://d.example/z",
            "https://e.example/f"
        ]
    );
    let published = published_crates();
    let intra_doc = intra_doc_links();
    let check = |url: &str| known(url, &published, &intra_doc);
    assert!(check("https://docs.rs/near-rpc-mock").is_ok());
    assert!(check("https://crates.io/crates/near-rpc-cli").is_ok());
    // Not this workspace's crate, nor the repository's unestablished address.
    assert!(check("https://docs.rs/near-rpc-golden").is_err());
    assert!(check("https://github.com/near-rpc/near-rpc").is_err());
    assert!(check("https://docs.rs/crate/near-rpc/latest/source/examples/README.md").is_ok());
    // A file of the tree the package leaves out, and one the tree lacks.
    let left_out = check("https://docs.rs/crate/near-rpc/latest/source/CONTRIBUTING.md");
    assert!(left_out.is_err_and(|why| why.contains("not in the package")));
    assert!(check("https://docs.rs/crate/near-rpc/latest/source/NOPE.md").is_err());
    assert!(check("https://docs.rs/near-rpc/latest/near_rpc/client/index.html").is_ok());
    assert!(check("https://docs.rs/near-rpc/latest/near_rpc/clients/index.html").is_err());
    // The right item with the wrong kind.
    let kind = check("https://docs.rs/near-rpc/latest/near_rpc/enum.Client.html#method.call");
    assert!(kind.is_err_and(|why| why.contains("pub enum Client")));
    assert_eq!(
        docs_rs_item("client/struct.Client.html#method.call"),
        (
            "client::Client::call".to_owned(),
            Some(("struct".to_owned(), "Client".to_owned()))
        )
    );
}
