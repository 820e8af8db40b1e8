//! Secrets and their redaction: every credential the client is given (API-key headers,
//! key-looking parts of endpoint URLs) is collected into [`Secrets`], and every text the
//! client shows or returns passes through [`Secrets::scrub`], so that a key a server
//! echoes back (in an HTML page, a JSON-RPC message, a header) is printed as `***`, also
//! when the echo is JSON-escaped (`\/`, `\u0041`, surrogate pairs).

use std::borrow::Cow;
use std::sync::Arc;

/// What a redacted secret is shown as.
pub const MASK: &str = "***";

/// Secrets shorter than this are not looked for in free text: a short value (`v1`,
/// `rpc`) would mask ordinary words, and no provider issues keys that short. Endpoint
/// displays hide everything after the origin anyway.
const MIN_SCRUBBED_LEN: usize = 6;

/// Secrets at least this long are matched in any ASCII case: a server may echo a key in
/// another case (and URL parsing lowercases a key pasted as a host label), and a value
/// this long and random does not turn up by chance in a payload. Shorter ones (a
/// user name) are matched exactly, so a case-sensitive payload (base64, base58) that
/// differs from them only in case is left alone.
const ANY_CASE_LEN: usize = 16;

/// The set of secret strings to mask. Cheap to clone.
///
/// Values of 16 bytes or more match in any ASCII case (lowercasing 64 KiB of a body at a
/// time), shorter ones exactly; a body that holds no secret is never copied whole. In a
/// body with a backslash, a secret is also found with any of its characters JSON-escaped
/// (`\"`, `\\`, `\/`, `\n` and the like, `\uXXXX` in either case, a surrogate pair for a
/// character beyond the BMP), and the whole escaped span is masked; a body without one
/// pays one scan for a backslash and nothing else.
#[derive(Clone, Default)]
pub struct Secrets(Arc<[Secret]>);

/// One value to mask.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Secret {
    /// Lowercased when `any_case`.
    text: String,
    any_case: bool,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets({} values)", self.0.len())
    }
}

impl Secrets {
    /// A set of secrets; values too short to scrub safely are dropped, longer ones are
    /// looked for first (so a key that contains another is masked whole).
    pub fn new(values: impl IntoIterator<Item = String>) -> Self {
        Self::of(values.into_iter().map(|text| {
            let any_case = text.len() >= ANY_CASE_LEN;
            Secret {
                text: if any_case {
                    text.to_ascii_lowercase()
                } else {
                    text
                },
                any_case,
            }
        }))
    }

    fn of(values: impl Iterator<Item = Secret>) -> Self {
        let mut values: Vec<Secret> = values
            .filter(|v| v.text.len() >= MIN_SCRUBBED_LEN)
            .collect();
        values.sort_by(|a, b| b.text.len().cmp(&a.text.len()).then_with(|| a.cmp(b)));
        values.dedup();
        Self(values.into())
    }

    /// Whether there is nothing to mask.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every secret replaced by [`MASK`].
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.masked(text.as_bytes()) {
            // A match starts and ends on character boundaries (secrets are UTF-8, and
            // ASCII lowercasing leaves other bytes alone), so the result is UTF-8.
            Some(bytes) => Cow::Owned(
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ),
            None => Cow::Borrowed(text),
        }
    }

    /// Masks every secret in `bytes` in place (a response body). Bytes are compared, so
    /// a body that is not UTF-8 is scrubbed too.
    pub fn scrub_bytes(&self, bytes: &mut Vec<u8>) {
        if let Some(masked) = self.masked(bytes) {
            *bytes = masked;
        }
    }

    /// `bytes` with every secret masked, or `None` when none is there.
    fn masked(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        // Without a backslash nothing is escaped: the plain search is all there is to do.
        // (Masking adds none, so one look at the input decides for every secret.)
        let escaped = memchr::memchr(b'\\', bytes).is_some();
        let mut current: Option<Vec<u8>> = None;
        for secret in self.0.iter() {
            let needle = secret.text.as_bytes();
            let source = current.as_deref().unwrap_or(bytes);
            let plain = mask_spans(source, |mask| {
                let mut at = |start: usize| mask(start, start + needle.len());
                if secret.any_case {
                    for_each_any_case(source, needle, &mut at);
                } else {
                    // memchr's SIMD search keeps this cheap on bodies without the secret.
                    memchr::memmem::find_iter(source, needle).for_each(at);
                }
            });
            if plain.is_some() {
                current = plain;
            }
            if escaped {
                let source = current.as_deref().unwrap_or(bytes);
                let unescaped = mask_spans(source, |mask| {
                    for_each_escaped(source, needle, secret.any_case, mask);
                });
                if unescaped.is_some() {
                    current = unescaped;
                }
            }
        }
        current
    }

    /// Masks every secret in a `String` in place.
    pub fn scrub_string(&self, text: &mut String) {
        if let Cow::Owned(scrubbed) = self.scrub(text) {
            *text = scrubbed;
        }
    }

    /// This set and `other` together.
    pub fn union(&self, other: &Secrets) -> Secrets {
        Secrets::of(self.0.iter().chain(other.0.iter()).cloned())
    }
}

/// `source` with each span `search` reports (left to right, none overlapping the one
/// before) replaced by [`MASK`], or `None` when it reports none. The output is built as
/// spans are found (none kept aside), and only once there is one.
fn mask_spans(source: &[u8], search: impl FnOnce(&mut dyn FnMut(usize, usize))) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    search(&mut |start, end| {
        let out = out.get_or_insert_with(|| Vec::with_capacity(source.len()));
        out.extend_from_slice(&source[at..start]);
        out.extend_from_slice(MASK.as_bytes());
        at = end;
    });
    out.map(|mut out| {
        out.extend_from_slice(&source[at..]);
        out
    })
}

/// Calls `found` with the start of each non-overlapping occurrence of `needle`
/// (lowercase, not empty) in `hay`, in any ASCII case, left to right. `hay` is lowercased
/// a window at a time (windows overlap by the needle's length, so no occurrence is
/// split), never copied whole: a 32 MiB body costs one buffer of 64 KiB and the needle,
/// and time linear in its length.
fn for_each_any_case(hay: &[u8], needle: &[u8], found: &mut impl FnMut(usize)) {
    const WINDOW: usize = 64 * 1024;
    if needle.is_empty() {
        return;
    }
    let finder = memchr::memmem::Finder::new(needle);
    let mut window = Vec::with_capacity(hay.len().min(WINDOW + needle.len()));
    // Where the next occurrence may start (after the last one, which it may not overlap).
    let mut next = 0;
    let mut start = 0;
    while start < hay.len() {
        let end = (start + WINDOW + needle.len()).min(hay.len());
        window.clear();
        window.extend(hay[start..end].iter().map(u8::to_ascii_lowercase));
        while let Some(at) = finder.find(&window[next.max(start) - start..]) {
            let at = next.max(start) + at;
            found(at);
            next = at + needle.len();
        }
        if end == hay.len() {
            break;
        }
        start += WINDOW;
    }
}

/// Decoded bytes of a stretch of a body, each with the span of the body it was read from:
/// a byte itself, or an escape (`\u00e9`: two bytes, one span).
#[derive(Default)]
struct Decoded {
    bytes: Vec<u8>,
    starts: Vec<usize>,
    ends: Vec<usize>,
}

impl Decoded {
    fn push(&mut self, bytes: &[u8], start: usize, end: usize, any_case: bool) {
        for &b in bytes {
            self.bytes
                .push(if any_case { b.to_ascii_lowercase() } else { b });
            self.starts.push(start);
            self.ends.push(end);
        }
    }

    /// The body's bytes `from..to`, as they are.
    fn push_literal(&mut self, hay: &[u8], from: usize, to: usize, any_case: bool) {
        for at in from..to {
            self.push(&hay[at..=at], at, at + 1, any_case);
        }
    }

    fn drain_to(&mut self, keep_from: usize) {
        self.bytes.drain(..keep_from);
        self.starts.drain(..keep_from);
        self.ends.drain(..keep_from);
    }
}

/// Calls `found` with the span of the body of each occurrence of `needle` (lowercase
/// when `any_case`) that has at least one JSON escape in it, left to right, none
/// overlapping the one before (occurrences without one are the plain search's).
///
/// Linear in the body and bounded in memory. Escapes are found with memchr, each read
/// in order (so `\\` pairs up as JSON reads it). One that stands for a byte the needle
/// does not have (`\"` beside an alphanumeric key, most of them) ends every occurrence
/// before it and starts none, and costs nothing more. Around the others, the body is
/// decoded, plain runs only at their ends (`needle`'s length less one: an occurrence
/// with an escape reaches no further into them), and searched and dropped (keeping
/// what an occurrence may still start in) every `WINDOW` bytes: the decoded stretch
/// holds at most about `WINDOW` and twice the needle.
fn for_each_escaped(
    hay: &[u8],
    needle: &[u8],
    any_case: bool,
    found: &mut dyn FnMut(usize, usize),
) {
    const WINDOW: usize = 16 * 1024;
    #[cfg(test)]
    tests::ESCAPED_SCANS.with(|n| n.set(n.get() + 1));
    let len = needle.len();
    if len == 0 {
        return;
    }
    let context = len - 1;
    let mut in_needle = [false; 256];
    for &b in needle {
        in_needle[usize::from(b)] = true;
    }
    let fold = |b: u8| if any_case { b.to_ascii_lowercase() } else { b };
    let finder = memchr::memmem::Finder::new(needle);
    let mut decoded = Decoded::default();
    // Where the next occurrence may start in the body (after the last one reported).
    let mut next = 0;
    let mut search = |decoded: &mut Decoded, keep: usize| {
        let mut from = 0;
        while let Some(at) = finder.find(&decoded.bytes[from..]) {
            let at = from + at;
            let (start, end) = (decoded.starts[at], decoded.ends[at + len - 1]);
            // Longer in the body than decoded: there is an escape in it.
            if start >= next && end - start > len {
                found(start, end);
                next = end;
                from = at + len;
            } else {
                from = at + 1;
            }
        }
        #[cfg(test)]
        tests::MOST_DECODED.with(|m| m.set(m.get().max(decoded.bytes.len())));
        // What an occurrence may still start in: the last `keep` bytes, not before
        // where the search stopped.
        let keep_from = decoded.bytes.len().saturating_sub(keep).max(from);
        decoded.drain_to(keep_from.min(decoded.bytes.len()));
    };
    // The decoded stretch ends where the body's `last` (exclusive) is; when it is
    // empty, `last` is the end of the last escape read.
    let mut last = 0;
    let mut pos = 0;
    while let Some(found_at) = memchr::memchr(b'\\', &hay[pos..]) {
        let at = pos + found_at;
        let (utf8, n, raw_len) = json_escape(hay, at).unwrap_or(([b'\\', 0, 0, 0], 1, 1));
        let candidate = utf8[..n].iter().all(|&b| in_needle[usize::from(fold(b))]);
        if !decoded.bytes.is_empty() {
            if !candidate || at - last > 2 * context {
                // The occurrences before it end by here: the plain bytes they may reach.
                decoded.push_literal(hay, last, (last + context).min(at), any_case);
                search(&mut decoded, 0);
            } else {
                decoded.push_literal(hay, last, at, any_case);
            }
        }
        if candidate {
            if decoded.bytes.is_empty() {
                // The plain bytes an occurrence through it may start in.
                let from = at.saturating_sub(context).max(last);
                decoded.push_literal(hay, from, at, any_case);
            }
            decoded.push(&utf8[..n], at, at + raw_len, any_case);
            if decoded.bytes.len() >= WINDOW {
                search(&mut decoded, context);
            }
        }
        pos = at + raw_len;
        last = pos;
    }
    if !decoded.bytes.is_empty() {
        decoded.push_literal(hay, last, (last + context).min(hay.len()), any_case);
        search(&mut decoded, 0);
    }
}

/// The JSON escape at `hay[at]` (a backslash): the UTF-8 bytes it stands for (the first
/// `n` of four) and its length in the body, or `None` when it is not one (an unknown
/// letter, a lone or reversed surrogate, too few hex digits).
fn json_escape(hay: &[u8], at: usize) -> Option<([u8; 4], usize, usize)> {
    let simple = match hay.get(at + 1)? {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'u' => {
            let hex4 = |from: usize| -> Option<u32> {
                hay.get(from..from + 4)?
                    .iter()
                    .try_fold(0, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
            };
            let unit = hex4(at + 2)?;
            let (c, raw_len) = match unit {
                0xD800..=0xDBFF => {
                    if hay.get(at + 6..at + 8) != Some(b"\\u") {
                        return None;
                    }
                    let low = hex4(at + 8)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return None;
                    }
                    let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    (char::from_u32(c)?, 12)
                }
                0xDC00..=0xDFFF => return None,
                _ => (char::from_u32(unit)?, 6),
            };
            let mut utf8 = [0; 4];
            let n = c.encode_utf8(&mut utf8).len();
            return Some((utf8, n, raw_len));
        }
        _ => return None,
    };
    Some(([simple, 0, 0, 0], 1, 2))
}

/// Whether `text` looks like a credential rather than a word: long, or mixing letters
/// with digits. Used to decide which URL parts are secrets and what a usage error may
/// repeat back.
///
/// ```
/// use near_rpc::client::looks_like_secret;
///
/// assert!(looks_like_secret("3f9a2c1e8b7d4a6f9e0c1b2a3d4e5f60"));
/// assert!(looks_like_secret("k3yK3y99"));
/// assert!(!looks_like_secret("mainnet"));
/// assert!(!looks_like_secret("v1"));
/// ```
pub fn looks_like_secret(text: &str) -> bool {
    let letters = text.chars().filter(char::is_ascii_alphabetic).count();
    let digits = text.chars().filter(char::is_ascii_digit).count();
    text.len() >= 20 || (text.len() >= 8 && letters > 0 && digits > 0)
}

/// Names of URL query parameters that carry credentials, whatever their value looks like.
const KEY_PARAMS: [&str; 7] = [
    "apikey",
    "api_key",
    "api-key",
    "key",
    "token",
    "access_token",
    "auth",
];

/// The secret parts of a URL: user-info (also in its Basic-auth encoding), key-like
/// labels of the host, key-looking path segments, and query values
/// that look like keys or sit under a key-like parameter name. Each is also returned
/// percent-decoded, as a server may echo either form.
pub(crate) fn url_secrets(url: &reqwest::Url) -> Vec<String> {
    let mut found = Vec::new();
    if !url.username().is_empty() {
        found.push(url.username().to_owned());
    }
    if let Some(password) = url.password() {
        found.push(password.to_owned());
    }
    if !url.username().is_empty() || url.password().is_some() {
        // The HTTP client sends user-info as `Authorization: Basic base64(user:password)`
        // (both percent-decoded): a server echoing that header echoes the key encoded.
        use base64::Engine as _;
        let decoded = |v: &str| percent_decode(v).unwrap_or_else(|| v.to_owned());
        let pair = format!(
            "{}:{}",
            decoded(url.username()),
            url.password().map(decoded).unwrap_or_default()
        );
        found.push(base64::engine::general_purpose::STANDARD.encode(pair));
    }
    if let Some(host) = url.host_str() {
        // Lowercased by URL parsing; at least `ANY_CASE_LEN` long, so matched in any case.
        found.extend(
            host.split('.')
                .filter(|l| key_like_label(l))
                .map(str::to_owned),
        );
    }
    if let Some(segments) = url.path_segments() {
        found.extend(segments.filter(|s| looks_like_secret(s)).map(str::to_owned));
    }
    if let Some(query) = url.query() {
        for pair in query.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or(("", pair));
            let keyish = KEY_PARAMS.contains(&name.to_ascii_lowercase().as_str());
            if keyish || looks_like_secret(value) {
                found.push(value.to_owned());
            }
        }
    }
    let decoded: Vec<String> = found
        .iter()
        .filter_map(|v| percent_decode(v))
        .filter(|d| !found.contains(d))
        .collect();
    found.extend(decoded);
    found
}

/// Whether a label of a host name looks like a key: long, and key-like as a whole.
fn key_like_label(label: &str) -> bool {
    // At least `ANY_CASE_LEN`: URL parsing lowercased it, so it must match in any case.
    label.len() >= ANY_CASE_LEN && looks_like_secret(label)
}

/// `%XX` sequences decoded, when there are any and the result is UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A URL as it may be shown: scheme, host and port, then `/***` when anything else
/// (path, query, user-info) is there.
pub(crate) fn show_url(url: &reqwest::Url) -> String {
    let mut shown = format!("{}://", url.scheme());
    if let Some(host) = url.host_str() {
        // A key pasted as a label of the host (`https://KEY.rpc.example/`) is masked
        // there too; the host's other labels still say where the call went.
        let labels: Vec<&str> = host
            .split('.')
            .map(|label| if key_like_label(label) { "***" } else { label })
            .collect();
        shown.push_str(&labels.join("."));
    }
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    let path = url.path();
    let more = !(path.is_empty() || path == "/")
        || url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some();
    if more {
        shown.push_str("/***");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// How many times the escaped search ran on this thread.
        pub(super) static ESCAPED_SCANS: Cell<usize> = const { Cell::new(0) };
        /// The most decoded bytes it held at once.
        pub(super) static MOST_DECODED: Cell<usize> = const { Cell::new(0) };
    }

    /// `text` with every character written as a `\uXXXX` escape (a surrogate pair beyond
    /// the BMP), hex digits in upper case when `upper`.
    fn escape_all(text: &str, upper: bool) -> String {
        let mut out = String::new();
        for unit in text.encode_utf16() {
            if upper {
                out.push_str(&format!("\\u{unit:04X}"));
            } else {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
        out
    }

    /// `text` with the characters at even positions escaped, the others as they are:
    /// `/`, `"` and `\` with their short escapes.
    fn escape_some(text: &str) -> String {
        let mut out = String::new();
        for (i, c) in text.chars().enumerate() {
            match c {
                '/' => out.push_str("\\/"),
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if i % 2 == 0 => out.push_str(&escape_all(&c.to_string(), i % 4 == 0)),
                c => out.push(c),
            }
        }
        out
    }

    /// `text` with only its first and last characters `\uXXXX`-escaped (and `/`, `"`,
    /// `\` in between with their short escapes, as JSON needs the last two).
    fn escape_ends(text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let last = chars.len() - 1;
        let mut out = String::new();
        for (i, c) in chars.into_iter().enumerate() {
            match c {
                c if i == 0 || i == last => out.push_str(&escape_all(&c.to_string(), i == 0)),
                '/' => out.push_str("\\/"),
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c => out.push(c),
            }
        }
        out
    }

    fn scrubbed(secrets: &Secrets, body: &str) -> String {
        let mut bytes = body.as_bytes().to_vec();
        secrets.scrub_bytes(&mut bytes);
        assert_eq!(secrets.scrub(body), String::from_utf8_lossy(&bytes));
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn keys_echoed_json_escaped_are_masked_whole() {
        let keys = [
            "AbCdEf123",
            "ab/cd\"ef\\gh12",
            "k\u{1F600}y1234é",
            "Sk1LiveQmX4tR7zW2pL8v",
            "Sk1/Live\"QmX4\\tR7zW\u{1F511}2pL8v",
        ];
        for key in keys {
            let secrets = Secrets::new([key.to_owned()]);
            for echoed in [
                escape_all(key, false),
                escape_all(key, true),
                escape_some(key),
                escape_ends(key),
            ] {
                let body = format!(r#"{{"error":"bad key {echoed}","again":"{echoed}{echoed}"}}"#);
                assert_eq!(
                    scrubbed(&secrets, &body),
                    r#"{"error":"bad key ***","again":"******"}"#,
                    "{key:?} as {echoed}"
                );
            }
            // As it is, and beside an escaped echo.
            let body = format!("{key} \\n {}", escape_all(key, true));
            assert_eq!(scrubbed(&secrets, &body), "*** \\n ***", "{key:?}");
        }
    }

    #[test]
    fn escaped_echoes_match_in_any_case_only_where_any_case_applies() {
        // 16 characters or more: any ASCII case, escaped or not, hex digits either case.
        let secrets = Secrets::new(["Sk1LiveQmX4tR7zW2pL8v".to_owned()]);
        for echoed in [
            escape_all("SK1LIVEQMX4TR7ZW2PL8V", false),
            escape_all("sk1liveqmx4tr7zw2pl8v", true),
            escape_some("sK1lIvEqMx4Tr7Zw2Pl8V"),
        ] {
            assert_eq!(
                scrubbed(&secrets, &format!("<{echoed}>")),
                "<***>",
                "{echoed}"
            );
        }
        // Shorter: exactly, so another case stays.
        let secrets = Secrets::new(["AbCdEf123".to_owned()]);
        let other_case = escape_all("abcdef123", true);
        assert_eq!(scrubbed(&secrets, &other_case), other_case);
        assert_eq!(scrubbed(&secrets, &escape_some("AbCdEf123")), "***");
    }

    #[test]
    fn escaped_echoes_are_found_across_window_boundaries() {
        const WINDOW: usize = 16 * 1024;
        for (key, any_case) in [("AbCdEf123", false), ("Sk1LiveQmX4tR7zW2pL8v", true)] {
            let secrets = Secrets::new([key.to_owned()]);
            let echoed = if any_case {
                escape_some(&key.to_uppercase())
            } else {
                escape_some(key)
            };
            // Escapes of a character of the key before it fill the decoded window, so
            // that the echo starts on every side of the point where a window is searched
            // and dropped.
            for before in WINDOW - key.len() - 2..WINDOW + 2 {
                let body = format!("{}{echoed}\\t{echoed}", "\\u0031".repeat(before));
                let expected = format!("{}***\\t***", "\\u0031".repeat(before));
                assert_eq!(scrubbed(&secrets, &body), expected, "{key} after {before}");
            }
            // Long plain runs between escapes, the echo at their ends.
            for run in [0, 1, key.len() - 1, key.len(), 2 * key.len(), 70_000] {
                let plain = "x".repeat(run);
                let body = format!("\\n{plain}{echoed}{plain}\\/{plain}{echoed}");
                let expected = format!("\\n{plain}***{plain}\\/{plain}***");
                assert_eq!(
                    scrubbed(&secrets, &body),
                    expected,
                    "{key} with runs of {run}"
                );
            }
        }
    }

    #[test]
    fn the_escaped_search_is_bounded_and_skipped_without_a_backslash() {
        let secrets = Secrets::new(["AbCdEf123".to_owned(), "Sk1LiveQmX4tR7zW2pL8v".to_owned()]);
        let scans = || ESCAPED_SCANS.with(Cell::get);
        // No backslash: the escaped search never runs, nothing is copied.
        let before = scans();
        let plain = "x".repeat(1 << 20);
        assert!(matches!(secrets.scrub(&plain), Cow::Borrowed(_)));
        let mut body = format!("{plain} AbCdEf123").into_bytes();
        secrets.scrub_bytes(&mut body);
        assert!(body.ends_with(b" ***"));
        assert_eq!(scans(), before);
        // One backslash: it runs, once per secret.
        assert!(matches!(
            secrets.scrub(&format!("{plain}\\n")),
            Cow::Borrowed(_)
        ));
        assert_eq!(scans(), before + 2);
        // Escapes of characters neither key has (`\"`) cost no decoding at all.
        MOST_DECODED.with(|m| m.set(0));
        let quoted = format!(
            "{}{}",
            "\\\"x".repeat(1 << 17),
            escape_all("AbCdEf123", true)
        );
        assert!(scrubbed(&secrets, &quoted).ends_with("x***"));
        assert!(MOST_DECODED.with(Cell::get) < 64);
        // Three quarters of a megabyte of escapes of a character both keys have holds at
        // most a window and the needle at once.
        let dense = format!(
            "{}{}",
            "\\u0031".repeat(1 << 17),
            escape_all("AbCdEf123", true)
        );
        assert!(scrubbed(&secrets, &dense).ends_with("1***"));
        let most = MOST_DECODED.with(Cell::get);
        assert!(
            (16 * 1024..=16 * 1024 + 2 * 21 + 4).contains(&most),
            "{most}"
        );
    }

    #[test]
    fn what_is_not_an_escape_is_read_as_it_is() {
        let secrets = Secrets::new(["AbCdEf123".to_owned()]);
        for body in [
            "\\",
            "AbCdEf12\\",
            "\\uD83D AbCdEf12",
            "\\uDE00\\uD83D",
            "\\u00",
            "\\u00G1",
            "\\x41bCdEf123",
            "\\uD83D\\u0041bCdEf12",
            "\\\\u0041bCdEf123",
        ] {
            assert_eq!(scrubbed(&secrets, body), body, "{body}");
        }
        // A backslash that is not an escape, then the key escaped.
        assert_eq!(scrubbed(&secrets, "\\q\\u0041bCdEf123\\"), "\\q***\\");
        // An escaped backslash before an escaped key: both read as JSON reads them.
        assert_eq!(scrubbed(&secrets, "\\\\\\u0041bCdEf123"), "\\\\***");
    }

    #[test]
    fn scrubs_every_occurrence_longest_first() {
        let secrets = Secrets::new(["abcdef123".to_owned(), "abcdef123456".to_owned()]);
        assert_eq!(
            secrets.scrub("k=abcdef123456 and abcdef123 again abcdef123456"),
            "k=*** and *** again ***"
        );
        let mut body = b"{\"message\":\"bad key abcdef123456\"}".to_vec();
        secrets.scrub_bytes(&mut body);
        assert_eq!(body, b"{\"message\":\"bad key ***\"}");
        assert!(matches!(secrets.scrub("clean"), Cow::Borrowed(_)));
    }

    #[test]
    fn secrets_are_masked_in_any_ascii_case() {
        // A host label comes out of URL parsing lowercased; the key may come back as
        // given, or in upper case.
        let url: reqwest::Url = "http://Sk1LiveQmX4tR7zW2pL8v.invalid:1/".parse().unwrap();
        let secrets = Secrets::new(url_secrets(&url));
        assert_eq!(
            secrets
                .scrub("a Sk1LiveQmX4tR7zW2pL8v b sk1liveqmx4tr7zw2pl8v c SK1LIVEQMX4TR7ZW2PL8V"),
            "a *** b *** c ***"
        );
        let mut body = "é Sk1LiveQmX4tR7zW2pL8v é".as_bytes().to_vec();
        secrets.scrub_bytes(&mut body);
        assert_eq!(body, "é *** é".as_bytes());
    }

    #[test]
    fn short_secrets_match_exactly_long_ones_in_any_case() {
        let secrets = Secrets::new(["AbCdEf123".to_owned(), "Sk1LiveQmX4tR7zW2pL8v".to_owned()]);
        assert_eq!(
            secrets.scrub("AbCdEf123 abcdef123 SK1LIVEQMX4TR7ZW2PL8V sk1liveqmx4tr7zw2pl8v"),
            "*** abcdef123 *** ***"
        );
        // Without a secret in it, a text is not copied.
        assert!(matches!(secrets.scrub("clean body"), Cow::Borrowed(_)));
    }

    fn find_any_case(hay: &[u8], needle: &[u8]) -> Vec<usize> {
        let mut found = Vec::new();
        for_each_any_case(hay, needle, &mut |at| found.push(at));
        found
    }

    #[test]
    fn any_case_search_finds_occurrences_across_windows_without_overlap() {
        let needle = b"qmx4tr7zw2pl8vn3";
        for at in [
            0,
            1,
            65_535 - 8,
            65_536 - 16,
            65_536 - 1,
            65_536,
            131_072 + 3,
        ] {
            let mut hay = vec![b'.'; 200_000];
            hay[at..at + needle.len()].copy_from_slice(b"QmX4tR7zW2pL8vN3");
            assert_eq!(find_any_case(&hay, needle), vec![at], "at {at}");
        }
        // Overlapping candidates: left to right, none overlapping the one before.
        let needle = b"aaaaaaaaaaaaaaaa";
        let hay = vec![b'A'; 65_536 + 40];
        let found = find_any_case(&hay, needle);
        assert_eq!(found.len(), hay.len() / needle.len());
        assert!(
            found.windows(2).all(|w| w[1] == w[0] + needle.len()),
            "{found:?}"
        );
        assert!(find_any_case(b"short", needle).is_empty());
        assert!(find_any_case(b"anything", b"").is_empty());
        // A needle longer than a window.
        let long = vec![b'k'; 70_000];
        let mut hay = vec![b'.'; 3];
        hay.extend(std::iter::repeat_n(b'K', 70_000));
        assert_eq!(find_any_case(&hay, &long), vec![3]);
    }

    #[test]
    fn user_info_is_a_secret_in_its_basic_auth_encoding_too() {
        use base64::Engine as _;
        let url: reqwest::Url = "http://user:k%2By9QmX4tR7@h.io/".parse().unwrap();
        let basic = base64::engine::general_purpose::STANDARD.encode("user:k+y9QmX4tR7");
        let found = url_secrets(&url);
        assert!(found.contains(&basic), "{found:?}");
        let secrets = Secrets::new(found);
        assert_eq!(
            secrets.scrub(&format!("Authorization: Basic {basic}")),
            "Authorization: Basic ***"
        );
        // A URL without user-info has no such value.
        let url: reqwest::Url = "http://h.io/".parse().unwrap();
        assert!(url_secrets(&url).is_empty());
    }

    #[test]
    fn short_values_are_not_scrubbed() {
        let secrets = Secrets::new(["v1".to_owned(), "rpc".to_owned()]);
        assert!(secrets.is_empty());
        assert_eq!(secrets.scrub("v1 rpc"), "v1 rpc");
    }

    #[test]
    fn a_key_as_a_host_label_is_masked_and_redacted() {
        let key = "a8f7e6d5c4b3a2918070f6e5d4c3b2a1";
        let url: reqwest::Url = format!("https://{key}.rpc.example.org/").parse().unwrap();
        assert_eq!(show_url(&url), "https://***.rpc.example.org");
        assert_eq!(
            Secrets::new(url_secrets(&url)).scrub(&key.to_uppercase()),
            MASK
        );
        // An endpoint's Display and Debug go through it.
        let endpoint: crate::client::Endpoint =
            format!("https://{key}.rpc.example.org/").parse().unwrap();
        for shown in [endpoint.to_string(), format!("{endpoint:?}")] {
            assert!(
                !shown.contains(key) && shown.contains("***.rpc.example.org"),
                "{shown}"
            );
        }
        // Ordinary hosts are shown whole.
        let url: reqwest::Url = "https://rpc.mainnet.near.org/".parse().unwrap();
        assert_eq!(show_url(&url), "https://rpc.mainnet.near.org");
        assert!(url_secrets(&url).is_empty());
    }

    #[test]
    fn url_secrets_find_keys_in_every_place() {
        let url: reqwest::Url =
            "https://user:pa55word99@h.io/v1/mainnet/3f9a2c1e8b7d4a6f?apiKey=k%2Bey&x=1"
                .parse()
                .unwrap();
        let found = url_secrets(&url);
        for expected in ["user", "pa55word99", "3f9a2c1e8b7d4a6f", "k%2Bey", "k+ey"] {
            assert!(found.iter().any(|f| f == expected), "{expected}: {found:?}");
        }
        for not_secret in ["v1", "mainnet", "1"] {
            assert!(!found.iter().any(|f| f == not_secret), "{not_secret}");
        }
        assert_eq!(show_url(&url), "https://h.io/***");
        let plain: reqwest::Url = "http://127.0.0.1:3030/".parse().unwrap();
        assert_eq!(show_url(&plain), "http://127.0.0.1:3030");
    }
}
