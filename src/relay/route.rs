//! Routing a controller's call: pick the browser, resolve the tab it acts on (opening an agent's
//! first tab, once), ask the browser and wait for its answer, and keep the books from the tab
//! events that answer carries.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::books::Books;
use crate::error::{Code, ToolError};
use crate::protocol::{Answer, Call, Op, Scope, TabEvent, Target};

/// Longest a call may wait on a browser when the caller names no timeout.
const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a browser has to open an agent's first tab.
const OPEN_TIMEOUT: Duration = Duration::from_secs(15);
/// How long past a call's own timeout (which the browser enforces) its reply counts as lost.
const BACKSTOP: Duration = Duration::from_secs(2);

/// A browser's answer to one call, or why none will come.
pub(super) type Reply = oneshot::Receiver<Result<Answer, ToolError>>;

/// What routing needs from the roster: which browsers are connected, and their outboxes.
pub(super) trait Browsers: Sync {
    /// The ids of the connected browsers.
    fn connected(&self) -> Vec<String>;

    /// Numbers `call` afresh and puts it in `browser`'s outbox; returns its number and where its
    /// answer comes. Refused with NO_BROWSER when that browser is not connected.
    fn post(
        &self,
        browser: &str,
        call: Call,
    ) -> impl Future<Output = Result<(u64, Reply), ToolError>> + Send;

    /// Drops a posted call whose answer no longer matters.
    fn forget(&self, id: u64);
}

/// A routed call's answer: its value, where it ran, and the tab's address as it answered.
#[derive(Debug)]
pub(super) struct Routed {
    pub(super) value: Value,
    pub(super) target: Target,
    pub(super) url: Option<String>,
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
        self.books.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `session`'s call in a browser; returns its value and where it ran.
    pub(super) async fn route(
        &self,
        browsers: &impl Browsers,
        session: &str,
        mut call: Call,
    ) -> Result<Routed, ToolError> {
        if call.op.relay_only() {
            return Err(ToolError::refused(
                Code::BadArgs,
                format!("{} is the relay's to send", call.op.name()),
            ));
        }
        // The operation says what it needs; a controller's own claim is not trusted.
        call.scope = call.op.scope();
        let browser = self.pick_browser(browsers, session, &call)?;
        let tab = match (call.scope, call.target.tab) {
            (Scope::Tab, named) => {
                Some(self.resolve_tab(browsers, session, &browser, named).await?)
            }
            (_, Some(tab)) => {
                self.books().may_touch(session, &browser, tab)?;
                Some(tab)
            }
            (_, None) => None,
        };
        call.target = Target { browser: None, tab };
        let (value, url) = self
            .ask(browsers, session, &browser, call)
            .await
            .inspect_err(|e| {
                // A tab the browser says is gone leaves the books, so the agent's next page
                // call opens a fresh one instead of failing on it again; so does a tab the
                // person has not shared, which the agent's claim does not make its own.
                if let (Code::TabGone | Code::TabNotShared, Some(tab)) = (e.code, tab) {
                    self.books()
                        .record(Some(session), &browser, TabEvent::Closed { tab });
                }
            })?;
        let target = Target {
            browser: Some(browser),
            tab,
        };
        Ok(Routed { value, target, url })
    }

    /// The browser a call goes to: the one named, else the one holding the agent's current tab,
    /// else the only one connected. A retry never changes browser.
    fn pick_browser(
        &self,
        browsers: &impl Browsers,
        session: &str,
        call: &Call,
    ) -> Result<String, ToolError> {
        let target = &call.target;
        let connected = browsers.connected();
        if let Some(name) = &target.browser {
            return if connected.contains(name) {
                Ok(name.clone())
            } else {
                Err(ToolError::refused(
                    Code::NoBrowser,
                    format!("no browser {name:?} is connected"),
                ))
            };
        }
        let holding = self.books().current(session).map(|(b, _)| b.clone());
        match holding {
            Some(browser) if connected.contains(&browser) => return Ok(browser),
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
                "no browser is connected to the relay",
            )),
            [only] => Ok(only.clone()),
            several => {
                let code = Code::AmbiguousBrowser;
                Err(ToolError::refused(
                    code,
                    format!(
                        "{} browsers are connected; name one (browserId from {})",
                        several.len(),
                        code.recover()
                    ),
                ))
            }
        }
    }

    /// The tab a page call acts on. A tab named by the caller is handed to this agent unless
    /// another agent holds it; with none named it is the agent's current tab, opened in the
    /// background on first use.
    async fn resolve_tab(
        &self,
        browsers: &impl Browsers,
        session: &str,
        browser: &str,
        named: Option<i64>,
    ) -> Result<i64, ToolError> {
        if let Some(tab) = named {
            self.books().claim(session, browser, tab)?;
            return Ok(tab);
        }
        let _opening = self.opening.lock().await;
        let current = self.books().page_tab(session, browser)?;
        if let Some(tab) = current {
            return Ok(tab);
        }
        let open = Call::new(Op::TabOpen, json!({}), OPEN_TIMEOUT);
        self.ask(browsers, session, browser, open).await?;
        // The answer's `opened` event made the new tab current.
        self.books()
            .current(session)
            .filter(|(b, _)| b == browser)
            .map(|(_, tab)| *tab)
            .ok_or_else(|| ToolError::failed(Code::Internal, "the browser opened no tab"))
    }

    /// Passes a call to a browser and waits for its answer (its value, and the address of the
    /// tab it ran in); the tab events the answer carries go into `session`'s books.
    pub(super) async fn ask(
        &self,
        browsers: &impl Browsers,
        session: &str,
        browser: &str,
        mut call: Call,
    ) -> Result<(Value, Option<String>), ToolError> {
        let op = call.op;
        let timeout = call.timeout().unwrap_or(DEFAULT_CALL_TIMEOUT);
        call.timeout_ms = Some(timeout.as_millis() as u64);
        // Whose call it is: a tab it opens goes into these books (the browser keeps that, for a
        // relay that restarts), and the network rules of its site policy are this agent's, to
        // drop when its session ends. (Whatever a controller put here is not trusted.)
        call.owner = Some(session.to_string());
        let (id, reply) = browsers.post(browser, call).await?;
        // The browser enforces the call's own timeout; this is the backstop for a lost reply.
        let mut answer = match tokio::time::timeout(timeout + BACKSTOP, reply).await {
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
        answer.into_result().map(|value| (value, url))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Outcome;

    /// Browsers that answer every call on a task of their own, after the caller has had to
    /// wait: `tabOpen` with a fresh tab (from 100 up), a call on tab 13 with TAB_GONE, any
    /// other call with its own op's name (and, on tab N, the address `http://tabN.test/`).
    struct Fake {
        connected: Vec<String>,
        posted: Mutex<Vec<Call>>,
    }

    fn browsers(ids: &[&str]) -> Fake {
        Fake {
            connected: ids.iter().map(|s| s.to_string()).collect(),
            posted: Mutex::default(),
        }
    }

    impl Fake {
        fn ops(&self) -> Vec<(Op, Option<i64>)> {
            let posted = self.posted.lock().unwrap();
            posted.iter().map(|c| (c.op, c.target.tab)).collect()
        }
    }

    impl Browsers for Fake {
        fn connected(&self) -> Vec<String> {
            self.connected.clone()
        }

        async fn post(&self, browser: &str, mut call: Call) -> Result<(u64, Reply), ToolError> {
            assert!(self.connected.iter().any(|b| b == browser));
            let mut posted = self.posted.lock().unwrap();
            let id = posted.len() as u64 + 1;
            call.id = id;
            let opened = posted.iter().filter(|c| c.op == Op::TabOpen).count() as i64;
            let answer = match (call.op, call.target.tab) {
                (Op::TabOpen, _) => Ok(Answer {
                    id,
                    value: Some(Value::Null),
                    tabs: vec![TabEvent::Opened { tab: 100 + opened }],
                    ..Answer::default()
                }),
                (_, Some(13)) => Err(ToolError::failed(Code::TabGone, "closed")),
                (op, tab) => Ok(Answer {
                    id,
                    value: Some(json!(op.name())),
                    url: tab.map(|t| format!("http://tab{t}.test/")),
                    ..Answer::default()
                }),
            };
            posted.push(call);
            let (tx, rx) = oneshot::channel();
            tokio::spawn(async move {
                tokio::task::yield_now().await;
                let _ = tx.send(answer);
            });
            Ok((id, rx))
        }

        fn forget(&self, _: u64) {}
    }

    fn call(op: Op, browser: Option<&str>, tab: Option<i64>) -> Call {
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
        let (one, two) = tokio::join!(
            router.route(&b, "a", call(Op::Snapshot, None, None)),
            router.route(&b, "a", call(Op::Read, None, None)),
        );
        assert_eq!(one.unwrap().target.tab, Some(100));
        assert_eq!(two.unwrap().target.tab, Some(100));
        let opens = b.ops().iter().filter(|(op, _)| *op == Op::TabOpen).count();
        assert_eq!(opens, 1, "{:?}", b.ops());
    }

    #[tokio::test]
    async fn a_page_call_runs_in_the_agents_tab_and_says_where() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        let Routed { value, target, url } = router
            .route(&b, "a", call(Op::Click, None, None))
            .await
            .unwrap();
        assert_eq!(value, json!("click"));
        assert_eq!(
            (target.browser.as_deref(), target.tab),
            (Some("b1"), Some(100))
        );
        // The page's address, as the browser said it, goes back with the answer.
        assert_eq!(url.as_deref(), Some("http://tab100.test/"));
        router
            .route(&b, "a", call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(
            b.ops(),
            [
                (Op::TabOpen, None),
                (Op::Click, Some(100)),
                (Op::Read, Some(100))
            ]
        );
    }

    #[tokio::test]
    async fn the_scope_comes_from_the_operation_not_the_caller() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        let mut c = call(Op::Click, None, None);
        c.scope = Scope::Browser;
        router.route(&b, "a", c).await.unwrap();
        let posted = b.posted.lock().unwrap();
        assert_eq!(posted.last().unwrap().scope, Scope::Tab);
        assert!(posted.last().unwrap().target.browser.is_none());
    }

    #[tokio::test]
    async fn a_browser_is_picked_by_name_by_the_agents_tab_or_as_the_only_one() {
        let router = Router::default();
        let none = browsers(&[]);
        let e = router.route(&none, "a", call(Op::Read, None, None)).await;
        assert_eq!(e.unwrap_err().code, Code::NoBrowser);

        let two = browsers(&["b1", "b2"]);
        let e = router
            .route(&two, "a", call(Op::Read, None, None))
            .await
            .unwrap_err();
        assert_eq!(e.code, Code::AmbiguousBrowser);
        assert!(
            e.message.contains(Code::AmbiguousBrowser.recover()),
            "{}",
            e.message
        );
        let e = router
            .route(&two, "a", call(Op::Read, Some("b9"), None))
            .await;
        assert_eq!(e.unwrap_err().code, Code::NoBrowser);

        let Routed { target, .. } = router
            .route(&two, "a", call(Op::Read, Some("b2"), None))
            .await
            .unwrap();
        assert_eq!(target.browser.as_deref(), Some("b2"));
        // Named no more, the call goes to the browser holding the agent's tab.
        let Routed { target, .. } = router
            .route(&two, "a", call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(
            (target.browser.as_deref(), target.tab),
            (Some("b2"), Some(100))
        );
        // And never to another when that one is gone.
        let other = browsers(&["b1"]);
        let e = router.route(&other, "a", call(Op::Read, None, None)).await;
        assert_eq!(e.unwrap_err().code, Code::NoBrowser);
    }

    // Finding 9 of the security probe: a session whose browser died got NO_BROWSER for every
    // call, opening a tab included, after another browser joined.
    #[tokio::test]
    async fn an_agent_whose_browser_left_can_open_a_tab_in_the_one_that_joined() {
        let router = Router::default();
        let first = browsers(&["b1"]);
        router
            .route(&first, "cli", call(Op::Read, None, None))
            .await
            .unwrap();
        let second = browsers(&["b2"]);
        let e = router
            .route(&second, "cli", call(Op::Read, None, None))
            .await
            .unwrap_err();
        assert_eq!(e.code, Code::NoBrowser);
        assert!(e.message.contains("browser_new_tab"), "{}", e.message);
        let Routed { target, .. } = router
            .route(&second, "cli", call(Op::TabOpen, None, None))
            .await
            .unwrap();
        assert_eq!(target.browser.as_deref(), Some("b2"));
        let Routed { target, .. } = router
            .route(&second, "cli", call(Op::Read, None, None))
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
            .route(&b, "a", call(Op::Read, None, Some(7)))
            .await
            .unwrap();
        for op in [Op::Click, Op::TabClose] {
            let e = router
                .route(&b, "b", call(op, None, Some(7)))
                .await
                .unwrap_err();
            assert_eq!(
                (e.code, e.outcome),
                (Code::TabClaimed, Outcome::Refused),
                "{op:?}"
            );
        }
        assert_eq!(b.ops(), [(Op::Read, Some(7))]);
        // A browser-scoped call on a free tab, or none, goes through.
        router
            .route(&b, "b", call(Op::TabClose, None, Some(8)))
            .await
            .unwrap();
        router
            .route(&b, "b", call(Op::TabList, None, None))
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_tab_the_browser_says_is_gone_gives_way_to_a_fresh_one() {
        let (router, b) = (Router::default(), browsers(&["b1"]));
        router
            .route(&b, "a", call(Op::Read, None, Some(13)))
            .await
            .unwrap_err();
        let Routed { target, .. } = router
            .route(&b, "a", call(Op::Read, None, None))
            .await
            .unwrap();
        assert_eq!(target.tab, Some(100), "no second TAB_GONE: a fresh tab");
    }
}
