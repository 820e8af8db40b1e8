// near-api-js, as its users run it, against `near-rpc mock`: keys from the near-cli
// credential files `near-rpc mock --credentials-dir DIR` wrote, reads, then writes whose
// effects it reads back. Exits non-zero, saying what differed, on any mismatch.
//
//   node client.mjs URL CREDENTIALS_DIR
import { Account, KeyPairSigner, keyStores, providers } from "near-api-js";

const [url, credentials] = process.argv.slice(2);
if (!url || !credentials) {
  console.error("usage: node client.mjs URL CREDENTIALS_DIR");
  process.exit(2);
}
const NEAR = 10n ** 24n;
let failures = 0;
const show = (value) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
function expect(what, actual, expected) {
  const ok = show(actual) === show(expected);
  console.log(`${ok ? "ok  " : "FAIL"} ${what}: ${show(actual)}${ok ? "" : ` (expected ${show(expected)})`}`);
  if (!ok) failures += 1;
}

const provider = new providers.JsonRpcProvider({ url });
const keyStore = new keyStores.UnencryptedFileSystemKeyStore(credentials);
const aliceKey = await keyStore.getKey("mock", "alice.mock");
expect("a key for alice.mock in the credentials dir", aliceKey !== null, true);
const alice = new Account("alice.mock", provider, new KeyPairSigner(aliceKey));
const bob = new Account("bob.mock", provider);

// Reads.
const status = await provider.status();
expect("chain id", status.chain_id, "mock");
const block = await provider.block({ finality: "final" });
expect("a final block below the head", block.header.height < status.sync_info.latest_block_height, true);
const keys = await alice.getAccessKeyList();
expect("alice's keys include the file's", keys.keys.some((k) => k.public_key === aliceKey.getPublicKey().toString()), true);
const bobStatus = await provider.callFunction("contract.mock", "get_status", { account_id: "bob.mock" });
expect("bob's status on contract.mock", bobStatus, "hello from bob");

// Writes: a transfer moves exactly its amount; the sender pays the fees the outcome states.
const aliceBefore = (await alice.getState()).balance.total;
const bobBefore = (await bob.getState()).balance.total;
const sent = await alice.transfer({ receiverId: "bob.mock", amount: 2n * NEAR });
expect("the transfer's status", sent.status, { SuccessValue: "" });
const burnt = [sent.transaction_outcome, ...sent.receipts_outcome]
  .map((o) => BigInt(o.outcome.tokens_burnt))
  .reduce((a, b) => a + b, 0n);
expect("bob received 2 NEAR", (await bob.getState()).balance.total - bobBefore, 2n * NEAR);
expect("alice paid 2 NEAR and the fees", aliceBefore - (await alice.getState()).balance.total, 2n * NEAR + burnt);

// A change method, then a view of what it stored.
const called = await alice.callFunction({
  contractId: "contract.mock",
  methodName: "set_status",
  args: { message: "hello from near-api-js" },
});
expect("set_status returned nothing", called ?? "", "");
const aliceStatus = await provider.callFunction("contract.mock", "get_status", { account_id: "alice.mock" });
expect("alice's status", aliceStatus, "hello from near-api-js");

// A sub-account with a key of its own, which then signs for itself.
const { KeyPair } = await import("near-api-js");
const subKey = KeyPair.fromRandom("ed25519");
await alice.createSubAccount("sub", subKey.getPublicKey(), NEAR);
const sub = new Account("sub.alice.mock", provider, new KeyPairSigner(subKey));
expect("sub.alice.mock holds 1 NEAR", (await sub.getState()).balance.total, NEAR);
const fromSub = await sub.transfer({ receiverId: "bob.mock", amount: 1n });
expect("sub.alice.mock signs a transfer", fromSub.status, { SuccessValue: "" });

// A failure on chain is the node's error, as near-api-js reports it.
let failure = null;
try {
  await alice.transfer({ receiverId: "nobody.mock", amount: 1n });
} catch (e) {
  failure = String(e.message ?? e);
}
expect("a transfer to a missing account fails", failure !== null && /nobody\.mock/.test(failure), true);

if (failures > 0) {
  console.error(`${failures} check(s) failed`);
  process.exit(1);
}
console.log("near-api-js: every check passed");
