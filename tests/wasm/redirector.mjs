// A provider that redirects, for checks.mjs: every POST to /rpc is answered 307 to
// /elsewhere on the same server, and every request that reaches /elsewhere is counted
// (GET /hits answers the count). The client must refuse the redirect and send nothing
// there: not the call, not its API key. run.mjs serves it on a server of its own;
// serve.mjs beside the page.
let hits = 0;

// Handles the redirector's paths; false for any other.
export function redirects(request, response) {
  const path = new URL(request.url, "http://x").pathname;
  if (path === "/rpc") {
    request.resume();
    response.writeHead(307, { location: "/elsewhere" });
    response.end();
    return true;
  }
  if (path === "/elsewhere") {
    hits += 1;
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"jsonrpc":"2.0","id":"0","error":{"code":-32000,"message":"reached"}}');
    return true;
  }
  if (path === "/hits") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(hits));
    return true;
  }
  return false;
}
