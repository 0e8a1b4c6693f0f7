//! JSON reading past serde_json's nesting limit of 128: events carry derivations as
//! trees, as deep as the counterexample's nested path (hundreds of levels for a loop
//! unrolled by many refinements, thousands for deep call chains). Every host that reads
//! events, results or recordings (the page, `cfp share`, share links) reads them through
//! here. The depth is still bounded ([`MAX_DEPTH`], checked by a scan before parsing), so
//! hostile input cannot exhaust the stack.

use serde::de::DeserializeOwned;

/// Deepest nesting of arrays and objects read.
pub const MAX_DEPTH: usize = 6_000;

/// Parses `text` as a `T`, nested up to [`MAX_DEPTH`] levels.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    from_slice(text.as_bytes())
}

/// Parses the bytes `json` as a `T`, nested up to [`MAX_DEPTH`] levels.
pub fn from_slice<T: DeserializeOwned>(json: &[u8]) -> Result<T, serde_json::Error> {
    if nesting(json) > MAX_DEPTH {
        return Err(serde::de::Error::custom(format!(
            "the JSON is nested deeper than {MAX_DEPTH} levels"
        )));
    }
    let mut de = serde_json::Deserializer::from_slice(json);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The deepest nesting of `[`/`{` outside strings (malformed text is the parser's to
/// reject).
fn nesting(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in json {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use crate::check::{DerivationNode, Production};

    #[test]
    fn deep_derivations_read_back() {
        // Debug builds use large frames: a big stack, as the page and the CLI have.
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(deep_derivations)
            .expect("thread")
            .join()
            .expect("no panic");
    }

    #[test]
    fn hostile_nesting_is_an_error_not_a_crash() {
        let text = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        let e = super::from_str::<serde_json::Value>(&text).expect_err("too deep");
        assert!(e.to_string().contains("deeper than"), "{e}");
        // Brackets inside strings do not count.
        let s = format!("[\"{}\\\"\"]", "[".repeat(10_000));
        assert!(super::from_str::<Vec<String>>(&s).is_ok());
    }

    fn deep_derivations() {
        let mut node = DerivationNode {
            production: Production {
                lhs: "L".into(),
                rhs: Vec::new(),
            },
            children: Vec::new(),
        };
        for i in 0..600 {
            node = DerivationNode {
                production: Production {
                    lhs: format!("N{i}"),
                    rhs: vec!["a".into(), "L".into()],
                },
                children: vec![node],
            };
        }
        let text = serde_json::to_string(&node).expect("json");
        assert!(
            serde_json::from_str::<DerivationNode>(&text).is_err(),
            "the default limit"
        );
        let back: DerivationNode = super::from_str(&text).expect("any depth");
        assert_eq!(back, node);
        let back: DerivationNode = super::from_slice(text.as_bytes()).expect("any depth");
        assert_eq!(back, node);
        assert!(super::from_str::<DerivationNode>(&format!("{text} x")).is_err());
    }
}
