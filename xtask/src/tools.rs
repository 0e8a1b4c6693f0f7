//! Everything the project's commands need that a fresh machine does not have, each installed
//! by the command that needs it, idempotently, from the registries only (crates.io, npm,
//! PyPI, Debian): the `wasm32-unknown-unknown` target (rustup), `wasm-bindgen-cli` (cargo,
//! into `target/tools/`), z3 (the PyPI wheel, into `target/tools/z3`), the npm packages of
//! `web/` and `tests/browser/` (`npm ci`), Debian's Chromium and a JDK (apt-get).
//!
//! Nothing here downloads a binary from anywhere else (no `playwright install`, no trunk or
//! wasm-bindgen auto-downloads).

use crate::{cargo, root, run, Failed};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Rust target of the playground's core.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The wasm-bindgen version pinned in `web/Cargo.toml`.
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";

/// The pinned PyPI wheel whose static `z3` executable the native backend uses
/// (ARCHITECTURE.md: closest to the browser's wasm build).
pub const Z3_WHEEL: &str = "z3-solver==5.4.1.0";

/// `target/tools/<parts…>` under the workspace.
fn tools_dir(parts: &[&str]) -> PathBuf {
    parts
        .iter()
        .fold(root().join("target").join("tools"), |p, part| p.join(part))
}

fn exe(name: &str) -> String {
    if cfg!(windows) {
        format!("{name}.exe")
    } else {
        name.to_string()
    }
}

/// Whether the toolchain has the standard library for `target` (the sysroot holds it).
fn has_target(target: &str) -> bool {
    Command::new("rustc")
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| {
            std::fs::read_dir(dir).is_ok_and(|mut entries| {
                entries.any(|e| {
                    e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
                })
            })
        })
}

/// `rustup target add wasm32-unknown-unknown` unless the target's standard library is
/// already installed. Every wasm build calls this first.
pub fn ensure_wasm_target() -> Result<(), Failed> {
    if has_target(WASM_TARGET) {
        return Ok(());
    }
    let mut add = Command::new("rustup");
    add.args(["target", "add", WASM_TARGET]);
    run(&format!("rustup target add {WASM_TARGET}"), add)?;
    if has_target(WASM_TARGET) {
        Ok(())
    } else {
        Err(Failed::with_message(format!(
            "the {WASM_TARGET} standard library is still missing after `rustup target add`; \
             is this toolchain managed by rustup?"
        )))
    }
}

/// `target/tools/z3/bin/z3` under the workspace.
pub fn z3_path() -> PathBuf {
    tools_dir(&["z3", "bin", &exe("z3")])
}

/// Whether `z3 -version` runs.
fn z3_runs(z3: &Path) -> bool {
    Command::new(z3)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Install Z3 into `target/tools/z3` (unless it already runs) and return its absolute path.
pub fn setup_z3() -> Result<PathBuf, Failed> {
    let z3 = z3_path();
    if z3_runs(&z3) {
        eprintln!("==> z3 already installed: {}", z3.display());
        return Ok(z3);
    }
    let mut pip = Command::new("python3");
    pip.current_dir(root()).args([
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--upgrade",
        "--target",
    ]);
    pip.arg(tools_dir(&["z3"])).arg(Z3_WHEEL);
    run(&format!("pip install {Z3_WHEEL} into target/tools/z3"), pip)?;
    if z3_runs(&z3) {
        Ok(z3)
    } else {
        Err(Failed::with_message(format!(
            "{} does not run after installing {Z3_WHEEL}; install z3 5.4.x yourself and set \
             CFP_Z3=/path/to/z3",
            z3.display()
        )))
    }
}

/// The wasm-bindgen CLI at the pinned version, installed with cargo into
/// `target/tools/wasm-bindgen` when missing.
pub fn wasm_bindgen_cli() -> Result<PathBuf, Failed> {
    let dir = tools_dir(&["wasm-bindgen"]);
    let exe = dir.join("bin").join(exe("wasm-bindgen"));
    let version_ok = |exe: &Path| {
        Command::new(exe)
            .arg("--version")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(WASM_BINDGEN_VERSION))
    };
    if version_ok(&exe) {
        return Ok(exe);
    }
    // No `--locked`: its lock file wants a crate version the registry mirror lacks.
    // `--debug`: it builds in about half the time of a release build, and its output is
    // byte for byte the same (the tool runs twice per build, ~5 s instead of ~1 s).
    let mut install = cargo();
    install
        .args([
            "install",
            "wasm-bindgen-cli",
            "--debug",
            "--version",
            WASM_BINDGEN_VERSION,
            "--root",
        ])
        .arg(&dir);
    run(
        &format!("cargo install wasm-bindgen-cli {WASM_BINDGEN_VERSION} into target/tools"),
        install,
    )?;
    if version_ok(&exe) {
        Ok(exe)
    } else {
        Err(Failed::with_message(format!(
            "{} does not run after installing it",
            exe.display()
        )))
    }
}

/// The version `package.json` text pins for `key` (`"key": "1.2.3"`), if any.
pub fn pinned_version(package_json: &str, key: &str) -> Option<String> {
    let key = format!("\"{key}\"");
    let rest = &package_json[package_json.find(&key)? + key.len()..];
    let rest = rest
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// Whether every package `dir/package.json` lists (dependencies and devDependencies) is
/// installed in `dir/node_modules` at exactly the version it pins.
fn all_pins_installed(dir: &Path) -> bool {
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&read(dir.join("package.json")))
    else {
        return false;
    };
    ["dependencies", "devDependencies"]
        .iter()
        .filter_map(|k| manifest[*k].as_object())
        .flat_map(|deps| deps.iter())
        .all(|(name, pin)| {
            let installed = dir.join("node_modules").join(name).join("package.json");
            pin.as_str().is_some()
                && pin.as_str() == pinned_version(&read(installed), "version").as_deref()
        })
}

/// `npm ci` (or `npm install` without a lock file) in `dir` unless every package
/// `dir/package.json` pins is installed at its version. Returns
/// `dir/node_modules/<package>`.
pub fn npm_ci(dir: &Path, package: &str) -> Result<PathBuf, Failed> {
    let installed_dir = dir.join("node_modules").join(package);
    if all_pins_installed(dir) {
        return Ok(installed_dir);
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
    let name = dir
        .strip_prefix(root())
        .unwrap_or(dir)
        .display()
        .to_string();
    run(&format!("npm ci ({name}: {package})"), npm)?;
    Ok(installed_dir)
}

/// Where Debian's Chromium lives (an override: `CFP_CHROMIUM`).
fn chromium_path() -> PathBuf {
    std::env::var_os("CFP_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

/// Install Debian's `chromium` with apt-get when it is missing.
pub fn ensure_chromium() -> Result<PathBuf, Failed> {
    let chromium = chromium_path();
    if chromium.is_file() {
        return Ok(chromium);
    }
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    run("apt-get update", update)?;
    let mut install = Command::new("apt-get");
    install
        .args(["install", "-y", "-qq", "chromium", "fonts-dejavu-core"])
        .env("DEBIAN_FRONTEND", "noninteractive");
    run("apt-get install chromium", install)?;
    if chromium.is_file() {
        Ok(chromium)
    } else {
        Err(Failed::with_message(format!(
            "{} is still missing; install Debian's chromium or set CFP_CHROMIUM",
            chromium.display()
        )))
    }
}

/// Whether `javac -version` runs.
fn javac_runs() -> bool {
    Command::new("javac")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Install Debian's `openjdk-17-jdk-headless` with apt-get when `javac` is missing.
pub fn ensure_jdk() -> Result<(), Failed> {
    if javac_runs() {
        return Ok(());
    }
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    run("apt-get update", update)?;
    let mut install = Command::new("apt-get");
    install
        .args(["install", "-y", "-qq", "openjdk-17-jdk-headless"])
        .env("DEBIAN_FRONTEND", "noninteractive");
    run("apt-get install openjdk-17-jdk-headless", install)?;
    if javac_runs() {
        Ok(())
    } else {
        Err(Failed::with_message(
            "javac is still missing; install a JDK (17 or later) and put javac and java on PATH",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_host_target_is_installed_and_a_bogus_one_is_not() {
        let host = String::from_utf8(
            Command::new("rustc")
                .args(["--print", "host-tuple"])
                .output()
                .expect("rustc runs")
                .stdout,
        )
        .expect("utf-8");
        assert!(has_target(host.trim()), "{host}");
        assert!(!has_target("no-such-target-triple"));
    }
}
