//! Running a parsed command: each network subcommand is a thin layer over one `Client`
//! shortcut; `call` and `decode` go through the typed bindings of any method by name.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::HttpTransport;
use near_rpc::client::transport::{BoxTransport, PathStyle};
use near_rpc::client::{
    ApiKey, AtBlock, ChunkRef, ContractArgs, Epoch, InvalidEndpoint, RawArgs, TxRef,
};
use near_rpc::decode;
use near_rpc::envelope::Response;
use near_rpc::methods::{self, MethodVisitor, RpcMethod};
use near_rpc::types::SpecErrorWrapper;
use near_rpc::types::{BlockReference, CallResult, SyncCheckpoint};
use near_rpc::{Client, CryptoHash, Finality};
use near_rpc_mock::{Cassette, MockNode, Origin, Recorder, RequestLog, ServerOptions};
use serde::Serialize;
use serde_json::{json, Value};
use tokio::runtime::Runtime;

use crate::args::{self, Command, Invocation, Options, ViewAt};
use crate::output::{
    describe, describe_decode_error, failure, note, one_line, print_json, report, summarize,
    write_stdout, Failure, EXIT_DECODE, EXIT_IO, EXIT_RPC, EXIT_TRANSPORT,
};
use crate::{message, verify, write};

/// Runs a write command (`sign`, `sign-delegate`, `send`, `transfer`, `relay`) whose input is `inputs`; its
/// failure's message goes through the redaction of every secret key it may quote: those
/// found in `inputs`, and the key file's own (added by `run` once it is read).
fn redacted(
    inputs: &[&str],
    run: impl FnOnce(&mut write::Redaction) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut redaction = write::Redaction::of_inputs(inputs.iter().copied());
    run(&mut redaction).map_err(|failure| redaction.apply(failure))
}

/// Runs a parsed command line.
pub fn run(invocation: Invocation) -> Result<(), Failure> {
    let Invocation { options, command } = invocation;
    match command {
        Command::Decode {
            method,
            file,
            report_unknown,
        } => {
            let body = read_input(file.as_deref())?;
            let decode = DecodeBody {
                body,
                report_unknown,
            };
            methods::visit(method, decode).unwrap_or_else(|| unknown(method))
        }
        Command::Mock {
            port,
            replay,
            credentials_dir,
            load,
            save,
            block_time,
            allow_origin,
            keep_blocks,
            gas_key,
        } => serve_mock(MockOptions {
            port,
            replay: replay.as_deref(),
            credentials: credentials_dir.as_deref(),
            load: load.as_deref(),
            save: save.as_deref(),
            block_time: std::time::Duration::from_millis(block_time),
            allowed_origins: allow_origin,
            keep_blocks,
            gas_keys: gas_key,
        }),
        Command::Verify(args::VerifyCommand::Proof {
            file,
            block_merkle_root,
        }) => verify::proof(&file, &block_merkle_root),
        Command::Verify(args::VerifyCommand::LightClientBlock { file, trusted_head }) => {
            verify::light_client_block(&file, &trusted_head)
        }
        Command::Sign {
            key_file,
            nonce,
            block_hash,
            receiver,
            signer,
            version,
            actions,
        } => redacted(&[&actions, &key_file.to_string_lossy()], |redaction| {
            let actions = write::actions(&actions)?;
            let credentials = write::key_file(&key_file)?;
            redaction.add_key(&credentials);
            let nonce = write::Nonce {
                nonce,
                index: version.nonce_index,
                mode: version.nonce_mode.map(Into::into),
            };
            write::sign(&credentials, signer, nonce, block_hash, receiver, actions)
        }),
        Command::SignDelegate {
            key_file,
            nonce,
            max_block_height,
            receiver,
            signer,
            actions,
        } => redacted(&[&actions, &key_file.to_string_lossy()], |redaction| {
            let actions = write::actions(&actions)?;
            let credentials = write::key_file(&key_file)?;
            redaction.add_key(&credentials);
            write::sign_delegate(
                &credentials,
                signer,
                nonce,
                max_block_height,
                receiver,
                actions,
            )
        }),
        Command::Relay {
            key_file,
            wait_until,
            signed_delegate,
        } => redacted(&[&key_file.to_string_lossy()], |redaction| {
            let credentials = write::key_file(&key_file)?;
            redaction.add_key(&credentials);
            write::relayable(&signed_delegate)?;
            let (runtime, client) = connect(&options)?;
            let client = waiting(client, wait_until);
            // A transaction to the delegate's sender, holding the delegate action alone.
            let sender = signed_delegate.delegate_action.sender_id.clone();
            let actions = vec![near_rpc::tx::Action::Delegate(signed_delegate)];
            let nonce = write::SendNonce::default();
            runtime.block_on(send(&client, credentials, sender, actions, nonce))
        }),
        Command::SignMessage { key_file, payload } => redacted(
            &[&payload.message, &key_file.to_string_lossy()],
            |redaction| {
                let credentials = write::key_file(&key_file)?;
                redaction.add_key(&credentials);
                message::sign(&credentials, &payload.payload())
            },
        ),
        Command::VerifyMessage {
            signed,
            account_id,
            public_key,
            signature,
            check_key,
            payload,
        } => {
            let signed = message::signed_message(
                signed.as_deref(),
                account_id,
                public_key,
                signature.as_deref(),
            )?;
            let payload = payload.payload();
            if check_key {
                let (runtime, client) = connect(&options)?;
                runtime.block_on(message::verify(&signed, &payload, Some(&client)))
            } else {
                runtime()?.block_on(message::verify(&signed, &payload, None))
            }
        }
        Command::Send {
            key_file,
            receiver,
            wait_until,
            version,
            actions,
        } => redacted(&[&actions, &key_file.to_string_lossy()], |redaction| {
            let actions = write::actions(&actions)?;
            let credentials = write::key_file(&key_file)?;
            redaction.add_key(&credentials);
            let (runtime, client) = connect(&options)?;
            let client = waiting(client, wait_until);
            let nonce = send_nonce(version);
            runtime.block_on(send(&client, credentials, receiver, actions, nonce))
        }),
        Command::Transfer {
            key_file,
            receiver,
            amount,
            yocto,
            wait_until,
            version,
        } => redacted(&[&amount, &key_file.to_string_lossy()], |redaction| {
            let amount = write::amount(&amount, yocto)?;
            let credentials = write::key_file(&key_file)?;
            redaction.add_key(&credentials);
            let (runtime, client) = connect(&options)?;
            let client = waiting(client, wait_until);
            let actions = vec![near_rpc::tx::Action::transfer(amount)];
            let nonce = send_nonce(version);
            runtime.block_on(send(&client, credentials, receiver, actions, nonce))
        }),
        Command::Record {
            out,
            port,
            allow_origin,
        } => record(&options, &out, listening(port, allow_origin)),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut args::command(), "near-rpc", &mut text);
            write_stdout(&String::from_utf8_lossy(&text))
        }
        Command::Call { method, params } => {
            let params = match params {
                None => None,
                Some(text) => {
                    let value = serde_json::from_str(&text).map_err(|e| {
                        Failure::usage(format!("PARAMS_JSON is not valid JSON: {e}"))
                    })?;
                    // serde_json kept the last of a repeated key; the first was
                    // meant as much.
                    near_rpc::decode::check_unique_keys(text.as_bytes())
                        .map_err(|e| Failure::usage(format!("PARAMS_JSON: {e}")))?;
                    Some(value)
                }
            };
            let (runtime, client) = connect(&options)?;
            let call = CallMethod {
                runtime: &runtime,
                client: &client,
                params,
            };
            methods::visit(method, call).unwrap_or_else(|| unknown(method))
        }
        command => {
            let (runtime, client) = connect(&options)?;
            runtime.block_on(call(&client, command))
        }
    }
}

/// Runs a command that talks to the node.
async fn call(client: &Client, command: Command) -> Result<(), Failure> {
    match command {
        Command::TxStatus {
            hash,
            sender,
            signed_tx,
            wait_until,
        } => {
            let tx = match (hash, sender, signed_tx) {
                (Some(tx_hash), Some(sender_account_id), None) => TxRef::Hash {
                    tx_hash,
                    sender_account_id,
                },
                (None, None, Some(signed)) if !signed.trim().is_empty() => TxRef::Signed(signed),
                _ => {
                    return Err(Failure::usage(
                        "tx-status needs --hash and --sender, or the base64 of a signed \
                         transaction in --signed-tx",
                    ))
                }
            };
            report(client.tx_status(tx, wait_until.map(Into::into)).await)
        }
        Command::GenesisConfig => report(client.genesis_config().await),
        Command::ProtocolConfig {
            finality,
            block_id,
            genesis,
        } => {
            let at: BlockReference = match (finality, block_id, genesis) {
                (_, Some(block), _) => block.into(),
                (_, None, true) => SyncCheckpoint::Genesis.into(),
                (finality, None, false) => {
                    Finality::from(finality.unwrap_or(args::FinalityArg::Final)).into()
                }
            };
            report(client.protocol_config_at(at).await)
        }
        Command::Account { account, at } => viewed(viewer(client, &at).view_account(account).await),
        Command::AccessKey {
            account,
            public_key,
            at,
        } => viewed(
            viewer(client, &at)
                .view_access_key(account, public_key)
                .await,
        ),
        Command::GasKeyNonces {
            account,
            public_key,
            at,
        } => viewed(
            viewer(client, &at)
                .view_gas_key_nonces(account, public_key)
                .await,
        ),
        Command::AccessKeys { account, at } => {
            viewed(viewer(client, &at).view_access_key_list(account).await)
        }
        Command::Code { account, at } => viewed(viewer(client, &at).view_code(account).await),
        Command::State {
            account,
            prefix,
            prefix_base64,
            proof,
            at,
        } => {
            let prefix = match (prefix, prefix_base64) {
                (Some(text), _) => text.into_bytes(),
                (None, Some(args::Bytes(bytes))) => bytes,
                (None, None) => Vec::new(),
            };
            let client = viewer(client, &at);
            viewed(if proof {
                client.view_state_with_proof(account, prefix).await
            } else {
                client.view_state(account, prefix).await
            })
        }
        Command::View {
            contract,
            method,
            args,
            args_base64,
            at,
        } => {
            let client = viewer(client, &at);
            let bytes = match (args, args_base64) {
                (_, Some(args::Bytes(bytes))) => bytes,
                (Some(json), None) => json.into_bytes().map_err(Failure::usage)?,
                (None, None) => Vec::new(),
            };
            let result = client
                .call_function(contract, &method, RawArgs(bytes))
                .await
                .map_err(failure)?;
            print_call_result(result)
        }
        Command::Block {
            finality,
            height,
            hash,
        } => {
            let at: BlockReference = match (finality, height, hash) {
                (_, Some(height), _) => height.into(),
                (_, None, Some(hash)) => hash.into(),
                (finality, None, None) => {
                    Finality::from(finality.unwrap_or(args::FinalityArg::Final)).into()
                }
            };
            report(client.block(at).await)
        }
        Command::Chunk {
            chunk_hash,
            block,
            shard,
        } => {
            let chunk = match (chunk_hash, block, shard) {
                (Some(hash), _, _) => ChunkRef::Hash(hash),
                (None, Some(block), Some(shard)) => ChunkRef::InBlock { block, shard },
                _ => {
                    return Err(Failure::usage(
                        "chunk needs --chunk-hash, or --block and --shard",
                    ))
                }
            };
            report(client.chunk(chunk).await)
        }
        Command::GasPrice { block } => {
            let price = client.gas_price(block).await.map_err(failure)?;
            print_json(&json!({
                "gas_price": price.yocto_per_gas.to_string(),
                "unit": "yoctoNEAR/gas",
            }))
        }
        Command::Status => report(client.status().await),
        Command::Validators { epoch_id, block } => {
            let epoch = match (epoch_id, block) {
                (Some(id), _) => Epoch::Id(id),
                (None, Some(block)) => Epoch::OfBlock(block),
                (None, None) => Epoch::Latest,
            };
            report(client.validators(epoch).await)
        }
        Command::SendTx {
            base64,
            file,
            wait_until,
        } => {
            let (option, bytes) = match (base64, file) {
                (Some(text), _) => ("--base64", base64_bytes(&text)?),
                (None, Some(path)) => (
                    "--file",
                    std::fs::read(&path).map_err(|e| {
                        Failure::usage(format!("cannot read {}: {e}", path.display()))
                    })?,
                ),
                (None, None) => return Err(Failure::usage("send-tx needs --base64 or --file")),
            };
            // Read as a transaction, so that it goes through the write path: success only
            // on its own outcome, anything less resolved by its hash.
            let signed = near_rpc::tx::SignedTransaction::from_borsh(&bytes)
                .map_err(|e| Failure::usage(format!("{option}: not a signed transaction: {e}")))?;
            let client = match wait_until {
                Some(level) => client.waiting_until(level.into()),
                None => client.clone(),
            };
            let signals = StopSignals::listen();
            write::send_signed(&client, &signed, signals.stopped()).await
        }
        Command::Decode { method, .. } | Command::Call { method, .. } => unknown(method),
        Command::Mock { .. }
        | Command::Record { .. }
        | Command::Completions { .. }
        | Command::Verify(_)
        | Command::Sign { .. }
        | Command::SignDelegate { .. }
        | Command::SignMessage { .. }
        | Command::VerifyMessage { .. }
        | Command::Relay { .. }
        | Command::Send { .. }
        | Command::Transfer { .. } => Ok(()),
    }
}

/// The client waiting for writes until `--wait-until` (the library's default without).
fn waiting(client: Client, wait_until: Option<args::WaitUntil>) -> Client {
    match wait_until {
        Some(level) => client.waiting_until(level.into()),
        None => client,
    }
}

/// The client reading views at `--finality` / `--block` (latest final by default).
fn viewer(client: &Client, at: &ViewAt) -> Client {
    match (&at.block, at.finality) {
        (Some(block), _) => client.at(*block),
        (None, Some(finality)) => client.at(Finality::from(finality)),
        (None, None) => client.clone(),
    }
}

/// A view as printed: its fields, then the block it was read at.
#[derive(Serialize)]
struct Viewed<T> {
    #[serde(flatten)]
    value: T,
    block_height: u64,
    block_hash: CryptoHash,
}

/// Prints a view with its block, or turns the error into a failure.
fn viewed<T: Serialize, E: Serialize + std::fmt::Debug>(
    result: Result<AtBlock<T>, near_rpc::client::Error<E>>,
) -> Result<(), Failure> {
    let AtBlock {
        value,
        block_height,
        block_hash,
    } = result.map_err(failure)?;
    print_json(&Viewed {
        value,
        block_height,
        block_hash,
    })
}

/// `view`: the contract's logs on stderr; on stdout the result (as JSON when it is
/// JSON, as text when it is UTF-8, as base64 otherwise) with the block.
fn print_call_result(result: AtBlock<CallResult>) -> Result<(), Failure> {
    for log in &result.logs {
        note(&format!("log: {}", one_line(log)));
    }
    let mut printed = serde_json::Map::new();
    match (result.json::<Value>(), result.text()) {
        (Ok(value), _) => printed.insert("result".into(), value),
        (Err(_), Some(text)) => printed.insert("result".into(), Value::String(text.into())),
        (Err(_), None) => printed.insert(
            "result_base64".into(),
            Value::String(near_rpc::types::FunctionArgs::from_bytes(result.bytes()).0),
        ),
    };
    printed.insert("block_height".into(), result.block_height.into());
    printed.insert(
        "block_hash".into(),
        Value::String(result.block_hash.to_string()),
    );
    print_json(&printed)
}

/// Parsing only accepts names of `methods::ALL`, which `methods::visit` knows; this
/// answers the impossible miss without panicking.
fn unknown(method: &str) -> Result<(), Failure> {
    Err(Failure::usage(format!("unknown method `{method}`")))
}

/// A current-thread runtime with timers and sockets.
fn runtime() -> Result<Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(EXIT_IO, format!("cannot start the async runtime: {e}")))
}

/// What `near-rpc mock` keeps of its requests: nothing reads them but its memory.
const MOCK_REQUEST_LOG: RequestLog = RequestLog {
    requests: Some(1_000),
    bytes: 4 * 1024 * 1024,
    body_bytes: 64 * 1024,
};

/// How `mock` and `record` listen: on `port`, from web pages of the origins allowed only.
fn listening(port: u16, allowed_origins: Vec<Origin>) -> ServerOptions {
    allowed_origins
        .into_iter()
        .fold(ServerOptions::new().port(port), ServerOptions::allow_origin)
}

/// What `mock` was asked for.
struct MockOptions<'a> {
    port: u16,
    replay: Option<&'a Path>,
    credentials: Option<&'a Path>,
    load: Option<&'a Path>,
    save: Option<&'a Path>,
    block_time: std::time::Duration,
    allowed_origins: Vec<Origin>,
    keep_blocks: Option<u64>,
    gas_keys: Vec<args::GasKeyArg>,
}

/// `mock`: serves the mock node until Ctrl-C or SIGTERM, after writing the credential files asked
/// for and printing its URL; then saves the chain if asked.
fn serve_mock(options: MockOptions<'_>) -> Result<(), Failure> {
    let mut node = match options.load {
        None => MockNode::new(),
        Some(path) => MockNode::load(path)
            .map_err(|e| Failure::usage(format!("cannot start from a saved chain: {e}")))?,
    };
    // A node that runs until stopped keeps its last requests, not all of them.
    node.set_request_log(MOCK_REQUEST_LOG);
    node.set_block_time(options.block_time);
    if let Some(blocks) = options.keep_blocks {
        node.keep_blocks(blocks);
    }
    if let Some(path) = options.replay {
        let cassette = Cassette::load(path).map_err(|e| {
            Failure::usage(format!("cannot read the cassette {}: {e}", path.display()))
        })?;
        node = node.with_replay(cassette);
    }
    // Before the credential files, which then hold each gas key's too.
    for gas_key in &options.gas_keys {
        node.add_gas_key(
            gas_key.account.as_str(),
            gas_key.num_nonces,
            gas_key.balance,
        )
        .map_err(|e| Failure::usage(format!("--gas-key {}: {e}", gas_key.account)))?;
    }
    if let Some(dir) = options.credentials {
        node.write_credentials(dir).map_err(|e| {
            Failure::new(
                EXIT_IO,
                format!("cannot write credentials to {}: {e}", dir.display()),
            )
        })?;
    }
    let port = options.port;
    let listen = listening(port, options.allowed_origins);
    runtime()?.block_on(async {
        let server = node.serve_with(listen).await.map_err(|e| {
            Failure::new(
                EXIT_TRANSPORT,
                format!("cannot listen on 127.0.0.1:{port}: {e}"),
            )
        })?;
        let signals = StopSignals::listen();
        write_stdout(&format!("{}\n", server.url()))?;
        signals.stopped().await;
        Ok::<(), Failure>(())
    })?;
    if let Some(path) = options.save {
        node.save(path).map_err(|e| {
            Failure::new(
                EXIT_IO,
                format!("cannot save the chain to {}: {e}", path.display()),
            )
        })?;
    }
    Ok(())
}

/// How `send` and `transfer` number their transaction: `--nonce-index` and
/// `--nonce-mode`.
fn send_nonce(version: args::NonceArgs) -> write::SendNonce {
    write::SendNonce {
        index: version.nonce_index,
        mode: version.nonce_mode.map(Into::into),
    }
}

/// The bytes of base64 text (already checked by the option's parser).
fn base64_bytes(text: &str) -> Result<Vec<u8>, Failure> {
    near_rpc::types::SignedTransaction(text.trim().to_owned())
        .to_bytes()
        .map_err(|e| Failure::usage(format!("--base64: {e}")))
}

/// `send` and `transfer`, until done or stopped by Ctrl-C or SIGTERM (which print the
/// transaction in flight, as an unresolved outcome does).
async fn send(
    client: &Client,
    credentials: near_rpc::tx::Credentials,
    receiver: near_rpc::AccountId,
    actions: Vec<near_rpc::tx::Action>,
    nonce: write::SendNonce,
) -> Result<(), Failure> {
    let signals = StopSignals::listen();
    let intent = write::Intent {
        receiver,
        actions,
        nonce,
    };
    write::send(client, credentials, intent, signals.stopped()).await
}

/// The signals that stop `mock`, `record`, `send` and `transfer`: Ctrl-C (SIGINT), and SIGTERM on Unix (what
/// `kill`, service managers and CI scripts send), so that `--save` is honoured either
/// way. Listened for from [`StopSignals::listen`], which runs before the URL is printed:
/// a script that stops the process as soon as it reads the URL is heard too.
struct StopSignals {
    #[cfg(unix)]
    streams: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
}

impl StopSignals {
    /// Starts listening (inside the runtime).
    fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let streams = signal(SignalKind::interrupt())
                .ok()
                .zip(signal(SignalKind::terminate()).ok());
            Self { streams }
        }
        #[cfg(not(unix))]
        Self {}
    }

    /// Until one of them arrives.
    async fn stopped(self) {
        #[cfg(unix)]
        if let Some((mut interrupt, mut terminate)) = self.streams {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `record`: a recording proxy to the first endpoint until Ctrl-C or SIGTERM, after printing its URL.
fn record(options: &Options, out: &Path, listen: ServerOptions) -> Result<(), Failure> {
    let upstream = upstream(options)?;
    runtime()?.block_on(async {
        let recorder = Recorder::start_with(upstream, out, listen)
            .await
            .map_err(|e| {
                Failure::new(EXIT_IO, format!("cannot record to {}: {e}", out.display()))
            })?;
        let signals = StopSignals::listen();
        write_stdout(&format!("{}\n", recorder.url()))?;
        signals.stopped().await;
        Ok(())
    })
}

/// The node `record` forwards to: the first endpoint (with the API key), or the mock.
fn upstream(options: &Options) -> Result<BoxTransport, Failure> {
    let Some(url) = options.endpoints().first().copied() else {
        return Ok(Arc::new(MockNode::new()));
    };
    // InvalidEndpoint's and InvalidApiKey's messages never repeat the URL or the key.
    let endpoint = url
        .parse()
        .map_err(|e: InvalidEndpoint| Failure::usage(describe(&e)))?;
    let mut transport =
        HttpTransport::new(endpoint).map_err(|e| Failure::new(EXIT_TRANSPORT, describe(&e)))?;
    if let Some(key) = &options.api_key {
        let key = ApiKey::x_api_key(key).map_err(|e| Failure::usage(describe(&e)))?;
        transport = transport.api_key(key);
    }
    Ok(Arc::new(transport))
}

/// Builds the runtime and the client from the options.
fn connect(options: &Options) -> Result<(Runtime, Client), Failure> {
    let mut builder = Client::builder();
    if options.endpoints().is_empty() {
        builder = builder.transport(MockNode::new());
    }
    for (i, url) in options.endpoints().into_iter().enumerate() {
        // InvalidEndpoint's message never repeats the URL.
        builder = builder
            .endpoint(url)
            .map_err(|e| Failure::usage(describe(&e)))?;
        // The key goes to the first endpoint only: a failover URL is someone else's.
        if let (0, Some(key)) = (i, &options.api_key) {
            // InvalidApiKey's message never repeats the key.
            let key = ApiKey::x_api_key(key).map_err(|e| Failure::usage(describe(&e)))?;
            builder = builder.api_key(key);
        }
    }
    for url in &options.archival_urls {
        builder = builder
            .archival(url)
            .map_err(|e| Failure::usage(describe(&e)))?;
    }
    if options.method_in_path {
        builder = builder.path_style(PathStyle::MethodInPath);
    }
    if let Some(timeout) = options.timeout {
        builder = builder.timeout(timeout);
    }
    if let Some(max_retries) = options.retries {
        builder = builder.retry(RetryPolicy {
            max_retries,
            ..RetryPolicy::default()
        });
    }
    let client = builder
        .build()
        .map_err(|e| Failure::new(EXIT_TRANSPORT, describe(&e)))?;
    Ok((runtime()?, client))
}

/// `call`: checks the params strictly against the method's typed request, then calls it.
struct CallMethod<'a> {
    runtime: &'a Runtime,
    client: &'a Client,
    /// The params as given (`None`: none given).
    params: Option<Value>,
}

impl MethodVisitor for CallMethod<'_> {
    type Output = Result<(), Failure>;

    fn visit<M: RpcMethod>(self) -> Self::Output {
        let params = typed_params::<M>(self.params)?;
        report(self.runtime.block_on(self.client.call::<M>(params)))
    }
}

/// The typed request of `M` from the params given: none (or `[]`) is whatever the
/// request reads from `null` or `{}`; a positional array nearcore accepts is read in its
/// named form; anything else must check strictly.
fn typed_params<M: RpcMethod>(params: Option<Value>) -> Result<M::Params, Failure> {
    let mismatch = |e: decode::DecodeError| {
        Failure::usage(format!(
            "the params do not match the typed request of `{}` {}",
            M::NAME,
            describe_decode_error(&e)
        ))
    };
    let params = match params {
        Some(Value::Array(items)) if items.is_empty() => None,
        Some(Value::Array(items)) => Some(named(M::NAME, items)?),
        other => other,
    };
    match params {
        Some(params) => decode::from_value_strict::<M::Params>(params).map_err(mismatch),
        None => decode::from_value_strict::<M::Params>(Value::Null)
            .or_else(|_| decode::from_value_strict::<M::Params>(json!({})))
            .map_err(mismatch),
    }
}

/// The named form of the positional params nearcore accepts for `method`, or a usage
/// error showing the named form.
fn named(method: &str, items: Vec<Value>) -> Result<Value, Failure> {
    let named = match (method, items.as_slice()) {
        ("gas_price", [Value::Null]) => Some(json!({})),
        ("block" | "gas_price", [block_id]) if !block_id.is_null() => {
            Some(json!({ "block_id": block_id }))
        }
        ("validators", [Value::Null]) => Some(json!({ "latest": null })),
        ("validators", [block_id]) => Some(json!({ "block_id": block_id })),
        ("chunk", [chunk_id]) => Some(json!({ "chunk_id": chunk_id })),
        ("tx" | "EXPERIMENTAL_tx_status", [tx_hash, sender_account_id]) => Some(json!({
            "tx_hash": tx_hash,
            "sender_account_id": sender_account_id,
        })),
        ("send_tx" | "broadcast_tx_async" | "broadcast_tx_commit", [signed]) => {
            Some(json!({ "signed_tx_base64": signed }))
        }
        ("next_light_client_block", [hash]) => Some(json!({ "last_block_hash": hash })),
        _ => None,
    };
    named.ok_or_else(|| {
        let example = match example(method) {
            Some(example) => format!(", e.g. near-rpc call {method} '{example}'"),
            None => " (the spec's field names)".to_owned(),
        };
        Failure::usage(format!(
            "positional params of `{method}` cannot be read as its typed request: give \
             them as a JSON object{example}"
        ))
    })
}

/// The named params of a common method, as an example.
fn example(method: &str) -> Option<&'static str> {
    Some(match method {
        "block" | "EXPERIMENTAL_protocol_config" => r#"{"block_id": 17824600}"#,
        "gas_price" => r#"{"block_id": 17824600}"#,
        "query" => {
            r#"{"request_type": "view_account", "account_id": "alice.near", "finality": "final"}"#
        }
        "validators" => r#"{"block_id": 17791098}"#,
        "chunk" => r#"{"block_id": 17824600, "shard_id": 0}"#,
        "tx" | "EXPERIMENTAL_tx_status" => {
            r#"{"tx_hash": "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm", "sender_account_id": "sender.testnet"}"#
        }
        "send_tx" | "broadcast_tx_async" | "broadcast_tx_commit" => {
            r#"{"signed_tx_base64": "BASE64", "wait_until": "EXECUTED_OPTIMISTIC"}"#
        }
        "EXPERIMENTAL_changes" | "changes" => {
            r#"{"changes_type": "account_changes", "account_ids": ["alice.near"], "finality": "final"}"#
        }
        "EXPERIMENTAL_receipt" => r#"{"receipt_id": "HASH"}"#,
        _ => return None,
    })
}

/// `decode`: decodes a response body of the method with the typed bindings.
struct DecodeBody {
    body: Vec<u8>,
    report_unknown: bool,
}

impl MethodVisitor for DecodeBody {
    type Output = Result<(), Failure>;

    fn visit<M: RpcMethod>(self) -> Self::Output {
        let decoded = if self.report_unknown {
            decode::from_slice_reporting(&self.body).map(|(response, unrecognized)| {
                report_unrecognized(&unrecognized);
                response
            })
        } else {
            // Compiled in near-rpc: the CLI compiles no decoder of its own for this path.
            M::decode_response(&self.body)
        };
        let response: Response<M::Result, SpecErrorWrapper<M::Error>> = decoded.map_err(|e| {
            Failure::new(
                EXIT_DECODE,
                format!(
                    "cannot decode the body as a response of `{}` {}",
                    M::NAME,
                    describe_decode_error(&e)
                ),
            )
        })?;
        match response.payload {
            Ok(result) => print_json(&result),
            Err(error) => {
                print_json(&error)?;
                Err(Failure::new(
                    EXIT_RPC,
                    format!(
                        "the body is a JSON-RPC error of `{}`: {}",
                        M::NAME,
                        summarize(&error)
                    ),
                ))
            }
        }
    }
}

/// Lists on stderr what the bindings did not recognise, or says they knew it all.
fn report_unrecognized(unrecognized: &decode::Unrecognized) {
    if unrecognized.is_empty() {
        note(&format!(
            "near-rpc: the bindings (spec {}) know every variant and field of this body",
            near_rpc::SPEC_VERSION
        ));
        return;
    }
    for line in unrecognized.to_string().lines() {
        note(&format!("near-rpc: {line}"));
    }
    note(&format!(
        "near-rpc: the node is ahead of the bindings (spec {}) there (unknown variants are kept whole, ignored fields are dropped)",
        near_rpc::SPEC_VERSION
    ));
}

/// Reads the body to decode: the file, or stdin (no file, or `-`).
fn read_input(file: Option<&Path>) -> Result<Vec<u8>, Failure> {
    match file {
        Some(path) if path != Path::new("-") => std::fs::read(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display()))),
        _ => {
            let mut body = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut body)
                .map_err(|e| Failure::usage(format!("cannot read stdin: {e}")))?;
            Ok(body)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_params_is_what_the_request_reads_from_null_or_an_empty_object() {
        assert!(typed_params::<methods::HealthMethod>(None).is_ok());
        assert!(typed_params::<methods::GasPriceMethod>(None).is_ok());
        assert!(typed_params::<methods::StatusMethod>(Some(json!([]))).is_ok());
        assert!(typed_params::<methods::BlockMethod>(None).is_err());
    }

    #[test]
    fn positional_params_nearcore_accepts_are_named() {
        let price = typed_params::<methods::GasPriceMethod>(Some(json!([17824600]))).unwrap();
        assert_eq!(
            serde_json::to_value(price).unwrap(),
            json!({"block_id": 17824600})
        );
        let price = typed_params::<methods::GasPriceMethod>(Some(json!([null]))).unwrap();
        assert_eq!(serde_json::to_value(price).unwrap(), json!({}));
        let tx = typed_params::<methods::TxMethod>(Some(json!([
            "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm",
            "sender.testnet"
        ])))
        .unwrap();
        assert_eq!(
            serde_json::to_value(tx).unwrap()["sender_account_id"],
            "sender.testnet"
        );
        let validators = typed_params::<methods::ValidatorsMethod>(Some(json!([17791098])));
        assert!(validators.is_ok(), "{validators:?}");
        let refused = typed_params::<methods::QueryMethod>(Some(json!(["account/alice.near", ""])))
            .unwrap_err();
        assert!(
            refused.message.contains(r#"{"request_type""#),
            "{}",
            refused.message
        );
    }
}
