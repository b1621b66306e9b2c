//! The API key's file: only its owner can read it, it is created exclusively
//! and never read or written through a symbolic link (someone who can write
//! the directory must not make the server write the key where they can read
//! it, or overwrite another file with it). A key file another user owns, or
//! one with any group or other permission bit, is refused ([`check_private`]).
//!
//! A file database keeps its key beside it (`<db>.key`); an in-memory run with
//! a generated key gets a new private directory of a random name in the temp
//! directory (never a path another user could guess and plant beforehand).
//! [`resolve`] chooses the key a run accepts and keeps it there.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::{util, Config};

/// Opens `path` for reading, refusing a symbolic link.
fn open_no_follow(path: &Path) -> std::io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW);
    }
    opts.open(path)
}

/// Creates `path` exclusively (`O_CREAT | O_EXCL`: an existing file or a
/// symbolic link there, even a dangling one, is an error), mode 0600, with `contents`.
fn create_private(path: &Path, contents: &str) -> std::io::Result<()> {
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let mut f = opts.open(path)?;
    writeln!(f, "{contents}")?;
    f.sync_all()
}

fn refuse_link(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "key file {} is a symbolic link; the server never reads or writes its key through one (remove the link)",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Whether a key file of permission bits `mode`, owned by `owner`, may be used
/// by the user `me`: only when it is that user's own and nobody else may read or
/// write it (no group or other bit). A key another user can read may have
/// leaked, and one another user owns may have been planted: both are refused,
/// never used or tightened silently (the key in it would stay accepted).
///
/// # Errors
/// A message naming the file and saying what to do.
pub fn check_private(path: &Path, mode: u32, owner: u32, me: u32) -> Result<(), String> {
    if owner != me {
        return Err(format!(
            "key file {} is owned by user {owner}, not by this server's user {me}; refused (a key someone else controls): remove it to have a new key generated",
            path.display()
        ));
    }
    if mode & 0o077 != 0 {
        return Err(format!(
            "key file {} has mode {:04o}: others may read or change it; refused (its key may have leaked): remove it to have a new key generated, or `chmod 600` it if no one else could read it",
            path.display(),
            mode & 0o7777
        ));
    }
    Ok(())
}

/// Refuses the opened key file `f` of `path` unless it is private ([`check_private`]),
/// checked on the file as opened (no race with a rename).
fn refuse_shared(path: &Path, f: &File) -> std::io::Result<Result<(), String>> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = f.metadata()?;
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        Ok(check_private(path, m.mode(), m.uid(), me))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, f);
        Ok(Ok(()))
    }
}

/// The key kept in `path`, if there is a file there holding one.
///
/// # Errors
/// A message when `path` is a symbolic link, exists but cannot be read, or
/// another user owns it or may read or write it ([`check_private`]).
pub fn read(path: &Path) -> Result<Option<String>, String> {
    refuse_link(path)?;
    let mut text = String::new();
    let opened = open_no_follow(path).and_then(|mut f| {
        if let Err(refused) = refuse_shared(path, &f)? {
            return Ok(Err(refused));
        }
        f.read_to_string(&mut text).map(|_| Ok(()))
    });
    match opened {
        Ok(Ok(())) => Ok(Some(text.trim().to_string()).filter(|k| util::is_api_key(k))),
        Ok(Err(refused)) => Err(refused),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read key file {}: {e}", path.display())),
    }
}

/// Keeps `key` in `path`: written to a new file of a random name beside it
/// (created exclusively, mode 0600), then renamed over `path` (a rename replaces
/// the name, it never writes through a link).
///
/// # Errors
/// A message naming the file when `path` is a symbolic link or cannot be written.
pub fn write(path: &Path, key: &str) -> Result<(), String> {
    refuse_link(path)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", util::random_hex(8)));
    let tmp = PathBuf::from(tmp);
    let written = create_private(&tmp, key).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write key file {}: {e}", path.display()));
    }
    Ok(())
}

/// A new key file for an in-memory run: `<temp>/cirrus-dev-server-<random>/api.key`
/// in a directory created for it (mode 0700; creating it fails if the name exists).
///
/// # Errors
/// A message naming the path that could not be created.
pub fn write_temporary(key: &str) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("cirrus-dev-server-{}", util::random_hex(12)));
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(&dir).map_err(|e| format!("cannot create key directory {}: {e}", dir.display()))?;
    let path = dir.join("api.key");
    create_private(&path, key).map_err(|e| format!("cannot write key file {}: {e}", path.display()))?;
    Ok(path)
}

/// Where the accepted key came from, for the start banner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    Env,
    File,
    Generated,
}

/// The API key this run accepts, where it came from, and the file it is kept in:
/// `CIRRUS_API_KEY`, else the key kept beside a file database, else a new one.
/// The key is never printed: it is kept in a file only its owner can read. A
/// file database keeps its key beside it; an in-memory run with a generated key
/// gets a new private directory in the temp directory.
///
/// # Errors
/// A message if the key file cannot be read or written.
pub fn resolve(config: &Config) -> Result<(String, KeySource, Option<PathBuf>), String> {
    let file_db = config.db != ":memory:";
    let db_key_file = file_db.then(|| PathBuf::from(format!("{}.key", config.db)));
    let kept = match &db_key_file {
        Some(f) => read(f)?,
        None => None,
    };
    let (key, source) = if let Some(k) = &config.api_key {
        (k.clone(), KeySource::Env)
    } else if let Some(k) = kept.clone() {
        (k, KeySource::File)
    } else {
        (format!("ak_{}", util::random_hex(24)), KeySource::Generated)
    };
    let key_file = match (&db_key_file, source) {
        (Some(f), _) => {
            if kept.as_deref() != Some(key.as_str()) {
                write(f, &key)?;
            }
            Some(f.clone())
        }
        (None, KeySource::Generated) => Some(write_temporary(&key)?),
        (None, _) => None,
    };
    Ok((key, source, key_file))
}
