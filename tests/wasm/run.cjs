// The wasm build of src/lib.rs under Node, against `near-rpc mock`: reads balances and
// sends a transfer through Node's standard `fetch`, then checks the chain moved as
// asked. Exits non-zero, saying what differed, on any mismatch.
//
//   node run.cjs PKG_DIR URL CREDENTIALS_DIR
const fs = require("fs");
const path = require("path");

const [pkg, url, credentials] = process.argv.slice(2);
if (!pkg || !url || !credentials) {
  console.error("usage: node run.cjs PKG_DIR URL CREDENTIALS_DIR");
  process.exit(2);
}
const dapp = require(path.resolve(pkg, "near_rpc_wasm_dapp.js"));
let failures = 0;
function expect(what, actual, expected) {
  const ok = actual === expected;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}: ${actual}${ok ? "" : ` (expected ${expected})`}`);
  if (!ok) failures += 1;
}

(async () => {
  const key = JSON.parse(fs.readFileSync(path.join(credentials, "mock", "alice.mock.json"), "utf8"));
  const amount = 10n ** 24n + 7n;
  const aliceBefore = BigInt(await dapp.balance(url, "alice.mock"));
  const bobBefore = BigInt(await dapp.balance(url, "bob.mock"));
  expect("alice.mock has a balance", aliceBefore > amount, true);

  const hash = await dapp.transfer(url, "alice.mock", key.private_key, "bob.mock", amount.toString());
  expect("the transfer's hash is base58 of 32 bytes", /^[1-9A-HJ-NP-Za-km-z]{43,44}$/.test(hash), true);
  const bobAfter = BigInt(await dapp.balance(url, "bob.mock"));
  const aliceAfter = BigInt(await dapp.balance(url, "alice.mock"));
  expect("bob.mock received exactly the amount", bobAfter - bobBefore, amount);
  expect("alice.mock paid the amount and some gas", aliceBefore - aliceAfter > amount, true);

  // Errors cross into JS as errors, saying what went wrong.
  let refused = "";
  try {
    await dapp.balance(url, "nobody.mock");
  } catch (e) {
    refused = String(e.message);
  }
  expect("an unknown account is an error naming it", refused.includes("nobody.mock"), true);
  let bad = "";
  try {
    await dapp.transfer(url, "alice.mock", "ed25519:not-a-key", "bob.mock", "1");
  } catch (e) {
    bad = String(e.message);
  }
  expect("a malformed key is refused before anything is sent", bad.length > 0 && !bad.includes("not-a-key"), true);
  process.exit(failures === 0 ? 0 : 1);
})().catch((e) => {
  console.error(`FAIL ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
