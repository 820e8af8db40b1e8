//! Upstream doc text made safe for rustdoc: a leaf, used by the normalizer and the IR
//! builder alike.

/// Makes upstream doc text safe for rustdoc: code blocks become `text` (they are Rust
/// snippets for nearcore's own crates and would fail as doctests here), bare URLs become
/// autolinks, `<`/`[` outside code are escaped so rustdoc does not read them as HTML
/// tags or intra-doc links, and links to a pinned docs.rs version of a crate point to its
/// latest docs (upstream links `near-primitives/0.12.0`, years out of date).
pub fn clean_description(text: &str) -> String {
    let text = &current_docs_rs_links(text);
    let mut out = String::with_capacity(text.len());
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if !in_fence {
                let indent = &line[..line.len() - trimmed.len()];
                out.push_str(indent);
                out.push_str("```text");
            } else {
                out.push_str(line);
            }
            in_fence = !in_fence;
            continue;
        }
        if is_link_definition(trimmed) && !trimmed.contains("://") {
            // A link into nearcore's own rustdoc: it would dangle here.
            continue;
        }
        if in_fence || is_link_definition(trimmed) {
            out.push_str(line);
        } else {
            out.push_str(&escape_prose(line));
        }
    }
    if in_fence {
        out.push_str("\n```");
    }
    out.trim().to_owned()
}

/// `docs.rs/CRATE/1.2.3/...` → `docs.rs/CRATE/latest/...`, in the https links of upstream text.
fn current_docs_rs_links(text: &str) -> String {
    const DOCS_RS: &str = "https://docs.rs/";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(DOCS_RS) {
        let (before, link) = rest.split_at(at + DOCS_RS.len());
        out.push_str(before);
        rest = link;
        let Some((krate, after)) = link.split_once('/') else {
            continue;
        };
        let Some((version, tail)) = after.split_once('/') else {
            continue;
        };
        let pinned = version.starts_with(|c: char| c.is_ascii_digit())
            && version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
        if pinned && !krate.contains(char::is_whitespace) {
            out.push_str(krate);
            out.push_str("/latest/");
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// `[label]: target` lines define markdown links and must stay as they are.
fn is_link_definition(line: &str) -> bool {
    line.starts_with('[') && line.contains("]:")
}

fn escape_prose(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut in_code = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            in_code = !in_code;
        }
        if !in_code {
            if let Some(url_len) = bare_url_len(rest, &out) {
                out.push('<');
                out.push_str(&rest[..url_len]);
                out.push('>');
                rest = &rest[url_len..];
                continue;
            }
            if c == '<' && !rest[1..].starts_with("http") {
                out.push_str("&lt;");
                rest = &rest[1..];
                continue;
            }
            if let Some((text_len, total)) = relative_link(rest) {
                // `[text](crate::x::Y)` or `[text](../x.html)` point into nearcore's own
                // docs; keep the text.
                out.push_str(&escape_prose(&rest[1..1 + text_len]));
                rest = &rest[total..];
                continue;
            }
            if c == '[' && !is_markdown_link(rest) {
                out.push_str("\\[");
                rest = &rest[1..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Length of a bare `http(s)://` URL at the start of `rest`, unless it is already inside
/// `<...>` or a markdown link target.
fn bare_url_len(rest: &str, before: &str) -> Option<usize> {
    if !(rest.starts_with("https://") || rest.starts_with("http://")) {
        return None;
    }
    if before.ends_with('<') || before.ends_with("](") {
        return None;
    }
    let len = rest
        .find(|c: char| c.is_whitespace() || c == '>' || c == ')')
        .unwrap_or(rest.len());
    let len = rest[..len].trim_end_matches(['.', ',', ';']).len();
    Some(len)
}

/// `[text](target)` at the start of `rest` whose target is not an absolute URL: the
/// length of `text` and of the whole link.
fn relative_link(rest: &str) -> Option<(usize, usize)> {
    if !rest.starts_with('[') {
        return None;
    }
    let close = rest.find(']')?;
    if !rest[close + 1..].starts_with('(') {
        return None;
    }
    let end = close + 2 + rest[close + 2..].find(')')?;
    let target = &rest[close + 2..end];
    (!target.contains("://")).then_some((close - 1, end + 1))
}

/// `[text](url)` is a real link: keep it.
fn is_markdown_link(rest: &str) -> bool {
    rest.find(']')
        .is_some_and(|close| rest[close + 1..].starts_with('('))
}
