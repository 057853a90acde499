//! What a wrong secret costs whoever sent it. A peer that presents a wrong token waits before
//! any secret of its is looked at again: a second after its first wrong one, doubling with each
//! (at most a minute), forgotten after ten quiet minutes. A request sent while it waits is
//! answered 429 without being compared, the right token included, so waiting cannot be skipped
//! by guessing on many connections at once and taking silence for "wrong".
//!
//! The cost falls on the sender, not on the server: on loopback every peer has the same
//! address, so the sender is the user owning the connection's other end (src/shared/serve/holder.rs, from
//! the kernel's tables), and the person's own user is never held back (its programs can read
//! the token file anyway). A peer elsewhere is its address.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The wait after a first wrong guess; it doubles with each next one, up to [`LONGEST`].
const FIRST: Duration = Duration::from_secs(1);
const LONGEST: Duration = Duration::from_secs(60);
/// A guesser quiet this long starts again from [`FIRST`].
const FORGET: Duration = Duration::from_secs(600);
/// Guessers remembered at most; past it, the one whose wait ends first is forgotten.
const MOST: usize = 4096;

/// Who sent a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Guesser {
    /// Another user of this machine, by uid.
    User(u32),
    /// A peer elsewhere (or one the kernel's tables do not name).
    Address(IpAddr),
}

struct Record {
    wrong: u32,
    until: Instant,
}

/// The guessers of one server, listening on `port`.
pub struct Guesses {
    port: u16,
    me: u32,
    held: Mutex<HashMap<Guesser, Record>>,
}

impl Guesses {
    pub fn new(port: u16) -> Guesses {
        Guesses {
            port,
            me: crate::shared::platform::me::uid(),
            held: Mutex::default(),
        }
    }

    /// Who sent a request from `peer`; none for the person's own user.
    fn guesser(&self, peer: SocketAddr) -> Option<Guesser> {
        if peer.ip().is_loopback()
            && let Some(uid) = crate::shared::serve::holder::uid_of_peer(peer, self.port)
        {
            return (uid != self.me).then_some(Guesser::User(uid));
        }
        Some(Guesser::Address(peer.ip()))
    }

    /// How long the sender of a request from `peer` must still wait before its secret is looked
    /// at; none when it may be now. Looks nobody up while nobody is waiting.
    pub fn waiting(&self, peer: SocketAddr) -> Option<Duration> {
        let now = Instant::now();
        {
            let mut held = self.lock();
            held.retain(|_, r| r.until + FORGET > now);
            if !held.values().any(|r| r.until > now) {
                return None;
            }
        }
        let who = self.guesser(peer)?;
        let left = self.lock().get(&who)?.until.checked_duration_since(now)?;
        (!left.is_zero()).then_some(left)
    }

    /// The request from `peer` presented a wrong secret: its sender waits.
    pub fn wrong(&self, peer: SocketAddr) {
        let Some(who) = self.guesser(peer) else {
            return;
        };
        let now = Instant::now();
        let mut held = self.lock();
        if held.len() >= MOST && !held.contains_key(&who) {
            held.retain(|_, r| r.until + FORGET > now);
            if held.len() >= MOST
                && let Some(first) = held.iter().min_by_key(|(_, r)| r.until).map(|(k, _)| *k)
            {
                held.remove(&first);
            }
        }
        let record = held.entry(who).or_insert(Record {
            wrong: 0,
            until: now,
        });
        if record.until + FORGET <= now {
            record.wrong = 0;
        }
        record.wrong = record.wrong.saturating_add(1);
        let wait = FIRST
            .saturating_mul(1 << (record.wrong - 1).min(6))
            .min(LONGEST);
        record.until = now + wait;
        if record.wrong == 1 || record.wrong.is_multiple_of(100) {
            tracing::warn!(
                ?who,
                wrong = record.wrong,
                "a wrong token; its sender waits {wait:?}"
            );
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Guesser, Record>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_guess_holds_its_sender_back_and_longer_each_time() {
        let guesses = Guesses::new(1);
        // A peer elsewhere is its address.
        let far: SocketAddr = "192.0.2.7:5000".parse().unwrap();
        let other: SocketAddr = "192.0.2.8:5000".parse().unwrap();
        assert_eq!(guesses.waiting(far), None);
        guesses.wrong(far);
        let first = guesses.waiting(far).expect("held back");
        assert!(first <= FIRST && first > FIRST / 2, "{first:?}");
        assert_eq!(guesses.waiting(other), None, "another sender is not");
        guesses.wrong(far);
        assert!(guesses.waiting(far).unwrap() > FIRST, "doubled");
        for _ in 0..20 {
            guesses.wrong(far);
        }
        assert!(guesses.waiting(far).unwrap() <= LONGEST);
    }

    // The holder of a port and its user come from Linux's /proc tables (src/shared/serve/holder.rs).
    #[cfg(target_os = "linux")]
    #[test]
    fn the_person_s_own_connections_are_never_held_back() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let _client = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let (_end, peer) = l.accept().unwrap();
        let guesses = Guesses::new(port);
        guesses.wrong(peer);
        assert_eq!(guesses.waiting(peer), None);
    }
}
