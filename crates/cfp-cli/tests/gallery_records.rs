//! The playground's gallery ships a recorded run of every example
//! (`static/examples/records/<id>.record.json`, made by `cfp check --record --no-timing`), so
//! that a page that cannot run Z3 (not cross-origin isolated, no service worker) still replays
//! the gallery. This test re-records every example and requires the shipped file to be the
//! same run: same inputs, options, events and result (`stats.smt_scripts` aside: it depends on
//! how many z3 processes this machine runs in parallel).
//!
//! After a change to the checker, refresh them with
//! `CFP_BLESS=1 cargo test -p cfp-cli --test gallery_records`.

mod common;
use common::{cfp, workspace};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Entry {
    id: String,
    program: String,
    spec: String,
}

/// The record without what may differ between machines.
fn comparable(mut record: Value) -> Value {
    if let Some(stats) = record
        .get_mut("result")
        .and_then(|r| r.get_mut("stats"))
        .and_then(Value::as_object_mut)
    {
        stats.remove("smt_scripts");
    }
    record
}

#[test]
fn gallery_recordings_are_current() {
    let root = workspace();
    let index = std::fs::read_to_string(root.join("static/examples/index.json")).expect("index");
    let entries: Vec<Entry> = serde_json::from_str(&index).expect("index.json parses");
    assert!(!entries.is_empty());
    let bless = std::env::var_os("CFP_BLESS").is_some();
    let scratch = std::env::temp_dir().join(format!("cfp-gallery-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut stale = Vec::new();
    for e in &entries {
        let fresh = scratch.join(format!("{}.record.json", e.id));
        let fresh_s = fresh.display().to_string();
        let program = format!("tests/check/{}", e.program);
        let spec = format!("tests/specs/{}", e.spec);
        let (code, out, err) = cfp(&[
            "check",
            &program,
            "--spec",
            &spec,
            "--record",
            &fresh_s,
            "--no-timing",
        ]);
        assert!(code <= 2, "{}: exit {code}: {out}{err}", e.id);
        let text = std::fs::read_to_string(&fresh).expect("record written");
        let shipped_path = root.join(format!("static/examples/records/{}.record.json", e.id));
        if bless {
            std::fs::create_dir_all(shipped_path.parent().expect("parent")).expect("records dir");
            std::fs::write(&shipped_path, &text).expect("write record");
            continue;
        }
        let shipped = std::fs::read_to_string(&shipped_path).unwrap_or_default();
        let new: Value = serde_json::from_str(&text).expect("record JSON");
        let old: Value = serde_json::from_str(&shipped).unwrap_or(Value::Null);
        if comparable(new) != comparable(old) {
            stale.push(e.id.clone());
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        stale.is_empty(),
        "the gallery recordings of {stale:?} are missing or not what the checker records now; \
         refresh them with `CFP_BLESS=1 cargo test -p cfp-cli --test gallery_records`"
    );
}
