//! Who may use the dashboard: the person who opened the one-time link `tabpilot dashboard`
//! printed, in a page of the dashboard's own. The first load with the key sets an HttpOnly,
//! SameSite=Strict cookie and spends the key; every other request needs the cookie. A browser
//! sends a cookie to every port of its host, so the cookie is scoped to the dashboard's own path,
//! a random one (`/d/RANDOM/`): a server of someone else's on another port of 127.0.0.1 never
//! sees a request for that path, so never gets the cookie.
//!
//! Loopback is no boundary: every local page and every local user can reach the port. So a
//! request is refused when its `Host` is not this server by a loopback name (a page on a domain
//! rebound to 127.0.0.1 sends its own domain), when it carries a browser `Origin` other than
//! ours (a cookie is sent to every port of 127.0.0.1, and SameSite counts other local pages as
//! the same site, so the cookie alone does not say the request came from our page), and a POST
//! needs our `Origin`. Every answer forbids framing, other origins' reads
//! (`Cross-Origin-Resource-Policy`), caching and the referrer; none carries CORS headers.

use std::sync::{Mutex, PoisonError};

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::shared::serve::{Secret, query_value};

/// The page loads only its own script and style, and talks only to its own server.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
                   img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

pub(super) struct Access {
    port: u16,
    /// The one-time key, until it is spent.
    key: Mutex<Option<Secret>>,
    /// The path the dashboard is served under, and its cookie's scope.
    base: String,
    /// The cookie the key is traded for, and its value.
    cookie: String,
    session: (String, Secret),
}

impl Access {
    /// Access on `port`, with a fresh key (returned, for the link) and session.
    pub(super) fn new(port: u16) -> (Access, String) {
        let key = crate::shared::serve::random();
        let session = crate::shared::serve::random();
        let access = Access {
            port,
            key: Mutex::new(Some(Secret::new(&key))),
            base: format!("/d/{}/", crate::shared::serve::random()),
            // Cookies are kept per host, not per port: a name of its own per dashboard.
            cookie: format!("tabpilot_dashboard_{port}"),
            session: (session.clone(), Secret::new(&session)),
        };
        (access, key)
    }

    /// The path the pages are served under: `/d/RANDOM/`.
    pub(super) fn base(&self) -> &str {
        &self.base
    }

    /// Checks a request, lets it through or answers it, and puts the headers every answer
    /// carries on what goes back.
    pub(super) async fn admit(&self, req: Request, next: Next) -> Response {
        let mut answer = match self.refusal(&req) {
            None => {
                crate::shared::serve::door::proven(&req);
                next.run(req).await
            }
            Some(refused) => refused,
        };
        let headers = answer.headers_mut();
        for (name, value) in [
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CACHE_CONTROL, "no-store"),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        headers.insert(
            "cross-origin-resource-policy",
            HeaderValue::from_static("same-origin"),
        );
        answer
    }

    /// What a request gets instead of going through: a refusal, or the key traded for the
    /// cookie.
    fn refusal(&self, req: &Request) -> Option<Response> {
        let headers = req.headers();
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        if !host.is_some_and(|h| self.ours(h)) {
            return Some(refuse(
                StatusCode::FORBIDDEN,
                "tabpilot dashboard: this server answers only as 127.0.0.1 or localhost on its port",
            ));
        }
        let origin = headers
            .get(header::ORIGIN)
            .map(|v| v.to_str().unwrap_or("?"));
        let our_origin =
            origin.is_some_and(|o| o.strip_prefix("http://").is_some_and(|h| self.ours(h)));
        if !our_origin && (origin.is_some() || req.method() == Method::POST) {
            return Some(refuse(
                StatusCode::FORBIDDEN,
                "tabpilot dashboard: not from the dashboard's own page",
            ));
        }
        if let Some(key) = query_value(req.uri(), "key") {
            return Some(self.trade(&key));
        }
        if !self.has_cookie(headers) {
            return Some(refuse(
                StatusCode::UNAUTHORIZED,
                "tabpilot dashboard: open the link `tabpilot dashboard` printed",
            ));
        }
        None
    }

    /// `HOST:PORT` names this server: a loopback name and our port.
    fn ours(&self, host: &str) -> bool {
        let port = self.port.to_string();
        host.rsplit_once(':')
            .is_some_and(|(name, p)| p == port && matches!(name, "127.0.0.1" | "localhost"))
    }

    /// The one-time key for the session's cookie, and back to the page without the key in
    /// its address.
    fn trade(&self, key: &str) -> Response {
        let mut unspent = self.key.lock().unwrap_or_else(PoisonError::into_inner);
        if !unspent.as_ref().is_some_and(|k| k.matches(key)) {
            return refuse(
                StatusCode::FORBIDDEN,
                "tabpilot dashboard: this link is spent or wrong; start `tabpilot dashboard` again \
                 for a new one",
            );
        }
        *unspent = None;
        let cookie = format!(
            "{}={}; HttpOnly; SameSite=Strict; Path={}",
            self.cookie, self.session.0, self.base
        );
        (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, self.base.clone()),
                (header::SET_COOKIE, cookie),
            ],
        )
            .into_response()
    }

    fn has_cookie(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == self.cookie && self.session.1.matches(value))
    }
}

fn refuse(status: StatusCode, why: &'static str) -> Response {
    (status, why).into_response()
}
