//! One-time pairing codes: issued to `tabpilot pair`, claimed once by the extension, and all
//! revoked after a few wrong guesses.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

const CODE_LIFETIME: Duration = Duration::from_secs(600);
const MAX_OPEN_CODES: usize = 16;
/// Wrong claims before every open code is revoked: 40-bit codes and five guesses.
const MAX_WRONG_CLAIMS: u32 = 5;
/// The letters a code is written in: no 0/O or 1/I to misread.
const ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// Codes handed out and not yet claimed, and the wrong claims made against them.
#[derive(Default)]
pub(super) struct Codes(Mutex<(HashMap<String, Instant>, u32)>);

impl Codes {
    /// A fresh one-time code, `XXXX-XXXX`; the oldest goes when too many are open.
    pub(super) fn issue(&self) -> String {
        let code: String = rand::random::<[u8; 8]>()
            .iter()
            .map(|b| ALPHABET[usize::from(b % 32)] as char)
            .collect();
        let mut guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
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
        format!("{}-{}", &code[..4], &code[4..])
    }

    /// Takes a code once. Too many wrong ones revoke them all: a guesser gets five tries
    /// against all the codes together, then nothing.
    pub(super) fn claim(&self, typed: &str) -> bool {
        let code: String = typed
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let mut guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (codes, wrong) = &mut *guard;
        match codes.remove(&code) {
            Some(at) if at.elapsed() < CODE_LIFETIME => true,
            _ => {
                *wrong += 1;
                if *wrong >= MAX_WRONG_CLAIMS {
                    codes.clear();
                    *wrong = 0;
                    tracing::warn!("too many wrong pairing codes; every open code is revoked");
                }
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_works_once_in_any_case_and_with_or_without_its_dash() {
        let codes = Codes::default();
        let code = codes.issue();
        assert_eq!(code.len(), 9);
        assert!(codes.claim(&code.to_lowercase().replace('-', " ")));
        assert!(!codes.claim(&code), "a code works once");
    }

    #[test]
    fn five_wrong_claims_revoke_every_open_code() {
        let codes = Codes::default();
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
