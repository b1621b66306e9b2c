//! The `cirrus-dev-server` binary as it is started by scripts and people: keys
//! (only the configured one is valid, never printed in full), test hooks (only
//! with `--test-hooks`, only on loopback), and what a file database gets.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::random_key;

struct Proc {
    child: Child,
    base: String,
    out: Arc<Mutex<String>>,
}

impl Proc {
    /// Stops the server; returns everything it wrote to stdout and stderr.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(100));
        let s = self.out.lock().unwrap().clone();
        s
    }
}

fn command(envs: &[(&str, &str)], args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cirrus-dev-server"));
    // Nothing inherited from the caller (test.sh exports CIRRUS_API_KEY).
    c.env_clear().env("CIRRUS_ADDR", "127.0.0.1:0").env("STRIPE_API_BASE", "http://127.0.0.1:9").env("CIRRUS_DB", ":memory:");
    for (k, v) in envs {
        c.env(k, v);
    }
    c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn collect(r: impl Read + Send + 'static, out: Arc<Mutex<String>>) {
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines().map_while(Result::ok) {
            let mut o = out.lock().unwrap();
            o.push_str(&line);
            o.push('\n');
        }
    });
}

fn run(envs: &[(&str, &str)], args: &[&str]) -> Proc {
    let mut child = command(envs, args).spawn().expect("the server binary starts");
    let out = Arc::new(Mutex::new(String::new()));
    collect(child.stdout.take().unwrap(), out.clone());
    collect(child.stderr.take().unwrap(), out.clone());
    let t0 = Instant::now();
    loop {
        let base = out.lock().unwrap().lines().find_map(|l| l.split("base URL : ").nth(1).map(|b| b.trim().to_string()));
        if let Some(base) = base {
            return Proc { child, base, out };
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("server exited with {status}: {}", out.lock().unwrap());
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "server did not start: {}", out.lock().unwrap());
        std::thread::sleep(Duration::from_millis(50));
    }
}

async fn status(base: &str, key: &str) -> u16 {
    reqwest::Client::new().get(format!("{base}/store")).bearer_auth(key).send().await.unwrap().status().as_u16()
}

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cirrus-bin-{}", &random_key()[3..15]));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn only_the_configured_key_is_valid_and_it_is_never_printed() {
    let dir = temp_dir();
    let db = dir.join("dev.sqlite");
    let db_s = db.to_str().unwrap();
    let key_file = dir.join("dev.sqlite.key");
    let (k1, k2) = (random_key(), random_key());
    let mut output = String::new();

    let p = run(&[("CIRRUS_DB", db_s), ("CIRRUS_API_KEY", &k1)], &[]);
    assert_eq!(status(&p.base, &k1).await, 200);
    output += &p.stop();
    // Restart with a new key on the same database: the old one is revoked.
    let p = run(&[("CIRRUS_DB", db_s), ("CIRRUS_API_KEY", &k2)], &[]);
    assert_eq!(status(&p.base, &k2).await, 200);
    assert_eq!(status(&p.base, &k1).await, 401, "the previous key is revoked");
    output += &p.stop();
    // The key file holds the accepted key, readable by the owner only.
    assert_eq!(std::fs::read_to_string(&key_file).unwrap().trim(), k2);
    #[cfg(unix)]
    assert_eq!(mode(&key_file), 0o600);
    // Without CIRRUS_API_KEY the key of the file stays valid, and only it.
    let p = run(&[("CIRRUS_DB", db_s)], &[]);
    assert_eq!(status(&p.base, &k2).await, 200);
    assert_eq!(status(&p.base, &k1).await, 401);
    output += &p.stop();

    // A generated key (fresh database): in the key file, never in the output.
    let db2 = dir.join("fresh.sqlite");
    let p = run(&[("CIRRUS_DB", db2.to_str().unwrap())], &[]);
    let generated = std::fs::read_to_string(dir.join("fresh.sqlite.key")).unwrap().trim().to_string();
    assert_eq!(status(&p.base, &generated).await, 200);
    assert_eq!(status(&p.base, &k2).await, 401, "another database's key is not valid here");
    output += &p.stop();
    // An in-memory run with a generated key: its key file is named in the output.
    let p = run(&[], &[]);
    let out = p.out.lock().unwrap().clone();
    let path = out.lines().find_map(|l| l.split("key file : ").nth(1)).unwrap_or_else(|| panic!("key file named: {out}"));
    let path = path.split(" (mode").next().unwrap().trim().to_string();
    let mem_key = std::fs::read_to_string(&path).unwrap().trim().to_string();
    #[cfg(unix)]
    assert_eq!(mode(Path::new(&path)), 0o600);
    assert_eq!(status(&p.base, &mem_key).await, 200);
    output += &p.stop();
    // Its own directory (created for it, never a guessable path).
    let _ = std::fs::remove_dir_all(Path::new(&path).parent().unwrap());

    for k in [&k1, &k2, &generated, &mem_key] {
        assert!(!output.contains(k.as_str()), "the full key {}… was printed:\n{output}", &k[..7]);
        assert!(!output.contains(&k[3..]), "the key's digits were printed");
    }
    assert!(output.contains(&format!("{}…", &k2[..7])), "the key is shown masked: {output}");
    assert!(output.contains(key_file.to_str().unwrap()), "the key file is named: {output}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn test_hooks_need_the_flag_and_a_loopback_address() {
    // Inherited from the environment: ignored.
    let p = run(&[("CIRRUS_TEST_HOOKS", "1")], &[]);
    let r = reqwest::get(format!("{}/__test/orders", p.base.trim_end_matches("/api/v1"))).await.unwrap();
    assert_eq!(r.status(), 404, "CIRRUS_TEST_HOOKS alone does not turn the hooks on");
    p.stop();
    // Asked for by the runner, on loopback: on.
    let p = run(&[], &["--test-hooks"]);
    let r = reqwest::get(format!("{}/__test/orders", p.base.trim_end_matches("/api/v1"))).await.unwrap();
    assert_eq!(r.status(), 200);
    p.stop();
    // On any other address: refused.
    let out = command(&[("CIRRUS_ADDR", "0.0.0.0:0")], &["--test-hooks"]).output().unwrap();
    assert!(!out.status.success(), "refused to start");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("loopback"), "{err}");
    let out = command(&[], &["--no-such-flag"]).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn a_file_database_is_durable_and_never_gets_the_probe() {
    let dir = temp_dir();
    let path = dir.join("probe.sqlite");
    let conn = cirrus_dev_server::db::open(path.to_str().unwrap(), 20, true).unwrap();
    let sync: i64 = conn.query_row("PRAGMA synchronous", [], |r| r.get(0)).unwrap();
    assert_eq!(sync, 2, "synchronous=FULL: a committed payment survives a power cut");
    let probes: i64 = conn.query_row("SELECT COUNT(*) FROM products WHERE slug = 'xss-probe'", [], |r| r.get(0)).unwrap();
    assert_eq!(probes, 0, "the xss-probe is never written into a file database");
    drop(conn);
    let mem = cirrus_dev_server::db::open(":memory:", 20, true).unwrap();
    let probes: i64 = mem.query_row("SELECT COUNT(*) FROM products WHERE slug = 'xss-probe'", [], |r| r.get(0)).unwrap();
    assert_eq!(probes, 1, "in memory, with hooks, the probe is there");
    std::fs::remove_dir_all(&dir).unwrap();
}
