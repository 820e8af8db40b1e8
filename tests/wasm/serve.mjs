// Serves index.html, checks.mjs and the bound wasm (PKG_DIR, `--target web`) on a free
// loopback port, answers provider.mjs's paths (the page's misbehaving provider), prints
// its origin, then waits for the page's POST /done: prints the page's lines and exits 0
// if every check passed, 1 otherwise, or after TIMEOUT_S seconds without an answer (a
// page that never ran).
//
//   node serve.mjs PKG_DIR TIMEOUT_S
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { misbehave } from "./provider.mjs";

const [pkg, timeout] = process.argv.slice(2);
if (!pkg || !timeout) {
  console.error("usage: node serve.mjs PKG_DIR TIMEOUT_S");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm" };
const files = { "/index.html": join(here, "index.html"), "/checks.mjs": join(here, "checks.mjs") };

const server = createServer(async (request, response) => {
  if (misbehave(request, response)) return;
  const path = new URL(request.url, "http://x").pathname;
  if (request.method === "POST" && path === "/done") {
    let body = "";
    for await (const chunk of request) body += chunk;
    response.end();
    const { failures, lines } = JSON.parse(body);
    for (const line of lines) console.log(line);
    server.close();
    process.exit(failures === 0 ? 0 : 1);
  }
  const file = files[path] ?? (path.startsWith("/pkg/") ? join(pkg, normalize(path.slice(5)).replace(/^(\.\.[/\\])+/, "")) : null);
  try {
    const bytes = await readFile(file);
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    response.end(bytes);
  } catch {
    response.writeHead(404);
    response.end();
  }
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
setTimeout(() => {
  console.error(`FAIL the page reported nothing within ${timeout} s`);
  process.exit(1);
}, Number(timeout) * 1000);
