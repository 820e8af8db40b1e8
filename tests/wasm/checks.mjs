// The checks the wasm dApp (src/lib.rs) must pass against `near-rpc mock`, the same under
// Node (run.mjs) and in a browser page (index.html): balances read, a transfer signed in
// the wasm and sent, the chain's balances checked after, errors crossing into JS as
// errors; against a misbehaving provider (`provider`: the origin serving provider.mjs's
// paths, and `counts()`, what reached them), a redirect refused with nothing sent where
// it pointed, and an attempt that gets no answer ended by its timeout and aborted.
// Returns how many checks failed; `log` gets one line per check.
export async function checks(dapp, url, secretKey, provider, log) {
  let failures = 0;
  const expect = (what, actual, expected) => {
    const ok = actual === expected;
    log(`${ok ? "ok  " : "FAIL"} ${what}: ${actual}${ok ? "" : ` (expected ${expected})`}`);
    if (!ok) failures += 1;
  };
  const amount = 10n ** 24n + 7n;
  const aliceBefore = BigInt(await dapp.balance(url, "alice.mock"));
  const bobBefore = BigInt(await dapp.balance(url, "bob.mock"));
  expect("alice.mock has a balance", aliceBefore > amount, true);

  const hash = await dapp.transfer(url, "alice.mock", secretKey, "bob.mock", amount.toString());
  expect("the transfer's hash is base58 of 32 bytes", /^[1-9A-HJ-NP-Za-km-z]{43,44}$/.test(hash), true);
  const bobAfter = BigInt(await dapp.balance(url, "bob.mock"));
  const aliceAfter = BigInt(await dapp.balance(url, "alice.mock"));
  expect("bob.mock received exactly the amount", bobAfter - bobBefore, amount);
  expect("alice.mock paid the amount and some gas", aliceBefore - aliceAfter > amount, true);

  const message = async (call) => {
    try {
      await call();
      return "";
    } catch (e) {
      return String(e && e.message);
    }
  };
  const unknown = await message(() => dapp.balance(url, "nobody.mock"));
  expect("an unknown account is an error naming it", unknown.includes("nobody.mock"), true);
  const bad = await message(() => dapp.transfer(url, "alice.mock", "ed25519:not-a-key", "bob.mock", "1"));
  expect("a malformed key is refused, the key not repeated", bad.length > 0 && !bad.includes("not-a-key"), true);

  const apiKey = "wasm-check-api-key-7f3a";
  const refused = await message(() => dapp.balance_with_key(`${provider.origin}/rpc`, "alice.mock", apiKey));
  expect(`a redirect is refused (${refused})`, refused.includes("redirect refused"), true);
  expect("the error does not repeat the API key", refused.includes(apiKey), false);
  expect("nothing reached where the redirect pointed", (await provider.counts()).redirected, 0);

  const late = await message(() => dapp.balance_within(`${provider.origin}/hang`, "alice.mock", 300));
  expect(`an unanswered attempt times out (${late})`, late.includes("timeout"), true);
  // The host closes an aborted request at once; its server may see it a moment later.
  let abandoned = 0;
  for (let i = 0; i < 50 && abandoned === 0; i += 1) {
    abandoned = (await provider.counts()).abandoned;
    if (abandoned === 0) await new Promise((r) => setTimeout(r, 20));
  }
  expect("the timed-out request was aborted", abandoned, 1);
  return failures;
}
