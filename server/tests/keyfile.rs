//! The API key's file is created exclusively and never read or written through
//! a symbolic link, and an in-memory run does not put it at a path another
//! user could guess (and plant a link at) beforehand.
#![cfg(unix)]

mod common;

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};

use cirrus_dev_server::{start, Config, KeySource};

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cirrus-keyfile-{}", &common::random_key()[3..15]));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn config(addr: &str, db: &str) -> Config {
    Config { addr: addr.into(), db: db.into(), api_key: None, stripe_api_base: "http://127.0.0.1:9".into(), ..Config::default() }
}

#[tokio::test]
async fn a_key_file_that_is_a_symbolic_link_is_refused() {
    let dir = temp_dir();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "someone else's file\n").unwrap();
    let db = dir.join("dev.sqlite");
    symlink(&victim, dir.join("dev.sqlite.key")).unwrap();
    let err = start(config("127.0.0.1:0", db.to_str().unwrap())).await.err().expect("refused to start");
    assert!(err.contains("symbolic link") && err.contains("dev.sqlite.key"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "someone else's file\n", "never written through the link");
    // A configured key is not written through it either.
    let mut c = config("127.0.0.1:0", db.to_str().unwrap());
    c.api_key = Some(common::random_key());
    assert!(start(c).await.err().expect("refused").contains("symbolic link"));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "someone else's file\n");
    // A dangling link: nothing is created at its target.
    std::fs::remove_file(dir.join("dev.sqlite.key")).unwrap();
    symlink(dir.join("planted"), dir.join("dev.sqlite.key")).unwrap();
    assert!(start(config("127.0.0.1:0", db.to_str().unwrap())).await.err().expect("refused").contains("symbolic link"));
    assert!(!dir.join("planted").exists());
    // Without the link: a regular file, owner-only, holding the key.
    std::fs::remove_file(dir.join("dev.sqlite.key")).unwrap();
    let s = start(config("127.0.0.1:0", db.to_str().unwrap())).await.unwrap();
    let f = s.key_file.clone().unwrap();
    assert!(!std::fs::symlink_metadata(&f).unwrap().file_type().is_symlink());
    assert_eq!((std::fs::read_to_string(&f).unwrap().trim(), mode(&f)), (s.api_key.as_str(), 0o600));
    s.handle.abort();
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).filter(|n| n.to_string_lossy().ends_with(".tmp")).collect();
    assert!(leftovers.is_empty(), "no temporary file left: {leftovers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn an_in_memory_run_keeps_its_key_in_a_new_private_directory() {
    // A link planted where the key file used to go (`<temp>/cirrus-dev-server-<port>.key`).
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let planted = std::env::temp_dir().join(format!("cirrus-dev-server-{port}.key"));
    let dir = temp_dir();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "someone else's file\n").unwrap();
    let _ = std::fs::remove_file(&planted);
    symlink(&victim, &planted).unwrap();
    let s = start(config(&format!("127.0.0.1:{port}"), ":memory:")).await.unwrap();
    assert_eq!(s.key_source, KeySource::Generated);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "someone else's file\n", "never written through the planted link");
    let f = s.key_file.clone().unwrap();
    assert_ne!(f, planted);
    assert_eq!((std::fs::read_to_string(&f).unwrap().trim(), mode(&f)), (s.api_key.as_str(), 0o600));
    let parent = f.parent().unwrap();
    assert_eq!(mode(parent), 0o700, "its directory is the owner's only");
    // Another run: another directory.
    let t = start(config("127.0.0.1:0", ":memory:")).await.unwrap();
    assert_ne!(t.key_file.as_ref().unwrap().parent(), Some(parent));
    s.handle.abort();
    t.handle.abort();
    for k in [&s, &t] {
        std::fs::remove_dir_all(k.key_file.as_ref().unwrap().parent().unwrap()).unwrap();
    }
    std::fs::remove_file(&planted).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A key file others may read or write (any group or other bit), or one another
/// user owns, is refused with what to do, never used as it is; a private one is used.
#[tokio::test]
async fn a_key_file_open_to_others_or_owned_by_another_user_is_refused() {
    use std::os::unix::fs::MetadataExt;
    let dir = temp_dir();
    let db = dir.join("dev.sqlite");
    let key_file = dir.join("dev.sqlite.key");
    let key = common::random_key();
    std::fs::write(&key_file, format!("{key}\n")).unwrap();
    for m in [0o644, 0o640, 0o604, 0o620, 0o602, 0o610] {
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(m)).unwrap();
        let err = start(config("127.0.0.1:0", db.to_str().unwrap())).await.err().unwrap_or_else(|| panic!("mode {m:o}: started, not refused"));
        assert!(err.contains("dev.sqlite.key") && err.contains(&format!("mode {m:04o}")) && err.contains("chmod 600"), "{err}");
        assert_eq!(mode(&key_file), m, "left as it was");
        assert_eq!(std::fs::read_to_string(&key_file).unwrap().trim(), key, "not rewritten");
    }
    // Owner-only: its key is the one accepted.
    std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let s = start(config("127.0.0.1:0", db.to_str().unwrap())).await.unwrap();
    assert_eq!((s.key_source, s.api_key.as_str()), (KeySource::File, key.as_str()));
    s.handle.abort();
    // Owned by another user (possible to set up only as root): refused, even at 0600.
    let me = std::fs::metadata(&dir).unwrap().uid();
    if me == 0 {
        std::os::unix::fs::chown(&key_file, Some(65534), None).unwrap();
        let err = start(config("127.0.0.1:0", db.to_str().unwrap())).await.err().expect("refused to start");
        assert!(err.contains("owned by user 65534") && err.contains("dev.sqlite.key"), "{err}");
    }
    // The rule itself, for any user.
    let p = Path::new("k");
    assert!(cirrus_dev_server::keyfile::check_private(p, 0o100600, 1000, 1000).is_ok());
    assert!(cirrus_dev_server::keyfile::check_private(p, 0o100400, 1000, 1000).is_ok());
    assert!(cirrus_dev_server::keyfile::check_private(p, 0o100600, 1001, 1000).unwrap_err().contains("owned by user 1001"));
    assert!(cirrus_dev_server::keyfile::check_private(p, 0o100601, 1000, 1000).unwrap_err().contains("mode 0601"));
    std::fs::remove_dir_all(&dir).unwrap();
}
