//! Routing a controller's call: pick the browser, resolve the tab it acts on (opening an agent's
//! first tab, once), ask the browser and wait for its answer, and keep the books from the tab
//! events that answer carries.

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::books::Books;
use crate::shared::error::{CONNECT_A_BROWSER, Code, ToolError};
use crate::shared::protocol::wire::tabs::TabOpen;
use crate::shared::protocol::{
    AgentKey, Answer, BrowserId, BrowserKind, Call, Scope, TabEvent, TabId, Target,
};

/// Longest a call may wait on a browser when the caller names no timeout.
const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a browser has to open an agent's first tab.
const OPEN_TIMEOUT: Duration = Duration::from_secs(15);
/// How long past a call's own timeout (which the browser enforces) its reply counts as lost.
const BACKSTOP: Duration = Duration::from_secs(2);

/// A browser's answer to one call, or why none will come.
pub(super) type Reply = oneshot::Receiver<Result<Answer, ToolError>>;

/// A connected browser, as an agent names it.
#[derive(Clone, Debug)]
pub(super) struct BrowserRef {
    pub(super) id: BrowserId,
    pub(super) label: Option<String>,
    pub(super) kind: BrowserKind,
}

impl std::fmt::Display for BrowserRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            BrowserKind::Managed => "managed",
            BrowserKind::User => "user",
        };
        match &self.label {
            Some(label) => write!(f, "{label:?} ({kind}, id {})", self.id),
            None => write!(f, "id {} ({kind})", self.id),
        }
    }
}

/// What routing needs from the roster: which browsers are connected, and their outboxes.
pub(super) trait Browsers: Sync {
    /// The connected browsers.
    fn connected(&self) -> Vec<BrowserRef>;

    /// Numbers `call` afresh and puts it in `browser`'s outbox; returns its number and where its
    /// answer comes. Refused with NO_BROWSER when that browser is not connected.
    fn post(
        &self,
        browser: &BrowserId,
        call: Call,
    ) -> impl Future<Output = Result<(u64, Reply), ToolError>> + Send;

    /// Drops a posted call whose answer no longer matters.
    fn forget(&self, id: u64);

    /// Tells `browser` that the posted call `id` is no longer wanted (its caller cancelled it);
    /// nothing when it has answered already.
    fn cancel(&self, browser: &BrowserId, id: u64);
}

/// A routed call's answer: its value, where it ran, the tab's address as it answered, and the
/// elements a recorded action described.
#[derive(Debug)]
pub(super) struct Routed {
    pub(super) value: Value,
    pub(super) target: Target,
    pub(super) url: Option<String>,
    pub(super) described: Vec<crate::shared::protocol::wire::locate::Target>,
}

/// The agents' books, and the routing of their calls by them.
#[derive(Default)]
pub(super) struct Router {
    books: Mutex<Books>,
    /// Serialises opening an agent's first tab, so two racing calls open one.
    opening: tokio::sync::Mutex<()>,
}

impl Router {
    pub(super) fn books(&self) -> MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `session`'s call in a browser; returns its value and where it ran.
    #[cfg(test)]
    pub(super) async fn route(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        call: Call,
    ) -> Result<Routed, ToolError> {
        self.route_until(browsers, session, call, &CancellationToken::new())
            .await
    }

    /// As `route`, until `stop` is cancelled (the caller cancelled the call): a call not yet
    /// passed to its browser never is, and one passed on is cancelled there too, its answer
    /// (what it had done by then) still awaited and returned.
    pub(super) async fn route_until(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        mut call: Call,
        stop: &CancellationToken,
    ) -> Result<Routed, ToolError> {
        if call.op.relay_only() {
            return Err(ToolError::refused(
                Code::BadArgs,
                format!("{} is the relay's to send", call.op.name()),
            ));
        }
        let not_sent = || {
            ToolError::refused(
                Code::Cancelled,
                "it had not reached the browser; nothing was done",
            )
        };
        if stop.is_cancelled() {
            return Err(not_sent());
        }
        // The operation says what it needs; a controller's own claim is not trusted.
        call.scope = call.op.scope();
        let browser = self.pick_browser(browsers, session, &call)?;
        let tab = match (call.scope, call.target.tab) {
            (Scope::Tab, named) => {
                Some(self.resolve_tab(browsers, session, &browser, named).await?)
            }
            (_, Some(tab)) => {
                let mut books = self.books();
                books.may_touch(session, &browser, tab)?;
                books.touch(session, &browser, tab);
                Some(tab)
            }
            (_, None) => None,
        };
        call.target = Target { browser: None, tab };
        if stop.is_cancelled() {
            return Err(not_sent());
        }
        self.ask(browsers, session, &browser, call, Some(stop))
            .await
            .inspect_err(|e| {
                // A tab the browser says is gone leaves the books, so the agent's next page
                // call opens a fresh one instead of failing on it again; so does a tab the
                // person has not shared, which the agent's claim does not make its own.
                if let (Code::TabGone | Code::TabNotShared, Some(tab)) = (e.code, tab) {
                    self.books()
                        .record(Some(session), &browser, TabEvent::Closed { tab });
                }
            })
    }

    /// The browser a call goes to: the one named (by id or label), else the one holding the
    /// agent's current tab, else the only one connected. A retry never changes browser, and an
    /// agent that named one is never moved to another.
    pub(super) fn pick_browser(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        call: &Call,
    ) -> Result<BrowserId, ToolError> {
        let target = &call.target;
        let connected = browsers.connected();
        if let Some(name) = &target.browser {
            return named(&connected, name).map(|b| b.id.clone());
        }
        let holding = self.books().current(session).map(|(b, _)| b.clone());
        match holding {
            Some(browser) if connected.iter().any(|b| b.id == browser) => return Ok(browser),
            // The agent's tab is in a browser that left. Its page calls wait for that browser
            // (it may come back, tab and all); opening a tab or listing them is not stuck on it.
            Some(browser) if call.op.scope() == Scope::Tab || target.tab.is_some() => {
                return Err(ToolError::refused(
                    Code::NoBrowser,
                    format!(
                        "the browser holding this agent's tab ({browser}) is not connected; \
                         browser_new_tab opens a tab in a browser that is"
                    ),
                ));
            }
            _ => {}
        }
        match connected.as_slice() {
            [] => Err(ToolError::refused(
                Code::NoBrowser,
                format!("no browser is connected to the relay. {CONNECT_A_BROWSER}"),
            )),
            [only] => Ok(only.id.clone()),
            several => Err(ambiguous(several, "are connected")),
        }
    }

    /// The tab a page call acts on. A tab named by the caller is handed to this agent unless
    /// another agent holds it; with none named it is the agent's current tab, opened in the
    /// background on first use.
    async fn resolve_tab(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        browser: &BrowserId,
        named: Option<TabId>,
    ) -> Result<TabId, ToolError> {
        if let Some(tab) = named {
            self.books().claim(session, browser, tab)?;
            return Ok(tab);
        }
        let _opening = self.opening.lock().await;
        let current = self.books().page_tab(session, browser)?;
        if let Some(tab) = current {
            self.books().touch(session, browser, tab);
            return Ok(tab);
        }
        let open = TabOpen {
            url: None,
            active: false,
            incognito: false,
        };
        let open = Call::of(&open, OPEN_TIMEOUT);
        self.ask(browsers, session, browser, open, None).await?;
        // The answer's `opened` event made the new tab current.
        self.books()
            .current(session)
            .filter(|(b, _)| b == browser)
            .map(|(_, tab)| *tab)
            .ok_or_else(|| ToolError::failed(Code::Internal, "the browser opened no tab"))
    }

    /// Passes a call to a browser and waits for its answer (its value, and the address of the
    /// tab it ran in); the tab events the answer carries go into `session`'s books. Once `stop`
    /// is cancelled the browser is told, and its answer is still awaited.
    pub(super) async fn ask(
        &self,
        browsers: &impl Browsers,
        session: &AgentKey,
        browser: &BrowserId,
        mut call: Call,
        stop: Option<&CancellationToken>,
    ) -> Result<Routed, ToolError> {
        let op = call.op;
        let target = Target {
            browser: Some(browser.to_string()),
            tab: call.target.tab,
        };
        let timeout = call.timeout().unwrap_or(DEFAULT_CALL_TIMEOUT);
        call.timeout_ms = Some(timeout.as_millis() as u64);
        // Whose call it is: a tab it opens goes into these books (the browser keeps that, for a
        // relay that restarts), and the network rules of its site policy are this agent's, to
        // drop when its session ends. (Whatever a controller put here is not trusted.)
        call.owner = Some(session.clone());
        let (id, mut reply) = browsers.post(browser, call).await?;
        let answered = async {
            if let Some(stop) = stop {
                tokio::select! {
                    answer = &mut reply => return answer,
                    () = stop.cancelled() => browsers.cancel(browser, id),
                }
            }
            reply.await
        };
        // The browser enforces the call's own timeout; this is the backstop for a lost reply.
        let mut answer = match tokio::time::timeout(timeout + BACKSTOP, answered).await {
            Ok(Ok(answer)) => answer?,
            Ok(Err(_)) => return Err(ToolError::failed(Code::Internal, "the call was dropped")),
            Err(_) => {
                browsers.forget(id);
                return Err(ToolError::lost(
                    Code::Timeout,
                    format!("the browser did not answer {} in {timeout:?}", op.name()),
                    op.mutates(),
                ));
            }
        };
        if !answer.tabs.is_empty() {
            let mut books = self.books();
            for event in &answer.tabs {
                books.record(Some(session), browser, *event);
            }
        }
        let url = answer.url.take();
        let described = std::mem::take(&mut answer.described);
        answer.into_result().map(|value| Routed {
            value,
            target,
            url,
            described,
        })
    }
}

/// The connected browser an agent named, by id or label: NO_BROWSER naming it when none is
/// (never another in its place), AMBIGUOUS_BROWSER when a label names several.
pub(super) fn named<'a>(
    connected: &'a [BrowserRef],
    name: &str,
) -> Result<&'a BrowserRef, ToolError> {
    if let Some(b) = connected.iter().find(|b| b.id.as_str() == name) {
        return Ok(b);
    }
    let labelled: Vec<&BrowserRef> = connected
        .iter()
        .filter(|b| b.label.as_deref() == Some(name))
        .collect();
    match labelled.as_slice() {
        [one] => Ok(one),
        [] => Err(ToolError::refused(
            Code::NoBrowser,
            format!(
                "browser {name:?} is not connected (connected: {}); this agent waits for it \
                 and never falls back to another",
                listing(connected)
            ),
        )),
        several => Err(ambiguous(several, &format!("are labelled {name:?}"))),
    }
}

fn listing<B: std::fmt::Display>(browsers: &[B]) -> String {
    if browsers.is_empty() {
        return "none".into();
    }
    browsers
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn ambiguous<B: std::fmt::Display>(several: &[B], what: &str) -> ToolError {
    ToolError::refused(
        Code::AmbiguousBrowser,
        format!(
            "{} browsers {what}: {}; pick one by label or id with browser_select_browser",
            several.len(),
            listing(several)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::error::Outcome;
    use crate::shared::protocol::Op;
    use serde_json::json;

    fn key(session: &str) -> AgentKey {
        AgentKey(session.into())
    }

    /// Browsers that answer every call on a task of their own, after the caller has had to
    /// wait: `tabOpen` with a fresh tab (from 100 up), a call on tab 13 with TAB_GONE, any
    /// other call with its own op's name (and, on tab N, the address `http://tabN.test/`).
    /// Where a fake browser's answer goes.
    type Answering = oneshot::Sender<Result<Answer, ToolError>>;

    struct Fake {
        connected: Vec<BrowserRef>,
        posted: Mutex<Vec<Call>>,
        /// The posted calls it was told were cancelled.
        cancelled: Mutex<Vec<u64>>,
        /// A call on tab 14 answers only once it is cancelled, saying so.
        held: Mutex<Vec<(u64, Answering)>>,
    }

    /// Browsers by id, each labelled with its id in upper case.
    fn browsers(ids: &[&str]) -> Fake {
        Fake {
            connected: ids
                .iter()
                .map(|s| BrowserRef {
                    id: BrowserId(s.to_string()),
                    label: Some(s.to_uppercase()),
                    kind: BrowserKind::User,
                })
                .collect(),
            posted: Mutex::default(),
            cancelled: Mutex::default(),
            held: Mutex::default(),
        }
    }

    impl Fake {
        fn ops(&self) -> Vec<(Op, Option<TabId>)> {
            let posted = self.posted.lock().unwrap_or_else(PoisonError::into_inner);
            posted.iter().map(|c| (c.op, c.target.tab)).collect()
        }
    }

    impl Browsers for Fake {
        fn connected(&self) -> Vec<BrowserRef> {
            self.connected.clone()
        }

        async fn post(
            &self,
            browser: &BrowserId,
            mut call: Call,
        ) -> Result<(u64, Reply), ToolError> {
            assert!(self.connected.iter().any(|b| b.id == *browser));
            let mut posted = self.posted.lock().unwrap_or_else(PoisonError::into_inner);
            let id = posted.len() as u64 + 1;
            call.id = id;
            let opened = posted.iter().filter(|c| c.op == Op::TabOpen).count() as i64;
            let answer = match (call.op, call.target.tab) {
                (Op::TabOpen, _) => Ok(Answer {
                    id,
                    value: Some(Value::Null),
                    tabs: vec![TabEvent::Opened {
                        tab: TabId(100 + opened),
                    }],
                    ..Answer::default()
                }),
                (_, Some(TabId(13))) => Err(ToolError::failed(Code::TabGone, "closed")),
                (op, tab) => Ok(Answer {
                    id,
                    value: Some(json!(op.name())),
                    url: tab.map(|t| format!("http://tab{t}.test/")),
                    ..Answer::default()
                }),
            };
            let tab = call.target.tab;
            posted.push(call);
            let (tx, rx) = oneshot::channel();
            if tab == Some(TabId(14)) {
                self.held.lock().unwrap().push((id, tx));
                return Ok((id, rx));
            }
            tokio::spawn(async move {
                tokio::task::yield_now().await;
                let _ = tx.send(answer);
            });
            Ok((id, rx))
        }

        fn forget(&self, _: u64) {}

        fn cancel(&self, _: &BrowserId, id: u64) {
            self.cancelled.lock().unwrap().push(id);
            let mut held = self.held.lock().unwrap();
            if let Some(at) = held.iter().position(|(h, _)| *h == id) {
                let (_, tx) = held.remove(at);
                let said = ToolError::failed(Code::Cancelled, "the wait stopped after 5 ms");
                let _ = tx.send(Ok(Answer {
                    id,
                    error: Some(crate::shared::protocol::WireError::from(&said)),
                    ..Answer::default()
                }));
            }
        }
    }

    fn call(op: Op, browser: Option<&str>, tab: Option<TabId>) -> Call {
        Call {
            target: Target {
                browser: browser.map(String::from),
                tab,
            },
            ..Call::new(op, Value::Null, Duration::from_secs(5))
        }
    }

    #[tokio::test]
    async fn two_racing_first_page_calls_open_one_tab() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        let a = key("a");
        let (one, two) = tokio::join!(
            router.route(&b, &a, call(Op::Snapshot, None, None)),
            router.route(&b, &a, call(Op::Read, None, None)),
        );
        assert_eq!(one.unwrap().target.tab, Some(TabId(100)));
        assert_eq!(two.unwrap().target.tab, Some(TabId(100)));
        let opens = b.ops().iter().filter(|(op, _)| *op == Op::TabOpen).count();
        assert_eq!(opens, 1, "{:?}", b.ops());
    }

    #[tokio::test]
    async fn a_page_call_runs_in_the_agents_tab_and_says_where() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        let Routed {
            value, target, url, ..
        } = router
            .route(&b, &key("a"), call(Op::Click, None, None))
            .await
            .unwrap();
        assert_eq!(value, json!("click"));
        assert_eq!(
            (target.browser.as_deref(), target.tab),
            (Some("b1"), Some(TabId(100)))
        );
        // The page's address, as the browser said it, goes back with the answer.
        assert_eq!(url.as_deref(), Some("http://tab100.test/"));
        router
            .route(&b, &key("a"), call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(
            b.ops(),
            [
                (Op::TabOpen, None),
                (Op::Click, Some(TabId(100))),
                (Op::Read, Some(TabId(100)))
            ]
        );
    }

    #[tokio::test]
    async fn the_scope_comes_from_the_operation_not_the_caller() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        let mut c = call(Op::Click, None, None);
        c.scope = Scope::Browser;
        router.route(&b, &key("a"), c).await.unwrap();
        let posted = b.posted.lock().unwrap_or_else(PoisonError::into_inner);
        assert_eq!(posted.last().unwrap().scope, Scope::Tab);
        assert!(posted.last().unwrap().target.browser.is_none());
    }

    #[tokio::test]
    async fn a_browser_is_picked_by_name_by_the_agents_tab_or_as_the_only_one() {
        let router = Router::default();
        let none = browsers(&[]);
        let e = router
            .route(&none, &key("a"), call(Op::Read, None, None))
            .await;
        assert_eq!(e.unwrap_err().code, Code::NoBrowser);

        let two = browsers(&["b1", "b2"]);
        let e = router
            .route(&two, &key("a"), call(Op::Read, None, None))
            .await
            .unwrap_err();
        assert_eq!(e.code, Code::AmbiguousBrowser);
        assert!(
            e.message.contains(Code::AmbiguousBrowser.recover()),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("\"B1\"") && e.message.contains("\"B2\""),
            "the refusal lists them by label: {}",
            e.message
        );
        let e = router
            .route(&two, &key("a"), call(Op::Read, Some("b9"), None))
            .await;
        assert_eq!(e.unwrap_err().code, Code::NoBrowser);

        let Routed { target, .. } = router
            .route(&two, &key("a"), call(Op::Read, Some("B2"), None))
            .await
            .unwrap();
        assert_eq!(target.browser.as_deref(), Some("b2"), "by its label");
        // Named no more, the call goes to the browser holding the agent's tab.
        let Routed { target, .. } = router
            .route(&two, &key("a"), call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(
            (target.browser.as_deref(), target.tab),
            (Some("b2"), Some(TabId(100)))
        );
        // And never to another when that one is gone.
        let other = browsers(&["b1"]);
        let e = router
            .route(&other, &key("a"), call(Op::Read, None, None))
            .await;
        assert_eq!(e.unwrap_err().code, Code::NoBrowser);
        let e = router
            .route(&other, &key("a"), call(Op::Read, Some("B2"), None))
            .await
            .unwrap_err();
        assert_eq!(e.code, Code::NoBrowser, "named and gone: no fallback");
        assert!(e.message.contains("\"B2\""), "it names it: {}", e.message);
    }

    #[tokio::test]
    async fn a_label_two_browsers_share_is_ambiguous() {
        let router = Router::default();
        let mut two = browsers(&["b1", "b2"]);
        for b in &mut two.connected {
            b.label = Some("work".into());
        }
        let e = router
            .route(&two, &key("a"), call(Op::Read, Some("work"), None))
            .await
            .unwrap_err();
        assert_eq!(e.code, Code::AmbiguousBrowser);
        assert!(
            e.message.contains("b1") && e.message.contains("b2"),
            "{}",
            e.message
        );
        let Routed { target, .. } = router
            .route(&two, &key("a"), call(Op::Read, Some("b1"), None))
            .await
            .unwrap();
        assert_eq!(
            target.browser.as_deref(),
            Some("b1"),
            "an id still picks one"
        );
    }

    // Finding 9 of the security probe: a session whose browser died got NO_BROWSER for every
    // call, opening a tab included, after another browser joined.
    #[tokio::test]
    async fn an_agent_whose_browser_left_can_open_a_tab_in_the_one_that_joined() {
        let router = Router::default();
        let first = browsers(&["b1"]);
        router
            .route(&first, &key("cli"), call(Op::Read, None, None))
            .await
            .unwrap();
        let second = browsers(&["b2"]);
        let e = router
            .route(&second, &key("cli"), call(Op::Read, None, None))
            .await
            .unwrap_err();
        assert_eq!(e.code, Code::NoBrowser);
        assert!(e.message.contains("browser_new_tab"), "{}", e.message);
        let Routed { target, .. } = router
            .route(&second, &key("cli"), call(Op::TabOpen, None, None))
            .await
            .unwrap();
        assert_eq!(target.browser.as_deref(), Some("b2"));
        let Routed { target, .. } = router
            .route(&second, &key("cli"), call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(
            target.browser.as_deref(),
            Some("b2"),
            "the agent works in its new tab"
        );
    }

    #[tokio::test]
    async fn another_agents_tab_is_refused_before_anything_is_sent() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        router
            .route(&b, &key("a"), call(Op::Read, None, Some(TabId(7))))
            .await
            .unwrap();
        for op in [Op::Click, Op::TabClose] {
            let e = router
                .route(&b, &key("b"), call(op, None, Some(TabId(7))))
                .await
                .unwrap_err();
            assert_eq!(
                (e.code, e.outcome),
                (Code::TabClaimed, Outcome::Refused),
                "{op:?}"
            );
        }
        assert_eq!(b.ops(), [(Op::Read, Some(TabId(7)))]);
        // A browser-scoped call on a free tab, or none, goes through.
        router
            .route(&b, &key("b"), call(Op::TabClose, None, Some(TabId(8))))
            .await
            .unwrap();
        router
            .route(&b, &key("b"), call(Op::TabList, None, None))
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_tab_the_browser_says_is_gone_gives_way_to_a_fresh_one() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        router
            .route(&b, &key("a"), call(Op::Read, None, Some(TabId(13))))
            .await
            .unwrap_err();
        let Routed { target, .. } = router
            .route(&b, &key("a"), call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(
            target.tab,
            Some(TabId(100)),
            "no second TAB_GONE: a fresh tab"
        );
    }

    // A call cancelled before the relay passed it on never reaches a browser, not even to open
    // the agent's first tab; one cancelled while the browser runs it is cancelled there too, and
    // its answer (what it had done) is what the caller gets.
    #[tokio::test]
    async fn a_cancelled_call_is_never_sent_or_is_cancelled_in_its_browser() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        let stop = CancellationToken::new();
        stop.cancel();
        let e = router
            .route_until(&b, &key("a"), call(Op::Click, None, None), &stop)
            .await
            .unwrap_err();
        assert_eq!((e.code, e.outcome), (Code::Cancelled, Outcome::Refused));
        assert!(b.posted.lock().unwrap().is_empty());

        let stop = CancellationToken::new();
        let on_14 = call(Op::WaitFor, None, Some(TabId(14)));
        let a = key("a");
        let routed = router.route_until(&b, &a, on_14, &stop);
        let cancel = async {
            while b.held.lock().unwrap().is_empty() {
                tokio::task::yield_now().await;
            }
            assert!(b.cancelled.lock().unwrap().is_empty());
            stop.cancel();
        };
        let (e, ()) = tokio::join!(routed, cancel);
        let e = e.unwrap_err();
        assert_eq!(e.code, Code::Cancelled, "{e:?}");
        assert_eq!(e.message, "the wait stopped after 5 ms");
        assert_eq!(*b.cancelled.lock().unwrap(), vec![1]);
    }
}
