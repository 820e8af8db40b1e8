//! Joining the JSON paths of nested decoding errors.

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
