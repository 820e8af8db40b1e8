//! `tx-codec`: a mutation fuzzer for near-rpc's transaction codec (`near_rpc::tx`), on the
//! stable toolchain. See ../FUZZING.md, "The transaction codec".
//!
//! Seeds are built in process: a signed transaction of each version holding one of every
//! action, a signed delegate action, single actions. Each input is a seed or corpus entry
//! with 1 to 6 byte-level mutations (length fields set to boundary values among them),
//! decoded as a signed transaction, a transaction, an action and a signed delegate action
//! under `catch_unwind`. Findings: a panic, a decode that does not re-encode to the same
//! bytes (borsh is canonical), a view that does not read back, a call over `--slow-ms`.
//! An input whose error (kind and path, digits blanked) is new joins the corpus.

use std::collections::{BTreeMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use near_rpc::tx::{
    AccessKey, AccessKeyPermission, Action, DelegateAction, DeterministicAccountStateInit,
    FunctionCallPermission, GasKeyInfo, GlobalContractDeployMode, GlobalContractIdentifier,
    NonDelegateAction, NonceMode, SecretKey, SignedDelegateAction, SignedTransaction,
    Transaction, TransactionNonce, TransactionV1, ViewError,
};
use near_rpc::types::SignedTransactionView;
use near_rpc::{CryptoHash, NearGas, NearToken};

const USAGE: &str = "\
tx-codec [--seconds N] [--seed N] [--findings DIR] [--slow-ms N]
  --seconds N    stop after N seconds (default 120)
  --seed N       PRNG seed (default 1); the same seed gives the same inputs
  --findings DIR where inputs of findings go (default fuzz/findings)
  --slow-ms N    a decode call slower than this is a finding (default 100)";

/// xorshift64*: deterministic for a seed, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let key = SecretKey::ed25519_from_seed(&[7; 32]);
    let secp = SecretKey::secp256k1_from_bytes(&[9; 32]).expect("a valid scalar");
    let pk = key.public_key();
    let permission = FunctionCallPermission {
        allowance: Some(NearToken::from_millinear(250)),
        receiver_id: "app.near".into(),
        method_names: vec!["a".into(), "bb".into()],
    };
    let gas_key = GasKeyInfo {
        balance: NearToken::from_near(2),
        num_nonces: 4,
    };
    let simple = vec![
        Action::CreateAccount,
        Action::DeployContract {
            code: b"\0asm\x01\0\0\0".to_vec(),
        },
        Action::function_call(
            "go",
            br#"{"a":1}"#.to_vec(),
            NearGas::from_tgas(30),
            NearToken::from_yoctonear(1),
        ),
        Action::transfer(NearToken::from_near(1)),
        Action::Stake {
            stake: NearToken::from_near(1),
            public_key: secp.public_key(),
        },
        Action::AddKey {
            public_key: pk.clone(),
            access_key: AccessKey {
                nonce: 0,
                permission: AccessKeyPermission::FunctionCall(permission.clone()),
            },
        },
        Action::AddKey {
            public_key: pk.clone(),
            access_key: AccessKey {
                nonce: 3,
                permission: AccessKeyPermission::GasKeyFunctionCall(
                    gas_key.clone(),
                    permission,
                ),
            },
        },
        Action::AddKey {
            public_key: pk.clone(),
            access_key: AccessKey {
                nonce: 0,
                permission: AccessKeyPermission::GasKeyFullAccess(gas_key),
            },
        },
        Action::DeleteKey {
            public_key: pk.clone(),
        },
        Action::DeleteAccount {
            beneficiary_id: "bob.near".parse().expect("an account id"),
        },
        Action::DeployGlobalContract {
            code: vec![1, 2, 3],
            deploy_mode: GlobalContractDeployMode::AccountId,
        },
        Action::UseGlobalContract {
            contract_identifier: GlobalContractIdentifier::CodeHash(CryptoHash([5; 32])),
        },
        Action::UseGlobalContract {
            contract_identifier: GlobalContractIdentifier::AccountId(
                "publisher.near".parse().expect("an account id"),
            ),
        },
        Action::DeterministicStateInit {
            state_init: DeterministicAccountStateInit::V1 {
                code: GlobalContractIdentifier::CodeHash(CryptoHash([1; 32])),
                data: BTreeMap::from([(b"k".to_vec(), b"v".to_vec()), (b"z".to_vec(), vec![])]),
            },
            deposit: NearToken::from_yoctonear(1),
        },
        Action::TransferToGasKey {
            public_key: pk.clone(),
            deposit: NearToken::from_yoctonear(5),
        },
        Action::WithdrawFromGasKey {
            public_key: pk.clone(),
            amount: NearToken::from_yoctonear(5),
        },
    ];
    let delegate = DelegateAction {
        sender_id: "alice.near".parse().expect("an account id"),
        receiver_id: "app.near".parse().expect("an account id"),
        actions: simple
            .iter()
            .cloned()
            .map(|a| NonDelegateAction::try_from(a).expect("not a delegate"))
            .collect(),
        nonce: 1,
        max_block_height: 100,
        public_key: pk.clone(),
    }
    .sign(&key);
    let mut all = simple.clone();
    all.push(Action::Delegate(Box::new(delegate.clone())));
    let v0 = Transaction::new(
        "alice.near".parse().expect("an account id"),
        pk.clone(),
        7,
        "bob.near".parse().expect("an account id"),
        CryptoHash([3; 32]),
        all.clone(),
    );
    let v1 = Transaction::V1(TransactionV1 {
        signer_id: "alice.near".parse().expect("an account id"),
        public_key: secp.public_key(),
        nonce: TransactionNonce::GasKeyNonce {
            nonce: 9,
            nonce_index: 2,
        },
        receiver_id: "bob.near".parse().expect("an account id"),
        block_hash: CryptoHash([4; 32]),
        actions: all,
        nonce_mode: NonceMode::Strict,
    });
    let mut seeds = vec![
        v0.clone().sign(&key).to_borsh(),
        v1.clone().sign(&secp).to_borsh(),
        v0.to_borsh(),
        v1.to_borsh(),
        delegate.to_borsh(),
    ];
    seeds.extend(simple.iter().map(Action::to_borsh));
    seeds
}

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    for _ in 0..1 + rng.below(6) {
        let len = input.len();
        match rng.below(8) {
            0 if len > 0 => {
                let at = rng.below(len);
                input[at] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let at = rng.below(len);
                input[at] = rng.next() as u8;
            }
            2 => {
                let at = rng.below(len + 1);
                let n = 1 + rng.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                input.splice(at..at, bytes);
            }
            3 if len > 0 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(16)).min(len);
                input.drain(at..end);
            }
            4 if len > 0 => {
                // A length or count field set to a boundary value.
                let at = rng.below(len);
                let value: u32 = [0, 1, 2, 31, 32, 64, 65, 255, 256, 0xffff, u32::MAX, len as u32]
                    [rng.below(12)];
                for (i, b) in value.to_le_bytes().iter().enumerate() {
                    if let Some(slot) = input.get_mut(at + i) {
                        *slot = *b;
                    }
                }
            }
            5 if len > 0 => input.truncate(rng.below(len)),
            6 if len > 0 => {
                let at = rng.below(len);
                let end = (at + 1 + rng.below(64)).min(len);
                let copy = input[at..end].to_vec();
                let to = rng.below(len + 1);
                input.splice(to..to, copy);
            }
            _ => {
                let other = &corpus[rng.below(corpus.len())];
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let at = rng.below(len + 1);
                    input.truncate(at);
                    input.extend_from_slice(&other[from..]);
                }
            }
        }
    }
    input.truncate(1 << 16);
}

/// One way of decoding an input, named in the report.
type Decoder = dyn Fn(&[u8]) -> Outcome;

/// What one decoding of an input came to: `Ok(())`, or a finding's description, or (for
/// corpus feedback) the error's shape.
enum Outcome {
    Decoded,
    Refused(String),
    Finding(String),
}

fn shape(error: &near_rpc::tx::BorshError) -> String {
    let text = format!("{:?}@{}", error.kind, error.path);
    text.chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

/// Decodes `input` one way; on success it must re-encode to the same bytes.
fn decode_as<T>(
    input: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, near_rpc::tx::BorshError>,
    encode: impl Fn(&T) -> Vec<u8>,
    check: impl Fn(&T) -> Option<String>,
) -> Outcome {
    match decode(input) {
        Ok(value) if encode(&value) != input => {
            Outcome::Finding("decoded, but re-encodes to other bytes".to_owned())
        }
        Ok(value) => match check(&value) {
            Some(finding) => Outcome::Finding(finding),
            None => Outcome::Decoded,
        },
        Err(error) => {
            // Formatting the error runs the path code too.
            let _ = error.to_string();
            Outcome::Refused(shape(&error))
        }
    }
}

/// A signed transaction's view must read back to it, unless it deploys code (the view
/// shows only the code's hash).
fn view_reads_back(signed: &SignedTransaction) -> Option<String> {
    let view = SignedTransactionView::from(signed);
    let json = serde_json::to_value(&view).ok()?;
    let decoded: SignedTransactionView = match near_rpc::decode::from_value(json) {
        Ok(view) => view,
        Err(e) => return Some(format!("its view does not decode: {e}")),
    };
    match SignedTransaction::from_view(&decoded, *signed.transaction().block_hash()) {
        Ok(back) if &back == signed => None,
        Ok(_) => Some("its view reads back as another transaction".to_owned()),
        Err(ViewError::CodeOnlyHashed { .. }) => None,
        Err(e) => Some(format!("its view does not read back: {e}")),
    }
}

fn main() -> ExitCode {
    let mut seconds = 120u64;
    let mut seed = 1u64;
    let mut findings_dir = PathBuf::from("fuzz/findings");
    let mut slow = Duration::from_millis(100);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match arg.as_str() {
            "--seconds" => seconds = value().parse().unwrap_or(seconds),
            "--seed" => seed = value().parse().unwrap_or(seed),
            "--findings" => findings_dir = PathBuf::from(value()),
            "--slow-ms" => slow = Duration::from_millis(value().parse().unwrap_or(100)),
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed.max(1));
    let seeds = seeds();
    let mut corpus = seeds.clone();
    let mut outcomes: HashSet<String> = HashSet::new();
    let (mut inputs, mut decoded, mut slowest) = (0u64, 0u64, Duration::ZERO);
    let mut findings: Vec<(String, Vec<u8>)> = Vec::new();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    while Instant::now() < deadline {
        let mut input = if inputs < seeds.len() as u64 {
            seeds[inputs as usize].clone()
        } else {
            corpus[rng.below(corpus.len())].clone()
        };
        if inputs >= seeds.len() as u64 {
            mutate(&mut rng, &mut input, &corpus);
        }
        inputs += 1;
        let ways: [(&str, &Decoder); 4] = [
            ("SignedTransaction", &|b| {
                decode_as(b, SignedTransaction::from_borsh, SignedTransaction::to_borsh, |s| {
                    let _ = s.verify();
                    view_reads_back(s)
                })
            }),
            ("Transaction", &|b| {
                decode_as(b, Transaction::from_borsh, Transaction::to_borsh, |t| {
                    let _ = t.hash();
                    None
                })
            }),
            ("Action", &|b| decode_as(b, Action::from_borsh, Action::to_borsh, |_| None)),
            ("SignedDelegateAction", &|b| {
                decode_as(b, SignedDelegateAction::from_borsh, SignedDelegateAction::to_borsh, |d| {
                    let _ = d.verify();
                    None
                })
            }),
        ];
        let mut new = false;
        for (name, way) in ways {
            let start = Instant::now();
            let outcome = catch_unwind(AssertUnwindSafe(|| way(&input)));
            let took = start.elapsed();
            slowest = slowest.max(took);
            let finding = match outcome {
                Err(panic) => Some(format!(
                    "panic: {}",
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                )),
                Ok(Outcome::Finding(what)) => Some(what),
                Ok(Outcome::Decoded) => {
                    decoded += 1;
                    new |= outcomes.insert(format!("{name} ok"));
                    None
                }
                Ok(Outcome::Refused(shape)) => {
                    new |= outcomes.insert(format!("{name} {shape}"));
                    None
                }
            };
            let finding = finding.or((took > slow).then(|| format!("slow: {took:?}")));
            if let Some(what) = finding {
                findings.push((format!("{name}: {what}"), input.clone()));
            }
        }
        if new && corpus.len() < 4000 {
            corpus.push(input);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "tx-codec: {inputs} inputs in {elapsed:.1} s ({:.0}/s), {decoded} decodes succeeded, \
         {} distinct outcomes, corpus {}, slowest call {slowest:?}, findings {}",
        inputs as f64 / elapsed,
        outcomes.len(),
        corpus.len(),
        findings.len()
    );
    if findings.is_empty() {
        return ExitCode::SUCCESS;
    }
    let _ = std::fs::create_dir_all(&findings_dir);
    for (i, (what, input)) in findings.iter().enumerate().take(20) {
        println!("finding {i}: {what}");
        let _ = std::fs::write(findings_dir.join(format!("tx-{i}.bin")), input);
    }
    ExitCode::from(1)
}
