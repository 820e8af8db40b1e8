//! `HttpTransport`'s failures over real loopback sockets: for each way an exchange can
//! fail, whether the error says nothing was sent, checked against what the server saw
//! (the whole request arrived, or no request could have), through the transport and
//! through [`Client`].
//!
//! The TLS servers present `testdata/localhost.pem` (its key beside it), signed by
//! `testdata/ca.pem`, which only these tests' clients trust. Both were made for these
//! tests with openssl by `testdata/make-certs.sh`, valid from 2000 to 2100.

use std::io::{Read, Write};
use std::mem::discriminant;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

use super::*;
use crate::client::{layers::RetryPolicy, Client};
use crate::methods::SendTxMethod;
use crate::types::{RpcSendTransactionRequest, SignedTransaction};

const CA: &[u8] = include_bytes!("../testdata/ca.pem");
const LEAF: &[u8] = include_bytes!("../testdata/localhost.pem");
const LEAF_KEY: &[u8] = include_bytes!("../testdata/localhost.key");

/// What the transport-level runs send; the server's copy is compared byte for byte.
const BODY: &[u8] =
    br#"{"jsonrpc":"2.0","id":"1","method":"send_tx","params":{"signed_tx_base64":"AAAA"}}"#;

/// A bound on each blocking read of a server, so that a client that never hangs up fails
/// the test instead of hanging it. Not waited out when the test passes.
const GUARD: Duration = Duration::from_secs(20);

/// A host name the test clients resolve to the server, for which its certificate is not.
const WRONG_HOST: &str = "wrong.test";

/// A server's part of one exchange, on a blocking thread. It returns the request body it
/// read whole, or `None` when no request can have reached it (it checks why itself).
type Serve = Arc<dyn Fn(TcpStream) -> Option<Vec<u8>> + Send + Sync>;

/// A loopback listener for one connection, served by `serve`. The listener closes once
/// that connection is accepted, so a second connect (a retry inside reqwest) is refused.
async fn serve_once(serve: Serve) -> (SocketAddr, tokio::task::JoinHandle<Option<Vec<u8>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        drop(listener);
        let stream = stream.into_std().unwrap();
        stream.set_nonblocking(false).unwrap();
        stream.set_read_timeout(Some(GUARD)).unwrap();
        tokio::task::spawn_blocking(move || serve(stream))
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    });
    (addr, server)
}

/// What the server saw, once the client has hung up (the caller drops it first).
async fn seen(server: tokio::task::JoinHandle<Option<Vec<u8>>>) -> Option<Vec<u8>> {
    server
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}

/// The client's settings ([`http_client_builder`]), trusting the test CA alone, with
/// [`WRONG_HOST`] resolving to `addr`.
fn test_http(addr: SocketAddr) -> reqwest::Client {
    http_client_builder()
        .tls_certs_only([reqwest::Certificate::from_pem(CA).unwrap()])
        .resolve(WRONG_HOST, addr)
        .no_proxy()
        .build()
        .unwrap()
}

fn endpoint(scheme: &str, host: &str, addr: SocketAddr) -> Endpoint {
    format!("{scheme}://{host}:{}", addr.port())
        .parse()
        .unwrap()
}

fn tx_params() -> RpcSendTransactionRequest {
    RpcSendTransactionRequest {
        signed_tx_base64: SignedTransaction("AAAA".into()),
        wait_until: None,
    }
}

/// One way for an exchange to fail.
struct Case {
    name: &'static str,
    scheme: &'static str,
    host: &'static str,
    serve: Serve,
    /// The kind the transport must give (compared by variant).
    kind: TransportErrorKind,
    /// Words the error's message must have (one of them), naming the failure the client
    /// saw, so that a case cannot pass on some other failure.
    says: &'static [&'static str],
}

impl Case {
    fn new(
        name: &'static str,
        scheme: &'static str,
        kind: TransportErrorKind,
        says: &'static [&'static str],
        serve: impl Fn(TcpStream) -> Option<Vec<u8>> + Send + Sync + 'static,
    ) -> Self {
        Self {
            name,
            scheme,
            host: "127.0.0.1",
            serve: Arc::new(serve),
            kind,
            says,
        }
    }

    fn unsent(&self) -> bool {
        matches!(
            self.kind,
            TransportErrorKind::Connect | TransportErrorKind::Tls
        )
    }

    /// Runs the case twice, against a fresh server each time: through `HttpTransport`
    /// (the kind, and the body the server read against the one sent), then through
    /// `Client` sending a transaction without retries (`Error::nothing_sent`).
    async fn check(&self) {
        let name = self.name;
        let unsent = self.unsent();

        let (addr, server) = serve_once(self.serve.clone()).await;
        let transport =
            HttpTransport::with_client(test_http(addr), endpoint(self.scheme, self.host, addr));
        let err = transport
            .send(RpcRequest::new("send_tx", 1, BODY, true))
            .await
            .unwrap_err();
        drop(transport);
        let body = seen(server).await;
        assert_eq!(
            discriminant(&err.kind),
            discriminant(&self.kind),
            "{name}: {err}"
        );
        assert_eq!(err.nothing_sent(), unsent, "{name}: {err}");
        assert!(
            self.says.iter().any(|words| err.message.contains(words)),
            "{name}: {err}"
        );
        match body {
            Some(body) => {
                assert!(!unsent, "{name}: the server read a request");
                assert_eq!(body, BODY, "{name}: the server read the whole body");
            }
            None => assert!(unsent, "{name}: the server read no request"),
        }

        let (addr, server) = serve_once(self.serve.clone()).await;
        let transport =
            HttpTransport::with_client(test_http(addr), endpoint(self.scheme, self.host, addr));
        let client = Client::builder()
            .transport(transport)
            .retry(RetryPolicy::none())
            .build()
            .unwrap();
        let err = client.call::<SendTxMethod>(tx_params()).await.unwrap_err();
        drop(client);
        let body = seen(server).await;
        let kind = err.transport_error().map(|t| discriminant(&t.kind));
        assert_eq!(kind, Some(discriminant(&self.kind)), "{name}: {err}");
        assert_eq!(err.nothing_sent(), unsent, "{name} (client): {err}");
        if let Some(body) = body {
            // Whole: a JSON document cut short does not parse.
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(json["method"], "send_tx", "{name} (client)");
            assert_eq!(
                json["params"]["signed_tx_base64"], "AAAA",
                "{name} (client)"
            );
        }
    }
}

// ---- plain TCP ----

/// Reads until the client hangs up (EOF, a reset, or `GUARD`), so that nothing it sends is
/// left unread when the socket closes (which would send a reset); returns what it read.
fn drain(stream: &mut TcpStream) -> Vec<u8> {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut buf) {
        all.extend_from_slice(&buf[..n]);
    }
    all
}

/// A clean close: FIN, then wait for the client to hang up. (The client may have hung up
/// already, on what was written before: then there is nothing left to shut.)
fn close(mut stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    drain(&mut stream);
}

/// An abortive close: SO_LINGER 0, so the kernel sends a reset.
fn reset(stream: TcpStream) {
    let socket = tokio::net::TcpSocket::from_std_stream(stream);
    socket.set_zero_linger().unwrap();
    drop(socket);
}

/// Reads one HTTP/1.1 request whole: its head, then as many bytes as its
/// `content-length` says, and nothing after. Returns the body.
fn read_request(stream: &mut impl Read) -> Vec<u8> {
    let mut data = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "the client hung up inside the request's head");
        data.extend_from_slice(&buf[..n]);
    };
    let head = std::str::from_utf8(&data[..head_end]).unwrap();
    assert!(head.starts_with("POST / HTTP/1.1\r\n"), "{head}");
    let length: usize = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().unwrap())
        })
        .expect("a content-length");
    while data.len() < head_end + length {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "the client hung up inside the request's body");
        data.extend_from_slice(&buf[..n]);
    }
    assert_eq!(data.len(), head_end + length, "nothing after the body");
    data.split_off(head_end)
}

/// A response head and part of its body: less than its `content-length`.
const HALF_RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{\"jsonrpc\"";

// ---- TLS ----

fn server_config(alpn: &[u8]) -> Arc<ServerConfig> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let certs = CertificateDer::pem_slice_iter(LEAF)
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(LEAF_KEY).unwrap();
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    config.alpn_protocols = vec![alpn.to_vec()];
    Arc::new(config)
}

type Tls = StreamOwned<ServerConnection, TcpStream>;

/// The server side of a TLS handshake, offering only `alpn`; panics unless it completes
/// and the client chose `alpn`.
fn accept_tls(mut tcp: TcpStream, alpn: &[u8]) -> Tls {
    let mut conn = ServerConnection::new(server_config(alpn)).unwrap();
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp).unwrap();
    }
    assert_eq!(conn.alpn_protocol(), Some(alpn));
    StreamOwned::new(conn, tcp)
}

/// An application-data record that no key decrypts.
const BOGUS_RECORD: [u8; 37] = {
    let mut record = [0u8; 37];
    record[0] = 23; // application data
    record[1] = 3; // TLS 1.2 on the wire (1.3 records say so too)
    record[2] = 3;
    record[4] = 32; // length
    record
};

/// A fatal alert, encrypted as rustls sends it. rustls has no call to send one at will;
/// it sends `bad_record_mac` when a record does not decrypt, so it is fed one.
fn send_fatal_alert(tls: &mut Tls) {
    tls.conn.read_tls(&mut &BOGUS_RECORD[..]).unwrap();
    let failed = tls.conn.process_new_packets();
    assert!(
        matches!(failed, Err(rustls::Error::DecryptError)),
        "{failed:?}"
    );
    while tls.conn.wants_write() {
        tls.conn.write_tls(&mut tls.sock).unwrap();
    }
}

/// close_notify, then a clean close.
fn close_tls(mut tls: Tls) {
    tls.conn.send_close_notify();
    tls.flush().unwrap();
    close(tls.sock);
}

// ---- a TLS handshake that does not complete ----

/// Reads the client's first record, its ClientHello, whole.
fn read_client_hello(tcp: &mut TcpStream) {
    let mut header = [0u8; 5];
    tcp.read_exact(&mut header).unwrap();
    assert_eq!(header[0], 22, "a handshake record");
    let mut hello = vec![0u8; usize::from(u16::from_be_bytes([header[3], header[4]]))];
    tcp.read_exact(&mut hello).unwrap();
    assert_eq!(hello[0], 1, "a ClientHello");
}

/// After the ClientHello, writes `reply` (maybe nothing) and closes. With no ServerHello
/// the client has no key to send a request under; what it sent is checked to be
/// plaintext handshake and alert records only.
fn abort_handshake(mut tcp: TcpStream, reply: &[u8]) -> Option<Vec<u8>> {
    read_client_hello(&mut tcp);
    tcp.write_all(reply).unwrap();
    let _ = tcp.shutdown(Shutdown::Write);
    let mut rest = &drain(&mut tcp)[..];
    while let [kind, _, _, high, low, after @ ..] = rest {
        assert!(matches!(kind, 21 | 22), "record type {kind} before any key");
        let length = usize::from(u16::from_be_bytes([*high, *low]));
        rest = after.get(length..).unwrap_or_default();
    }
    None
}

// ---- HTTP/2 (RFC 9113 framing, read and written by hand to control what is sent) ----

const DATA: u8 = 0;
const HEADERS: u8 = 1;
const RST_STREAM: u8 = 3;
const SETTINGS: u8 = 4;
const GOAWAY: u8 = 7;
const END_STREAM: u8 = 0x1;
const ACK: u8 = 0x1;
const PADDED: u8 = 0x8;
const NO_ERROR: u32 = 0;
const INTERNAL_ERROR: u32 = 2;
const REFUSED_STREAM: u32 = 7;

fn write_frame(tls: &mut Tls, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
    let length = u32::try_from(payload.len()).unwrap().to_be_bytes();
    let mut frame = vec![length[1], length[2], length[3], kind, flags];
    frame.extend_from_slice(&stream.to_be_bytes());
    frame.extend_from_slice(payload);
    tls.write_all(&frame).unwrap();
    tls.flush().unwrap();
}

/// The next frame: type, flags, stream and payload (`None` once the client hung up).
fn read_frame(tls: &mut Tls) -> Option<(u8, u8, u32, Vec<u8>)> {
    let mut header = [0u8; 9];
    tls.read_exact(&mut header).ok()?;
    let length = u32::from_be_bytes([0, header[0], header[1], header[2]]);
    let stream = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff;
    let mut payload = vec![0u8; length as usize];
    tls.read_exact(&mut payload).ok()?;
    Some((header[3], header[4], stream, payload))
}

/// Reads frames until the client hangs up, failing if it sends a request again (a new
/// stream on the connection that refused or reset the first).
fn drain_h2(tls: &mut Tls) {
    while let Some((kind, _, stream, _)) = read_frame(tls) {
        assert_ne!(
            kind, HEADERS,
            "the request was sent again, on stream {stream}"
        );
    }
}

/// The server side of an HTTP/2 connection up to the end of the first request: the
/// preface, SETTINGS both ways, then the request's HEADERS and DATA up to END_STREAM.
/// Returns the body.
fn read_h2_request(tls: &mut Tls) -> Vec<u8> {
    let mut preface = [0u8; 24];
    tls.read_exact(&mut preface).unwrap();
    assert_eq!(&preface, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    write_frame(tls, SETTINGS, 0, 0, &[]);
    let mut headers = false;
    let mut body = Vec::new();
    loop {
        match read_frame(tls).expect("the rest of the request") {
            (SETTINGS, flags, 0, _) if flags & ACK == 0 => {
                write_frame(tls, SETTINGS, ACK, 0, &[]);
            }
            (HEADERS, flags, 1, _) => {
                assert_eq!(flags & END_STREAM, 0, "a body follows the headers");
                headers = true;
            }
            (DATA, flags, 1, payload) => {
                assert!(headers, "DATA after HEADERS");
                assert_eq!(flags & PADDED, 0);
                body.extend_from_slice(&payload);
                if flags & END_STREAM != 0 {
                    return body;
                }
            }
            // WINDOW_UPDATE, PING, a SETTINGS acknowledgement: nothing to answer.
            _ => {}
        }
    }
}

fn goaway(last_stream: u32, code: u32) -> [u8; 8] {
    let mut payload = [0u8; 8];
    payload[..4].copy_from_slice(&last_stream.to_be_bytes());
    payload[4..].copy_from_slice(&code.to_be_bytes());
    payload
}

// ---- the tests ----

/// Nothing listens: refused before any byte.
#[tokio::test]
async fn a_refused_connection_sent_nothing() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let transport =
        HttpTransport::with_client(test_http(addr), endpoint("http", "127.0.0.1", addr));
    let err = transport
        .send(RpcRequest::new("send_tx", 1, BODY, true))
        .await
        .unwrap_err();
    assert!(matches!(err.kind, TransportErrorKind::Connect), "{err}");
    assert!(err.nothing_sent(), "{err}");
    assert!(err.message.contains("Connection refused"), "{err}");

    let client = Client::builder()
        .transport(transport)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = client.call::<SendTxMethod>(tx_params()).await.unwrap_err();
    assert!(err.nothing_sent(), "{err}");
}

/// A resolver that knows no name, counting the names it was asked.
struct NoNames(Arc<AtomicUsize>);

impl reqwest::dns::Resolve for NoNames {
    fn resolve(&self, _: reqwest::dns::Name) -> reqwest::dns::Resolving {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Err("no such name".into()) })
    }
}

/// The name does not resolve: nothing sent. (A resolver of the test's own: the system's
/// would need a DNS server.)
#[tokio::test]
async fn a_name_that_does_not_resolve_sent_nothing() {
    let asked = Arc::new(AtomicUsize::new(0));
    let http = http_client_builder()
        .dns_resolver(NoNames(asked.clone()))
        .no_proxy()
        .build()
        .unwrap();
    let endpoint: Endpoint = "https://node.test".parse().unwrap();
    let transport = HttpTransport::with_client(http, endpoint);
    let err = transport
        .send(RpcRequest::new("send_tx", 1, BODY, true))
        .await
        .unwrap_err();
    assert!(matches!(err.kind, TransportErrorKind::Connect), "{err}");
    assert!(err.nothing_sent(), "{err}");
    assert!(err.message.contains("no such name"), "{err}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);

    let client = Client::builder()
        .transport(transport)
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = client.call::<SendTxMethod>(tx_params()).await.unwrap_err();
    assert!(err.nothing_sent(), "{err}");
    assert_eq!(asked.load(Ordering::SeqCst), 2);
}

/// TLS handshakes that do not complete: `Tls`, nothing sent.
#[tokio::test]
async fn a_failed_tls_handshake_sent_nothing() {
    use TransportErrorKind::Tls;
    let mut cases = vec![
        Case::new(
            "a fatal alert (handshake_failure) for the ClientHello",
            "https",
            Tls,
            &["received fatal alert: HandshakeFailure"],
            |tcp| abort_handshake(tcp, &[21, 3, 3, 0, 2, 2, 40]),
        ),
        Case::new(
            "plain HTTP for the ClientHello",
            "https",
            Tls,
            &["corrupt message"],
            |tcp| abort_handshake(tcp, b"HTTP/1.1 400 Bad Request\r\n\r\n"),
        ),
        Case::new(
            "a close after the ClientHello",
            "https",
            Tls,
            &["tls handshake eof"],
            |tcp| abort_handshake(tcp, b""),
        ),
    ];
    // A real handshake the client refuses: the certificate is not for the name asked.
    let mut wrong_name = Case::new(
        "a certificate for another name",
        "https",
        Tls,
        &["invalid peer certificate"],
        |mut tcp| {
            let mut conn = ServerConnection::new(server_config(b"http/1.1")).unwrap();
            let mut failed = None;
            while failed.is_none() && conn.is_handshaking() {
                failed = conn.complete_io(&mut tcp).err();
            }
            assert!(failed.is_some() && conn.is_handshaking(), "{failed:?}");
            drain(&mut tcp);
            None
        },
    );
    wrong_name.host = WRONG_HOST;
    cases.push(wrong_name);
    for case in cases {
        case.check().await;
    }
}

/// HTTP/1.1 over TLS: the handshake completes, the server reads the whole request, then
/// the connection ends without a whole answer. The request arrived: nothing_sent is false,
/// whatever TLS said.
#[tokio::test]
async fn tls_failures_after_the_request_are_not_unsent() {
    use TransportErrorKind::Connection;
    let cases = [
        Case::new(
            "a fatal alert",
            "https",
            Connection,
            &["received fatal alert: BadRecordMac"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"http/1.1");
                let body = read_request(&mut tls);
                send_fatal_alert(&mut tls);
                close(tls.sock);
                Some(body)
            },
        ),
        Case::new(
            "close_notify and close",
            "https",
            Connection,
            &["connection closed before message completed"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"http/1.1");
                let body = read_request(&mut tls);
                close_tls(tls);
                Some(body)
            },
        ),
        Case::new(
            "a record that does not decrypt",
            "https",
            Connection,
            &["cannot decrypt peer's message"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"http/1.1");
                let body = read_request(&mut tls);
                tls.sock.write_all(&BOGUS_RECORD).unwrap();
                close(tls.sock);
                Some(body)
            },
        ),
        Case::new(
            "a TCP reset",
            "https",
            Connection,
            &["Connection reset by peer"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"http/1.1");
                let body = read_request(&mut tls);
                reset(tls.sock);
                Some(body)
            },
        ),
        Case::new(
            "half a response, then close_notify",
            "https",
            Connection,
            &["end of file before message length reached"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"http/1.1");
                let body = read_request(&mut tls);
                tls.write_all(HALF_RESPONSE).unwrap();
                close_tls(tls);
                Some(body)
            },
        ),
    ];
    for case in cases {
        case.check().await;
    }
}

/// Plain HTTP/1.1: the server reads the whole request, then the connection ends without
/// a whole answer.
#[tokio::test]
async fn plain_http_failures_after_the_request_are_not_unsent() {
    use TransportErrorKind::Connection;
    let cases = [
        Case::new(
            "a close",
            "http",
            Connection,
            &["connection closed before message completed"],
            |mut tcp| {
                let body = read_request(&mut tcp);
                close(tcp);
                Some(body)
            },
        ),
        Case::new(
            "a reset",
            "http",
            Connection,
            &["Connection reset by peer"],
            |mut tcp| {
                let body = read_request(&mut tcp);
                reset(tcp);
                Some(body)
            },
        ),
        Case::new(
            "half a response head",
            "http",
            Connection,
            &["connection closed before message completed"],
            |mut tcp| {
                let body = read_request(&mut tcp);
                tcp.write_all(b"HTTP/1.1 200 OK\r\ncontent-le").unwrap();
                close(tcp);
                Some(body)
            },
        ),
        Case::new(
            "half a response",
            "http",
            Connection,
            &["end of file before message length reached"],
            |mut tcp| {
                let body = read_request(&mut tcp);
                tcp.write_all(HALF_RESPONSE).unwrap();
                close(tcp);
                Some(body)
            },
        ),
    ];
    for case in cases {
        case.check().await;
    }
}

/// HTTP/2 over TLS (ALPN h2, which the client offers first): the server reads the whole
/// request, then goes away or resets the stream. A GOAWAY naming no stream processed and
/// REFUSED_STREAM are what reqwest's own retries resend: after the GOAWAY, on a new
/// connection, which is refused (the listener is gone) and would read as nothing sent;
/// after the reset, on the same connection, where the server fails on a second request.
#[tokio::test]
async fn http2_failures_after_the_request_are_not_unsent() {
    use TransportErrorKind::Connection;
    let cases = [
        Case::new(
            "GOAWAY naming no stream processed (NO_ERROR), then close",
            "https",
            Connection,
            &["connection error received: not a result of an error"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"h2");
                let body = read_h2_request(&mut tls);
                write_frame(&mut tls, GOAWAY, 0, 0, &goaway(0, NO_ERROR));
                close_tls(tls);
                Some(body)
            },
        ),
        Case::new(
            "GOAWAY after the stream (INTERNAL_ERROR), then close",
            "https",
            Connection,
            &["stream closed because of a broken pipe"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"h2");
                let body = read_h2_request(&mut tls);
                write_frame(&mut tls, GOAWAY, 0, 0, &goaway(1, INTERNAL_ERROR));
                close_tls(tls);
                Some(body)
            },
        ),
        Case::new(
            "RST_STREAM REFUSED_STREAM",
            "https",
            Connection,
            &["refused stream before processing any application logic"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"h2");
                let body = read_h2_request(&mut tls);
                write_frame(&mut tls, RST_STREAM, 0, 1, &REFUSED_STREAM.to_be_bytes());
                drain_h2(&mut tls);
                Some(body)
            },
        ),
        Case::new(
            "RST_STREAM INTERNAL_ERROR",
            "https",
            Connection,
            &["stream error received: unexpected internal error"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"h2");
                let body = read_h2_request(&mut tls);
                write_frame(&mut tls, RST_STREAM, 0, 1, &INTERNAL_ERROR.to_be_bytes());
                drain_h2(&mut tls);
                Some(body)
            },
        ),
        Case::new(
            "a TCP reset",
            "https",
            Connection,
            &["connection reset", "broken pipe"],
            |tcp| {
                let mut tls = accept_tls(tcp, b"h2");
                let body = read_h2_request(&mut tls);
                reset(tls.sock);
                Some(body)
            },
        ),
    ];
    for case in cases {
        case.check().await;
    }
}

/// A timeout is never "nothing sent", even one during the TLS handshake: the listener
/// takes the connection but never answers the ClientHello.
#[tokio::test(start_paused = true)]
async fn a_timeout_is_not_unsent() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let transport =
        HttpTransport::with_client(test_http(addr), endpoint("https", "127.0.0.1", addr));
    let err = transport
        .send(RpcRequest::new("send_tx", 1, BODY, true))
        .await
        .unwrap_err();
    assert!(matches!(err.kind, TransportErrorKind::Timeout), "{err}");
    assert!(!err.nothing_sent(), "{err}");
    drop(listener);
}
