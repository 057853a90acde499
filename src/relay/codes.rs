//! One-time pairing codes: issued to `tabpilot pair`, claimed once by the extension, and all
//! revoked after a few wrong guesses.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::shared::protocol::remote::code_text;

const CODE_LIFETIME: Duration = Duration::from_secs(600);
const MAX_OPEN_CODES: usize = 16;
/// Wrong claims before every open code is revoked: five guesses against all the open codes.
const MAX_WRONG_CLAIMS: u32 = 5;
/// The letters a code is written in: no 0/O or 1/I to misread.
const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// Codes handed out and not yet claimed, and the wrong claims made against them.
pub(super) struct Codes {
    /// Letters in a code, five bits each: 8 on loopback, where a guess must be made online;
    /// 12 for a browser on another computer, where a claim overheard could be guessed against
    /// offline (`protocol::remote`).
    letters: usize,
    open: Mutex<(HashMap<String, Instant>, u32)>,
}

impl Codes {
    /// Codes for a browser on this computer, `XXXX-XXXX` (40 bits).
    pub(super) fn local() -> Self {
        Codes::of(8)
    }

    /// Codes for a browser on another computer, `XXXX-XXXX-XXXX` (60 bits).
    pub(super) fn remote() -> Self {
        Codes::of(12)
    }

    fn of(letters: usize) -> Self {
        Codes {
            letters,
            open: Mutex::default(),
        }
    }

    /// A fresh one-time code, its letters in dashed groups of four; the oldest goes when too
    /// many are open.
    pub(super) fn issue(&self) -> String {
        let code: String = (0..self.letters)
            .map(|_| ALPHABET[usize::from(rand::random::<u8>() % 32)] as char)
            .collect();
        let mut guard = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let (codes, _) = &mut *guard;
        codes.retain(|_, at| at.elapsed() < CODE_LIFETIME);
        if codes.len() >= MAX_OPEN_CODES
            && let Some(oldest) = codes
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(c, _)| c.clone())
        {
            codes.remove(&oldest);
        }
        codes.insert(code.clone(), Instant::now());
        let groups: Vec<&str> = (0..self.letters / 4)
            .map(|i| &code[i * 4..i * 4 + 4])
            .collect();
        groups.join("-")
    }

    /// Takes the code the person typed, once.
    pub(super) fn claim(&self, typed: &str) -> bool {
        let typed = code_text(typed);
        self.claim_by(|code| code == typed)
    }

    /// Takes the first open code `fits`, once. None fitting is a wrong claim, and too many
    /// revoke every open code: a guesser gets five tries against all of them together, then
    /// nothing.
    pub(super) fn claim_by(&self, mut fits: impl FnMut(&str) -> bool) -> bool {
        let mut guard = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let (codes, wrong) = &mut *guard;
        codes.retain(|_, at| at.elapsed() < CODE_LIFETIME);
        if let Some(code) = codes.keys().find(|c| fits(c)).cloned() {
            codes.remove(&code);
            return true;
        }
        *wrong += 1;
        if *wrong >= MAX_WRONG_CLAIMS {
            codes.clear();
            *wrong = 0;
            tracing::warn!("too many wrong pairing codes; every open code is revoked");
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_works_once_in_any_case_and_with_or_without_its_dash() {
        let codes = Codes::local();
        let code = codes.issue();
        assert_eq!(code.len(), 9);
        assert!(codes.claim(&code.to_lowercase().replace('-', " ")));
        assert!(!codes.claim(&code), "a code works once");
    }

    #[test]
    fn a_remote_code_has_sixty_bits_in_three_groups() {
        let codes = Codes::remote();
        let code = codes.issue();
        assert_eq!(code.len(), 14, "{code}");
        assert_eq!(code.split('-').count(), 3, "{code}");
        assert!(!codes.claim(&code[..9]), "the first two groups alone");
        assert!(codes.claim(&code));
    }

    #[test]
    fn five_wrong_claims_revoke_every_open_code() {
        let codes = Codes::local();
        let code = codes.issue();
        for _ in 0..MAX_WRONG_CLAIMS {
            assert!(!codes.claim("AAAA-AAAA"));
        }
        assert!(
            !codes.claim(&code),
            "a guesser's fifth miss leaves nothing open"
        );
        let next = codes.issue();
        assert!(codes.claim(&next), "a new code works after the revocation");
    }
}
