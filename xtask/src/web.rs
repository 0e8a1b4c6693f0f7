//! The web build: `cargo xtask dist` and `cargo xtask test-wasm`.
//!
//! * [`dist`] builds the playground into `dist/`: the release wasm of `web/` (package
//!   `cfp-web`), `wasm-bindgen --target no-modules` (`cfp_web.js`, `cfp_web_bg.wasm`),
//!   `static/*` (page, styles, examples, `worker.js`), Z3's `z3-built.{js,wasm}` from npm
//!   `z3-solver` (installed into `web/node_modules` by npm), `web/js/z3-bridge.js`, and the
//!   page's UI bundles `editor.js` (CodeMirror 6) and `graph.js` (d3-graphviz), built by
//!   esbuild from `web/js/` and their npm packages.
//! * [`test_wasm`] runs `tests/wasm/node-corpus.mjs`: the same wasm built for Node
//!   (`wasm-bindgen --target nodejs` into `target/wasm-node/`) against the native `cfp`
//!   on every program of `tests/check/`.
//!
//! Both install what they need first ([`crate::tools`]): the `wasm32-unknown-unknown`
//! target, the wasm-bindgen CLI matching the crate pin, the npm packages of `web/`.

use crate::tools::{self, WASM_TARGET};
use crate::{cargo, root, run, Failed};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/wasm32-unknown-unknown/release/cfp_web.wasm`.
fn wasm_path() -> PathBuf {
    root()
        .join("target")
        .join("wasm32-unknown-unknown")
        .join("release")
        .join("cfp_web.wasm")
}

/// Build the release wasm of `cfp-web` (adding the wasm target first when it is missing).
fn build_wasm() -> Result<PathBuf, Failed> {
    tools::ensure_wasm_target()?;
    let mut build = cargo();
    build.args([
        "build",
        "-p",
        "cfp-web",
        "--target",
        WASM_TARGET,
        "--release",
    ]);
    run(
        &format!("cargo build -p cfp-web --target {WASM_TARGET} --release"),
        build,
    )?;
    Ok(wasm_path())
}

/// Run `wasm-bindgen --target TARGET` on `wasm` into `out_dir` (`cfp_web.js` and
/// `cfp_web_bg.wasm`).
fn bindgen(wasm: &Path, target: &str, out_dir: &Path) -> Result<(), Failed> {
    let exe = tools::wasm_bindgen_cli()?;
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

/// The npm packages of `web/` (z3-solver); returns z3-solver's `build/` folder.
fn npm_install() -> Result<PathBuf, Failed> {
    Ok(tools::npm_ci(&root().join("web"), "z3-solver")?.join("build"))
}

/// The page's JS bundles: `web/js/<name>.js`, bundled with its npm imports by esbuild into
/// `dist/<name>.js` (an IIFE that sets a global: `cfpEditor`, `cfpGraph`).
const BUNDLES: &[&str] = &["editor", "graph"];

/// esbuild (npm, pinned in `web/package.json`) over [`BUNDLES`] into `out`, with the
/// licences of what they contain in `out/THIRD-PARTY-NOTICES.txt`.
fn bundle_js(out: &Path) -> Result<(), Failed> {
    let web = root().join("web");
    let meta = root().join("target").join("esbuild-meta.json");
    // `.bin/esbuild` is the native binary or npm's JS shim (with its `#!`), whichever npm
    // installed.
    let mut esbuild = Command::new(web.join("node_modules").join(".bin").join("esbuild"));
    esbuild.current_dir(&web);
    for name in BUNDLES {
        esbuild.arg(format!("js/{name}.js"));
    }
    esbuild
        .args([
            "--bundle",
            "--format=iife",
            "--minify",
            "--target=es2020",
            "--legal-comments=none",
            "--log-level=warning",
        ])
        .arg(format!("--outdir={}", out.display()))
        .arg(format!("--metafile={}", meta.display()));
    run("esbuild web/js/{editor,graph}.js", esbuild)?;
    write_graphviz_worker(out)?;
    write_notices(&meta, out)
}

/// `dist/graphviz-worker.js`: @hpcc-js/wasm's standalone Graphviz (UMD, wasm inlined) for
/// the layout worker of `graph.js`, registered under the global d3-graphviz's worker reads.
fn write_graphviz_worker(out: &Path) -> Result<(), Failed> {
    let umd = root()
        .join("web")
        .join("node_modules")
        .join("@hpcc-js")
        .join("wasm")
        .join("dist")
        .join("graphviz.umd.js");
    let text = std::fs::read_to_string(&umd)
        .map_err(|e| Failed::with_message(format!("dist: {}: {e}", umd.display())))?;
    let worker = format!("{text}\n;self[\"@hpcc-js/wasm\"] = self[\"@hpcc-js/wasm/graphviz\"];\n");
    let path = out.join("graphviz-worker.js");
    std::fs::write(&path, worker)
        .map_err(|e| Failed::with_message(format!("dist: {}: {e}", path.display())))
}

/// The npm package an esbuild input path is in (`node_modules/@scope/name/…` →
/// `@scope/name`), if any.
fn package_of(input: &str) -> Option<String> {
    let rest = &input[input.rfind("node_modules/")? + "node_modules/".len()..];
    let mut parts = rest.split('/');
    let first = parts.next()?;
    Some(if first.starts_with('@') {
        format!("{first}/{}", parts.next()?)
    } else {
        first.to_owned()
    })
}

/// `dist/THIRD-PARTY-NOTICES.txt`: name, version, licence and licence text of every npm
/// package the bundles contain (from esbuild's metafile) and of `z3-solver` (whose
/// `z3-built.*` dist ships as is).
fn write_notices(meta: &Path, out: &Path) -> Result<(), Failed> {
    let fail = |e: String| Failed::with_message(format!("dist: notices: {e}"));
    let text =
        std::fs::read_to_string(meta).map_err(|e| fail(format!("{}: {e}", meta.display())))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| fail(e.to_string()))?;
    let mut packages: std::collections::BTreeSet<String> = json["inputs"]
        .as_object()
        .map(|m| m.keys().filter_map(|k| package_of(k)).collect())
        .unwrap_or_default();
    packages.insert("z3-solver".to_owned());
    let modules = root().join("web").join("node_modules");
    let mut notices = String::from(
        "cfplay's playground ships code of these npm packages (bundled into editor.js and \
         graph.js by esbuild, or copied: z3-built.js/.wasm). Their licences follow.\n",
    );
    for name in &packages {
        let dir = modules.join(name);
        let manifest: serde_json::Value = std::fs::read_to_string(dir.join("package.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let licence_file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"]
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file())
            .and_then(|p| std::fs::read_to_string(p).ok());
        notices.push_str(&format!(
            "\n==== {name} {} — {} ====\n\n{}\n",
            manifest["version"].as_str().unwrap_or("?"),
            manifest["license"].as_str().unwrap_or("see the package"),
            licence_file
                .as_deref()
                .map(str::trim_end)
                .unwrap_or("(the package has no licence file; see its package.json)")
        ));
    }
    if packages.contains("@hpcc-js/wasm") {
        notices.push_str(
            "\n==== Graphviz (inside @hpcc-js/wasm, compiled to WebAssembly) — EPL-1.0 ====\n\n\
             Graphviz is distributed under the Eclipse Public License 1.0: \
             https://graphviz.org/license/ ; its source: https://gitlab.com/graphviz/graphviz\n",
        );
    }
    let path = out.join("THIRD-PARTY-NOTICES.txt");
    std::fs::write(&path, notices).map_err(|e| fail(format!("{}: {e}", path.display())))
}

/// Copy `from` (a file or a folder, recursively) to `to`.
fn copy_all(from: &Path, to: &Path) -> Result<(), Failed> {
    let fail = |e: std::io::Error, what: &Path| {
        Failed::with_message(format!("dist: cannot copy {}: {e}", what.display()))
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

/// Copy the files `static/examples/index.json` names into `examples`: the programs from
/// `tests/check/` and the specs from `tests/specs/` (the gallery is the corpus's own files,
/// never copies that could drift).
fn copy_gallery(examples: &Path) -> Result<(), Failed> {
    let index_path = root().join("static").join("examples").join("index.json");
    let index: serde_json::Value = std::fs::read_to_string(&index_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| {
            Failed::with_message(format!("dist: cannot read {}", index_path.display()))
        })?;
    let entries = index.as_array().map(Vec::as_slice).unwrap_or_default();
    for e in entries {
        for (key, dir) in [("program", "check"), ("spec", "specs")] {
            let name = e[key]
                .as_str()
                .filter(|n| !n.contains(['/', '\\']))
                .ok_or_else(|| {
                    Failed::with_message(format!(
                        "dist: an entry of index.json has no plain `{key}`: {e}"
                    ))
                })?;
            copy_all(
                &root().join("tests").join(dir).join(name),
                &examples.join(name),
            )?;
        }
    }
    Ok(())
}

/// `cargo xtask dist`: build the playground into `dist/` under the workspace and return
/// that folder's path.
pub fn dist() -> Result<PathBuf, Failed> {
    let out = root().join("dist");
    let wasm = build_wasm()?;
    let z3_build = npm_install()?;
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| {
            Failed::with_message(format!("dist: cannot clear {}: {e}", out.display()))
        })?;
    }
    std::fs::create_dir_all(&out)
        .map_err(|e| Failed::with_message(format!("dist: cannot create {}: {e}", out.display())))?;
    bindgen(&wasm, "no-modules", &out)?;
    eprintln!("==> copy static/, the gallery, z3-built.{{js,wasm}}, z3-bridge.js into dist/");
    copy_all(&root().join("static"), &out)?;
    copy_gallery(&out.join("examples"))?;
    for f in ["z3-built.js", "z3-built.wasm"] {
        copy_all(&z3_build.join(f), &out.join(f))?;
    }
    copy_all(
        &root().join("web").join("js").join("z3-bridge.js"),
        &out.join("z3-bridge.js"),
    )?;
    bundle_js(&out)?;
    eprintln!("    dist: {}", out.display());
    Ok(out)
}

/// `node tests/wasm/node-corpus.mjs ARGS…`, ready to run: z3, the release `cfp`, the wasm
/// built for Node and the npm packages are in place.
pub fn node_corpus(args: &[String]) -> Result<Command, Failed> {
    let z3 = tools::setup_z3()?;
    release_cli()?;
    let (node, out) = node_engine()?;
    let mut node = Command::new(node);
    // The deep-tree cases recurse through wasm frames past V8's default ~1 MB stack
    // (the lowering of a 1,490-link call chain): 4 MB, within the main thread's 8 MB.
    node.current_dir(root())
        .arg("--stack-size=4000")
        .arg(root().join("tests").join("wasm").join("node-corpus.mjs"))
        .args(args)
        .env("CFP_Z3", &z3)
        .env("CFP_WASM_NODE", &out);
    Ok(node)
}

/// The release `cfp`, built first (`CFP_BENCH_CFP=/path/to/cfp` names another build, to
/// measure an older commit's).
pub fn release_cli() -> Result<PathBuf, Failed> {
    if let Some(other) = std::env::var_os("CFP_BENCH_CFP") {
        return Ok(PathBuf::from(other));
    }
    let mut cli = cargo();
    cli.args(["build", "--release", "-p", "cfp-cli"]);
    run("cargo build --release -p cfp-cli", cli)?;
    Ok(root().join("target").join("release").join("cfp"))
}

/// The wasm engine for Node: the release wasm through `wasm-bindgen --target nodejs` into
/// `target/wasm-node/`, with the npm packages installed. Returns (`node`, that folder).
pub fn node_engine() -> Result<(PathBuf, PathBuf), Failed> {
    let wasm = build_wasm()?;
    npm_install()?;
    let out = root().join("target").join("wasm-node");
    bindgen(&wasm, "nodejs", &out)?;
    Ok((PathBuf::from("node"), out))
}

/// `cargo xtask test-wasm [FILTER]`: the Node-hosted corpus test (see the module docs).
pub fn test_wasm(args: &[String]) -> Result<(), Failed> {
    run("node tests/wasm/node-corpus.mjs", node_corpus(args)?)
}
