//! Transfers per second from one account against the mock node over loopback HTTP:
//! near-rpc's write path with one access key (`Signer::new`), a pool of 8 access keys
//! (`Signer::pool`) and a gas key of 8 nonce indexes (`Signer::gas_key`), beside
//! near-kit 0.17 with one key (`InMemorySigner`) and its `RotatingSigner` over the same
//! 8 keys, in one run. The table in BENCHMARKS.md ("How many transfers per second?")
//! comes from here:
//!
//! ```sh
//! cd benches && cargo run --release --example throughput -- [TRANSFERS] [IN_FLIGHT] [ROUNDS] [BLOCK_TIME_MS]
//! ```
//!
//! What "a transfer" is, the same on both sides: one transaction of one `Transfer`
//! action of `AMOUNT` yoctoNEAR from `alice.mock` to `bob.mock`, sent with `wait_until`
//! `EXECUTED_OPTIMISTIC` and counted once its outcome (a success) is back; `IN_FLIGHT`
//! of them at a time (workers taking the next one as theirs ends) until `TRANSFERS`
//! are done. Each client starts cold (no nonce read yet, no connection) against a fresh
//! mock node, so the reads each library makes before signing are counted.
//!
//! Each case gets its own mock node in a child process (this binary, `serve`), so that
//! the client's CPU time (getrusage of this process, over the sends only) holds no
//! server work; the child's own CPU time is read from `/proc/PID/stat`. The node
//! produces blocks only while a request waits for a transaction: one block per block
//! time (`MockNode::set_block_time`), which every waiting request shares.
//!
//! Checked after every case, from the chain through the node's RPC: every send
//! succeeded; the outcomes name `TRANSFERS` distinct (key, nonce index, nonce); bob's
//! balance rose by exactly `TRANSFERS × AMOUNT`; each key's (or index's) nonce on chain
//! rose by exactly the number of outcomes signed with it and is the highest nonce they
//! used. A case that fails a check stops the run with what failed: a lost or doubled
//! transfer is a bug, not a number.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use near_rpc::client::SigningClient;
use near_rpc::tx::SecretKey;
use near_rpc::types::TxExecutionStatus;
use near_rpc::{Client, Finality, NearToken, PublicKey, Signer};
use near_rpc_mock::{chain, MockNode};

const ALICE: &str = "alice.mock";
const BOB: &str = "bob.mock";
/// What each transfer moves, in yoctoNEAR (a milliNEAR).
const AMOUNT: u128 = 1_000_000_000_000_000_000_000;
/// The pool's keys, and the gas key's nonce indexes.
const LANES: u16 = 8;
/// What the gas key holds for its gas, in yoctoNEAR (10 NEAR).
const GAS_KEY_BALANCE: u128 = 10 * 1_000_000_000_000_000_000_000_000;

/// The secret keys of the pool: alice's access keys besides her own, added by the child
/// before it serves.
fn pool_keys() -> Vec<SecretKey> {
    (0..LANES)
        .map(|i| SecretKey::ed25519_from_seed(&[i as u8 + 1; 32]))
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    RpcOne,
    RpcPool,
    RpcGasKey,
    KitOne,
    KitRotating,
}

impl Case {
    const ALL: [Case; 5] = [
        Case::RpcOne,
        Case::RpcPool,
        Case::RpcGasKey,
        Case::KitOne,
        Case::KitRotating,
    ];

    fn name(self) -> &'static str {
        match self {
            Case::RpcOne => "near-rpc, one access key (`Signer::new`)",
            Case::RpcPool => "near-rpc, a pool of 8 access keys (`Signer::pool`)",
            Case::RpcGasKey => "near-rpc, a gas key of 8 nonce indexes (`Signer::gas_key`)",
            Case::KitOne => "near-kit 0.17, one access key (`InMemorySigner`)",
            Case::KitRotating => "near-kit 0.17, 8 access keys (`RotatingSigner`)",
        }
    }

    /// The lanes it signs on: a key, and for a gas key the nonce index.
    fn lanes(self) -> Vec<(PublicKey, Option<u16>)> {
        match self {
            Case::RpcOne | Case::KitOne => vec![(chain::public_key(ALICE), None)],
            Case::RpcPool | Case::KitRotating => {
                pool_keys().iter().map(|k| (k.public_key(), None)).collect()
            }
            Case::RpcGasKey => {
                let key = chain::gas_key_secret(ALICE).public_key();
                (0..LANES).map(|i| (key.clone(), Some(i))).collect()
            }
        }
    }
}

/// What one transfer's outcome says it was signed with.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Used {
    public_key: String,
    nonce_index: Option<u16>,
    nonce: u64,
}

/// One case's figures.
#[derive(Clone, Debug)]
struct Measured {
    elapsed: Duration,
    client_cpu: Duration,
    node_cpu: Duration,
    blocks: u64,
    requests: usize,
    /// Nonces the chain skipped on the case's lanes (a key's nonce on chain rose by more
    /// than the transactions it signed that executed).
    skipped: u64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        let block_time_ms = parse(args.get(1), 5, "BLOCK_TIME_MS")?;
        return serve(Duration::from_millis(block_time_ms));
    }
    let transfers = parse(args.first(), 2_000, "TRANSFERS")? as usize;
    let in_flight = parse(args.get(1), 64, "IN_FLIGHT")? as usize;
    let rounds = parse(args.get(2), 3, "ROUNDS")? as usize;
    let block_time_ms = parse(args.get(3), 5, "BLOCK_TIME_MS")?;
    if transfers == 0 || in_flight == 0 || rounds == 0 {
        return Err("TRANSFERS, IN_FLIGHT and ROUNDS must be at least 1".into());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut results: BTreeMap<Case, Vec<Measured>> = BTreeMap::new();
    for round in 0..rounds {
        // Each round starts with another case, so that no case always runs first.
        for n in 0..Case::ALL.len() {
            let case = Case::ALL[(n + round) % Case::ALL.len()];
            let measured = runtime.block_on(run_case(case, transfers, in_flight, block_time_ms))?;
            eprintln!(
                "round {} {:?}: {:.0} transfers/s, client {:.0} µs CPU/transfer, node {:.0} µs, {} blocks, {} requests",
                round + 1,
                case,
                transfers as f64 / measured.elapsed.as_secs_f64(),
                per(measured.client_cpu, transfers),
                per(measured.node_cpu, transfers),
                measured.blocks,
                measured.requests,
            );
            results.entry(case).or_default().push(measured);
        }
    }
    println!(
        "{transfers} transfers, {in_flight} in flight, wait_until EXECUTED_OPTIMISTIC, \
         block time {block_time_ms} ms, median of {rounds} rounds, every transfer checked:\n"
    );
    println!("| client | transfers/s | client CPU per transfer | node CPU per transfer | requests per transfer | blocks |");
    println!("|---|---|---|---|---|---|");
    for (case, runs) in &results {
        let rate = median(
            runs.iter()
                .map(|m| transfers as f64 / m.elapsed.as_secs_f64())
                .collect(),
        );
        let client = median(runs.iter().map(|m| per(m.client_cpu, transfers)).collect());
        let node = median(runs.iter().map(|m| per(m.node_cpu, transfers)).collect());
        let requests = median(
            runs.iter()
                .map(|m| m.requests as f64 / transfers as f64)
                .collect(),
        );
        let blocks = median(runs.iter().map(|m| m.blocks as f64).collect());
        let skipped: u64 = runs.iter().map(|m| m.skipped).sum();
        let note = if skipped > 0 {
            format!(" ({skipped} nonces skipped in all rounds)")
        } else {
            String::new()
        };
        println!(
            "| {}{note} | {rate:.0} | {client:.0} µs | {node:.0} µs | {requests:.2} | {blocks:.0} |",
            case.name()
        );
    }
    Ok(())
}

fn parse(arg: Option<&String>, default: u64, what: &str) -> Result<u64, String> {
    arg.map_or(Ok(default), |a| {
        a.parse()
            .map_err(|e| format!("{what} `{a}` is not a number: {e}"))
    })
}

fn per(cpu: Duration, transfers: usize) -> f64 {
    cpu.as_secs_f64() * 1e6 / transfers as f64
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// The child: a mock node whose alice.mock also holds the pool's keys and the mock's
/// gas key for her, served on loopback until a line (or EOF) on stdin; then the number
/// of requests it received on stdout.
fn serve(block_time: Duration) -> Result<(), Box<dyn std::error::Error>> {
    let node = MockNode::new();
    let setup = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let alice = node
        .signer(ALICE)
        .ok_or("the mock has no key for alice.mock")?;
    let mut add = node.client().with_signer(alice).transaction(ALICE);
    for key in pool_keys() {
        add = add.add_full_access_key(key.public_key());
    }
    let outcome = setup
        .block_on(add.send())
        .map_err(|e| format!("adding the pool's keys: {e}"))?;
    if outcome.outcome.is_none() || outcome.is_failure() {
        return Err(format!("adding the pool's keys failed: {outcome:?}").into());
    }
    node.add_gas_key(ALICE, LANES, GAS_KEY_BALANCE)?;
    node.set_block_time(block_time);
    let server = node.serve_in_background(0)?;
    // The URL, and the requests the setup made (to leave out of the case's count).
    println!("{} {}", server.url(), node.requests_received());
    std::io::stdout().flush()?;
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    let requests = node.requests_received();
    drop(server);
    println!("{requests}");
    Ok(())
}

/// A running child node.
struct Node {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    url: String,
    /// Requests the node had received when it started serving (the setup's).
    setup_requests: usize,
}

impl Node {
    fn start(block_time_ms: u64) -> Result<Self, Box<dyn std::error::Error>> {
        let mut child = Command::new(std::env::current_exe()?)
            .args(["serve", &block_time_ms.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut line = String::new();
        stdout.read_line(&mut line)?;
        let (url, setup_requests) = line
            .trim()
            .split_once(' ')
            .ok_or("the mock node did not start")?;
        Ok(Self {
            child,
            stdin,
            stdout,
            url: url.to_owned(),
            setup_requests: setup_requests.parse()?,
        })
    }

    /// The node's CPU time so far (user + system), from `/proc/PID/stat`.
    fn cpu(&self) -> Result<Duration, Box<dyn std::error::Error>> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))?;
        // Fields after the command name (which may hold spaces), from field 3 on.
        let rest = stat.rsplit_once(')').ok_or("unreadable /proc/PID/stat")?.1;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 = fields[11].parse::<u64>()? + fields[12].parse::<u64>()?;
        // SAFETY: sysconf reads a constant of the system.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        Ok(Duration::from_secs_f64(ticks as f64 / per_second))
    }

    /// Stops the node; the requests it received while serving.
    fn stop(mut self) -> Result<usize, Box<dyn std::error::Error>> {
        writeln!(self.stdin)?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        self.child.wait()?;
        Ok(line.trim().parse::<usize>()? - self.setup_requests)
    }
}

/// This process's CPU time so far (user + system).
fn self_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1_000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The chain as the checks read it: bob's balance, the head, each lane's nonce.
struct Snapshot {
    bob: u128,
    height: u64,
    nonces: Vec<u64>,
}

async fn snapshot(
    client: &Client,
    lanes: &[(PublicKey, Option<u16>)],
) -> Result<Snapshot, Box<dyn std::error::Error>> {
    let bob = client.view_account(BOB).await?;
    let mut nonces = Vec::new();
    for (key, index) in lanes {
        nonces.push(match index {
            None => client.view_access_key(ALICE, key).await?.nonce,
            Some(i) => client.view_gas_key_nonces(ALICE, key).await?.nonces[usize::from(*i)],
        });
    }
    Ok(Snapshot {
        bob: bob.amount.as_yoctonear(),
        height: bob.block_height,
        nonces,
    })
}

async fn run_case(
    case: Case,
    transfers: usize,
    in_flight: usize,
    block_time_ms: u64,
) -> Result<Measured, Box<dyn std::error::Error>> {
    let node = Node::start(block_time_ms)?;
    // Reads for the checks, at the head (the mock reads its current state anyway).
    let reader = Client::new(&node.url)?.at(Finality::Optimistic);
    let lanes = case.lanes();
    let before = snapshot(&reader, &lanes).await?;
    // One read of bob's account and one of each lane, before and after.
    let check_reads = 2 * (1 + lanes.len());
    let (cpu_before, node_before) = (self_cpu(), node.cpu()?);
    let started = Instant::now();
    let used = match case {
        Case::RpcOne | Case::RpcPool | Case::RpcGasKey => {
            let signer = match case {
                Case::RpcOne => Signer::new(ALICE.parse()?, chain::secret_key(ALICE)),
                Case::RpcPool => Signer::pool(ALICE.parse()?, pool_keys())?,
                _ => Signer::gas_key(ALICE.parse()?, chain::gas_key_secret(ALICE), 0..LANES)?,
            };
            let client = Client::new(&node.url)?
                .waiting_until(TxExecutionStatus::ExecutedOptimistic)
                .with_signer(signer);
            send_all(transfers, in_flight, move || {
                near_rpc_transfer(client.clone())
            })
            .await?
        }
        Case::KitOne | Case::KitRotating => {
            let near = near_kit::Near::custom(node.url.clone(), "mock");
            let near = if case == Case::KitOne {
                let key: near_kit::SecretKey =
                    chain::secret_key(ALICE).to_secret_string().parse()?;
                near.signer(near_kit::InMemorySigner::from_secret_key(ALICE, key)?)
            } else {
                let keys = pool_keys()
                    .iter()
                    .map(|k| k.to_secret_string().parse())
                    .collect::<Result<Vec<near_kit::SecretKey>, _>>()?;
                near.signer(near_kit::RotatingSigner::new(ALICE, keys)?)
            }
            .build();
            send_all(transfers, in_flight, move || {
                near_kit_transfer(near.clone())
            })
            .await?
        }
    };
    let elapsed = started.elapsed();
    let client_cpu = self_cpu() - cpu_before;
    let node_cpu = node.cpu()? - node_before;
    let after = snapshot(&reader, &lanes).await?;
    let skipped = check(case, transfers, &lanes, &before, &after, &used)?;
    let url = node.url.clone();
    let requests = node.stop()?;
    let requests = requests
        .checked_sub(check_reads)
        .ok_or_else(|| format!("{url} counted fewer requests than the checks made"))?;
    Ok(Measured {
        elapsed,
        client_cpu,
        node_cpu,
        blocks: after.height.saturating_sub(before.height),
        requests,
        skipped,
    })
}

/// Runs `transfers` sends, `in_flight` at a time; what each outcome names.
async fn send_all<F, Fut>(
    transfers: usize,
    in_flight: usize,
    send: F,
) -> Result<Vec<Used>, Box<dyn std::error::Error>>
where
    F: Fn() -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Result<Used, String>> + Send,
{
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..in_flight.min(transfers) {
        let (next, send) = (next.clone(), send.clone());
        workers.push(tokio::spawn(async move {
            let mut used = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < transfers {
                used.push(send().await?);
            }
            Ok::<_, String>(used)
        }));
    }
    let mut used = Vec::with_capacity(transfers);
    for worker in workers {
        used.extend(worker.await??);
    }
    Ok(used)
}

async fn near_rpc_transfer(client: SigningClient) -> Result<Used, String> {
    let response = client
        .transfer(BOB, NearToken::from_yoctonear(AMOUNT))
        .await
        .map_err(|e| format!("near-rpc: {e}"))?;
    let outcome = response
        .outcome
        .as_ref()
        .ok_or("near-rpc: an answer without an outcome")?;
    if response.is_failure() {
        return Err(format!(
            "near-rpc: the transfer failed: {:?}",
            outcome.status()
        ));
    }
    let tx = outcome.transaction();
    Ok(Used {
        public_key: tx.public_key.to_string(),
        nonce_index: tx.nonce_index,
        nonce: tx.nonce,
    })
}

async fn near_kit_transfer(near: near_kit::Near) -> Result<Used, String> {
    let outcome = near
        .transfer(BOB, near_kit::NearToken::from_yoctonear(AMOUNT))
        .wait_until::<near_kit::ExecutedOptimistic>()
        .await
        .map_err(|e| format!("near-kit: {e}"))?;
    if !outcome.is_success() {
        return Err(format!(
            "near-kit: the transfer failed: {:?}",
            outcome.status
        ));
    }
    Ok(Used {
        public_key: outcome.transaction.public_key.to_string(),
        nonce_index: outcome.transaction.nonce_index,
        nonce: outcome.transaction.nonce,
    })
}

/// Every transfer executed exactly once, on the lanes the chain says; the number of
/// nonces the chain skipped beyond the outcomes' (a transaction signed, refused and
/// signed anew with a higher nonce leaves one; one that executed besides its re-sign
/// would also fail the balance check).
fn check(
    case: Case,
    transfers: usize,
    lanes: &[(PublicKey, Option<u16>)],
    before: &Snapshot,
    after: &Snapshot,
    used: &[Used],
) -> Result<u64, String> {
    let fail = |what: String| Err(format!("{case:?}: {what}"));
    if used.len() != transfers {
        return fail(format!("{} outcomes for {transfers} transfers", used.len()));
    }
    let distinct: BTreeSet<&Used> = used.iter().collect();
    if distinct.len() != transfers {
        return fail(format!(
            "{} distinct (key, index, nonce) among {transfers} outcomes",
            distinct.len()
        ));
    }
    if after.bob.checked_sub(before.bob) != Some(transfers as u128 * AMOUNT) {
        return fail(format!(
            "bob's balance went from {} to {} yoctoNEAR, not up by {transfers} × {AMOUNT}",
            before.bob, after.bob
        ));
    }
    let mut on_lanes = 0;
    let mut skipped = 0;
    for (n, (key, index)) in lanes.iter().enumerate() {
        let key = key.to_string();
        let nonces: Vec<u64> = used
            .iter()
            .filter(|u| u.public_key == key && u.nonce_index == *index)
            .map(|u| u.nonce)
            .collect();
        on_lanes += nonces.len();
        let (was, is) = (before.nonces[n], after.nonces[n]);
        let highest = nonces.iter().copied().max().unwrap_or(was);
        if highest != is {
            return fail(format!(
                "{key} index {index:?}: nonce {is} on chain, the outcomes' highest {highest}"
            ));
        }
        // Nonces on chain may skip (a key's nonce is the highest spent, not a count):
        // the outcomes must all be above the start, and the spent range must hold them.
        if nonces.iter().any(|&nonce| nonce <= was) {
            return fail(format!(
                "{key} index {index:?}: an outcome at or below nonce {was}"
            ));
        }
        skipped += (is - was).saturating_sub(nonces.len() as u64);
    }
    if on_lanes != transfers {
        return fail(format!(
            "{} of {transfers} outcomes were signed on other keys than the case's",
            transfers - on_lanes
        ));
    }
    Ok(skipped)
}
