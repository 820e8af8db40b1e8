//! Writing: transactions signed and sent, with what the client guarantees about them.
//!
//! ```no_run
//! use near_rpc::types::TxExecutionStatus;
//! use near_rpc::{Client, NearGas, NearToken, Signer};
//! use serde_json::json;
//!
//! async fn example() -> Result<(), Box<dyn std::error::Error>> {
//!     let client = Client::new("https://rpc.testnet.near.org")?;
//!     // A near-cli credential file (~/.near-credentials/testnet/alice.testnet.json), or
//!     // Signer::from_env() (NEAR_ACCOUNT_ID, NEAR_PRIVATE_KEY), or Signer::new(id, key),
//!     // configured once: every write of `alice` signs with it.
//!     let alice = client.with_signer(Signer::from_file("alice.testnet.json")?);
//!     let outcome = alice.transfer("bob.testnet", NearToken::from_near(1)).await?;
//!     println!("failed: {}", outcome.is_failure());
//!
//!     // A function call: arguments (JSON, or bytes with `args_raw`), gas, deposit.
//!     alice
//!         .call("counter.testnet", "add")
//!         .args(json!({ "by": 2 }))
//!         .gas(NearGas::from_tgas(30))
//!         .deposit(NearToken::from_yoctonear(1))
//!         .await?;
//!
//!     // Several actions in one transaction, waiting until final: a sub-account,
//!     // funded, with alice's key.
//!     let outcome = alice
//!         .transaction("sub.alice.testnet")
//!         .create_account()
//!         .transfer(NearToken::from_millinear(500))
//!         .add_full_access_key(alice.signer().public_key())
//!         .wait_until(TxExecutionStatus::Final)
//!         .await?;
//!     println!("created: {}", !outcome.is_failure());
//!     Ok(())
//! }
//! ```
//!
//! Each builder ends in the write path below (`.await`, or `.send()`; `.prepare()` signs
//! without sending); a bad account id, key or argument is a
//! [`SendErrorKind::Usage`][kind] naming it, before anything is read or sent. The
//! shortcuts that take the signer each time ([`client.send(&signer, ..)`][send],
//! `client.transfer(&signer, ..)`, ...) are the same path. The blocking client has the
//! same builders (`blocking_client.with_signer(signer)`, then `.send()`).
//!
//! # Meta-transactions (NEP-366)
//!
//! A user signs actions for a relayer, which sends them in a transaction of its own and
//! pays the gas (and the deposits the actions attach: nearcore charges the relayer for
//! them). The user's side reads nothing but its key: the delegate action's nonce is the
//! key's nonce + 1, counted with the signer's transactions, and its `max_block_height`
//! is the final head's height plus [`DEFAULT_DELEGATE_BLOCKS`][delegate-blocks] (200)
//! or what `.valid_for_blocks(n)` says. Nothing is sent.
//!
//! ```no_run
//! # async fn run(alice: near_rpc::client::SigningClient, relayer: near_rpc::client::SigningClient) -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::tx::SignedDelegateAction;
//! use near_rpc::NearToken;
//!
//! // Alice: signs, and hands the base64 to the relayer.
//! let signed = alice.transfer("bob.testnet", NearToken::from_near(1)).delegate().await?;
//! let text = signed.to_base64();
//! // The relayer: a transaction to alice holding the delegate action, through the
//! // write path like every write.
//! let outcome = relayer.relay(SignedDelegateAction::from_base64(&text)?).await?;
//! # Ok(()) }
//! ```
//!
//!
//! `relay` refuses a delegate action whose `max_block_height` is below the final head
//! (read with the relayer's key) as [`SendErrorKind::Usage`][kind] naming both heights,
//! before the relayer signs: nearcore would fail it on chain, after the relayer paid.
//!
//! # Gas keys, key pools and strict nonces
//!
//! A [`Signer`][signer] can hold more than one nonce sequence ("lane"): each intent takes
//! the next lane in turn and keeps it through its re-signs, and every rule of the write
//! path holds per lane.
//!
//! ```no_run
//! # async fn run(client: near_rpc::Client, key: near_rpc::tx::SecretKey, keys: Vec<near_rpc::tx::SecretKey>) -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::tx::NonceMode;
//! use near_rpc::{NearToken, Signer};
//!
//! // A gas key (nearcore 0.38's keys with their own balance and `num_nonces` indexes):
//! // `TransactionV1` with `GasKeyNonce { nonce, nonce_index }`, each index counted on
//! // its own (read with `view_gas_key_nonces`).
//! let gas = Signer::gas_key("alice.near".parse()?, key, 0..8)?;
//! // Strict mode: a node takes a nonce only at exactly the key's + 1 (one send in flight
//! // per lane; spread concurrent strict sends over indexes or keys).
//! let alice = client.with_signer(gas.nonce_mode(NonceMode::Strict));
//! alice.transfer("bob.near", NearToken::from_near(1)).await?;
//!
//! // A pool of an account's access keys, taken in turn: throughput without one key's
//! // nonce as the bottleneck; nonces stay exact per key.
//! let pool = client.with_signer(Signer::pool("alice.near".parse()?, keys)?);
//! pool.transfer("bob.near", NearToken::from_near(1)).await?;
//! # Ok(()) }
//! ```
//!
//! `Signer::new(..).nonce_mode(NonceMode::Strict)` signs version 1 on a plain access
//! key. Every transaction names its key and index ([`Transaction::public_key`][tx-key],
//! [`Transaction::nonce_index`][tx-index]), as do errors; `Signer::reset_lane(key, index)`
//! forgets one lane's count. A delegate action is signed by an access key, never a gas
//! key (nearcore: `DelegateActionRequiresNonGasKey`). The CLI's `sign`, `send` and
//! `transfer` take `--nonce-index I` and `--nonce-mode monotonic|strict`.
//!
//! # Signed messages (NEP-413)
//!
//! How wallets and dApps prove who holds an account's key without a transaction: the
//! dApp picks a 32-byte nonce, the user signs a [`MessagePayload`][payload], the dApp
//! verifies the [`SignedMessage`][signed-message] (its JSON is NEP-413's, with
//! `accountId`, `publicKey` and a base64 `signature`) and then checks on chain that the
//! key is a full-access key of the account. What is signed can never be a transaction
//! (the tag 2^31 + 413 comes first). `near-rpc sign-message` and `verify-message` do the
//! same from the command line.
//!
//! ```
//! # fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::tx::{MessagePayload, SecretKey, SignedMessage};
//!
//! let key = SecretKey::ed25519_from_seed(&[1; 32]);
//! let nonce = MessagePayload::nonce_from_base64("KNV0cOpvJ50D5vfF9pqWom8wo2sliQ4W+Wa7uZ3Uk6Y=")?;
//! let payload = MessagePayload::new("Sign in to myapp.com", "myapp.com", nonce);
//! let json = serde_json::to_string(&payload.sign("alice.near".parse()?, &key))?;
//! let received: SignedMessage = serde_json::from_str(&json)?;
//! assert!(received.verify(&payload));
//! # Ok(()) }
//! # run().unwrap();
//! ```
//!
//! # ML-DSA-65 keys (feature `latest`)
//!
//! nearcore 0.38 adds post-quantum ML-DSA-65 (FIPS 204) keys. A build with `latest`
//! (`nearcore_0_38_0`) reads `ml-dsa-65:` secret keys (base58 of the raw 4032 bytes, as
//! near-cli key files hold them; `SecretKey::ml_dsa_65_from_bytes`) and public keys
//! (1952 bytes), signs and verifies with them (through aws-lc-rs, which a client build
//! already compiles for TLS: BENCHMARKS.md), and reads the `ml-dsa-65-hash:` handles
//! that access key lists show instead of the key ([`KeyHandle`][key-handle]; compare
//! with `public_key.handle()`). A `Signer` over such a key writes like any other. Other
//! builds refuse both prefixes by name, never as a typo.
//!
//! # The write path
//!
//! [`send`][send], `transfer`, `function_call`, `function_call_with`, `create_account`,
//! `add_key`, `delete_key`, `deploy` and `delete_account`, async and blocking from one
//! definition ([`WRITE_SHORTCUTS`][write-shortcuts]):
//!
//! - **Nonces**: the signer's nonce and a final block hash are read in one
//!   `view_access_key` (one read at a time: concurrent first sends wait for it), then
//!   nonces are counted locally, so concurrent sends get consecutive nonces without a
//!   round trip each; the key is read again after [`BLOCK_HASH_REUSE`][reuse] (60 s) for
//!   a fresh block hash. Clones of a [`Signer`][signer] share the count, so one signer
//!   should serve one account key on one chain; [`Signer::reset`][reset] forgets the
//!   count when another program has used the key.
//! - **Waiting**: writes wait until `EXECUTED_OPTIMISTIC` unless
//!   [`client.waiting_until(level)`][waiting-until] says otherwise. A transaction that
//!   fails on chain is an `Ok` whose `is_failure()` is true; an `Err` is a
//!   [`SendError`][send-error], which carries every transaction signed for the intent
//!   ([`SendError::transactions`][transactions], [`SendError::signed`][signed]) and
//!   says what went wrong ([`SendErrorKind`][kind]).
//!
//! A transaction is identified by its hash. What the client does with each answer to a
//! send (also on [`SendError`][send-error], where the client's docs keep it):
//!
//! | answer | the transaction | the client |
//! |---|---|---|
//! | the outcome of that hash, at the level asked or a stricter one | executed, or is executing | returns it |
//! | a refusal of the transaction's own bytes (invalid signer or receiver id, bad signature, actions nearcore refuses, its size or version, a cost that overflows), or a request the node could not read | refused, and no later state changes that | [`SendErrorKind::Rejected`][rejected] |
//! | no connection, a TLS handshake that did not complete, a request over the size limit | never left this machine | [`SendErrorKind::Rejected`][rejected] |
//! | `Expired` | refused now: its block is too old | asks the node that refused it for that hash; only if it answers `UNKNOWN_TRANSACTION` naming exactly that hash, signs it again with the **same nonce** and a fresh block hash, so at most one of the two can ever execute |
//! | `InvalidNonce` (the key's nonce is at or past the transaction's) | refused now: its nonce is taken | the same question; only on the same answer, signs anew with the node's nonce + 1, at most [`MAX_NONCE_RESIGNS`][max-nonce] time per intent |
//! | another refusal (balance, key, congestion, ...) | refused now | the same question; [`SendErrorKind::Rejected`][rejected] only on the same answer |
//! | anything else: no answer, a timeout, a broken connection, an HTTP or decoding error, the deadline, an answer without the outcome of that hash or below the level asked, an `UNKNOWN_TRANSACTION` about another hash | unknown: it may execute | asks any endpoint for its status by hash, re-sending the *same bytes* when a node has not seen them; [`SendErrorKind::Unresolved`][unresolved] after [`RESOLVE_ATTEMPTS`][resolve] |
//!
//! Why the question before signing anew: a refusal does not prove that the transaction
//! never ran. nearcore's `send_tx` re-validates a transaction it already accepted while
//! it waits for it (and says `InvalidNonce` once it has spent its own nonce), a
//! transport may deliver the same bytes twice, and another node may hold it. The question
//! goes to the node that refused, and to no other: with two honest providers, the second
//! may not have seen the transaction yet. Re-sending the same bytes is always safe: a
//! transaction executes at most once however often it arrives (its nonce is spent).
//! "Nothing was sent" is claimed only for failures before any byte left.
//!
//! # The guarantee, exactly
//!
//! One intent ([`Client::send`][send] and the write shortcuts) signs at most 1 +
//! [`MAX_RESIGNS`][max-resigns] = 4 transactions. Each signed after `Expired` keeps the
//! nonce of the one before; only one signed after `InvalidNonce` takes a new one. So at
//! most 1 + [`MAX_NONCE_RESIGNS`][max-nonce] = 2 of them can ever execute, and two only
//! when the node that received one of them said falsely, in two answers, that it refused
//! it and that it does not know its hash. No other answer of any node, no failure of any
//! network, and no cancellation makes a second one. What a lying node can still do: make
//! a refusal look final ([`SendErrorKind::Rejected`][rejected] for a transaction it
//! forwarded anyway), or invent an outcome for the hash (check outcomes with
//! [`Client::verified`][verified] when that matters: [`verification`](super::verification)).
//!
//! `tests/it/write_matrix.rs` runs every failure point × answer × one or two endpoints ×
//! wait level × cancel point against one modelled chain, and `tests/it/client_write.rs`
//! each failure point on a scripted node.
//!
//! # Cancel-safe sends
//!
//! A future of [`Client::send`][send] dropped after its `send_tx` went out returns nothing
//! to look up. What must survive a cancel, a crash or a deadline has two ways to keep the
//! transaction before any byte of it is sent:
//!
//! - [`Signer::before_send`][before-send]: a hook that receives every transaction the
//!   signer signs (re-signs included) before it is sent, and can refuse to let it go;
//! - the two halves of a send: [`Client::prepare`][prepare] signs and returns the
//!   [`SignedTransaction`][signed-tx] (its hash, and bytes to persist with
//!   [`to_base64`][to-base64]); [`Client::send_signed`][send-signed] sends exactly those
//!   bytes and resolves them, and can be called again with them at any time: it never
//!   signs. After an `Expired` refusal, [`Client::renew`][renew] signs it again on a fresh
//!   block with the same nonce (so at most one of the two executes); after
//!   `InvalidNonce` or `NonceTooLarge`, [`Signer::reset`][reset], then
//!   [`Client::prepare`][prepare].
//!
//! ```no_run
//! # async fn run(client: near_rpc::Client, signer: near_rpc::Signer) -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::tx::{Action, SignedTransaction};
//! use near_rpc::NearToken;
//!
//! let actions = vec![Action::transfer(NearToken::from_near(1))];
//! let signed = client.prepare(&signer, "bob.near", actions).await?;
//! std::fs::write("pending.tx", signed.to_base64())?; // before anything is sent
//! let outcome = client.send_signed(&signed).await?;
//! // After a crash: the same bytes again execute at most once.
//! let again = SignedTransaction::from_base64(&std::fs::read_to_string("pending.tx")?)?;
//! let outcome = client.send_signed(&again).await?;
//! # Ok(()) }
//! ```
//!
//! The CLI prints `{"rejected"|"unresolved": HASH, "signed_tx_base64": ...}` on any
//! failure after signing, and on Ctrl-C or SIGTERM once a transaction was signed.
//!
//! # The codec, keys and offline signing
//!
//! - **The codec** ([`near_rpc::tx`](crate::tx), feature `tx`, on with `client`): every
//!   action of the 1.2.6 protocol (create account, deploy, function call, transfer,
//!   stake, add key with full-access, function-call or gas-key permissions, delete key,
//!   delete account, delegate with `SignedDelegateAction` and NEP-461 signing, global
//!   contracts by hash and by account, deterministic state init, gas-key transfers and
//!   withdrawals), both transaction versions (ordinary, and version 1 with a gas key's
//!   `nonce_index` and a nonce mode), signed transactions and their hash (sha256 of the
//!   borsh bytes), all with nearcore's borsh encoding, written by hand. Decoding refuses
//!   unknown tags, lengths past the input and trailing bytes, naming the field
//!   (`transaction.actions[2].FunctionCall.args`). `ActionView`/`SignedTransactionView`
//!   convert both ways, so what you build reads back as a node shows it.
//!   `tests/it/tx_codec.rs` reproduces nearcore's and near-api-js's published vectors
//!   (bytes, hashes, signatures) and cites each; the actions and version that have none
//!   are checked against nearcore's source layouts and round-trip.
//! - **Keys**: [`keys`](super::keys#secret-keys).
//! - **Offline**: `Transaction::new(signer, public_key, nonce, receiver, block_hash,
//!   actions).sign(&key)` gives a [`SignedTransaction`][signed-tx] (`to_base64()`,
//!   `hash()`), which `send_tx` and [`Client::send_signed`][send-signed] take as it is;
//!   `near-rpc sign` does the same from the command line.
//!
//! # What this does not do
//!
//! It does not estimate gas (function calls attach 100 Tgas unless told), create
//! top-level accounts (call the registrar contract with `function_call`), generate keys,
//! or check what a node answers against the chain unless asked
//! ([`client.verified()`][verified]).
//!
//! [send]: crate::Client::send
//! [tx-key]: crate::tx::Transaction::public_key
//! [tx-index]: crate::tx::Transaction::nonce_index
//! [payload]: crate::tx::MessagePayload
//! [signed-message]: crate::tx::SignedMessage
//! [key-handle]: crate::KeyHandle
//! [write-shortcuts]: crate::client::WRITE_SHORTCUTS
//! [reuse]: crate::client::BLOCK_HASH_REUSE
//! [signer]: crate::Signer
//! [reset]: crate::Signer::reset
//! [before-send]: crate::Signer::before_send
//! [waiting-until]: crate::Client::waiting_until
//! [send-error]: crate::client::SendError
//! [transactions]: crate::client::SendError::transactions
//! [signed]: crate::client::SendError::signed
//! [kind]: crate::client::SendErrorKind
//! [rejected]: crate::client::SendErrorKind::Rejected
//! [unresolved]: crate::client::SendErrorKind::Unresolved
//! [max-resigns]: crate::client::MAX_RESIGNS
//! [max-nonce]: crate::client::MAX_NONCE_RESIGNS
//! [resolve]: crate::client::RESOLVE_ATTEMPTS
//! [verified]: crate::Client::verified
//! [prepare]: crate::Client::prepare
//! [send-signed]: crate::Client::send_signed
//! [renew]: crate::Client::renew
//! [signed-tx]: crate::tx::SignedTransaction
//! [to-base64]: crate::tx::SignedTransaction::to_base64
//! [delegate-blocks]: crate::client::DEFAULT_DELEGATE_BLOCKS
