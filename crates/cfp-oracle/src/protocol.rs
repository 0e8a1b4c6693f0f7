//! A protocol spec as the oracle uses it: its text (handed to `cfp check`), its grammar
//! (membership of the JVM's words) and its terminals and wildcard types (projection of
//! the JVM's events).

use crate::error::{read, OracleError};
use cfp_syntax::spec_ast::{Spec, Terminal};
use std::collections::BTreeMap;
use std::path::Path;

/// A parsed spec.
#[derive(Clone, Debug)]
pub struct Protocol {
    /// The name it was asked by (`lock.cfg`, `wakelock`).
    pub name: String,
    /// Its text.
    pub text: String,
    /// The spec's tree.
    pub spec: Spec,
    /// Its grammar.
    pub grammar: cfp_grammar::Grammar,
    /// Terminals in order of first appearance (cfp's order of an API call's else-if chain).
    pub terminals: Vec<Terminal>,
    /// Declared wildcard types: `k` → simple class name.
    pub wildcard_types: BTreeMap<u32, String>,
    /// Every wildcard declared or used, ascending.
    pub wildcards: Vec<u32>,
}

impl Protocol {
    /// Parse `text` as the spec called `name`.
    pub fn parse(name: &str, text: &str) -> Result<Protocol, OracleError> {
        let parsed = cfp_syntax::parse_spec(text);
        if let Some(d) = parsed
            .diagnostics
            .iter()
            .find(|d| d.severity == cfp_syntax::Severity::Error)
        {
            return Err(OracleError::BadSpec {
                name: name.to_string(),
                message: d.message.clone(),
            });
        }
        let table = cfp_core::ApiTable::from_spec(&parsed.tree);
        Ok(Protocol {
            name: name.to_string(),
            text: text.to_string(),
            grammar: cfp_grammar::Grammar::from_spec(&parsed.tree),
            spec: parsed.tree,
            terminals: table.terminals,
            wildcard_types: table.wildcard_types,
            wildcards: table.wildcards,
        })
    }

    /// The spec a `// spec:` header names: a file of `specs_dir` (also when written as a
    /// path ending in its name), or a built-in protocol.
    pub fn resolve(header: &str, specs_dir: &Path) -> Result<Protocol, OracleError> {
        let by_name = Path::new(header).file_name().map(|n| specs_dir.join(n));
        for file in [Some(specs_dir.join(header)), by_name]
            .into_iter()
            .flatten()
        {
            if file.is_file() {
                return Protocol::parse(header, &read(&file)?);
            }
        }
        let builtin = cfp_syntax::builtin_spec(header.trim_end_matches(".cfg"));
        match builtin {
            Some(b) => Protocol::parse(header, b.text),
            None => Err(OracleError::BadSpec {
                name: header.to_string(),
                message: format!(
                    "neither a file of {} nor a built-in protocol ({})",
                    specs_dir.display(),
                    cfp_syntax::builtin_spec_names()
                ),
            }),
        }
    }

    /// The classes the protocol's calls are made on (its wildcards' types).
    pub fn api_classes(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.wildcard_types.values().map(String::as_str).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_resolve_by_name() {
        let p = Protocol::resolve("lock", Path::new("/nonexistent")).expect("built-in");
        assert_eq!(p.api_classes(), ["ReentrantLock"]);
        assert_eq!(p.terminals.len(), 2);
        assert!(Protocol::resolve("nope", Path::new("/nonexistent")).is_err());
    }
}
