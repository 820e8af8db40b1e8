//! The examples (`examples/`) run against the mock node over HTTP, each checked on what
//! it prints; every file in `examples/` is run, and `examples/README.md` lists every one.
//! The comparison with near-api-rs and near-kit (`docs/comparison.md`) shows the
//! snippets of [`comparison`], compiled here, and near-kit's, compiled by `.ci/run` in
//! their own crate (`docs/near-kit-snippets`, outside the workspace), with line counts
//! this file checks.

#![cfg(feature = "client")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common;

use near_rpc_mock::{Chain, MockNode};

/// Each example, the arguments after the URL, and what its output must contain.
const EXAMPLES: &[(&str, &[&str], &[&str])] = &[
    (
        "access_keys",
        &[],
        &[
            "alice.mock has 2 access keys",
            ": full access",
            r#": may call ["set_status"] on contract.mock"#,
            "next nonce for ed25519:",
        ],
    ),
    (
        "block",
        &[],
        &[
            "final block 118 ",
            " by validator.mock",
            "1 chunks, gas price 100000000 yoctoNEAR/gas",
            "parent 117 ",
        ],
    ),
    (
        "blocking",
        &["bob.mock"],
        &[
            "final block 118",
            "bob.mock: 26.00 NEAR",
            "read at block 117",
            "gas price 100000000 yoctoNEAR/gas",
        ],
    ),
    (
        "chunk",
        &["105"],
        &[
            "of block 105: 2 transactions, 0 receipts",
            " alice.mock -> bob.mock",
            " alice.mock -> contract.mock",
            "by hash: included at 105",
        ],
    ),
    (
        "contract_view",
        &[],
        &[
            r#"bob.mock's status: Some("hello from bob") (logs: ["get_status for account_id bob.mock"])"#,
            "nobody.mock's status: None",
            r#"as text: "hello from bob""#,
        ],
    ),
    (
        "create_account",
        &[],
        &[
            "created sub.alice.mock with 1 NEAR and key ed25519:",
            "function-call key added: failed: false",
        ],
    ),
    (
        "errors",
        &[],
        &[
            "no account nobody.mock at block 118",
            "the contract failed: MethodResolveError(MethodNotFound)",
            "usage error: true: ",
        ],
    ),
    (
        "function_call",
        &[],
        &[
            "set_status on contract.mock: failed: false, returned Some([])",
            "with a deposit: failed: false",
            r#"alice.mock's status: Some("paid for")"#,
        ],
    ),
    (
        "gas_price",
        &[],
        &[
            "gas price: 100000000 yoctoNEAR/gas",
            "300 Tgas cost at most 0.030 NEAR",
            "at block 118: 100000000 yoctoNEAR/gas",
        ],
    ),
    (
        "genesis_config",
        &[],
        &["chain mock started at ", "epoch length 43200 blocks"],
    ),
    (
        "protocol_config",
        &[],
        &[
            "chain mock: protocol version 73 (genesis: 73)",
            "epoch length 43200 blocks",
        ],
    ),
    (
        "send_tx",
        &[],
        &[
            "refused (usage error: true): ",
            "reached Final",
            " by alice.mock",
            "failed: false",
        ],
    ),
    (
        "status",
        &[],
        &[
            "healthy",
            "chain mock, protocol 73, nearcore ",
            "latest block 120 at ",
            "1 active peers",
        ],
    ),
    (
        "transfer",
        &[],
        &[
            "sent 1.00 NEAR from alice.mock to bob.mock: reached Final, failed: false",
            // The nonces themselves: `two_more_nonces` below.
            "two more, nonces Some(",
        ],
    ),
    ("tx_status", &[], &["reached: Final", " -> bob.mock: "]),
    (
        "validators",
        &[],
        &[
            "epoch 1 from block 100: 1 validators",
            "validator.mock stakes 500.00 NEAR",
        ],
    ),
    (
        "view_account",
        &[],
        &[
            "alice.mock at block 118: 99.00 NEAR (0 NEAR locked), 316 bytes of storage",
            "at block 113: 99.00 NEAR",
        ],
    ),
    (
        "view_state",
        &[],
        &[
            "2 entries of contract.mock at block 118",
            "bob.mock = hello from bob",
            "validator.mock = validating",
        ],
    ),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The names of the files in `examples/`.
fn example_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            path.file_stem()
                .expect("name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Builds every example once (feature `blocking`, in the workspace's target directory)
/// and returns each one's executable.
fn build_examples() -> &'static BTreeMap<String, PathBuf> {
    static BUILT: OnceLock<BTreeMap<String, PathBuf>> = OnceLock::new();
    BUILT.get_or_init(build)
}

fn build() -> BTreeMap<String, PathBuf> {
    let output = Command::new(env!("CARGO"))
        .current_dir(root())
        // The README's test command's own selection and features, so that the examples
        // it built already are the ones run here (building near-rpc's alone would
        // resolve other features and compile the library once more).
        .args([
            "build",
            "--quiet",
            "--workspace",
            "--examples",
            "--features",
            "near-rpc/blocking",
        ])
        .arg("--message-format=json")
        .arg("--target-dir")
        .arg(common::target_dir())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build --examples failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["kind"][0] == "example")
        // near-rpc's examples, not the other members'.
        .filter(|m| {
            m["target"]["src_path"]
                .as_str()
                .is_some_and(|p| Path::new(p).starts_with(root().join("examples")))
        })
        .filter_map(|m| {
            let name = m["target"]["name"].as_str()?.to_owned();
            Some((name, PathBuf::from(m["executable"].as_str()?)))
        })
        .collect()
}

/// Runs `exe` with `args` (no `NEAR_RPC_URL` unless given) and returns its stdout; fails
/// the test when it fails. The write examples sign as the mock's alice.mock, whose key
/// they read from the environment.
fn run(name: &str, exe: &Path, args: &[&str], env_url: Option<&str>) -> String {
    let mut command = Command::new(exe);
    let key = near_rpc_mock::chain::secret_key("alice.mock");
    command
        .args(args)
        .env_remove("NEAR_RPC_URL")
        .env("NEAR_ACCOUNT_ID", "alice.mock")
        .env("NEAR_PRIVATE_KEY", key.to_secret_string().as_str());
    if let Some(url) = env_url {
        command.env("NEAR_RPC_URL", url);
    }
    let output = command.output().expect("the example runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "example {name} failed ({}):\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn every_example_is_run() {
    let listed: Vec<&str> = EXAMPLES.iter().map(|(name, ..)| *name).collect();
    assert_eq!(
        example_files(),
        listed,
        "examples/ and EXAMPLES differ: add the new example to EXAMPLES, with what it prints"
    );
}

/// A 1 yoctoNEAR transfer from alice.mock to bob.mock, signed for a fresh mock node (the
/// `send_tx` example's transaction "signed elsewhere").
fn signed_by_alice() -> String {
    let transfer = near_rpc::tx::Action::transfer(near_rpc::NearToken::from_yoctonear(1));
    Chain::new()
        .sign("alice.mock", "bob.mock", vec![transfer])
        .to_base64()
}

#[test]
fn examples_work_against_the_mock_node() {
    let executables = build_examples();
    for (name, args, expected) in EXAMPLES {
        let exe = executables
            .get(*name)
            .unwrap_or_else(|| panic!("cargo built no example {name}"));
        // A node of its own: nothing one example does changes what the next one reads.
        let server = MockNode::start_in_background();
        let mut all_args = vec![server.url()];
        all_args.extend_from_slice(args);
        let signed = signed_by_alice();
        if *name == "send_tx" {
            all_args.push(&signed);
        }
        let stdout = run(name, exe, &all_args, None);
        for line in *expected {
            assert!(
                stdout.contains(line),
                "example {name} did not print {line:?}:\n{stdout}"
            );
        }
        if *name == "transfer" {
            two_more_nonces(&stdout);
        }
    }
}

/// The transfer example's two concurrent sends: nonces 11 and 12, or 12 first and then
/// 11 refused and re-signed as 13.
fn two_more_nonces(stdout: &str) {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("two more, nonces "))
        .unwrap_or_else(|| panic!("no nonces line:\n{stdout}"));
    let mut nonces: Vec<u64> = line
        .split(" and ")
        .map(|n| {
            n.trim()
                .strip_prefix("Some(")
                .and_then(|n| n.strip_suffix(')'))
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("not a nonce: {n:?} in {line:?}"))
        })
        .collect();
    nonces.sort_unstable();
    assert!(
        nonces == [11, 12] || nonces == [12, 13],
        "nonces {nonces:?} in {line:?}"
    );
}

#[test]
fn examples_default_to_the_mock_chain_and_read_the_url_from_the_environment() {
    let executables = build_examples();
    let server = MockNode::start_in_background();
    // tx_status's default transaction is the mock chain's transfer.
    let transfer = &Chain::new().transactions[0];
    let stdout = run(
        "tx_status",
        &executables["tx_status"],
        &[],
        Some(server.url()),
    );
    assert!(
        stdout.contains(&format!("receipt {} -> bob.mock", transfer.receipt_id(0))),
        "{stdout}"
    );
    let stdout = run(
        "view_account",
        &executables["view_account"],
        &[],
        Some(server.url()),
    );
    assert!(stdout.contains("alice.mock at block 118"), "{stdout}");
}

#[test]
fn the_examples_readme_lists_every_example() {
    let readme =
        std::fs::read_to_string(root().join("examples/README.md")).expect("examples/README.md");
    let examples = example_files();
    for name in &examples {
        let row = format!("| [`{name}`]({name}.rs) |");
        assert!(readme.contains(&row), "examples/README.md has no row {row}");
    }
    let rows = readme
        .lines()
        .filter(|line| line.starts_with("| [`") && line.contains(".rs) |"))
        .count();
    assert_eq!(
        rows,
        examples.len(),
        "examples/README.md lists examples that don't exist"
    );
}

/// The near-rpc side of the comparison with near-api-rs (`docs/comparison.md`): each
/// snippet is the body between its markers, shown dedented there (see
/// `the_comparison_shows_these_snippets_with_their_line_counts`). Compiled, not run:
/// they read mainnet.
#[allow(dead_code)]
mod comparison {
    use std::error::Error;

    async fn view_account() -> Result<(), Box<dyn Error>> {
        // snippet: view_account
        use near_rpc::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let account = client.view_account("alice.near").await?;
        println!("{}", account.amount);
        // end
        Ok(())
    }

    async fn call_function() -> Result<(), Box<dyn Error>> {
        // snippet: call_function
        use near_rpc::Client;
        use serde_json::json;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let args = json!({ "account_id": "alice.near" });
        let balance: String = client.view_json("wrap.near", "ft_balance_of", args).await?;
        println!("{balance}");
        // end
        Ok(())
    }

    async fn tx_status() -> Result<(), Box<dyn Error>> {
        // snippet: tx_status
        use near_rpc::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let tx_hash = "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm".parse()?;
        let sender = "alice.near".parse()?;
        let result = client.tx_status((tx_hash, sender), None).await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn send_tx(signed_tx: Vec<u8>) -> Result<(), Box<dyn Error>> {
        // snippet: send_tx
        use near_rpc::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let result = client.send_tx(signed_tx, None).await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn transfer(secret_key: near_rpc::tx::SecretKey) -> Result<(), Box<dyn Error>> {
        // snippet: transfer
        use near_rpc::{Client, NearToken, Signer};

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let alice = client.with_signer(Signer::new("alice.near".parse()?, secret_key));
        let result = alice.transfer("bob.near", NearToken::from_near(1)).await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn function_call(secret_key: near_rpc::tx::SecretKey) -> Result<(), Box<dyn Error>> {
        // snippet: function_call
        use near_rpc::{Client, Signer};

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let alice = client.with_signer(Signer::new("alice.near".parse()?, secret_key));
        let result = alice.call("counter.near", "increment").await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn create_account(
        secret_key: near_rpc::tx::SecretKey,
        public_key: near_rpc::PublicKey,
    ) -> Result<(), Box<dyn Error>> {
        // snippet: create_account
        use near_rpc::{Client, NearToken, Signer};

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let signer = Signer::new("alice.near".parse()?, secret_key);
        let balance = NearToken::from_near(1);
        let result = client
            .create_account(&signer, "sub.alice.near", public_key, balance)
            .await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn block() -> Result<(), Box<dyn Error>> {
        // snippet: block
        use near_rpc::{Client, Finality};

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let block = client.block(Finality::Final).await?;
        println!("{} {}", block.header.height, block.header.hash);
        // end
        Ok(())
    }

    async fn gas_price() -> Result<(), Box<dyn Error>> {
        // snippet: gas_price
        use near_rpc::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let price = client.gas_price(None).await?;
        println!("{price}");
        // end
        Ok(())
    }
}

/// near-kit's side of the comparison: its snippets, in their own crate outside the
/// workspace (near-kit must not enter the workspace's build), compiled by `.ci/run`.
const NEAR_KIT_SNIPPETS: &str = include_str!("../../docs/near-kit-snippets/src/lib.rs");

/// The snippets of `source` in order, as (name, dedented text): the body between each
/// `// snippet: NAME` and `// end`.
fn snippets_of(source: &str) -> Vec<(String, String)> {
    let mut snippets = Vec::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line.trim().strip_prefix("// snippet: ") else {
            continue;
        };
        let indent = line.len() - line.trim_start().len();
        let mut text = String::new();
        for line in lines.by_ref().take_while(|l| l.trim() != "// end") {
            text.push_str(line.get(indent..).unwrap_or(""));
            text.push('\n');
        }
        snippets.push((name.to_owned(), text));
    }
    snippets
}

/// The snippets of [`comparison`] in order.
fn snippets() -> Vec<(String, String)> {
    snippets_of(include_str!("examples.rs"))
}

/// Lines of code in a snippet as shown: every line but blank ones, `use` lines included.
fn count_lines(snippet: &str) -> usize {
    snippet.lines().filter(|l| !l.trim().is_empty()).count()
}

#[test]
fn the_comparison_shows_these_snippets_with_their_line_counts() {
    let comparison =
        std::fs::read_to_string(root().join("docs/comparison.md")).expect("docs/comparison.md");
    let section = comparison
        .split_once("<!-- comparison:start -->")
        .and_then(|(_, rest)| rest.split_once("<!-- comparison:end -->"))
        .expect("docs/comparison.md has the comparison between its markers")
        .0;
    // Each task: a heading line with the counts, then near-api-rs's block, near-kit's,
    // then ours.
    let mut blocks = section.split("```rust,ignore\n").skip(1).map(|b| {
        b.split_once("```")
            .expect("a closed code block")
            .0
            .to_owned()
    });
    let snippets = snippets();
    let near_kit = snippets_of(NEAR_KIT_SNIPPETS);
    assert_eq!(snippets.len(), 9, "nine tasks are compared");
    let tasks = |s: &[(String, String)]| s.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(
        tasks(&near_kit),
        tasks(&snippets),
        "docs/near-kit-snippets has the same tasks in the same order"
    );
    for ((name, ours), (_, kit)) in snippets.iter().zip(&near_kit) {
        let api = blocks
            .next()
            .unwrap_or_else(|| panic!("no near-api-rs block for {name}"));
        let kit_shown = blocks
            .next()
            .unwrap_or_else(|| panic!("no near-kit block for {name}"));
        let shown = blocks
            .next()
            .unwrap_or_else(|| panic!("no near-rpc block for {name}"));
        assert_eq!(
            &kit_shown, kit,
            "docs/comparison.md's near-kit snippet for {name} differs from docs/near-kit-snippets"
        );
        assert_eq!(
            &shown, ours,
            "docs/comparison.md's near-rpc snippet for {name} differs"
        );
        let (api, kit, ours) = (count_lines(&api), count_lines(kit), count_lines(ours));
        let heading = format!(
            "**{name}**: near-api-rs {api} lines, near-kit {kit} lines, near-rpc {ours} lines"
        );
        assert!(
            section.contains(&heading),
            "docs/comparison.md does not say {heading:?}"
        );
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}`")))
            .unwrap_or_else(|| panic!("docs/comparison.md's table has no row for {name}"));
        assert!(
            row.ends_with(&format!(" | {api} | {kit} | {ours} |")),
            "docs/comparison.md's table row for {name} should count {api}, {kit} and {ours}: {row}"
        );
        assert!(
            ours <= api,
            "{name}: near-rpc takes more lines than near-api-rs"
        );
        assert!(
            ours <= kit,
            "{name}: near-rpc takes more lines than near-kit"
        );
        for line in shown.lines().chain(kit_shown.lines()) {
            assert!(
                line.len() <= 100,
                "{name}: a line over 100 characters: {line}"
            );
        }
    }
    assert!(
        blocks.next().is_none(),
        "docs/comparison.md compares more tasks than this file"
    );
}

/// near-kit's snippets are compiled against the version the document names, by a step
/// of `.ci/run`, outside the workspace.
#[test]
fn the_near_kit_snippets_are_pinned_and_compiled_by_ci() {
    let manifest = std::fs::read_to_string(root().join("docs/near-kit-snippets/Cargo.toml"))
        .expect("docs/near-kit-snippets/Cargo.toml");
    assert!(
        manifest.contains("near-kit = { version = \"=0.17.0\""),
        "near-kit is pinned at 0.17.0"
    );
    assert!(
        manifest.contains("\n[workspace]\n"),
        "a workspace of its own"
    );
    let comparison =
        std::fs::read_to_string(root().join("docs/comparison.md")).expect("docs/comparison.md");
    assert!(
        comparison.contains("near-kit 0.17.0"),
        "the document names the version"
    );
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.starts_with("cargo check")
            && l.contains("--manifest-path docs/near-kit-snippets/Cargo.toml")),
        ".ci/run checks docs/near-kit-snippets"
    );
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        !workspace.contains("near-kit"),
        "near-kit stays out of the workspace"
    );
}
