//! The elements a recorded call acts on, described by the action itself: the call's page script
//! describes each element it names before acting (extension/page/kit.js) and its answer carries
//! them, so recording adds no call to the page. A recorded call runs inside `described`; each
//! call it sends asks for the description (`Call::describe`) until an action's answer has given
//! one.

use std::cell::RefCell;

use crate::shared::protocol::Op;
use crate::shared::protocol::wire::locate::Target;

tokio::task_local! {
    /// The recorded call's described elements, once an answer has given them.
    static DESCRIBED: RefCell<Option<Vec<Target>>>;
}

/// Runs a recorded call; returns its output and the elements its action described (none when
/// no answer described them).
pub async fn described<F: Future>(call: F) -> (F::Output, Vec<Target>) {
    let run = async {
        let out = call.await;
        let targets = DESCRIBED.with(|d| d.borrow_mut().take());
        (out, targets.unwrap_or_default())
    };
    DESCRIBED.scope(RefCell::new(None), run).await
}

/// Whether a call of `op` sent now asks for its elements: an action on refs, in a recorded call
/// none of whose answers has described them yet.
pub fn wanted(op: Op) -> bool {
    let acts_on_refs = matches!(
        op,
        Op::Click | Op::Type | Op::Hover | Op::Focus | Op::Select | Op::Press | Op::FillForm
    );
    acts_on_refs
        && DESCRIBED
            .try_with(|d| d.borrow().is_none())
            .unwrap_or(false)
}

/// Keeps the elements an answer described, for the recorded call it belongs to.
pub fn note(targets: Vec<Target>) {
    if targets.is_empty() {
        return;
    }
    // Outside a recorded call there is nowhere to keep them, and nothing wants them.
    let _ = DESCRIBED.try_with(|d| {
        d.borrow_mut().get_or_insert(targets);
    });
}
