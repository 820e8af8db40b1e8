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
pub fn join_paths(mut path: String, message: &str) -> (String, &str) {
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
            if !path.is_empty() && !segment.starts_with('[') {
                path.push('.');
            }
            path.push_str(segment);
        }
        rest = tail;
    }
    (path, rest)
}
