//! A saved chain from someone else, and the credential files written for it: a hostile
//! file is refused at load naming the JSON path at fault (account ids that are no NEAR
//! account ids, numbers the runtime would overflow, a size past the limit), and the
//! credential files stay inside their folder, private, whatever was planted there.

use std::path::{Path, PathBuf};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use near_rpc::tx::Action;
use near_rpc::NearToken;
use near_rpc_mock::chain::{Account, Chain, Level, GAS_PRICE};
use near_rpc_mock::fees;
use near_rpc_mock::state_file::MAX_FILE_BYTES;
use near_rpc_mock::MockNode;
use serde_json::{json, Value};

const NEAR: u128 = 1_000_000_000_000_000_000_000_000;

/// A fresh scratch folder for one test (removed first if a previous run left it).
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("near-rpc-mock-saved-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The default chain with a receipt due at the next block (a transfer from alice to
/// bob, included), as the saved JSON.
fn saved_with_a_due_receipt() -> Value {
    let mut chain = Chain::new();
    let signed = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::transfer(NearToken::from_near(1))],
    );
    chain.submit(&signed.to_borsh()).unwrap();
    chain.advance(1);
    let state = chain.to_state_json();
    assert_eq!(
        state["due"].as_array().unwrap().len(),
        1,
        "{}",
        state["due"]
    );
    state
}

/// Writes `state` to `file` and loads it: the error, if refused.
fn load(file: &Path, state: &Value) -> Result<MockNode, String> {
    std::fs::write(file, state.to_string()).unwrap();
    MockNode::load(file).map_err(|e| e.to_string())
}

/// `state` is refused at load with an error containing every one of `expected`.
fn refused(file: &Path, state: &Value, expected: &[&str]) {
    match load(file, state) {
        Ok(_) => panic!("loaded, expected a refusal with {expected:?}"),
        Err(error) => {
            for part in expected {
                assert!(error.contains(part), "expected {part:?} in: {error}");
            }
        }
    }
}

#[test]
fn account_ids_that_could_name_a_path_are_refused_at_load_by_their_json_path() {
    let dir = scratch("ids");
    let file = dir.join("chain.json");
    let state = Chain::new().to_state_json();
    let overlong = "a".repeat(65);
    let hostile: [(&str, &str); 7] = [
        ("../../etc/x", r#""../../etc/x""#),
        ("a/b", r#""a/b""#),
        ("/abs", r#""/abs""#),
        ("..", r#""..""#),
        // Escaped in the message: a NUL is never written raw to a terminal.
        ("bob\0.mock", r#""bob\0.mock""#),
        ("Bob.mock", r#""Bob.mock""#),
        (&overlong, "too long"),
    ];
    for (id, shown) in hostile {
        let mut edited = state.clone();
        edited["accounts"][1]["id"] = json!(id);
        refused(
            &file,
            &edited,
            &["accounts[1].id: ", shown, "is not a NEAR account id"],
        );
    }
    // Where an account id names another: the transactions' and the receipts' too.
    let mut edited = state.clone();
    edited["transactions"][0]["receiver"] = json!("../bob.mock");
    refused(
        &file,
        &edited,
        &["transactions[0].receiver: \"../bob.mock\""],
    );
    let mut edited = saved_with_a_due_receipt();
    edited["due"][0]["signer"] = json!("a/b");
    refused(&file, &edited, &["due[0].signer: \"a/b\""]);
    // An account listed twice would be two credential files of one name.
    let mut edited = state.clone();
    edited["accounts"][2]["id"] = json!("alice.mock");
    refused(
        &file,
        &edited,
        &["accounts[2].id: alice.mock is listed twice (also accounts[0])"],
    );
    // A long id is shown cut short.
    let mut edited = state;
    edited["accounts"][1]["id"] = json!("X".repeat(100_000));
    let error = load(&file, &edited).err().unwrap();
    assert!(
        error.len() < 400 && error.contains("(100000 bytes)"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What is one thing on a chain is listed once in its file: a transaction twice would
/// be two of one history, a waiting one twice would be charged once and dropped with
/// its copy.
#[test]
fn a_transaction_listed_twice_is_refused_at_load() {
    let dir = scratch("twice");
    let file = dir.join("chain.json");
    let mut chain = Chain::new();
    let signed = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::transfer(NearToken::from_near(1))],
    );
    chain.submit(&signed.to_borsh()).unwrap();
    let state = chain.to_state_json();
    load(&file, &state).unwrap();
    let mut edited = state.clone();
    let waiting = edited["mempool"][0].clone();
    edited["mempool"].as_array_mut().unwrap().push(waiting);
    refused(
        &file,
        &edited,
        &[&format!(
            "mempool[1]: transaction {} is listed twice",
            signed.hash()
        )],
    );
    let mut edited = state;
    let first = edited["transactions"][0].clone();
    edited["transactions"].as_array_mut().unwrap().push(first);
    refused(
        &file,
        &edited,
        &["transactions[3]: transaction", "is listed twice"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The second line of defence: a chain built in process (whose accounts are public)
/// with an id that is no account id gets no credential file, and neither does any
/// other account: nothing is written.
#[test]
fn credential_files_are_named_only_after_account_ids() {
    let base = scratch("names");
    let dir = base.join("inner").join("credentials");
    for id in ["../../outside", "a/b", "..", "UPPER.mock", "x\0y"] {
        let node = MockNode::new();
        node.with_chain(|chain| chain.accounts.push(Account::new(id, 1)));
        assert!(node.with_chain(|c| c.signers().iter().any(|(s, _)| s == id)));
        let error = node.write_credentials(&dir).unwrap_err().to_string();
        assert!(
            error.contains(&format!("account {id:?}")) && error.contains("not a NEAR account id"),
            "{id:?}: {error}"
        );
        assert!(
            !dir.exists(),
            "{id:?}: nothing written, not even the folder"
        );
    }
    assert_eq!(
        std::fs::read_dir(&base).unwrap().count(),
        0,
        "nothing outside either"
    );
    std::fs::remove_dir_all(&base).unwrap();
}

#[cfg(unix)]
mod unix {
    //! Permissions and links: Unix only.

    use std::os::unix::fs::{symlink, PermissionsExt as _};

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    fn set_mode(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn the_folders_are_created_private_and_key_files_are_0600_whatever_was_there() {
        let base = scratch("modes");
        let dir = base.join("missing").join("credentials");
        let node = MockNode::new();
        node.write_credentials(&dir).unwrap();
        for folder in [&dir, &dir.join("mock")] {
            assert_eq!(mode(folder) & 0o077, 0, "{}: private", folder.display());
        }
        // A key file left readable by others (0644) is replaced by a 0600 one.
        let alice = dir.join("mock").join("alice.mock.json");
        std::fs::write(&alice, "old").unwrap();
        set_mode(&alice, 0o644);
        let written = node.write_credentials(&dir).unwrap();
        assert!(written.contains(&alice));
        for path in &written {
            assert_eq!(mode(path), 0o600, "{}", path.display());
        }
        let credentials = near_rpc::tx::Credentials::from_file(&alice).unwrap();
        assert_eq!(credentials.account_id.as_str(), "alice.mock");
        // No temporary file is left beside them.
        let names: Vec<String> = std::fs::read_dir(dir.join("mock"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), written.len(), "{names:?}");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_link_planted_at_a_key_files_name_is_replaced_not_followed() {
        let base = scratch("links");
        let dir = base.join("credentials");
        let network = dir.join("mock");
        std::fs::create_dir_all(&network).unwrap();
        set_mode(&dir, 0o700);
        set_mode(&network, 0o700);
        let outside = base.join("outside.json");
        std::fs::write(&outside, "untouched").unwrap();
        set_mode(&outside, 0o644);
        let bob = network.join("bob.mock.json");
        symlink(&outside, &bob).unwrap();
        // A dangling link too: following it would create a file outside.
        let nowhere = base.join("created-through-a-link.json");
        let alice = network.join("alice.mock.json");
        symlink(&nowhere, &alice).unwrap();

        MockNode::new().write_credentials(&dir).unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
        assert_eq!(mode(&outside), 0o644);
        assert!(
            !nowhere.exists(),
            "nothing created through the dangling link"
        );
        for path in [&bob, &alice] {
            let metadata = std::fs::symlink_metadata(path).unwrap();
            assert!(metadata.is_file(), "{}: a file now", path.display());
            assert_eq!(mode(path), 0o600);
            near_rpc::tx::Credentials::from_file(path).unwrap();
        }

        // A link in place of the `mock` folder is refused: its files would land
        // wherever it leads.
        std::fs::remove_dir_all(&network).unwrap();
        let elsewhere = base.join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        set_mode(&elsewhere, 0o700);
        symlink(&elsewhere, &network).unwrap();
        let error = MockNode::new()
            .write_credentials(&dir)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&network.display().to_string()) && error.contains("symbolic link"),
            "{error}"
        );
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        std::fs::remove_dir_all(&base).unwrap();
    }

    /// A folder others may write in is refused, not fixed: its permissions are its
    /// owner's. A private one is used as it is, links to it too.
    #[test]
    fn a_credentials_folder_writable_by_others_is_refused() {
        let base = scratch("shared");
        let dir = base.join("credentials");
        std::fs::create_dir(&dir).unwrap();
        for (mode_bits, who) in [
            (0o777, "writable by its group and others (mode 777)"),
            (0o1777, "writable by its group and others (mode 1777)"),
            (0o770, "writable by its group (mode 770)"),
            (0o757, "writable by others (mode 757)"),
        ] {
            set_mode(&dir, mode_bits);
            let error = MockNode::new()
                .write_credentials(&dir)
                .unwrap_err()
                .to_string();
            assert!(
                error.contains(&dir.display().to_string())
                    && error.contains(who)
                    && error.contains("chmod go-w"),
                "{mode_bits:o}: {error}"
            );
            assert!(!dir.join("mock").exists(), "{mode_bits:o}: nothing written");
            assert_eq!(mode(&dir), mode_bits, "left as it was");
        }
        // The `mock` folder in it is held to the same rule.
        set_mode(&dir, 0o755);
        std::fs::create_dir(dir.join("mock")).unwrap();
        set_mode(&dir.join("mock"), 0o777);
        let error = MockNode::new()
            .write_credentials(&dir)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("mock: writable by its group and others"),
            "{error}"
        );
        set_mode(&dir.join("mock"), 0o755);
        let via = base.join("via-link");
        symlink(&dir, &via).unwrap();
        let written = MockNode::new().write_credentials(&via).unwrap();
        assert_eq!(written.len(), 4);
        assert!(dir.join("mock").join("alice.mock.json").is_file());
        std::fs::remove_dir_all(&base).unwrap();
    }

    /// A stream that never ends is read one byte past the limit, then refused.
    #[test]
    fn an_endless_stream_is_refused_at_the_size_limit() {
        let error = MockNode::load(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("larger than {MAX_FILE_BYTES} bytes")),
            "{error}"
        );
    }
}

#[test]
fn a_saved_chain_past_the_size_limit_is_refused_before_it_is_read() {
    let dir = scratch("size");
    let file = dir.join("chain.json");
    // A valid chain padded with spaces to exactly the limit loads.
    let mut text = Chain::new().to_state_json().to_string().into_bytes();
    text.resize(MAX_FILE_BYTES as usize, b' ');
    std::fs::write(&file, &text).unwrap();
    MockNode::load(&file).unwrap();
    // One byte more is refused by its size alone: the bytes past the chain are not
    // even JSON (a sparse file of zeros), and are never read.
    let handle = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    handle.set_len(MAX_FILE_BYTES + 1).unwrap();
    let error = MockNode::load(&file).unwrap_err().to_string();
    assert!(
        error.contains(&format!(
            "larger than {MAX_FILE_BYTES} bytes, the most a saved chain may be"
        )),
        "{error}"
    );
    // Far larger (a sparse terabyte: nothing on disk, on Unix file systems), refused at
    // once the same way: it is never read.
    #[cfg(unix)]
    {
        handle
            .set_len(1 << 40)
            .unwrap_or_else(|_| handle.set_len(1 << 32).unwrap());
        let error = MockNode::load(&file).unwrap_err().to_string();
        assert!(error.contains("larger than"), "{error}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn numbers_the_runtime_would_overflow_are_refused_at_load_naming_path_and_limit() {
    let dir = scratch("overflow");
    let file = dir.join("chain.json");
    let state = Chain::new().to_state_json();
    let u128_max = u128::MAX.to_string();
    let u64_max = u64::MAX.to_string();

    // Balances: the total held passes u128::MAX at bob's amount, or at alice's locked
    // beside her amount.
    let mut edited = state.clone();
    edited["accounts"][0]["amount"] = json!(u128_max);
    refused(
        &file,
        &edited,
        &["accounts[1].amount: ", &u128_max, "u128::MAX"],
    );
    let mut edited = state.clone();
    edited["accounts"][0]["locked"] = json!(u128_max);
    refused(&file, &edited, &["accounts[0].locked: ", &u128_max]);

    // A nonce with no next one.
    let mut edited = state.clone();
    edited["accounts"][0]["keys"][1]["nonce"] = json!(u64::MAX);
    refused(
        &file,
        &edited,
        &[
            "accounts[0].keys[1].nonce: 18446744073709551615 leaves no next nonce",
            "at most 18446744073709551614",
        ],
    );

    // In flight: a due receipt's gas at a gas price past what a balance holds, or
    // its deposit on top of what the accounts hold.
    let due = saved_with_a_due_receipt();
    let mut edited = due.clone();
    edited["due"][0]["gas_price"] = json!(u128_max);
    refused(&file, &edited, &["due[0]: ", &u128_max]);
    let mut edited = due.clone();
    let transfer = Action::transfer(NearToken::from_yoctonear(u128::MAX - NEAR));
    edited["due"][0]["actions"] = json!([BASE64.encode(transfer.to_borsh())]);
    refused(&file, &edited, &["due[0]: ", "u128::MAX"]);

    // A block whose outcomes burn more gas, or tokens, than its chunk header adds up.
    let in_block = |state: &Value, n: usize| -> usize {
        state["blocks"][n]["outcomes"].as_array().unwrap().len()
    };
    assert!(
        in_block(&state, 5) >= 2,
        "block 105 holds both genesis transactions"
    );
    let mut edited = state.clone();
    edited["transactions"][0]["outcomes"][0]["gas_burnt"] = json!(u64::MAX);
    refused(
        &file,
        &edited,
        &["blocks[5] (height 105): ", &u64_max, "gas", "u64::MAX"],
    );
    let mut edited = state;
    edited["transactions"][0]["outcomes"][0]["tokens_burnt"] = json!(u128_max);
    refused(
        &file,
        &edited,
        &["blocks[5] (height 105): ", &u128_max, "yoctoNEAR"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chain at the limits loads and runs: balances held and in flight adding up to
/// exactly u128::MAX (one yoctoNEAR more is refused), a nonce one below u64::MAX. A
/// transfer then moves exactly its amount, and the balances with what was burnt still
/// add up to u128::MAX: nothing wrapped or stopped at a bound.
#[test]
fn a_chain_at_the_limits_loads_and_executes_a_transfer() {
    let dir = scratch("limits");
    let file = dir.join("chain.json");
    let mut state = saved_with_a_due_receipt();
    let amount = |v: &Value| v.as_str().unwrap().parse::<u128>().unwrap();
    let held_by_others: u128 = state["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| amount(&a["locked"]) + amount(&a["amount"]))
        .sum::<u128>()
        - amount(&state["accounts"][0]["amount"]);
    // In flight: the receipt's 1 NEAR and its prepaid execution gas at its price.
    let gas = fees::ACTION_RECEIPT.execution + fees::TRANSFER.execution;
    let in_flight = NEAR + u128::from(gas) * GAS_PRICE;
    let alice = u128::MAX - held_by_others - in_flight;
    state["accounts"][0]["amount"] = json!((alice + 1).to_string());
    // Refused where the sum passes the limit: at the receipt, counted last.
    refused(&file, &state, &["due[0]: ", "u128::MAX"]);
    state["accounts"][0]["amount"] = json!(alice.to_string());
    state["accounts"][1]["keys"][0]["nonce"] = json!(u64::MAX - 1);
    let node = load(&file, &state).unwrap();
    node.with_chain(|chain| {
        let head = chain.head();
        let bob = chain.account("bob.mock").unwrap().amount;
        let signed = chain.sign(
            "alice.mock",
            "bob.mock",
            vec![Action::transfer(NearToken::from_yoctonear(5 * NEAR))],
        );
        let hash = chain.submit(&signed.to_borsh()).unwrap();
        assert!(chain.wait_for(&hash, Level::Final));
        let tx = chain.transaction(&hash).unwrap();
        assert_eq!(tx.status(), json!({"SuccessValue": ""}));
        // Bob gains the 5 NEAR and the 1 NEAR that was in flight, exactly.
        assert_eq!(chain.account("bob.mock").unwrap().amount, bob + 6 * NEAR);
        let burnt: u128 = chain
            .transactions
            .iter()
            .flat_map(|t| &t.outcomes)
            .filter(|o| o.height > head)
            .map(|o| o.tokens_burnt)
            .sum();
        assert!(burnt > 0);
        let held = chain
            .accounts
            .iter()
            .try_fold(0u128, |sum, a| {
                sum.checked_add(a.amount)?.checked_add(a.locked)
            })
            .unwrap();
        assert_eq!(
            held,
            u128::MAX - burnt,
            "nothing is in flight now; nothing lost"
        );
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A request can no more break the limits than a file: `sandbox_patch_state` is
/// refused when the balances would pass u128::MAX or a nonce leave no next one.
#[test]
fn sandbox_patch_state_keeps_the_runtimes_numbers_within_their_types() {
    let mut chain = Chain::new();
    let bob = chain.account("bob.mock").unwrap().amount;
    let record = |amount: u128| {
        json!([{"Account": {"account_id": "bob.mock", "account": {
            "amount": amount.to_string(), "locked": "0"
        }}}])
    };
    let error = chain.patch_state(&record(u128::MAX)).unwrap_err();
    assert!(
        error.contains("past 340282366920938463463374607431768211455 yoctoNEAR")
            && error.contains("bob.mock's amount"),
        "{error}"
    );
    assert_eq!(chain.account("bob.mock").unwrap().amount, bob, "unchanged");
    let key = json!([{"AccessKey": {
        "account_id": "bob.mock",
        "public_key": near_rpc_mock::chain::public_key("other").to_string(),
        "access_key": {"nonce": u64::MAX, "permission": "FullAccess"}
    }}]);
    let error = chain.patch_state(&key).unwrap_err();
    assert!(error.contains("records[0]: `access_key.nonce`"), "{error}");
    // Within the limit it is written as it is.
    chain.patch_state(&record(1_000 * NEAR)).unwrap();
    assert_eq!(chain.account("bob.mock").unwrap().amount, 1_000 * NEAR);
}
