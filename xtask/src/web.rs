//! The web build: `cargo xtask dist` and `cargo xtask test-wasm`.
//!
//! * [`dist`] builds the playground into `dist/`: the release wasm of `web/` (package
//!   `cfp-web`), `wasm-bindgen --target no-modules` (`cfp_web.js`, `cfp_web_bg.wasm`),
//!   `static/*` (page, styles, examples, `worker.js`), Z3's `z3-built.{js,wasm}` from npm
//!   `z3-solver` (installed into `web/node_modules` by npm) and `web/js/z3-bridge.js`.
//! * [`test_wasm`] runs `tests/wasm/node-corpus.mjs`: the same wasm built for Node
//!   (`wasm-bindgen --target nodejs` into `target/wasm-node/`) against the native `cfp`
//!   on every program of `tests/check/`.
//!
//! The wasm-bindgen CLI must match the `wasm-bindgen` crate pin (0.2.130); it is installed
//! with cargo into `target/tools/wasm-bindgen` when missing, so nothing outside the
//! repository is needed besides cargo, node and npm.

use crate::{cargo, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The wasm-bindgen version pinned in `web/Cargo.toml`.
const WASM_BINDGEN_VERSION: &str = "0.2.130";

/// `target/wasm32-unknown-unknown/release/cfp_web.wasm`.
fn wasm_path() -> PathBuf {
    root()
        .join("target")
        .join("wasm32-unknown-unknown")
        .join("release")
        .join("cfp_web.wasm")
}

/// Build the release wasm of `cfp-web`.
fn build_wasm() -> Result<PathBuf, u8> {
    let mut build = cargo();
    build.args([
        "build",
        "-p",
        "cfp-web",
        "--target",
        "wasm32-unknown-unknown",
        "--release",
    ]);
    run(
        "cargo build -p cfp-web --target wasm32-unknown-unknown --release",
        build,
    )?;
    Ok(wasm_path())
}

/// The wasm-bindgen CLI at the pinned version, installed into `target/tools/wasm-bindgen`
/// when missing.
fn wasm_bindgen_cli() -> Result<PathBuf, u8> {
    let dir = root().join("target").join("tools").join("wasm-bindgen");
    let exe = dir.join("bin").join(if cfg!(windows) {
        "wasm-bindgen.exe"
    } else {
        "wasm-bindgen"
    });
    let version_ok = |exe: &Path| {
        Command::new(exe)
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).contains(WASM_BINDGEN_VERSION))
            .unwrap_or(false)
    };
    if version_ok(&exe) {
        return Ok(exe);
    }
    // No `--locked`: its lock file wants a crate version the registry mirror lacks.
    let mut install = cargo();
    install
        .args([
            "install",
            "wasm-bindgen-cli",
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
        eprintln!("xtask: {} does not run after installing it", exe.display());
        Err(1)
    }
}

/// Run `wasm-bindgen --target TARGET` on `wasm` into `out_dir` (`cfp_web.js` and
/// `cfp_web_bg.wasm`).
fn bindgen(wasm: &Path, target: &str, out_dir: &Path) -> Result<(), u8> {
    let exe = wasm_bindgen_cli()?;
    let mut cmd = Command::new(exe);
    cmd.current_dir(root())
        .args([
            "--target",
            target,
            "--no-typescript",
            "--out-name",
            "cfp_web",
        ])
        .arg("--out-dir")
        .arg(out_dir)
        .arg(wasm);
    run(&format!("wasm-bindgen --target {target}"), cmd)
}

/// `npm ci` (or `npm install` without a lock file) in `web/` unless
/// `web/node_modules/z3-solver` is already at the pinned version.
fn npm_install() -> Result<PathBuf, u8> {
    let web = root().join("web");
    let z3 = web.join("node_modules").join("z3-solver");
    let wanted = std::fs::read_to_string(web.join("package.json"))
        .ok()
        .and_then(|t| {
            let at = t.find("\"z3-solver\"")?;
            let rest = &t[at + "\"z3-solver\"".len()..];
            let v = rest.split('"').nth(1)?;
            Some(v.to_string())
        });
    let installed = std::fs::read_to_string(z3.join("package.json")).ok();
    let up_to_date = match (&wanted, &installed) {
        (Some(w), Some(i)) => i.contains(&format!("\"version\": \"{w}\"")),
        _ => false,
    };
    if !up_to_date {
        let mut npm = Command::new("npm");
        npm.current_dir(&web);
        if web.join("package-lock.json").exists() {
            npm.args(["ci", "--no-audit", "--no-fund"]);
        } else {
            npm.args(["install", "--no-audit", "--no-fund"]);
        }
        run("npm install (web/: z3-solver)", npm)?;
    }
    Ok(z3.join("build"))
}

/// Copy `from` (a file or a folder, recursively) to `to`.
fn copy_all(from: &Path, to: &Path) -> Result<(), u8> {
    let fail = |e: std::io::Error, what: &Path| {
        eprintln!("xtask dist: cannot copy {}: {e}", what.display());
        1u8
    };
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(|e| fail(e, to))?;
        let entries = std::fs::read_dir(from).map_err(|e| fail(e, from))?;
        for entry in entries {
            let entry = entry.map_err(|e| fail(e, from))?;
            copy_all(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| fail(e, from))
    }
}

/// `cargo xtask dist`: build the playground into `dist/` under the workspace and return
/// that folder's path. Errors are printed; the `u8` is the exit code.
pub fn dist() -> Result<PathBuf, u8> {
    let out = root().join("dist");
    let wasm = build_wasm()?;
    let z3_build = npm_install()?;
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| {
            eprintln!("xtask dist: cannot clear {}: {e}", out.display());
            1u8
        })?;
    }
    std::fs::create_dir_all(&out).map_err(|e| {
        eprintln!("xtask dist: cannot create {}: {e}", out.display());
        1u8
    })?;
    bindgen(&wasm, "no-modules", &out)?;
    eprintln!("==> copy static/, z3-built.{{js,wasm}}, z3-bridge.js into dist/");
    copy_all(&root().join("static"), &out)?;
    for f in ["z3-built.js", "z3-built.wasm"] {
        copy_all(&z3_build.join(f), &out.join(f))?;
    }
    copy_all(
        &root().join("web").join("js").join("z3-bridge.js"),
        &out.join("z3-bridge.js"),
    )?;
    eprintln!("    dist: {}", out.display());
    Ok(out)
}

/// `cargo xtask test-wasm [FILTER]`: the Node-hosted corpus test (see the module docs).
pub fn test_wasm(args: &[String]) -> Result<(), u8> {
    let z3 = crate::setup_z3()?;
    let mut cli = cargo();
    cli.args(["build", "--release", "-p", "cfp-cli"]);
    run("cargo build --release -p cfp-cli", cli)?;
    let wasm = build_wasm()?;
    npm_install()?;
    let out = root().join("target").join("wasm-node");
    bindgen(&wasm, "nodejs", &out)?;
    let mut node = Command::new("node");
    node.current_dir(root())
        .arg(root().join("tests").join("wasm").join("node-corpus.mjs"))
        .args(args)
        .env("CFP_Z3", &z3)
        .env("CFP_WASM_NODE", &out);
    run("node tests/wasm/node-corpus.mjs", node)
}
