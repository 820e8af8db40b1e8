//! The examples (`examples/`) run against the mock node over HTTP, each checked on what
//! it prints; every file in `examples/` is run, and the README lists every one. The
//! README's comparison with near-api-rs shows the snippets of [`readme`], compiled here,
//! with line counts this file checks.

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
fn the_readme_lists_every_example() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let examples = example_files();
    for name in &examples {
        let row = format!("| [`{name}`](examples/{name}.rs) |");
        assert!(readme.contains(&row), "README.md has no row {row}");
    }
    let rows = readme
        .lines()
        .filter(|line| line.starts_with("| [`") && line.contains("](examples/"))
        .count();
    assert_eq!(
        rows,
        examples.len(),
        "README.md lists examples that don't exist"
    );
}

/// The near-rpc side of the README's comparison with near-api-rs: each snippet is the
/// body between its markers, shown dedented in the README (see
/// `the_readme_comparison_shows_these_snippets`). Compiled, not run: they read mainnet.
#[allow(dead_code)]
mod readme {
    use std::error::Error;

    async fn view_account() -> Result<(), Box<dyn Error>> {
        // snippet: view_account
        use near_rpc::client::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let account = client.view_account("alice.near").await?;
        println!("{}", account.amount);
        // end
        Ok(())
    }

    async fn call_function() -> Result<(), Box<dyn Error>> {
        // snippet: call_function
        use near_rpc::client::Client;
        use serde_json::json;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let args = json!({ "account_id": "alice.near" });
        let result = client
            .call_function("wrap.near", "ft_balance_of", args)
            .await?;
        let balance: String = result.json()?;
        println!("{balance}");
        // end
        Ok(())
    }

    async fn tx_status() -> Result<(), Box<dyn Error>> {
        // snippet: tx_status
        use near_rpc::client::Client;

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
        use near_rpc::client::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let result = client.send_tx(signed_tx, None).await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn transfer(secret_key: near_rpc::tx::SecretKey) -> Result<(), Box<dyn Error>> {
        // snippet: transfer
        use near_rpc::client::{Client, Signer};
        use near_rpc::NearToken;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let signer = Signer::new("alice.near".parse()?, secret_key);
        let deposit = NearToken::from_near(1);
        let result = client.transfer(&signer, "bob.near", deposit).await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn function_call(secret_key: near_rpc::tx::SecretKey) -> Result<(), Box<dyn Error>> {
        // snippet: function_call
        use near_rpc::client::{Client, Signer};
        use serde_json::json;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let signer = Signer::new("alice.near".parse()?, secret_key);
        let result = client
            .function_call(&signer, "counter.near", "increment", json!({}))
            .await?;
        println!("failed: {}", result.is_failure());
        // end
        Ok(())
    }

    async fn create_account(
        secret_key: near_rpc::tx::SecretKey,
        public_key: near_rpc::PublicKey,
    ) -> Result<(), Box<dyn Error>> {
        // snippet: create_account
        use near_rpc::client::{Client, Signer};
        use near_rpc::NearToken;

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
        use near_rpc::client::Client;
        use near_rpc::types::Finality;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let block = client.block(Finality::Final).await?;
        println!("{} {}", block.header.height, block.header.hash);
        // end
        Ok(())
    }

    async fn gas_price() -> Result<(), Box<dyn Error>> {
        // snippet: gas_price
        use near_rpc::client::Client;

        let client = Client::new("https://rpc.mainnet.near.org")?;
        let price = client.gas_price(None).await?;
        println!("{price}");
        // end
        Ok(())
    }
}

/// The snippets of [`readme`] in order, as (name, dedented text).
fn snippets() -> Vec<(String, String)> {
    let source = include_str!("examples.rs");
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

/// Lines of code in a snippet as shown: every line but blank ones, `use` lines included.
fn count_lines(snippet: &str) -> usize {
    snippet.lines().filter(|l| !l.trim().is_empty()).count()
}

#[test]
fn the_readme_comparison_shows_these_snippets_with_their_line_counts() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme
        .split_once("<!-- comparison:start -->")
        .and_then(|(_, rest)| rest.split_once("<!-- comparison:end -->"))
        .expect("README.md has the comparison between its markers")
        .0;
    // Each task: a heading line with the counts, then near-api-rs's block, then ours.
    let mut blocks = section.split("```rust,ignore\n").skip(1).map(|b| {
        b.split_once("```")
            .expect("a closed code block")
            .0
            .to_owned()
    });
    let snippets = snippets();
    assert_eq!(snippets.len(), 9, "nine tasks are compared");
    for (name, ours) in &snippets {
        let theirs = blocks
            .next()
            .unwrap_or_else(|| panic!("no near-api-rs block for {name}"));
        let shown = blocks
            .next()
            .unwrap_or_else(|| panic!("no near-rpc block for {name}"));
        assert_eq!(
            &shown, ours,
            "README.md's near-rpc snippet for {name} differs"
        );
        let (theirs, ours) = (count_lines(&theirs), count_lines(ours));
        let heading = format!("**{name}**: near-api-rs {theirs} lines, near-rpc {ours} lines");
        assert!(
            section.contains(&heading),
            "README.md does not say {heading:?}"
        );
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}`")))
            .unwrap_or_else(|| panic!("README.md's table has no row for {name}"));
        assert!(
            row.ends_with(&format!(" | {theirs} | {ours} |")),
            "README.md's table row for {name} should count {theirs} and {ours}: {row}"
        );
        assert!(
            ours <= theirs,
            "{name}: near-rpc takes more lines than near-api-rs"
        );
        for line in shown.lines() {
            assert!(
                line.len() <= 100,
                "{name}: a line over 100 characters: {line}"
            );
        }
    }
    assert!(
        blocks.next().is_none(),
        "README.md compares more tasks than this file"
    );
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

/// The README's counts of the default spec's schemas and methods, the OpenRPC-only
/// methods it names, the "all N methods" it promises and the method markers of every
/// shipped version are what the spec and `generated/` hold.
#[test]
#[cfg(near_rpc_default_spec)]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn the_readme_counts_the_spec_and_the_markers() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
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
    assert!(readme.contains(&stated), "README.md should say {stated:?}");
    let stated = format!("its {paths} methods, plus the two only nearcore's OpenRPC");
    assert!(readme.contains(&stated), "README.md should say {stated:?}");
    // The two it names are methods here and not paths of the OpenAPI document.
    for name in ["light_client_block_proof", "EXPERIMENTAL_client_config"] {
        assert!(near_rpc::methods::ALL.contains(&name), "{name}");
        assert!(openapi["paths"].get(format!("/{name}")).is_none(), "{name}");
    }
    let all = near_rpc::methods::ALL.len();
    assert_eq!(all, paths + 2);
    // Every "all N methods" the README promises.
    let counted: Vec<&str> = readme
        .split("all ")
        .skip(1)
        .filter_map(|rest| rest.split_once(" methods").map(|(n, _)| n))
        .filter(|n| n.parse::<usize>().is_ok())
        .collect();
    assert!(
        counted.len() >= 3,
        "README.md promises all N methods: {counted:?}"
    );
    for n in counted {
        assert_eq!(n, all.to_string(), "README.md says \"all {n} methods\"");
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
    assert!(readme.contains(&stated), "README.md should say {stated:?}");
}

/// The README's table of layers states the defaults the code has.
#[test]
fn the_readme_states_the_layers_defaults() {
    use near_rpc::client::{layers, transport, RetryPolicy};
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let row = |layer: &str| {
        readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{layer}` |")))
            .unwrap_or_else(|| panic!("README.md's layer table has no row for {layer}"))
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
                near_rpc::client::DEFAULT_DEADLINE.as_secs()
            ),
        ),
        (
            "SizeLimit",
            format!(
                "| request {} MiB, response {} MiB |",
                mib(near_rpc::client::DEFAULT_MAX_REQUEST_BYTES),
                mib(near_rpc::client::DEFAULT_MAX_RESPONSE_BYTES)
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
            "README.md's {layer} row should end with {stated:?}: {}",
            row(layer)
        );
    }
    // Within the origin only: the transport's default policy.
    assert_eq!(
        transport::RedirectPolicy::default(),
        transport::RedirectPolicy::SameOrigin
    );
}

/// The README's performance figures are BENCHMARKS.md's, rounded as the README writes
/// them: the decode ratios (instructions) and the release build times. Compared with
/// runs of whitespace as one space, so rewrapping the README's paragraph changes nothing.
#[test]
fn the_readme_performance_figures_are_the_benchmarks() {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = words(&std::fs::read_to_string(root().join("README.md")).expect("README.md"));
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
    assert!(readme.contains(&stated), "README.md should say {stated:?}");
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
    assert!(readme.contains(&stated), "README.md should say {stated:?}");
}
