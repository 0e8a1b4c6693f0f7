//! Library classes whose place in the type hierarchy is known.
//!
//! A call `x.release()` on a receiver of a library type that is not the class of an API's
//! wildcard may still be a call of the API: through an unknown subclass. When the
//! receiver's type is a *class* whose superclasses are known, and the API's class is a
//! class too, the two are related only if one is among the other's superclasses (a class
//! has one superclass chain): a `MediaCodec` is never a `WifiLock`, and its `release()` is
//! no event of the WifiLock protocol.
//!
//! The table lists classes only (never interfaces), each with every superclass it has had
//! in the platform's versions (a superset is safe: it only makes fewer pairs unrelated). A
//! program names one of them when it imports it by its qualified name and imports no other
//! class of that simple name.

/// Well-known library classes: simple name, package, and every superclass it has had
/// (simple names, up to `Object`, which is left out).
pub const CLASSES: &[(&str, &str, &[&str])] = &[
    ("Surface", "android.view", &[]),
    ("VelocityTracker", "android.view", &[]),
    ("SurfaceTexture", "android.graphics", &[]),
    ("Bitmap", "android.graphics", &[]),
    ("Camera", "android.graphics", &[]),
    ("Canvas", "android.graphics", &["BaseCanvas"]),
    (
        "AudioTrack",
        "android.media",
        &["PlayerBase", "Stub", "Binder"],
    ),
    (
        "MediaPlayer",
        "android.media",
        &["PlayerBase", "Stub", "Binder"],
    ),
    (
        "SoundPool",
        "android.media",
        &["PlayerBase", "Stub", "Binder"],
    ),
    ("AudioRecord", "android.media", &[]),
    ("MediaCodec", "android.media", &[]),
    ("MediaCrypto", "android.media", &[]),
    ("MediaDrm", "android.media", &[]),
    ("MediaExtractor", "android.media", &[]),
    ("MediaMuxer", "android.media", &[]),
    ("MediaMetadataRetriever", "android.media", &[]),
    ("ImageReader", "android.media", &[]),
    ("Parcel", "android.os", &[]),
    ("TypedArray", "android.content.res", &[]),
    ("Semaphore", "java.util.concurrent", &[]),
];

/// The classes of [`CLASSES`] the program names (see the module docs), with their
/// superclasses, given the program's imports as written.
pub fn named_by(imports: &[String]) -> Vec<(&'static str, &'static [&'static str])> {
    CLASSES
        .iter()
        .filter(|(simple, package, _)| {
            let qualified = format!("{package}.{simple}");
            let suffix = format!(".{simple}");
            imports.contains(&qualified)
                && imports
                    .iter()
                    .all(|i| *i == qualified || !i.ends_with(&suffix))
        })
        .map(|(simple, _, supers)| (*simple, *supers))
        .collect()
}

/// Whether `name` is a class of [`CLASSES`] (whatever the program imports).
pub fn is_listed_class(name: &str) -> bool {
    CLASSES.iter().any(|(simple, _, _)| *simple == name)
}

/// The superclasses [`CLASSES`] lists for the class `name` (none for another name).
pub fn listed_superclasses(name: &str) -> &'static [&'static str] {
    CLASSES
        .iter()
        .find(|(simple, _, _)| *simple == name)
        .map_or(&[], |(_, _, supers)| supers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imports(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_class_is_named_only_by_its_own_single_type_import() {
        let named = named_by(&imports(&["android.view.Surface", "java.util.List"]));
        assert_eq!(named, vec![("Surface", &[][..])]);
        // Another class of that simple name imported too, an on-demand import, none.
        assert!(named_by(&imports(&["android.view.Surface", "com.x.Surface"])).is_empty());
        assert!(named_by(&imports(&["android.view.*"])).is_empty());
        assert!(named_by(&[]).is_empty());
    }

    #[test]
    fn the_table_has_one_entry_per_simple_name() {
        for (i, (a, _, _)) in CLASSES.iter().enumerate() {
            assert!(CLASSES[i + 1..].iter().all(|(b, _, _)| a != b), "{a} twice");
        }
    }

    #[test]
    fn listed_superclasses_are_those_of_the_table() {
        assert_eq!(listed_superclasses("Canvas"), ["BaseCanvas"]);
        assert!(listed_superclasses("Camera").is_empty());
        assert!(listed_superclasses("NotInTheTable").is_empty());
    }
}
