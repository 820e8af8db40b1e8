// The wasm dApp (bound by `wasm-bindgen --target nodejs`) under Node against
// `near-rpc mock`, through Node's standard `fetch`: checks.mjs's checks. Exits non-zero,
// saying what differed, on any mismatch.
//
//   node run.mjs PKG_DIR URL CREDENTIALS_DIR
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { checks } from "./checks.mjs";

const [pkg, url, credentials] = process.argv.slice(2);
if (!pkg || !url || !credentials) {
  console.error("usage: node run.mjs PKG_DIR URL CREDENTIALS_DIR");
  process.exit(2);
}
const dapp = createRequire(import.meta.url)(resolve(pkg, "near_rpc_wasm_dapp.js"));
const key = JSON.parse(readFileSync(join(credentials, "mock", "alice.mock.json"), "utf8"));
const failures = await checks(dapp, url, key.private_key, console.log);
process.exit(failures === 0 ? 0 : 1);
