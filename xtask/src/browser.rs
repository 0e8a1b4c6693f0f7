//! `cargo xtask test-browser` — the playground's browser tests.
//!
//! 1. builds `dist/` (unless `--no-build`), the release `cfp` and Z3 (the native verdicts
//!    the browser must match);
//! 2. makes sure Debian's Chromium (`/usr/bin/chromium`, `apt-get install chromium`) and the
//!    pinned npm `playwright-core` of `tests/browser/package.json` are installed — never
//!    `playwright install` (ARCHITECTURE.md; see [`crate::tools`]);
//! 3. serves the folder in-process ([`crate::serve::Server`]) on a free port, once
//!    cross-origin isolated and once without isolation, with `tests/browser/fixtures/` under
//!    `/__tests__/` (the z3 bridge stress page);
//! 4. runs `node tests/browser/run.mjs URL [ARGS…]`; any failed check fails the command.
//!
//! Screenshots go to `target/browser-screenshots/`.

use std::process::Command;

use crate::serve::{self, Server};
use crate::{tools, Failed};

/// The servers and environment of one browser-test run; dropping it stops the servers.
pub struct BrowserRun {
    /// `node tests/browser/run.mjs URL` with the `CFP_*` environment set.
    pub node: Command,
    _servers: [Server; 3],
}

/// `cargo xtask test-browser [--dir DIR] [--no-build] [-- RUN.MJS ARGS…]`.
pub fn test_browser(args: &[String]) -> Result<(), Failed> {
    let run = prepare(args)?;
    crate::run("node tests/browser/run.mjs", run.node)
}

/// Build what the browser tests need, start the servers, and return the node command with
/// `args` after `--` passed on to `run.mjs`.
pub fn prepare(args: &[String]) -> Result<BrowserRun, Failed> {
    let root = crate::root();
    let (ours, theirs) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let opts = serve::parse_options(ours, &root).map_err(|e| {
        eprintln!(
            "xtask test-browser: {e}\n\
             usage: cargo xtask test-browser [--dir DIR] [--no-build] [-- --only NAME,…]"
        );
        Failed(2)
    })?;
    if opts.build {
        serve::build_dist()?;
    }
    if !opts.dir.join("index.html").is_file() {
        return Err(Failed::with_message(format!(
            "test-browser: {} has no index.html (run `cargo xtask dist`)",
            opts.dir.display()
        )));
    }
    let z3 = tools::setup_z3()?;
    let cfp = root.join("target").join("release").join("cfp");
    if opts.build || !cfp.is_file() {
        let mut build = crate::cargo();
        build.args(["build", "--release", "-p", "cfp-cli"]);
        crate::run("cargo build --release -p cfp-cli", build)?;
    }
    let chromium = tools::ensure_chromium()?;
    let tests = root.join("tests").join("browser");
    tools::npm_ci(&tests, "playwright-core")?;

    let fixtures = tests.join("fixtures");
    // Recordings the checks make with `cfp check --record` (served for `?record=`).
    let records = root.join("target").join("browser-records");
    std::fs::create_dir_all(&records).map_err(|e| {
        Failed::with_message(format!(
            "test-browser: cannot create {}: {e}",
            records.display()
        ))
    })?;
    let mounts = [
        ("/__tests__/", fixtures.as_path()),
        ("/__records__/", records.as_path()),
    ];
    let start = |isolation: bool| {
        Server::start_with_mounts(&opts.dir, &mounts, 0, isolation).map_err(|e| {
            Failed::with_message(format!("test-browser: cannot start the server: {e}"))
        })
    };
    let isolated = start(true)?;
    let plain = start(false)?;
    // A second isolated origin: a cross-origin-isolated docs page embedding the playground.
    let other = start(true)?;
    eprintln!(
        "==> serving {} at {} (isolated) and {} (no isolation)",
        opts.dir.display(),
        isolated.url(),
        plain.url()
    );
    let shots = root.join("target").join("browser-screenshots");
    let mut node = Command::new("node");
    node.current_dir(&root)
        .arg(tests.join("run.mjs"))
        .arg(isolated.url())
        .args(theirs)
        .env("CFP_PLAIN_URL", plain.url())
        .env("CFP_OTHER_URL", other.url())
        .env("CFP_ROOT", &root)
        .env("CFP_BIN", &cfp)
        .env("CFP_Z3", &z3)
        .env("CFP_CHROMIUM", &chromium)
        .env("CFP_DIST", &opts.dir)
        .env("CFP_SCREENSHOTS", &shots);
    Ok(BrowserRun {
        node,
        _servers: [isolated, plain, other],
    })
}
