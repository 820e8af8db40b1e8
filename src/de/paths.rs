//! JSON paths of decoding errors: their segments, rendered as `a.b[2].c`, and joined
//! when errors nest.

/// One step of a JSON path.
#[derive(Debug)]
pub enum Segment {
    /// A field of an object.
    Key(String),
    /// An element of an array.
    Index(usize),
}

/// The path of `segments`, given innermost first (as a failure collects them on its way
/// up), as `a.b[2].c`; empty for the root.
pub fn render(segments: &[Segment]) -> String {
    let mut path = String::new();
    for segment in segments.iter().rev() {
        match segment {
            Segment::Index(index) => path.push_str(&format!("[{index}]")),
            Segment::Key(key) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
        }
    }
    path
}

/// The segments of `a.b[2].c`, outermost first.
pub fn parse(path: &str) -> Vec<Segment> {
    let mut segments = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut indexes) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            segments.push(Segment::Key(key.to_owned()));
        }
        while let Some(rest) = indexes.strip_prefix('[') {
            let Some(end) = rest.find(']') else { break };
            if let Ok(index) = rest[..end].parse() {
                segments.push(Segment::Index(index));
            }
            indexes = &rest[end + 1..];
        }
    }
    segments
}

/// Joins `path` with the paths a message starts with (`"a.b: c[0]: what"`), skipping a
/// message path that `path` already ends with (a nested decode that tracked a path the
/// outer tracker also saw). Returns the joined path and the rest of the message.
pub fn join_paths(path: String, message: &str) -> (String, &str) {
    join_paths_in(None, path, message)
}

/// [`join_paths`] within `document`, the value the paths are in: a value that serde
/// buffered before handing it over (a user's `#[serde(flatten)]` or untagged type) was
/// decoded without the path between the container that buffered it and the value, so a
/// path that is not in the document is looked for, in document order, below the path
/// found so far.
pub fn join_paths_in<'m>(
    document: Option<&serde_json::Value>,
    mut path: String,
    message: &'m str,
) -> (String, &'m str) {
    let mut rest = message;
    while let Some((segment, tail)) = rest.split_once(": ") {
        let path_like = !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.[]-".contains(c));
        if !path_like {
            break;
        }
        let already_there = path == segment
            || path.ends_with(&format!(".{segment}"))
            || (segment.starts_with('[') && path.ends_with(segment));
        if !already_there {
            if let Some(between) = document.and_then(|doc| between(doc, &path, segment)) {
                path = extend(path, &between);
            }
            path = extend(path, segment);
        }
        rest = tail;
    }
    (path, rest)
}

/// `path` followed by `more` (`b`, `[2]` or `b[2].c`).
fn extend(mut path: String, more: &str) -> String {
    if !path.is_empty() && !more.starts_with('[') && !more.is_empty() {
        path.push('.');
    }
    path.push_str(more);
    path
}

/// The value at `path` (`a.b[2]`) in `document`.
fn at<'v>(document: &'v serde_json::Value, path: &str) -> Option<&'v serde_json::Value> {
    parse(path)
        .iter()
        .try_fold(document, |value, segment| match segment {
            Segment::Key(key) => value.get(key),
            Segment::Index(index) => value.get(index),
        })
}

/// Where, below `path`, `segment` is, when it is not right at `path`: the path between,
/// the first in document order. `None` when it is there, or nowhere.
fn between(document: &serde_json::Value, path: &str, segment: &str) -> Option<String> {
    let base = at(document, path)?;
    if at(base, segment).is_some() {
        return None;
    }
    fn find(value: &serde_json::Value, segment: &str, trail: &mut String) -> bool {
        let mut look = |child: &serde_json::Value, step: String| {
            let before = trail.len();
            *trail = extend(std::mem::take(trail), &step);
            if at(child, segment).is_some() || find(child, segment, trail) {
                return true;
            }
            trail.truncate(before);
            false
        };
        match value {
            serde_json::Value::Object(map) => {
                map.iter().any(|(key, child)| look(child, key.clone()))
            }
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .any(|(index, child)| look(child, format!("[{index}]"))),
            _ => false,
        }
    }
    let mut trail = String::new();
    find(base, segment, &mut trail).then_some(trail)
}
