//! The store on the file backend in a temp state dir: never the developer's keyring.

use super::*;
use crate::shared::state::test_support::temp_dir;

fn store(name: &str) -> (Store, PathBuf) {
    let dir = temp_dir(name).join("state");
    (Store::new(&dir, Choice::File), dir)
}

fn value(name: &str, origins: &[&str], value: &str) -> New {
    New {
        name: name.into(),
        origins: origins.iter().map(|o| o.to_string()).collect(),
        content: Content::Value(Zeroizing::new(value.into())),
    }
}

const VALUE: &str = "hunter2-a-value-no-one-sees";

#[test]
fn add_list_reveal_remove_round_trip_on_the_file_backend() {
    let (store, dir) = store("secrets-round-trip");
    assert!(store.list().unwrap().is_empty());
    let added = store
        .add(value(
            "gh_pass",
            &["https://github.com", "https://*.github.com"],
            VALUE,
        ))
        .unwrap();
    assert!(!added.replaced);
    assert_eq!(added.backend, Some(Backend::File));
    assert!(added.note.is_none());
    let listed = store.list().unwrap();
    assert_eq!(
        listed,
        vec![Listed {
            name: "gh_pass".into(),
            kind: Kind::Value,
            origins: vec!["https://github.com".into(), "https://*.github.com".into()],
        }]
    );
    let json = serde_json::to_string(&listed).unwrap();
    assert_eq!(
        json,
        r#"[{"name":"gh_pass","kind":"value","origins":["https://github.com","https://*.github.com"]}]"#
    );
    let revealed = store.reveal("gh_pass").unwrap();
    assert_eq!(*revealed.value, VALUE);
    assert_eq!(revealed.kind, Kind::Value);
    assert!(revealed.origins[1].matches("https://api.github.com/login"));
    assert!(!revealed.origins[0].matches("https://github.com.evil.example/"));
    assert!(!format!("{revealed:?}").contains(VALUE));
    // The index holds no value; the value file holds it.
    let index = std::fs::read_to_string(dir.join(INDEX_FILE)).unwrap();
    assert!(!index.contains(VALUE), "{index}");
    let values = std::fs::read_to_string(dir.join(VALUES_FILE)).unwrap();
    assert!(values.contains(VALUE));
    store.remove("gh_pass").unwrap();
    assert!(store.list().unwrap().is_empty());
    let values = std::fs::read_to_string(dir.join(VALUES_FILE)).unwrap();
    assert!(!values.contains(VALUE), "rm leaves the value: {values}");
    let gone = store.reveal("gh_pass").unwrap_err();
    assert!(matches!(gone, SecretError::NotFound { .. }), "{gone}");
    assert!(gone.to_string().contains("tabpilot secret list"), "{gone}");
    assert!(matches!(
        store.remove("gh_pass"),
        Err(SecretError::NotFound { .. })
    ));
}

#[test]
fn adding_a_name_again_replaces_it_and_says_so() {
    let (store, _) = store("secrets-replace");
    store
        .add(value("k", &["https://a.example"], "one"))
        .unwrap();
    let again = store
        .add(value("k", &["https://b.example"], "two"))
        .unwrap();
    assert!(again.replaced);
    let listed = store.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].origins, vec!["https://b.example".to_string()]);
    assert_eq!(*store.reveal("k").unwrap().value, "two");
}

#[cfg(unix)]
#[test]
fn the_index_and_the_value_file_are_owner_only() {
    use crate::shared::state::test_support::mode;
    let (store, dir) = store("secrets-modes");
    store.add(value("k", &["https://a.example"], "v")).unwrap();
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join(INDEX_FILE)), 0o600);
    assert_eq!(mode(&dir.join(VALUES_FILE)), 0o600);
}

#[test]
fn names_are_a_small_charset() {
    let (store, _) = store("secrets-names");
    for good in ["a", "GitHub_pass", "x.y-z", "_1", &"n".repeat(64)] {
        store.add(value(good, &["https://a.example"], "v")).unwrap();
    }
    for bad in [
        "",
        "-lead",
        ".lead",
        "has space",
        "slash/y",
        "é",
        "a;b",
        &"n".repeat(65),
    ] {
        let err = store
            .add(value(bad, &["https://a.example"], "v"))
            .unwrap_err();
        assert!(matches!(err, SecretError::BadName { .. }), "{bad:?}: {err}");
    }
    let err = store.reveal("no such/").unwrap_err();
    assert!(matches!(err, SecretError::BadName { .. }), "{err}");
}

#[test]
fn origins_are_site_policy_patterns_and_one_is_needed() {
    let (store, dir) = store("secrets-origins");
    let none = store.add(value("k", &[], "v")).unwrap_err();
    assert!(matches!(none, SecretError::NoOrigin { .. }), "{none}");
    assert!(none.to_string().contains("--origin"), "{none}");
    for bad in [
        "example.com",
        "https://example.com/path",
        "ftp://example.com",
    ] {
        let err = store
            .add(value("k", &["https://ok.example", bad], "v"))
            .unwrap_err();
        assert!(matches!(err, SecretError::BadOrigin(_)), "{bad}: {err}");
        assert!(err.to_string().contains(bad), "{err}");
    }
    assert!(
        !dir.join(VALUES_FILE).exists(),
        "a refused add kept a value"
    );
    store
        .add(value(
            "k",
            &["http://localhost:*", "*://*.example.com"],
            "v",
        ))
        .unwrap();
}

#[test]
fn an_empty_value_is_refused() {
    let (store, _) = store("secrets-empty");
    let err = store
        .add(value("k", &["https://a.example"], ""))
        .unwrap_err();
    assert!(matches!(err, SecretError::Empty), "{err}");
}

#[test]
fn a_totp_secret_reveals_the_code_of_the_moment() {
    let (store, dir) = store("secrets-totp");
    let seed = "otpauth://totp/Ex:me?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8";
    store
        .add(New {
            name: "otp".into(),
            origins: vec!["https://a.example".into()],
            content: Content::Totp(Zeroizing::new(seed.into())),
        })
        .unwrap();
    assert_eq!(store.list().unwrap()[0].kind, Kind::Totp);
    let revealed = store.reveal("otp").unwrap();
    assert_eq!(revealed.kind, Kind::Totp);
    assert_eq!(revealed.value.len(), 8);
    assert!(revealed.value.chars().all(|c| c.is_ascii_digit()));
    let expected = totp::Totp::parse(seed).unwrap().code_now();
    // The step may have turned between the two; then they differ, and the next reveal agrees.
    if *revealed.value != *expected {
        assert_eq!(*store.reveal("otp").unwrap().value, *expected);
    }
    let index = std::fs::read_to_string(dir.join(INDEX_FILE)).unwrap();
    assert!(!index.contains("GEZDGNBV"), "{index}");
    let bad = store.add(New {
        name: "otp2".into(),
        origins: vec!["https://a.example".into()],
        content: Content::Totp(Zeroizing::new("not a seed!".into())),
    });
    assert!(matches!(bad, Err(SecretError::BadTotp(_))));
}

#[test]
fn a_file_secret_keeps_its_absolute_path_and_no_value() {
    let (store, dir) = store("secrets-file");
    let file = dir.parent().unwrap().join("cv.pdf");
    std::fs::write(&file, b"%PDF").unwrap();
    let added = store
        .add(New {
            name: "cv".into(),
            origins: vec!["https://jobs.example".into()],
            content: Content::File(file.clone()),
        })
        .unwrap();
    assert_eq!(added.backend, None);
    let revealed = store.reveal("cv").unwrap();
    assert_eq!(revealed.kind, Kind::File);
    assert_eq!(
        *revealed.value,
        std::fs::canonicalize(&file).unwrap().to_str().unwrap()
    );
    assert!(!dir.join(VALUES_FILE).exists());
    let missing = store.add(New {
        name: "cv2".into(),
        origins: vec!["https://jobs.example".into()],
        content: Content::File(dir.join("nope.pdf")),
    });
    assert!(matches!(missing, Err(SecretError::BadFile { .. })));
    // Replacing a value with a file takes the value out of its backend.
    store
        .add(value("v", &["https://a.example"], VALUE))
        .unwrap();
    store
        .add(New {
            name: "v".into(),
            origins: vec!["https://a.example".into()],
            content: Content::File(file),
        })
        .unwrap();
    let values = std::fs::read_to_string(dir.join(VALUES_FILE)).unwrap();
    assert!(!values.contains(VALUE), "{values}");
}

#[test]
fn status_counts_secrets_and_names_the_file_when_it_is_chosen() {
    let (store, dir) = store("secrets-status");
    store.add(value("a", &["https://a.example"], "v")).unwrap();
    let status = store.status();
    let counts = status.counts.unwrap();
    assert_eq!((counts.total, counts.file, counts.keyring), (1, 1, 0));
    match status.new_values {
        NewValues::File { path, why } => {
            assert_eq!(path, dir.join(VALUES_FILE).display().to_string());
            assert_eq!(why, "TABPILOT_SECRET_BACKEND=file");
        }
        _ => panic!("the file was chosen"),
    }
}

#[test]
fn a_damaged_index_is_named_with_what_to_do() {
    let (store, dir) = store("secrets-corrupt");
    crate::shared::state::ensure_private_dir(&dir).unwrap();
    std::fs::write(dir.join(INDEX_FILE), "{not json").unwrap();
    let err = store.list().unwrap_err();
    assert!(matches!(err, SecretError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains(INDEX_FILE), "{err}");
}

#[test]
fn a_damaged_value_file_is_named_without_quoting_it() {
    let (store, dir) = store("secrets-corrupt-values");
    store.add(value("k", &["https://a.example"], "v")).unwrap();
    std::fs::write(dir.join(VALUES_FILE), r#""a-value-in-the-wrong-place""#).unwrap();
    let err = store.reveal("k").unwrap_err();
    assert!(matches!(err, SecretError::Corrupt { .. }), "{err}");
    assert!(!err.to_string().contains("wrong-place"), "{err}");
    assert!(err.to_string().contains("line 1"), "{err}");
}
