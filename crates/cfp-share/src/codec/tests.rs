//! The codec's tests: round trips over the gallery, limits, hostile and malformed input.

use super::*;
use crate::state::{EmbedOptions, Recording, ShareOptions};
use std::path::PathBuf;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Deserialize)]
struct GalleryEntry {
    program: String,
    spec: String,
}

/// The playground's gallery (`static/examples/index.json`, whose files are the corpus's).
fn gallery() -> Vec<ShareState> {
    let root = workspace();
    let index =
        std::fs::read_to_string(root.join("static/examples/index.json")).expect("index.json");
    let entries: Vec<GalleryEntry> = serde_json::from_str(&index).expect("index.json parses");
    entries
        .iter()
        .map(|e| ShareState {
            program: std::fs::read_to_string(root.join("tests/check").join(&e.program))
                .expect("program"),
            spec: std::fs::read_to_string(root.join("tests/specs").join(&e.spec)).expect("spec"),
            ..ShareState::default()
        })
        .collect()
}

fn full_state() -> ShareState {
    ShareState {
        program: "class A { void m() { l.lock(); } }".into(),
        spec: "S -> lock unlock S | ε".into(),
        options: ShareOptions {
            max_iterations: Some(40),
            entry: Some("A.m".into()),
            harness: None,
        },
        iteration: Some(3),
        embed: EmbedOptions {
            read_only: true,
            start_at: Some(2),
            autoplay: true,
        },
        record: None,
    }
}

/// Builds a fragment from arbitrary JSON bytes, as a hostile link maker would.
fn fragment_of(json: &[u8]) -> String {
    format!(
        "v1.{}",
        B64.encode(miniz_oxide::deflate::compress_to_vec(json, 9))
    )
}

#[test]
fn gallery_round_trips() {
    let states = gallery();
    assert_eq!(states.len(), 15);
    for (i, s) in states.into_iter().enumerate() {
        let mut s = s;
        s.iteration = Some(i as u32);
        if i % 2 == 0 {
            s.options.max_iterations = Some(10 + i as u32);
            s.embed.read_only = true;
            s.embed.start_at = Some(1);
        }
        let frag = encode(&s);
        assert!(frag.starts_with("v1."));
        assert!(frag[3..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        let d = decode(&frag).expect("decodes");
        assert_eq!(d.state, s);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        // With a leading '#', as read from `location.hash`.
        assert_eq!(decode(&format!("#{frag}")).expect("decodes").state, s);
    }
}

#[test]
fn full_state_round_trips_and_defaults_are_omitted() {
    let s = full_state();
    assert_eq!(decode(&encode(&s)).expect("decodes").state, s);
    let minimal = ShareState {
        program: "p".into(),
        spec: "s".into(),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_string(&minimal).expect("json"),
        r#"{"program":"p","spec":"s"}"#
    );
    assert_eq!(decode(&encode(&minimal)).expect("decodes").state, minimal);
}

#[test]
fn encoding_is_deterministic() {
    for s in gallery().into_iter().chain([full_state()]) {
        let a = encode(&s);
        let b = encode(&s.clone());
        assert_eq!(a, b);
    }
}

#[test]
fn leading_hash_is_optional() {
    let f = encode(&full_state());
    assert_eq!(decode(&f), decode(&format!("#{f}")));
    assert!(decode(&f).is_ok());
}

#[test]
fn hostile_markup_survives_as_plain_text() {
    let s = ShareState {
        program: "<script>alert(1)</script>\"'&<img src=x onerror=alert(2)>\u{0}\u{202e}".into(),
        spec: "</textarea><script>document.cookie</script>".into(),
        ..Default::default()
    };
    let d = decode(&encode(&s)).expect("decodes");
    assert_eq!(d.state, s);
}

#[test]
fn deflate_bombs_are_refused() {
    let zeros = vec![0u8; 50 * 1024 * 1024];
    let bomb = miniz_oxide::deflate::compress_to_vec(&zeros, 9);
    drop(zeros);
    assert_eq!(
        inflate_bounded(&bomb, MAX_INFLATED),
        Err(ShareError::TooLarge { max: MAX_INFLATED })
    );
    // The same bomb through the public entry point: refused as too long or too large.
    let frag = format!("v1.{}", B64.encode(&bomb));
    assert!(matches!(
        decode(&frag),
        Err(ShareError::TooLong { .. } | ShareError::TooLarge { .. })
    ));
    // A bomb that fits in a fragment reaches the inflater and is refused there.
    let smaller = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 20 * 1024 * 1024], 9);
    let frag = format!("v1.{}", B64.encode(&smaller));
    assert!(frag.len() <= MAX_FRAGMENT, "{}", frag.len());
    assert_eq!(
        decode(&frag),
        Err(ShareError::TooLarge { max: MAX_INFLATED })
    );
}

#[test]
fn too_long_fragment_is_refused() {
    let f = format!("v1.{}", "A".repeat(MAX_FRAGMENT));
    assert!(matches!(decode(&f), Err(ShareError::TooLong { .. })));
    assert!(matches!(
        decode(&format!("#{f}")),
        Err(ShareError::TooLong { .. })
    ));
}

#[test]
fn long_links_are_flagged() {
    // Incompressible program text, so the fragment is long.
    let mut rng = Rng(42);
    let program: String = (0..4000)
        .map(|_| char::from(b'!' + (rng.next() % 90) as u8))
        .collect();
    let s = ShareState {
        program,
        spec: "S -> a".into(),
        ..Default::default()
    };
    let e = encode_checked(&s);
    assert!(e.fragment.len() > WARN_FRAGMENT);
    assert!(e.is_long());
    let d = decode(&e.fragment).expect("decodes");
    assert_eq!(d.state, s);
    assert!(matches!(d.warnings[..], [ShareWarning::LongLink { .. }]));
    let short = encode_checked(&full_state());
    assert!(!short.is_long());
    assert!(share_warnings(&format!("#{}", "x".repeat(WARN_FRAGMENT))).is_empty());
    assert_eq!(share_warnings(&"x".repeat(WARN_FRAGMENT + 1)).len(), 1);
}

#[test]
fn unknown_versions_are_refused() {
    let payload = encode(&full_state());
    let body = &payload[3..];
    assert_eq!(
        decode(&format!("v2.{body}")),
        Err(ShareError::UnsupportedVersion("v2".into()))
    );
    assert_eq!(
        decode(&format!("#v999.{body}")),
        Err(ShareError::UnsupportedVersion("v999".into()))
    );
    assert!(matches!(
        decode(&format!("v01.{body}")),
        Err(ShareError::UnsupportedVersion(_))
    ));
    assert!(matches!(
        decode(&format!("v99999999999999999999999.{body}")),
        Err(ShareError::UnsupportedVersion(v)) if v.chars().count() <= MAX_VERSION_ECHO + 1
    ));
    assert_eq!(
        decode(&format!("x1.{body}")),
        Err(ShareError::MissingVersion)
    );
    assert_eq!(decode(body), Err(ShareError::MissingVersion));
    assert_eq!(decode("v.abc"), Err(ShareError::MissingVersion));
    assert_eq!(decode(""), Err(ShareError::Empty));
    assert_eq!(decode("#"), Err(ShareError::Empty));
}

#[test]
fn malformed_inputs_give_clear_errors() {
    let f = encode(&full_state());
    // Bad base64.
    assert!(matches!(
        decode("v1.@@@@"),
        Err(ShareError::MalformedBase64(_))
    ));
    assert!(matches!(
        decode("v1.ab+/"),
        Err(ShareError::MalformedBase64(_))
    ));
    // Truncated.
    let cut = &f[..f.len() / 2];
    assert!(matches!(
        decode(cut),
        Err(ShareError::CorruptDeflate(_) | ShareError::MalformedBase64(_))
    ));
    // Empty payload.
    assert!(matches!(decode("v1."), Err(ShareError::CorruptDeflate(_))));
    // Garbage that is valid base64.
    assert!(matches!(
        decode("v1.____________"),
        Err(ShareError::CorruptDeflate(_))
    ));
    // Valid deflate, not JSON: error with a position.
    match decode(&fragment_of(b"{\"program\": \"x\",\n  oops}")) {
        Err(ShareError::InvalidJson { line, column, .. }) => {
            assert_eq!(line, 2);
            assert!(column > 0);
        }
        other => panic!("{other:?}"),
    }
    // Valid JSON, wrong shape.
    assert!(matches!(
        decode(&fragment_of(br#"{"program": 3, "spec": ""}"#)),
        Err(ShareError::InvalidJson { .. })
    ));
    assert!(matches!(
        decode(&fragment_of(br#"{"spec": ""}"#)),
        Err(ShareError::InvalidJson { .. })
    ));
    // Invalid UTF-8 and deep nesting.
    assert!(matches!(
        decode(&fragment_of(b"{\"program\": \"\xff\", \"spec\": \"\"}")),
        Err(ShareError::InvalidJson { .. })
    ));
    let deep = format!(
        "{{\"program\":\"\",\"spec\":\"\",\"x\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    // Deeply nested unknown values are skipped without recursion trouble.
    match decode(&fragment_of(deep.as_bytes())) {
        Ok(d) => assert_eq!(
            d.warnings,
            vec![ShareWarning::IgnoredFields(vec!["x".into()])]
        ),
        Err(e) => assert!(matches!(e, ShareError::InvalidJson { .. }), "{e:?}"),
    }
    let deep_known = format!(
        "{{\"program\":{}\"\"{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(matches!(
        decode(&fragment_of(deep_known.as_bytes())),
        Err(ShareError::InvalidJson { .. })
    ));
    // Trailing data after the deflate stream.
    assert!(matches!(
        decode(&format!("{f}AAAA")),
        Err(ShareError::CorruptDeflate(_) | ShareError::MalformedBase64(_))
    ));
    // Every error has a non-empty message.
    for e in [
        ShareError::Empty,
        ShareError::MissingVersion,
        ShareError::UnsupportedVersion("v2".into()),
        ShareError::TooLong { len: 1, max: 0 },
        ShareError::MalformedBase64("x".into()),
        ShareError::CorruptDeflate("corrupt".into()),
        ShareError::TooLarge { max: 1 },
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn unknown_fields_are_ignored_with_a_warning() {
    let json = br#"{"program":"p","spec":"s","theme":"dark","embed":{"autoplay":true,"chrome":0},"options":{"max_iterations":5}}"#;
    let d = decode(&fragment_of(json)).expect("decodes");
    assert_eq!(d.state.program, "p");
    assert!(d.state.embed.autoplay);
    assert_eq!(d.state.options.max_iterations, Some(5));
    assert_eq!(
        d.warnings,
        vec![ShareWarning::IgnoredFields(vec![
            "embed.chrome".into(),
            "theme".into()
        ])]
    );
}

#[test]
fn encoder_output_has_no_trailing_bytes() {
    for s in gallery() {
        let f = encode(&s);
        let raw = B64.decode(&f[3..]).expect("b64");
        assert!(inflate_bounded(&raw, MAX_INFLATED).is_ok());
    }
}

/// xorshift64*: a tiny deterministic RNG for the fuzz test.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn fuzz_never_panics() {
    const ALPHABET: &[u8] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=#v+/% <>";
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let valid: Vec<String> = gallery()
        .iter()
        .take(3)
        .map(encode)
        .chain([encode(&full_state())])
        .collect();
    for case in 0..20_000u32 {
        let input: String = match case % 5 {
            // Random bytes (lossily made UTF-8).
            0 => {
                let n = (rng.next() % 200) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            // Random base64-ish text after a version prefix.
            1 => {
                let n = (rng.next() % 300) as usize;
                let body: String = (0..n)
                    .map(|_| char::from(ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize]))
                    .collect();
                format!("v1.{body}")
            }
            // Mutations of valid links: flip, insert, delete characters; truncate.
            2 | 3 => {
                let mut b = valid[(rng.next() % valid.len() as u64) as usize]
                    .clone()
                    .into_bytes();
                for _ in 0..=(rng.next() % 4) {
                    let i = (rng.next() % b.len().max(1) as u64) as usize;
                    let c = ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize];
                    match rng.next() % 4 {
                        0 if i < b.len() => b[i] = c,
                        1 => b.insert(i.min(b.len()), c),
                        2 if i < b.len() => {
                            b.remove(i);
                        }
                        _ => b.truncate(i),
                    }
                }
                String::from_utf8_lossy(&b).into_owned()
            }
            // Valid deflate of random bytes: must fail as JSON, not panic.
            _ => {
                let n = (rng.next() % 200) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                fragment_of(&bytes)
            }
        };
        let result = std::panic::catch_unwind(|| decode(&input));
        assert!(result.is_ok(), "panic on case {case}: {input:?}");
    }
}

#[test]
fn recordings_round_trip() {
    let events: Vec<serde_json::Value> = vec![
        serde_json::json!({"kind": "grammar-built", "iteration": 1, "productions": 12}),
        serde_json::json!({"kind": "inclusion", "iteration": 1, "included": false}),
        serde_json::json!({"kind": "finished", "verdict": {"verified": {"iterations": 1}}}),
    ];
    let s = ShareState {
        record: Some(Recording {
            events,
            result: serde_json::json!({"verdict": "verified", "iterations": 1, "stats": {"steps": 1}}),
        }),
        ..full_state()
    };
    let f = encode(&s);
    let d = decode(&f).expect("decodes");
    assert_eq!(d.state, s);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    // Deterministic, and a link without a recording does not mention it.
    assert_eq!(encode(&s.clone()), f);
    let without = encode(&full_state());
    let json =
        inflate_bounded(&B64.decode(&without[3..]).expect("b64"), MAX_INFLATED).expect("inflates");
    assert!(!String::from_utf8_lossy(&json).contains("record"));
    // A recording with an odd shape inside `events` is carried verbatim (the page checks it).
    let odd = ShareState {
        record: Some(Recording {
            events: vec![serde_json::json!([1, "x", null])],
            result: serde_json::Value::Null,
        }),
        ..ShareState::default()
    };
    assert_eq!(decode(&encode(&odd)).expect("decodes").state, odd);
}
