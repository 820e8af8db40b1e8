//! Stage 6: write the generated files, touching only those whose content changed, or
//! (with `--check`) report how the directory differs from what would be written.

use std::fmt;
use std::path::Path;

use crate::emit::Files;
use crate::error::Error;

/// How a directory differs from the generated files.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Drift {
    /// Files that would be created.
    pub missing: Vec<String>,
    /// Files whose content differs, with the first differing line number.
    pub changed: Vec<(String, usize)>,
    /// `.rs` files in the directory that the generator no longer produces.
    pub stale: Vec<String>,
}

impl Drift {
    /// True when the directory matches.
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.changed.is_empty() && self.stale.is_empty()
    }
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for name in &self.missing {
            writeln!(f, "missing: {name}")?;
        }
        for (name, line) in &self.changed {
            writeln!(f, "changed: {name} (first difference at line {line})")?;
        }
        for name in &self.stale {
            writeln!(f, "not generated any more: {name}")?;
        }
        Ok(())
    }
}

/// Compares `files` with the content of `dir`.
pub fn drift(dir: &Path, files: &Files) -> Result<Drift, Error> {
    let mut drift = Drift::default();
    for (name, content) in files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(existing) if existing == *content => {}
            Ok(existing) => drift
                .changed
                .push((name.clone(), first_difference(&existing, content))),
            Err(_) => drift.missing.push(name.clone()),
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut stale: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".rs") && !files.contains_key(n))
            .collect();
        stale.sort();
        drift.stale = stale;
    }
    Ok(drift)
}

fn first_difference(a: &str, b: &str) -> usize {
    a.lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or_else(|| a.lines().count().min(b.lines().count()))
        + 1
}

/// Writes the files that differ; returns the names written.
pub fn write(dir: &Path, files: &Files) -> Result<Vec<String>, Error> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::new(format!("cannot create {}: {e}", dir.display())))?;
    let mut written = Vec::new();
    for (name, content) in files {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(content.as_str()) {
            continue;
        }
        std::fs::write(&path, content)
            .map_err(|e| Error::new(format!("cannot write {}: {e}", path.display())))?;
        written.push(name.clone());
    }
    Ok(written)
}
