//! What the read-back tests share: a deterministic generator of values, the `near-rpc`
//! binary under test and its runs, near-cli key files made with nearcore's keys, and
//! ACTIONS_JSON for every action kind the CLI signs, in the JSON form nearcore's
//! `ActionView` reads (so nearcore's own reading of the same text is the expectation).

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use near_crypto::{KeyType, PublicKey, SecretKey};
use serde_json::{json, Value};

/// A small deterministic generator (splitmix64): the same values on every run, varied
/// enough to reach every length prefix and the edges of each integer.
pub struct Rng(u64);

impl Rng {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 bits.
    pub fn u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.u64() % n
    }

    /// A u64 that is often an edge (0, 1, the maximum) and otherwise any.
    pub fn edgy_u64(&mut self) -> u64 {
        match self.below(6) {
            0 => 0,
            1 => 1,
            2 => u64::MAX,
            _ => self.u64(),
        }
    }

    /// A u128 that is often an edge (0, 1, the maximum) and otherwise any.
    pub fn edgy_u128(&mut self) -> u128 {
        match self.below(6) {
            0 => 0,
            1 => 1,
            2 => u128::MAX,
            _ => (u128::from(self.u64()) << 64) | u128::from(self.u64()),
        }
    }

    /// A gas key's nonce index, often an edge (0, 1, 65535).
    pub fn nonce_index(&mut self) -> u16 {
        match self.below(4) {
            0 => 0,
            1 => 1,
            2 => u16::MAX,
            _ => self.below(65536) as u16,
        }
    }

    /// `len` bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.u64() as u8).collect()
    }

    /// 32 bytes.
    pub fn hash(&mut self) -> [u8; 32] {
        self.bytes(32).try_into().expect("32 bytes")
    }

    /// Lowercase ASCII letters, digits and `_`, `len` of them.
    pub fn ident(&mut self, len: usize) -> String {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789_";
        (0..len)
            .map(|_| char::from(CHARS[self.below(CHARS.len() as u64) as usize]))
            .collect()
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A valid account id: named, implicit (64 hex), or an ETH-implicit one.
    pub fn account(&mut self) -> String {
        match self.below(5) {
            0 => hex(&self.hash()),
            1 => format!("0x{}", &hex(&self.hash())[..40]),
            2 => "near".to_string(),
            _ => {
                // A letter first and no separator: nearcore refuses a leading `_`.
                let len = 1 + self.below(20) as usize;
                let first = char::from(b'a' + self.below(26) as u8);
                let rest: String = self.ident(len).replace('_', "x");
                format!(
                    "{first}{rest}.{}",
                    self.pick(&["near", "testnet", "a-b.mock"])
                )
            }
        }
    }

    /// A public key of nearcore's (ed25519 or secp256k1), from a seed of this generator.
    pub fn public_key(&mut self) -> PublicKey {
        let key_type = *self.pick(&[KeyType::ED25519, KeyType::SECP256K1]);
        SecretKey::from_seed(key_type, &self.ident(12)).public_key()
    }

    /// `len` random bytes as standard base64.
    pub fn base64(&mut self, len: usize) -> String {
        base64(&self.bytes(len))
    }
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Standard base64 decoded, naming `what` when it is not.
pub fn unbase64(what: &str, text: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap_or_else(|e| panic!("{what} is not base64: {e}: {text}"))
}

/// The `near-rpc` binary under test: `NEAR_RPC_BIN`, or the workspace's
/// `target/debug/near-rpc` (`run.sh` builds it first). A missing binary fails the test
/// saying so; nothing is skipped.
pub fn cli_binary() -> PathBuf {
    let path = match std::env::var_os("NEAR_RPC_BIN") {
        Some(path) => PathBuf::from(path),
        None => {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
            target.join("debug").join("near-rpc")
        }
    };
    assert!(
        path.is_file(),
        "the near-rpc binary is not at {} (build it with `cargo build -p near-rpc-cli` in \
         the workspace, or set NEAR_RPC_BIN)",
        path.display()
    );
    path
}

/// One run of the binary.
#[derive(Debug)]
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// The one JSON line of a successful run, or a panic showing the run.
    pub fn json(&self, what: &str) -> Value {
        assert_eq!(
            self.code, 0,
            "{what}: exit {}; stderr: {}",
            self.code, self.stderr
        );
        let mut lines = self.stdout.lines();
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("{what}: nothing on stdout"));
        assert!(
            lines.next().is_none(),
            "{what}: more than one line: {}",
            self.stdout
        );
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {line}"))
    }
}

/// Runs `near-rpc` with `args`, offline (no URL is ever needed by the commands used).
pub fn run(args: &[&str]) -> Run {
    let output = Command::new(cli_binary())
        .args(args)
        .env_remove("NEAR_RPC_URL")
        .env_remove("NEAR_RPC_API_KEY")
        .output()
        .expect("near-rpc runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Whether the binary has the subcommand `name` (its `--help` lists it).
pub fn has_command(name: &str) -> bool {
    let help = run(&["--help"]);
    assert_eq!(help.code, 0, "near-rpc --help: {}", help.stderr);
    help.stdout
        .lines()
        .any(|line| line.split_whitespace().next() == Some(name))
}

/// Whether the binary was built for nearcore 0.38's spec (`latest`), whose builds sign
/// with ML-DSA-65 keys: its `--version` names the spec.
pub fn is_latest_build() -> bool {
    let version = run(&["--version"]);
    assert_eq!(version.code, 0, "near-rpc --version: {}", version.stderr);
    version.stdout.contains("nearcore-0.38.0")
}

/// A near-cli credential file of `account` holding nearcore's `secret`.
pub struct KeyFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its account.
    pub account: String,
    /// Its key, as nearcore holds it.
    pub secret: SecretKey,
}

impl KeyFile {
    /// Writes `dir/<account>.json` with a key of `key_type` from `seed` (nearcore's
    /// `SecretKey::from_seed`), in near-cli's form.
    pub fn write(dir: &Path, account: &str, key_type: KeyType, seed: &str) -> Self {
        std::fs::create_dir_all(dir).expect("key directory");
        let secret = SecretKey::from_seed(key_type, seed);
        let path = dir.join(format!("{account}-{key_type}.json"));
        let body = json!({
            "account_id": account,
            "public_key": secret.public_key().to_string(),
            "private_key": secret.to_string(),
        });
        std::fs::write(&path, body.to_string()).expect("key file written");
        Self {
            path,
            account: account.to_string(),
            secret,
        }
    }

    /// The path as an argument.
    pub fn arg(&self) -> &str {
        self.path.to_str().expect("UTF-8 path")
    }
}

/// ACTIONS_JSON entries of every kind `sign` accepts but `Delegate` (which needs a
/// signed delegate action: the tests make one with nearcore), each with a name, in the
/// JSON form of nearcore's `ActionView` (cli/README.md: amounts in yoctoNEAR as strings,
/// code and args as base64). Every access-key permission and both forms of each global
/// contract action are there.
pub fn non_delegate_actions(rng: &mut Rng) -> Vec<(String, Value)> {
    let yocto = |rng: &mut Rng| rng.edgy_u128().to_string();
    let mut actions = vec![("CreateAccount".to_string(), json!("CreateAccount"))];
    let code_len = rng.below(300) as usize;
    actions.push((
        "DeployContract".into(),
        json!({"DeployContract": {"code": rng.base64(code_len)}}),
    ));
    let args_len = rng.below(200) as usize;
    let method_len = 1 + rng.below(30) as usize;
    actions.push((
        "FunctionCall".into(),
        json!({"FunctionCall": {
            "method_name": rng.ident(method_len),
            "args": rng.base64(args_len),
            "gas": rng.edgy_u64(),
            "deposit": yocto(rng),
        }}),
    ));
    actions.push((
        "Transfer".into(),
        json!({"Transfer": {"deposit": yocto(rng)}}),
    ));
    actions.push((
        "Stake".into(),
        json!({"Stake": {"stake": yocto(rng), "public_key": rng.public_key().to_string()}}),
    ));
    let methods = |rng: &mut Rng| -> Vec<String> {
        let n = rng.below(4);
        (0..n)
            .map(|_| {
                let len = 1 + rng.below(16) as usize;
                rng.ident(len)
            })
            .collect()
    };
    let permissions = [
        ("FullAccess", json!("FullAccess")),
        (
            "FunctionCall",
            json!({"FunctionCall": {
                "allowance": yocto(rng),
                "receiver_id": rng.account(),
                "method_names": methods(rng),
            }}),
        ),
        (
            "FunctionCall without allowance",
            json!({"FunctionCall": {
                "allowance": null,
                "receiver_id": rng.account(),
                "method_names": methods(rng),
            }}),
        ),
        (
            "GasKeyFunctionCall",
            json!({"GasKeyFunctionCall": {
                "balance": yocto(rng),
                "num_nonces": rng.below(65536),
                "allowance": yocto(rng),
                "receiver_id": rng.account(),
                "method_names": methods(rng),
            }}),
        ),
        (
            "GasKeyFullAccess",
            json!({"GasKeyFullAccess": {"balance": yocto(rng), "num_nonces": *rng.pick(&[0u64, 1, 65535])}}),
        ),
    ];
    for (name, permission) in permissions {
        actions.push((
            format!("AddKey {name}"),
            json!({"AddKey": {
                "public_key": rng.public_key().to_string(),
                "access_key": {"nonce": rng.edgy_u64(), "permission": permission},
            }}),
        ));
    }
    actions.push((
        "DeleteKey".into(),
        json!({"DeleteKey": {"public_key": rng.public_key().to_string()}}),
    ));
    actions.push((
        "DeleteAccount".into(),
        json!({"DeleteAccount": {"beneficiary_id": rng.account()}}),
    ));
    let code_len = rng.below(300) as usize;
    actions.push((
        "DeployGlobalContract".into(),
        json!({"DeployGlobalContract": {"code": rng.base64(code_len)}}),
    ));
    let code_len = rng.below(300) as usize;
    actions.push((
        "DeployGlobalContractByAccountId".into(),
        json!({"DeployGlobalContractByAccountId": {"code": rng.base64(code_len)}}),
    ));
    actions.push((
        "UseGlobalContract".into(),
        json!({"UseGlobalContract": {"code_hash": bs58(&rng.hash())}}),
    ));
    actions.push((
        "UseGlobalContractByAccountId".into(),
        json!({"UseGlobalContractByAccountId": {"account_id": rng.account()}}),
    ));
    for code in [
        json!({"hash": bs58(&rng.hash())}),
        json!({"account_id": rng.account()}),
    ] {
        let entries = rng.below(4);
        let data: serde_json::Map<String, Value> = (0..entries)
            .map(|_| {
                let (k, v) = (rng.below(40) as usize, rng.below(100) as usize);
                (rng.base64(k), Value::String(rng.base64(v)))
            })
            .collect();
        let form = code.as_object().unwrap().keys().next().unwrap().clone();
        actions.push((
            format!("DeterministicStateInit by {form}"),
            json!({"DeterministicStateInit": {"code": code, "data": data, "deposit": yocto(rng)}}),
        ));
    }
    actions.push((
        "TransferToGasKey".into(),
        json!({"TransferToGasKey": {"public_key": rng.public_key().to_string(), "deposit": yocto(rng)}}),
    ));
    actions.push((
        "WithdrawFromGasKey".into(),
        json!({"WithdrawFromGasKey": {"public_key": rng.public_key().to_string(), "amount": yocto(rng)}}),
    ));
    actions
}

/// A hash as nearcore writes it (base58).
pub fn bs58(bytes: &[u8; 32]) -> String {
    near_primitives::hash::CryptoHash(*bytes).to_string()
}
