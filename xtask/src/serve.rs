//! `cargo xtask serve` — a small static HTTP server for the playground in `dist/`.
//!
//! * Sends `Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Embedder-Policy:
//!   require-corp` and `Cross-Origin-Resource-Policy: cross-origin` so the page is
//!   cross-origin isolated (z3-solver needs `SharedArrayBuffer`, ARCHITECTURE.md); with
//!   `--no-isolation` it leaves COOP/COEP out (for the replay and embed modes, §5).
//! * Compresses with gzip when the client accepts it (`z3-built.wasm` is 35 MB, 7.9 MB
//!   gzipped); compressed bodies are cached per file, keyed by size and modification time.
//! * Serves only files under its root: no `..`, no absolute or drive paths, no symlinks
//!   leading out of the root.
//!
//! The server is also used in-process by `cargo xtask test-browser` ([`Server::start`]).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use flate2::write::GzEncoder;
use flate2::Compression;

/// Options of `cargo xtask serve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    /// TCP port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// The folder served (default `dist/` under the workspace).
    pub dir: PathBuf,
    /// Send COOP/COEP (cross-origin isolation); `--no-isolation` turns it off.
    pub isolation: bool,
    /// Run the dist build first; `--no-build` serves the folder as it is.
    pub build: bool,
}

/// Parse the arguments after `serve` (or `test-browser`, which shares `--dir`/`--no-build`).
pub fn parse_options(args: &[String], root: &Path) -> Result<ServeOptions, String> {
    let mut opts = ServeOptions {
        port: 8000,
        dir: root.join("dist"),
        isolation: true,
        build: true,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag {
            "--port" | "-p" => {
                let v = value("--port")?;
                opts.port = v
                    .parse()
                    .map_err(|_| format!("--port: `{v}` is not a port number"))?;
            }
            "--dir" => {
                let v = PathBuf::from(value("--dir")?);
                opts.dir = if v.is_absolute() { v } else { root.join(v) };
            }
            "--no-isolation" => opts.isolation = false,
            "--no-build" => opts.build = false,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(opts)
}

/// The MIME type for a file name, by extension (`application/octet-stream` if unknown).
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" | "cjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "txt" | "md" | "java" | "cfg" | "spec" | "grammar" | "dot" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// Whether a body of this MIME type is worth gzipping.
pub fn compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.starts_with("application/wasm")
        || mime.starts_with("application/json")
        || mime.starts_with("application/xml")
        || mime.starts_with("image/svg")
}

/// Whether an `Accept-Encoding` header value accepts gzip (honours `gzip;q=0`).
pub fn accepts_gzip(accept_encoding: &str) -> bool {
    accept_encoding.split(',').any(|part| {
        let mut pieces = part.split(';').map(str::trim);
        let coding = pieces.next().unwrap_or("").to_ascii_lowercase();
        if coding != "gzip" && coding != "*" {
            return false;
        }
        let q = pieces
            .find_map(|p| p.strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        q > 0.0
    })
}

/// Decode `%XX` escapes; `None` for malformed escapes or non-UTF-8 results.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Map a request target (`/a/b.js?x#y`) to a relative path under the root, or `None` if it
/// could leave the root (`..`, absolute or drive paths, backslashes, NUL bytes).
/// A path ending in `/` (or empty) maps to its `index.html`.
pub fn request_path(target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    if decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    let mut rel = PathBuf::new();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            s if s.contains(':') => return None,
            s => rel.push(s),
        }
    }
    // Belt and braces: only plain components survive.
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    if decoded.ends_with('/') || rel.as_os_str().is_empty() {
        rel.push("index.html");
    }
    Some(rel)
}

/// Resolve a request target to an existing file inside `root` (canonicalised, so symlinks
/// out of the root are refused). Directories resolve to their `index.html`.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let rel = request_path(target)?;
    let root = root.canonicalize().ok()?;
    let mut file = root.join(rel).canonicalize().ok()?;
    if file.is_dir() {
        file = file.join("index.html").canonicalize().ok()?;
    }
    (file.starts_with(&root) && file.is_file()).then_some(file)
}

/// The headers every response carries (besides status line, type, length, encoding).
pub fn common_headers(isolation: bool) -> Vec<(&'static str, &'static str)> {
    let mut h = vec![
        // `cross-origin`: other sites may embed the playground (an iframe in a
        // cross-origin-isolated docs page must allow this to run live).
        ("Cross-Origin-Resource-Policy", "cross-origin"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-cache"),
    ];
    if isolation {
        h.push(("Cross-Origin-Opener-Policy", "same-origin"));
        h.push(("Cross-Origin-Embedder-Policy", "require-corp"));
    }
    h
}

/// A gzip cache entry: (file length, modification time, compressed bytes).
type GzEntry = (u64, Option<SystemTime>, Arc<Vec<u8>>);

/// The shared state of a running server.
struct State {
    root: PathBuf,
    /// Extra folders served under a URL prefix (`/__tests__/` → test fixtures).
    mounts: Vec<(String, PathBuf)>,
    isolation: bool,
    gz_cache: Mutex<HashMap<PathBuf, GzEntry>>,
}

/// A running server (threads are detached; it lives until the process ends).
pub struct Server {
    /// The bound address (`127.0.0.1:PORT`).
    pub addr: SocketAddr,
}

impl Server {
    /// Bind `127.0.0.1:port` (0 = any free port) and serve `root` on background threads.
    pub fn start(root: &Path, port: u16, isolation: bool) -> std::io::Result<Server> {
        Self::start_with_mounts(root, &[], port, isolation)
    }

    /// Like [`Server::start`], and also serve each `(prefix, folder)` of `mounts` under
    /// its URL prefix (which starts and ends with `/`), e.g. the browser tests' fixtures.
    pub fn start_with_mounts(
        root: &Path,
        mounts: &[(&str, &Path)],
        port: u16,
        isolation: bool,
    ) -> std::io::Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let addr = listener.local_addr()?;
        let state = Arc::new(State {
            root: root.to_path_buf(),
            mounts: mounts
                .iter()
                .map(|(prefix, dir)| (prefix.to_string(), dir.to_path_buf()))
                .collect(),
            isolation,
            gz_cache: Mutex::new(HashMap::new()),
        });
        let warm = Arc::clone(&state);
        std::thread::spawn(move || prewarm(&warm));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&state);
                std::thread::spawn(move || {
                    // A broken connection only affects that client.
                    let _ = handle_connection(stream, &state);
                });
            }
        });
        Ok(Server { addr })
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// Serve requests on one connection (HTTP/1.1 keep-alive until the client closes).
fn handle_connection(stream: TcpStream, state: &State) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let request_line = line.trim_end().to_string();
        if request_line.is_empty() {
            continue;
        }
        let mut headers = HashMap::new();
        let mut total = request_line.len();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            total += h.len();
            if total > 64 * 1024 {
                return respond_simple(&mut out, 431, "Request Header Fields Too Large", state);
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        // Drain a body we do not use, so keep-alive stays in sync.
        if let Some(len) = headers
            .get("content-length")
            .and_then(|v| v.parse::<u64>().ok())
        {
            std::io::copy(&mut (&mut reader).take(len), &mut std::io::sink())?;
        }
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or("");
        let target = parts.next().unwrap_or("");
        let version = parts.next().unwrap_or("HTTP/1.0");
        let keep_alive = match headers.get("connection").map(|c| c.to_ascii_lowercase()) {
            Some(c) if c.contains("close") => false,
            Some(c) if c.contains("keep-alive") => true,
            _ => version == "HTTP/1.1",
        };
        let gzip = headers
            .get("accept-encoding")
            .is_some_and(|v| accepts_gzip(v));
        let request = Request {
            method,
            target,
            gzip,
            keep_alive,
            if_none_match: headers.get("if-none-match").map(String::as_str),
        };
        respond(&mut out, state, &request)?;
        if !keep_alive {
            return Ok(());
        }
    }
}

/// Write a small text response (errors).
fn respond_simple(
    out: &mut TcpStream,
    code: u16,
    reason: &str,
    state: &State,
) -> std::io::Result<()> {
    let body = format!("{code} {reason}\n");
    let mut head = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (k, v) in common_headers(state.isolation) {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    out.write_all(head.as_bytes())?;
    out.write_all(body.as_bytes())?;
    out.flush()
}

/// What [`respond`] needs of a parsed request.
struct Request<'a> {
    method: &'a str,
    target: &'a str,
    /// The client accepts gzip.
    gzip: bool,
    keep_alive: bool,
    /// `If-None-Match`: answered with 304 when it names the current [`etag`].
    if_none_match: Option<&'a str>,
}

/// A strong validator from size and modification time (and the encoding), so reloads
/// revalidate (`Cache-Control: no-cache`) without downloading the 35 MB wasm again.
pub fn etag(len: u64, mtime: Option<SystemTime>, gzip: bool) -> String {
    let nanos = mtime
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("\"{len:x}-{nanos:x}{}\"", if gzip { "-gz" } else { "" })
}

/// Answer one request.
fn respond(out: &mut TcpStream, state: &State, req: &Request<'_>) -> std::io::Result<()> {
    let Request {
        method,
        target,
        gzip,
        keep_alive,
        if_none_match,
    } = *req;
    if method != "GET" && method != "HEAD" {
        return respond_simple(out, 405, "Method Not Allowed", state);
    }
    let mounted = state.mounts.iter().find_map(|(prefix, dir)| {
        target
            .strip_prefix(prefix.trim_end_matches('/'))
            .filter(|rest| rest.starts_with('/'))
            .map(|rest| resolve(dir, rest))
    });
    let Some(file) = mounted.unwrap_or_else(|| resolve(&state.root, target)) else {
        return respond_simple(out, 404, "Not Found", state);
    };
    let mime = mime_type(&file);
    let meta = std::fs::metadata(&file)?;
    let use_gzip = gzip && compressible(mime) && meta.len() > 1024;
    let tag = etag(meta.len(), meta.modified().ok(), use_gzip);
    let connection = if keep_alive {
        "Connection: keep-alive\r\n\r\n"
    } else {
        "Connection: close\r\n\r\n"
    };
    if if_none_match.is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*")) {
        let mut head = format!("HTTP/1.1 304 Not Modified\r\nETag: {tag}\r\n");
        for (k, v) in common_headers(state.isolation) {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(connection);
        out.write_all(head.as_bytes())?;
        return out.flush();
    }
    let body: Arc<Vec<u8>> = if use_gzip {
        gzipped(state, &file, &meta)?
    } else {
        Arc::new(std::fs::read(&file)?)
    };
    let mut head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nETag: {tag}\r\n",
        body.len()
    );
    if use_gzip {
        head.push_str("Content-Encoding: gzip\r\n");
    }
    if compressible(mime) {
        head.push_str("Vary: Accept-Encoding\r\n");
    }
    for (k, v) in common_headers(state.isolation) {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(connection);
    out.write_all(head.as_bytes())?;
    if method == "GET" {
        out.write_all(&body)?;
    }
    out.flush()
}

/// The gzipped bytes of `file`, from the cache when size and mtime still match.
/// Compression runs outside the lock, so small files are never held up by the 35 MB wasm.
fn gzipped(state: &State, file: &Path, meta: &std::fs::Metadata) -> std::io::Result<Arc<Vec<u8>>> {
    let mtime = meta.modified().ok();
    let lock = || {
        state
            .gz_cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some((len, time, bytes)) = lock().get(file) {
        if *len == meta.len() && *time == mtime {
            return Ok(Arc::clone(bytes));
        }
    }
    let data = std::fs::read(file)?;
    let mut enc = GzEncoder::new(Vec::with_capacity(data.len() / 3), Compression::default());
    enc.write_all(&data)?;
    let bytes = Arc::new(enc.finish()?);
    lock().insert(file.to_path_buf(), (meta.len(), mtime, Arc::clone(&bytes)));
    Ok(bytes)
}

/// Compress the large `.wasm` files of `root` (top level and one folder down) in the
/// background, so the first page load does not wait ~2 s for the 35 MB Z3 build.
fn prewarm(state: &State) {
    let mut dirs = vec![state.root.clone()];
    if let Ok(entries) = std::fs::read_dir(&state.root) {
        dirs.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    for dir in dirs {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            // Requests look files up by canonical path; so must the cache.
            let Ok(path) = entry.path().canonicalize() else {
                continue;
            };
            let is_wasm = path.extension().is_some_and(|e| e == "wasm");
            if let (true, Ok(meta)) = (is_wasm, entry.metadata()) {
                if meta.len() > 1 << 20 {
                    let _ = gzipped(state, &path, &meta);
                }
            }
        }
    }
}

/// Build `dist/` with the dist builder of `xtask/src/web.rs` (`cargo xtask dist`), which
/// installs what it needs: the wasm target, wasm-bindgen-cli and the npm packages.
pub fn build_dist() -> Result<(), crate::Failed> {
    crate::web::dist().map(|_| ())
}

/// `cargo xtask serve [--port N] [--dir DIR] [--no-isolation] [--no-build]`.
pub fn serve(args: &[String]) -> Result<(), crate::Failed> {
    let root = crate::root();
    let opts = parse_options(args, &root).map_err(|e| {
        eprintln!("xtask serve: {e}\nusage: cargo xtask serve [--port N] [--dir DIR] [--no-isolation] [--no-build]");
        crate::Failed(2)
    })?;
    if opts.build {
        build_dist()?;
    }
    if !opts.dir.join("index.html").is_file() {
        return Err(crate::Failed::with_message(format!(
            "serve: {} has no index.html (run `cargo xtask dist` first)",
            opts.dir.display()
        )));
    }
    let server = Server::start(&opts.dir, opts.port, opts.isolation).map_err(|e| {
        crate::Failed::with_message(format!(
            "serve: cannot listen on 127.0.0.1:{}: {e}",
            opts.port
        ))
    })?;
    println!(
        "serving {} at {}{}",
        opts.dir.display(),
        server.url(),
        if opts.isolation {
            " (cross-origin isolated: COOP/COEP/CORP)"
        } else {
            " (no isolation: COOP/COEP off)"
        }
    );
    println!("press Ctrl+C to stop");
    loop {
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;

    fn strs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options() {
        let root = Path::new("/r");
        let o = parse_options(&[], root).unwrap();
        assert_eq!(o.port, 8000);
        assert_eq!(o.dir, PathBuf::from("/r/dist"));
        assert!(o.isolation && o.build);
        let o = parse_options(
            &strs(&[
                "--port",
                "0",
                "--dir=web/out",
                "--no-isolation",
                "--no-build",
            ]),
            root,
        )
        .unwrap();
        assert_eq!(o.port, 0);
        assert_eq!(o.dir, PathBuf::from("/r/web/out"));
        assert!(!o.isolation && !o.build);
        assert!(parse_options(&strs(&["--port", "x"]), root).is_err());
        assert!(parse_options(&strs(&["--port"]), root).is_err());
        assert!(parse_options(&strs(&["--bogus"]), root).is_err());
    }

    #[test]
    fn mime_types() {
        assert_eq!(mime_type(Path::new("a/z3-built.wasm")), "application/wasm");
        assert_eq!(
            mime_type(Path::new("worker.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            mime_type(Path::new("m.MJS")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            mime_type(Path::new("index.html")),
            "text/html; charset=utf-8"
        );
        assert_eq!(mime_type(Path::new("style.css")), "text/css; charset=utf-8");
        assert_eq!(
            mime_type(Path::new("examples/index.json")),
            "application/json"
        );
        assert_eq!(mime_type(Path::new("logo.svg")), "image/svg+xml");
        assert_eq!(mime_type(Path::new("noext")), "application/octet-stream");
        assert!(compressible(mime_type(Path::new("x.wasm"))));
        assert!(!compressible(mime_type(Path::new("x.png"))));
    }

    #[test]
    fn gzip_negotiation() {
        assert!(accepts_gzip("gzip, deflate, br, zstd"));
        assert!(accepts_gzip("br;q=1.0, gzip;q=0.8"));
        assert!(accepts_gzip("*"));
        assert!(!accepts_gzip("gzip;q=0"));
        assert!(!accepts_gzip("br, deflate"));
        assert!(!accepts_gzip(""));
    }

    #[test]
    fn request_paths() {
        let p = |s| request_path(s).map(|p| p.to_string_lossy().into_owned());
        assert_eq!(p("/").as_deref(), Some("index.html"));
        assert_eq!(p("/index.html?x=1#f").as_deref(), Some("index.html"));
        assert_eq!(p("/pkg/cfp_web.js").as_deref(), Some("pkg/cfp_web.js"));
        assert_eq!(p("/examples/").as_deref(), Some("examples/index.html"));
        assert_eq!(p("/a%20b.txt").as_deref(), Some("a b.txt"));
        assert_eq!(p("//a//./b").as_deref(), Some("a/b"));
        for bad in [
            "/../etc/passwd",
            "/a/../../x",
            "/%2e%2e/x",
            "/%2E%2E%2Fetc",
            "/a%5c..%5cb",
            "/c:/windows",
            "/a%00b",
            "/%zz",
            "relative",
            "http://x/y",
        ] {
            assert_eq!(p(bad), None, "{bad}");
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        dir
    }

    #[test]
    fn resolve_stays_in_root() {
        let dir = temp_dir("resolve");
        std::fs::write(dir.join("index.html"), "hi").unwrap();
        std::fs::write(dir.join("sub/index.html"), "sub").unwrap();
        let outside = dir.with_extension("secret");
        std::fs::write(&outside, "secret").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
        let root = dir.canonicalize().unwrap();
        assert_eq!(resolve(&dir, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(&dir, "/sub"), Some(root.join("sub/index.html")));
        assert_eq!(resolve(&dir, "/missing.js"), None);
        assert_eq!(resolve(&dir, "/link"), None);
        assert_eq!(resolve(&dir, "/../xtask-serve-x"), None);
        let _ = std::fs::remove_file(outside);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn isolation_headers() {
        let on = common_headers(true);
        assert!(on.contains(&("Cross-Origin-Opener-Policy", "same-origin")));
        assert!(on.contains(&("Cross-Origin-Embedder-Policy", "require-corp")));
        assert!(on.contains(&("Cross-Origin-Resource-Policy", "cross-origin")));
        let off = common_headers(false);
        assert!(!off
            .iter()
            .any(|(k, _)| k.contains("Opener") || k.contains("Embedder")));
    }

    /// One raw HTTP/1.0 request; returns (head, body).
    fn get(addr: SocketAddr, target: &str, extra: &str) -> (String, Vec<u8>) {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET {target} HTTP/1.0\r\nHost: x\r\n{extra}\r\n").unwrap();
        let mut all = Vec::new();
        s.read_to_end(&mut all).unwrap();
        let split = all.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        (
            String::from_utf8_lossy(&all[..split]).into_owned(),
            all[split + 4..].to_vec(),
        )
    }

    #[test]
    fn serves_with_headers_and_gzip() {
        let dir = temp_dir("http");
        let wasm: Vec<u8> = (0..200_000u32).map(|i| (i % 7) as u8).collect();
        std::fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
        std::fs::write(dir.join("z.wasm"), &wasm).unwrap();
        let server = Server::start(&dir, 0, true).unwrap();
        let (head, body) = get(server.addr, "/", "");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(head.contains("Content-Type: text/html"));
        assert!(head.contains("Cross-Origin-Opener-Policy: same-origin"));
        assert!(head.contains("Cross-Origin-Embedder-Policy: require-corp"));
        assert!(head.contains("Cross-Origin-Resource-Policy: cross-origin"));
        assert_eq!(body, b"<!doctype html>");

        let (head, body) = get(server.addr, "/z.wasm", "Accept-Encoding: gzip, br\r\n");
        assert!(head.contains("Content-Type: application/wasm"), "{head}");
        assert!(head.contains("Content-Encoding: gzip"));
        assert!(body.len() < wasm.len() / 10);
        let mut plain = Vec::new();
        GzDecoder::new(&body[..]).read_to_end(&mut plain).unwrap();
        assert_eq!(plain, wasm);
        // Cached second time, identical bytes.
        let (_, again) = get(server.addr, "/z.wasm", "Accept-Encoding: gzip\r\n");
        assert_eq!(again, body);

        let (head, body) = get(server.addr, "/z.wasm", "");
        assert!(!head.contains("Content-Encoding"));
        assert_eq!(body, wasm);

        // Revalidation: the ETag of the last answer gives 304 and no body.
        let tag = head
            .lines()
            .find_map(|l| l.strip_prefix("ETag: "))
            .unwrap()
            .to_string();
        let (head, body) = get(server.addr, "/z.wasm", &format!("If-None-Match: {tag}\r\n"));
        assert!(head.starts_with("HTTP/1.1 304"), "{head}");
        assert!(body.is_empty());
        let (head, _) = get(server.addr, "/z.wasm", "If-None-Match: \"other\"\r\n");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");

        let (head, _) = get(server.addr, "/../../etc/passwd", "");
        assert!(head.starts_with("HTTP/1.1 404"), "{head}");

        let fixtures = dir.join("sub");
        std::fs::write(fixtures.join("t.html"), "fixture").unwrap();
        let mounted =
            Server::start_with_mounts(&dir, &[("/__tests__/", fixtures.as_path())], 0, true)
                .unwrap();
        let (head, body) = get(mounted.addr, "/__tests__/t.html", "");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert_eq!(body, b"fixture");
        let (head, _) = get(mounted.addr, "/__tests__/../index.html", "");
        assert!(head.starts_with("HTTP/1.1 404"), "{head}");

        let plain_server = Server::start(&dir, 0, false).unwrap();
        let (head, _) = get(plain_server.addr, "/", "");
        assert!(head.starts_with("HTTP/1.1 200"));
        assert!(!head.contains("Cross-Origin-Opener-Policy"));
        assert!(!head.contains("Cross-Origin-Embedder-Policy"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
