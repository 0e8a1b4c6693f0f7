//! `cargo xtask test-browser` — the playground's browser tests (issue 5's acceptance).
//!
//! 1. builds `dist/` (unless `--no-build`), the release `cfp` and Z3 (the native verdicts
//!    the browser must match);
//! 2. makes sure Debian's Chromium (`/usr/bin/chromium`, `apt-get install chromium`) and the
//!    pinned npm `playwright-core` of `tests/browser/package.json` are installed — never
//!    `playwright install` (DESIGN.md §6);
//! 3. serves the folder in-process ([`crate::serve::Server`]) on a free port, once
//!    cross-origin isolated and once without isolation, with `tests/browser/fixtures/` under
//!    `/__tests__/` (the z3 bridge stress page);
//! 4. runs `node tests/browser/run.mjs URL [ARGS…]`; any failed check fails the command.
//!
//! Screenshots go to `target/browser-screenshots/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::serve::{self, Server};

/// Where Debian's Chromium lives (an override: `CFP_CHROMIUM`).
fn chromium_path() -> PathBuf {
    std::env::var_os("CFP_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

/// Install Debian's `chromium` with apt-get when it is missing.
fn ensure_chromium() -> Result<PathBuf, u8> {
    let chromium = chromium_path();
    if chromium.is_file() {
        return Ok(chromium);
    }
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    crate::run("apt-get update", update)?;
    let mut install = Command::new("apt-get");
    install
        .args(["install", "-y", "-qq", "chromium", "fonts-dejavu-core"])
        .env("DEBIAN_FRONTEND", "noninteractive");
    crate::run("apt-get install chromium", install)?;
    if chromium.is_file() {
        Ok(chromium)
    } else {
        eprintln!(
            "xtask: {} is still missing; install Debian's chromium or set CFP_CHROMIUM",
            chromium.display()
        );
        Err(1)
    }
}

/// The version `package.json` pins for `dependency` (`"name": "1.2.3"`), if any.
fn pinned_version(package_json: &str, dependency: &str) -> Option<String> {
    let key = format!("\"{dependency}\"");
    let rest = &package_json[package_json.find(&key)? + key.len()..];
    let rest = rest
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// `npm ci` (or `npm install` without a lock file) in `tests/browser` unless the pinned
/// `playwright-core` is installed already.
fn ensure_npm(dir: &Path) -> Result<(), u8> {
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let pin = pinned_version(&read(dir.join("package.json")), "playwright-core");
    let installed = read(dir.join("node_modules/playwright-core/package.json"));
    if let Some(pin) = pin {
        if pinned_version(&installed, "version").as_deref() == Some(pin.as_str()) {
            return Ok(());
        }
    }
    let mut npm = Command::new("npm");
    npm.current_dir(dir);
    if dir.join("package-lock.json").is_file() {
        npm.args(["ci", "--no-audit", "--no-fund"]);
    } else {
        npm.args(["install", "--no-audit", "--no-fund"]);
    }
    // playwright-core downloads no browser; make sure nothing else tries either.
    npm.env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    crate::run("npm install (tests/browser)", npm)
}

/// `cargo xtask test-browser [--dir DIR] [--no-build] [-- RUN.MJS ARGS…]`.
pub fn test_browser(args: &[String]) -> Result<(), u8> {
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
        2u8
    })?;
    if opts.build {
        serve::build_dist()?;
    }
    if !opts.dir.join("index.html").is_file() {
        eprintln!(
            "xtask test-browser: {} has no index.html (run `cargo xtask dist`)",
            opts.dir.display()
        );
        return Err(1);
    }
    let z3 = crate::setup_z3()?;
    let cfp = root.join("target").join("release").join("cfp");
    if opts.build || !cfp.is_file() {
        let mut build = crate::cargo();
        build.args(["build", "--release", "-p", "cfp-cli"]);
        crate::run("cargo build --release -p cfp-cli", build)?;
    }
    let chromium = ensure_chromium()?;
    let tests = root.join("tests").join("browser");
    ensure_npm(&tests)?;

    let fixtures = tests.join("fixtures");
    // Recordings the checks make with `cfp check --record` (served for `?record=`).
    let records = root.join("target").join("browser-records");
    std::fs::create_dir_all(&records).map_err(|e| {
        eprintln!(
            "xtask test-browser: cannot create {}: {e}",
            records.display()
        );
        1u8
    })?;
    let mounts = [
        ("/__tests__/", fixtures.as_path()),
        ("/__records__/", records.as_path()),
    ];
    let start = |isolation: bool| {
        Server::start_with_mounts(&opts.dir, &mounts, 0, isolation).map_err(|e| {
            eprintln!("xtask test-browser: cannot start the server: {e}");
            1u8
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
    crate::run("node tests/browser/run.mjs", node)
}

#[cfg(test)]
mod tests {
    use super::pinned_version;

    #[test]
    fn reads_pins() {
        let pkg = r#"{ "dependencies": { "playwright-core": "1.65.1" } }"#;
        assert_eq!(
            pinned_version(pkg, "playwright-core").as_deref(),
            Some("1.65.1")
        );
        let installed = r#"{ "name": "playwright-core", "version": "1.65.1" }"#;
        assert_eq!(
            pinned_version(installed, "version").as_deref(),
            Some("1.65.1")
        );
        assert_eq!(pinned_version(pkg, "other"), None);
    }
}
