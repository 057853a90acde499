//! Page-changing tools and what every one of them answers besides its own work: the wait the
//! caller asked for after it, and `include`: one or several of `snapshot`, `diff`, `console`
//! and `network` (include.rs), answered here for every such tool, and a reply that ends with
//! what went wrong in the page meanwhile (footer.rs). What the action's own call found travels
//! on its `Out` (`Findings`, declared with the wire in src/shared/protocol/wire/act.rs).

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::args::{AfterAction, SNAPSHOT_TOKENS, parse, schema_after};
use super::ctx::Ctx;
use super::spec::Out;
use super::tool::{About, Answer, Tool, run, spec};
use super::{console, footer, network};

/// The least a snapshot beside other sections is given.
const MIN_SNAPSHOT_TOKENS: u64 = 1_000;

/// A page-changing tool taking arguments of type `A` (and the after-action ones) and answering
/// data of type `O`.
pub(super) fn acting<A, O>(
    about: About,
    f: for<'a> fn(&'a Ctx, A, &'a AfterAction) -> Answer<'a, O>,
) -> Tool
where
    A: DeserializeOwned + JsonSchema + Send + 'static,
    O: Serialize + JsonSchema + Send + 'static,
{
    let name = about.name;
    let spec = spec::<O>(about, schema_after::<A>());
    let run = run(move |cx, args: Value| {
        Box::pin(async move {
            let (args, after) = AfterAction::split(name, args)?;
            let a: A = parse(name, args)?;
            let mut out = f(cx, a, &after).await?;
            answer_after(cx, &after, &mut out).await;
            out.finish()
        })
    });
    Tool::from_parts(spec, run)
}

/// Adds to an action's reply what the caller asked to have after it, and what went wrong.
async fn answer_after<O: Serialize>(cx: &Ctx, after: &AfterAction, out: &mut Out<O>) {
    let findings = std::mem::take(&mut out.findings);
    out.notices.extend(footer::notices(&findings));
    if after.wants_console() {
        let section = console::since_action(findings.console);
        out.sections
            .push(("console", section.clone(), json!(section)));
    }
    if after.wants_network() {
        let (section, requests) = network::since_action(findings.network);
        out.sections.push(("network", section, requests));
    }
    // Several sections share one budget: the snapshot gets what the console and network
    // sections left of it (a few characters to a token), never under a floor it is useful at.
    if after.wants_snapshot() && out.snapshot.is_none() {
        let used: usize = out.sections.iter().map(|(_, text, _)| text.len() / 4).sum();
        let left = SNAPSHOT_TOKENS.saturating_sub(used as u64);
        cx.attach_snapshot(out, left.max(MIN_SNAPSHOT_TOKENS)).await;
    }
    if after.wants_diff() && out.diff.is_none() {
        cx.attach_diff(out).await;
    }
}
