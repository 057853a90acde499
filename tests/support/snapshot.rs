//! The ref of an element the end-to-end tests and the figures act on, from a snapshot they were
//! shown; one that is not there fails the run, with the snapshot.

/// The ref on the first snapshot line with this role and name.
pub(crate) fn ref_of(snapshot: &str, role: &str, name: &str) -> String {
    tabpilot::controller::tools::snapshot::ref_of(snapshot, role, name)
        .unwrap_or_else(|| panic!("no {role} {name:?} with a ref in the snapshot:\n{snapshot}"))
        .to_string()
}
