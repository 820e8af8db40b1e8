//! The near-cli credential files [`MockNode::write_credentials`](crate::MockNode::write_credentials)
//! writes (`near-rpc mock --credentials-dir DIR`): `DIR/mock/<account_id>.json`, one per
//! account a client can sign for, and `DIR/mock/<account_id>@gas-key.json` for each
//! account holding the mock's gas key for it. The folder may be on a shared machine
//! and the account ids a saved chain's (anyone's), so no file is written outside
//! `DIR/mock`, and no other user can read a key file or redirect one:
//!
//! - a file is named only after a NEAR account id (near-account-id's rules: no `/`,
//!   `..`, NUL or upper case), every account checked before anything is written, and
//!   the name must be one plain path component;
//! - `DIR` (with missing parents, as `mkdir -p`) and `DIR/mock` are created readable
//!   by their owner only (0700). On Unix, an existing one must be a folder owned by the
//!   user writing (or by root) and not writable by group or others: it is refused
//!   otherwise, not fixed, since its permissions are its owner's to choose (`chmod go-w
//!   DIR` makes it fit). `DIR/mock` must not be a symbolic link (`DIR` may: the user
//!   named it);
//! - each file is written to a new file created 0600 in `DIR/mock` (exclusively: never
//!   through a link planted at its name), checked to be there, then renamed over
//!   `<account_id>.json`: a file or a link already at that name is replaced, never
//!   followed, and the key file is 0600 whatever was there before.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Component, Path, PathBuf};

use near_rpc::tx::SecretKey;
use serde_json::json;

/// What a credential file holds the key of: an account's access key, named
/// `<account_id>.json` as near-cli names it, or its gas key, `<account_id>@gas-key.json`
/// (`@` is in no account id, so no account's file can take that name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyKind {
    Access,
    Gas,
}

/// Writes a credential file for each of `signers` in `dir/network` (see the module
/// docs); their paths, in order.
pub(crate) fn write_all(
    dir: &Path,
    network: &str,
    signers: &[(String, SecretKey, KeyKind)],
) -> io::Result<Vec<PathBuf>> {
    let names = signers
        .iter()
        .map(|(id, _, kind)| file_name(id, *kind))
        .collect::<io::Result<Vec<_>>>()?;
    let folder = Folder::open(dir, network)?;
    signers
        .iter()
        .map(|(id, key, _)| (id, key))
        .zip(names)
        .map(|((account_id, key), name)| {
            let body = json!({
                "account_id": account_id,
                "public_key": key.public_key().to_string(),
                "private_key": key.to_secret_string().as_str(),
            });
            folder.write(&name, body.to_string().as_bytes())
        })
        .collect()
}

/// The file name of `account_id`'s credentials, `<account_id>.json` (or, for its gas
/// key, `<account_id>@gas-key.json`), if it is a NEAR account id and the name one plain
/// path component.
fn file_name(account_id: &str, kind: KeyKind) -> io::Result<String> {
    let refused = |why: String| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "account {}: {why}: no credential file is named after it",
                crate::state_file::shown(account_id)
            ),
        )
    };
    account_id
        .parse::<near_rpc::AccountId>()
        .map_err(|e| refused(format!("not a NEAR account id ({e})")))?;
    let name = match kind {
        KeyKind::Access => format!("{account_id}.json"),
        KeyKind::Gas => format!("{account_id}@gas-key.json"),
    };
    // The rules above allow no separator and no `..`; this does not rely on them.
    let mut components = Path::new(&name).components();
    match (components.next(), components.next()) {
        (Some(Component::Normal(one)), None) if one == name.as_str() => Ok(name),
        _ => Err(refused("not a plain file name".into())),
    }
}

/// An error about `path`, saying what is wrong and what to do.
fn refused(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{}: {why}", path.display()),
    )
}

/// The folder the files go to, checked.
struct Folder {
    /// `DIR`.
    #[cfg(unix)]
    parent: PathBuf,
    /// `DIR/<network>`.
    path: PathBuf,
    /// Its device and inode when checked: the folder every file must land in.
    #[cfg(unix)]
    id: (u64, u64),
}

impl Folder {
    /// `dir/network`, created private if missing, `dir` too; checked either way.
    fn open(dir: &Path, network: &str) -> io::Result<Self> {
        // The user named `dir`: a link to a folder is theirs to give. The subfolder is
        // made here: a link in its place would lead elsewhere.
        private_folder(dir, true)?;
        let path = dir.join(network);
        #[cfg_attr(not(unix), allow(unused_variables))]
        let metadata = private_folder(&path, false)?;
        Ok(Self {
            #[cfg(unix)]
            parent: dir.to_owned(),
            #[cfg(unix)]
            id: {
                use std::os::unix::fs::MetadataExt as _;
                (metadata.dev(), metadata.ino())
            },
            path,
        })
    }

    /// Writes `bytes` to `name` in the folder (see the module docs); its path.
    fn write(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        let target = self.path.join(name);
        let (temp, mut file) = self.create_temp(name)?;
        let written = (|| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt as _;
                // Exactly 0600, whatever the umask took away.
                file.set_permissions(fs::Permissions::from_mode(0o600))
                    .map_err(|e| with_path(&temp, e))?;
                self.check_landed(&temp, &file)?;
            }
            file.write_all(bytes).map_err(|e| with_path(&temp, e))?;
            drop(file);
            fs::rename(&temp, &target).map_err(|e| with_path(&target, e))
        })();
        match written {
            Ok(()) => Ok(target),
            Err(e) => {
                // Best effort: the error that matters is `e`.
                let _ = fs::remove_file(&temp);
                Err(e)
            }
        }
    }

    /// A new file next to `name`, created (never opened: nothing planted there is
    /// followed) readable by its owner only.
    fn create_temp(&self, name: &str) -> io::Result<(PathBuf, fs::File)> {
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt as _;
            options.mode(0o600);
        }
        // A name taken (a crashed run's leftover, or anything planted) is skipped.
        for n in 0..100 {
            let temp = self
                .path
                .join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            match options.open(&temp) {
                Ok(file) => return Ok((temp, file)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(with_path(&temp, e)),
            }
        }
        Err(refused(
            &self.path,
            "100 temporary names are taken; remove the `.*.tmp` files",
        ))
    }

    /// The new file is in the folder checked at the start, and the folder and its
    /// parent belong to the user writing (the new file's owner) or to root: no one
    /// else can move a key file or put a link in its way.
    #[cfg(unix)]
    fn check_landed(&self, temp: &Path, file: &fs::File) -> io::Result<()> {
        use std::os::unix::fs::MetadataExt as _;
        let mine = file.metadata().map_err(|e| with_path(temp, e))?;
        let there = fs::symlink_metadata(temp).map_err(|e| with_path(temp, e))?;
        let folder = fs::symlink_metadata(&self.path).map_err(|e| with_path(&self.path, e))?;
        let parent = fs::metadata(&self.parent).map_err(|e| with_path(&self.parent, e))?;
        if (there.dev(), there.ino()) != (mine.dev(), mine.ino())
            || (folder.dev(), folder.ino()) != self.id
        {
            return Err(refused(
                &self.path,
                "it was replaced while the key files were written: refused",
            ));
        }
        for (path, owner) in [(&self.parent, parent.uid()), (&self.path, folder.uid())] {
            if owner != mine.uid() && owner != 0 {
                return Err(refused(
                    path,
                    &format!(
                        "owned by another user (uid {owner}; this process writes as uid {}): \
                         refused, since its owner could redirect the key files; name a \
                         folder of your own",
                        mine.uid()
                    ),
                ));
            }
        }
        Ok(())
    }
}

fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Creates `path` readable by its owner only if it is missing, then checks it: a
/// folder (not a link to one unless `follow`), not writable by group or others.
fn private_folder(path: &Path, follow: bool) -> io::Result<fs::Metadata> {
    let stat = |p: &Path| {
        if follow {
            fs::metadata(p)
        } else {
            fs::symlink_metadata(p)
        }
    };
    match stat(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                fs::create_dir_all(parent).map_err(|e| with_path(parent, e))?;
            }
            #[cfg_attr(not(unix), allow(unused_mut))]
            let mut builder = fs::DirBuilder::new();
            #[cfg(unix)]
            {
                use std::os::unix::fs::DirBuilderExt as _;
                builder.mode(0o700);
            }
            match builder.create(path) {
                // Made meanwhile by someone else: checked below like any other.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                other => other.map_err(|e| with_path(path, e))?,
            }
        }
        other => {
            other.map_err(|e| with_path(path, e))?;
        }
    }
    let metadata = stat(path).map_err(|e| with_path(path, e))?;
    if metadata.file_type().is_symlink() {
        return Err(refused(
            path,
            "a symbolic link: refused, so that no key file is written outside the folder \
             named; remove it, or name the folder it leads to",
        ));
    }
    if !metadata.is_dir() {
        return Err(refused(path, "not a folder"));
    }
    check_private(path, &metadata)?;
    Ok(metadata)
}

/// The folder is not writable by group or others.
#[cfg(unix)]
fn check_private(path: &Path, metadata: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = metadata.permissions().mode() & 0o7777;
    let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "its group and others",
        (true, false) => "its group",
        (false, true) => "others",
        (false, false) => return Ok(()),
    };
    Err(refused(
        path,
        &format!(
            "writable by {who} (mode {mode:o}): refused, since they could replace the key \
             files written in it; make it private (chmod go-w {}) or name another folder",
            path.display()
        ),
    ))
}

/// Permissions are the platform's (no group or others bits to check).
#[cfg(not(unix))]
fn check_private(_: &Path, _: &fs::Metadata) -> io::Result<()> {
    Ok(())
}
