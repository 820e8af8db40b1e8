// A provider that misbehaves, for checks.mjs. POST /rpc is answered 307 to /elsewhere on
// the same server, and each request that reaches /elsewhere is counted: the client must
// refuse the redirect and send nothing there, not the call, not its API key. POST /hang
// is never answered, and each such request whose client gives up (closes it) is counted:
// the client's timeout must end the call and abort the request. GET /counts answers
// both counts. run.mjs serves it on a server of its own; serve.mjs beside the page.
const counts = { redirected: 0, abandoned: 0 };

// Handles the provider's paths; false for any other.
export function misbehave(request, response) {
  const path = new URL(request.url, "http://x").pathname;
  if (path === "/rpc") {
    request.resume();
    response.writeHead(307, { location: "/elsewhere" });
    response.end();
    return true;
  }
  if (path === "/elsewhere") {
    counts.redirected += 1;
    request.resume();
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"jsonrpc":"2.0","id":"0","error":{"code":-32000,"message":"reached"}}');
    return true;
  }
  if (path === "/hang") {
    request.resume();
    response.on("close", () => {
      if (!response.writableEnded) counts.abandoned += 1;
    });
    return true;
  }
  if (path === "/counts") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(counts));
    return true;
  }
  return false;
}
