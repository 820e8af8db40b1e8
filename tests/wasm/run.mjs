// The wasm dApp (bound by `wasm-bindgen --target nodejs`) under Node against
// `near-rpc mock`, through Node's standard `fetch`: checks.mjs's checks, the misbehaving
// provider (provider.mjs) on a server of its own. Exits non-zero, saying what
// differed, on any mismatch.
//
//   node run.mjs PKG_DIR URL CREDENTIALS_DIR
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { checks } from "./checks.mjs";
import { misbehave } from "./provider.mjs";

const [pkg, url, credentials] = process.argv.slice(2);
if (!pkg || !url || !credentials) {
  console.error("usage: node run.mjs PKG_DIR URL CREDENTIALS_DIR");
  process.exit(2);
}
const dapp = createRequire(import.meta.url)(resolve(pkg, "near_rpc_wasm_dapp.js"));
const key = JSON.parse(readFileSync(join(credentials, "mock", "alice.mock.json"), "utf8"));
const server = createServer((request, response) => {
  if (!misbehave(request, response)) {
    response.writeHead(404);
    response.end();
  }
});
await new Promise((listening) => server.listen(0, "127.0.0.1", listening));
const origin = `http://127.0.0.1:${server.address().port}`;
const provider = { origin, counts: async () => (await fetch(`${origin}/counts`)).json() };
const failures = await checks(dapp, url, key.private_key, provider, console.log);
process.exit(failures === 0 ? 0 : 1);
