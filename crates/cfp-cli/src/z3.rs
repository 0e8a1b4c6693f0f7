//! Finding and starting the native z3 (ARCHITECTURE.md): `--z3 PATH`, then `$CFP_Z3`, then the
//! copy `cargo xtask setup-z3` installs (`target/tools/z3/bin/z3`), then `z3` on `PATH`.
//!
//! This is the CLI's business (only `cfp-cli` looks at files, the environment and
//! processes); `cfp-smt` only runs the executable it is given.

use cfp_smt::{NativeZ3, SolverError};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How to install the solver, for error messages.
pub const INSTALL_HINT: &str = "install it with `cargo xtask setup-z3` (puts the z3-solver \
     5.4.1.0 wheel's binary in target/tools/z3/bin/z3), or set CFP_Z3=/path/to/z3, or put \
     `z3` on PATH";

fn exe_name() -> &'static str {
    if cfg!(windows) {
        "z3.exe"
    } else {
        "z3"
    }
}

/// Where to look, read from the process environment.
struct Places {
    explicit: Option<PathBuf>,
    env: Option<OsString>,
    exe: Option<PathBuf>,
    cwd: Option<PathBuf>,
    path: Option<OsString>,
}

impl Places {
    fn of_process(explicit: Option<&Path>) -> Places {
        Places {
            explicit: explicit.map(Path::to_path_buf),
            env: std::env::var_os("CFP_Z3"),
            exe: std::env::current_exe().ok(),
            cwd: std::env::current_dir().ok(),
            path: std::env::var_os("PATH"),
        }
    }

    /// The first existing candidate, or an error naming every place tried.
    fn find(&self) -> Result<PathBuf, SolverError> {
        if let Some(p) = &self.explicit {
            if p.is_file() {
                return Ok(p.clone());
            }
            return Err(SolverError::Unavailable(format!(
                "no z3 executable at {} (given with --z3); {INSTALL_HINT}",
                p.display()
            )));
        }
        let mut tried: Vec<String> = Vec::new();
        match &self.env {
            Some(v) if !v.is_empty() => {
                let p = PathBuf::from(v);
                if p.is_file() {
                    return Ok(p);
                }
                return Err(SolverError::Unavailable(format!(
                    "CFP_Z3={} is not a file; {INSTALL_HINT}",
                    p.display()
                )));
            }
            _ => tried.push("$CFP_Z3 (unset)".into()),
        }
        let tools = Path::new("tools").join("z3").join("bin").join(exe_name());
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(exe) = &self.exe {
            // `<exe>/../../tools` is `<exe's dir>/../tools`: target/debug/cfp → target/tools;
            // two more levels cover target/debug/deps and target/<triple>/release.
            for dir in exe.ancestors().skip(2).take(3) {
                candidates.push(dir.join(&tools));
            }
        }
        if let Some(cwd) = &self.cwd {
            candidates.push(cwd.join("target").join(&tools));
        }
        for c in candidates {
            if c.is_file() {
                return Ok(c);
            }
            tried.push(c.display().to_string());
        }
        if let Some(path) = &self.path {
            for dir in std::env::split_paths(path) {
                let c = dir.join(exe_name());
                if c.is_file() {
                    return Ok(c);
                }
            }
        }
        tried.push("`z3` on PATH".into());
        Err(SolverError::Unavailable(format!(
            "cannot find z3 (tried {}); {INSTALL_HINT}",
            tried.join(", ")
        )))
    }
}

/// The z3 executable to use (see the module docs for the order).
pub fn find_z3(explicit: Option<&Path>) -> Result<PathBuf, SolverError> {
    Places::of_process(explicit).find()
}

/// Find z3 and start it; a z3 that does not start gets the install hint.
pub fn start_z3(explicit: Option<&Path>) -> Result<NativeZ3, SolverError> {
    NativeZ3::new(find_z3(explicit)?).map_err(|e| match e {
        SolverError::Unavailable(m) => SolverError::Unavailable(format!("{m}; {INSTALL_HINT}")),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nowhere() -> Places {
        Places {
            explicit: None,
            env: None,
            exe: None,
            cwd: None,
            path: None,
        }
    }

    #[test]
    fn a_missing_solver_names_every_place_and_the_fix() {
        let err = Places {
            cwd: Some(PathBuf::from("/nonexistent-cwd")),
            ..nowhere()
        }
        .find()
        .unwrap_err();
        let SolverError::Unavailable(msg) = err else {
            panic!("{err:?}")
        };
        assert!(msg.contains("$CFP_Z3 (unset)"), "{msg}");
        assert!(
            msg.contains("/nonexistent-cwd/target/tools/z3/bin/z3"),
            "{msg}"
        );
        assert!(msg.contains("`z3` on PATH"), "{msg}");
        assert!(msg.contains("cargo xtask setup-z3"), "{msg}");
    }

    #[test]
    fn explicit_and_env_paths_must_exist() {
        let explicit = Places {
            explicit: Some(PathBuf::from("/nonexistent/z3")),
            env: Some("/also/missing".into()),
            ..nowhere()
        };
        let msg = explicit.find().unwrap_err().to_string();
        assert!(
            msg.contains("/nonexistent/z3") && msg.contains("--z3"),
            "{msg}"
        );
        let env = Places {
            env: Some("/also/missing".into()),
            ..nowhere()
        };
        let msg = env.find().unwrap_err().to_string();
        assert!(msg.contains("CFP_Z3=/also/missing"), "{msg}");
    }

    #[test]
    fn the_first_existing_place_wins() {
        let dir = std::env::temp_dir().join(format!("cfp-z3-find-{}", std::process::id()));
        let tools = dir.join("target/tools/z3/bin");
        std::fs::create_dir_all(&tools).unwrap();
        let installed = tools.join(exe_name());
        std::fs::write(&installed, "").unwrap();
        let on_path = dir.join("bin");
        std::fs::create_dir_all(&on_path).unwrap();
        std::fs::write(on_path.join(exe_name()), "").unwrap();
        let places = Places {
            cwd: Some(dir.clone()),
            path: Some(on_path.clone().into_os_string()),
            ..nowhere()
        };
        assert_eq!(places.find().unwrap(), installed);
        let places = Places {
            path: Some(on_path.clone().into_os_string()),
            ..nowhere()
        };
        assert_eq!(places.find().unwrap(), on_path.join(exe_name()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
