//! TOTP (RFC 6238): the code for the current time step from a seed, which is an `otpauth://totp/`
//! URI (as a QR code carries it: its `secret`, `algorithm`, `digits` and `period` are honored) or
//! a bare base32 key (SHA-1, 6 digits, 30 s: what every authenticator assumes).
//!
//! HOTP itself (RFC 4226) is a few lines over RustCrypto's HMAC, which we already depend on; the
//! URI is read here, leniently, because real ones are often not to the letter (a label's issuer
//! that differs from the `issuer` parameter, a key with spaces or padding).

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use zeroize::Zeroizing;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    Sha1,
    Sha256,
    Sha512,
}

/// A parsed seed: the key and how codes are made from it.
pub(crate) struct Totp {
    key: Zeroizing<Vec<u8>>,
    algorithm: Algorithm,
    digits: u32,
    period: u64,
}

impl Totp {
    /// Reads a seed: an `otpauth://totp/...` URI or a base32 key. The error says what is wrong
    /// with it and never repeats it.
    pub(crate) fn parse(seed: &str) -> Result<Totp, String> {
        let seed = seed.trim();
        if seed
            .get(..10)
            .is_some_and(|s| s.eq_ignore_ascii_case("otpauth://"))
        {
            return from_uri(seed);
        }
        Ok(Totp {
            key: base32(seed)?,
            algorithm: Algorithm::Sha1,
            digits: 6,
            period: 30,
        })
    }

    /// The code for the time step holding `unix_secs`.
    pub(crate) fn code_at(&self, unix_secs: u64) -> Zeroizing<String> {
        let counter = (unix_secs / self.period).to_be_bytes();
        let mac = match self.algorithm {
            Algorithm::Sha1 => hmac::<Hmac<sha1::Sha1>>(&self.key, &counter),
            Algorithm::Sha256 => hmac::<Hmac<sha2::Sha256>>(&self.key, &counter),
            Algorithm::Sha512 => hmac::<Hmac<sha2::Sha512>>(&self.key, &counter),
        };
        // RFC 4226's dynamic truncation: 31 bits from the offset the last nibble names.
        let at = usize::from(mac[mac.len() - 1] & 0x0f);
        let word =
            u32::from_be_bytes([mac[at], mac[at + 1], mac[at + 2], mac[at + 3]]) & 0x7fff_ffff;
        let code = u64::from(word) % 10u64.pow(self.digits);
        Zeroizing::new(format!("{code:0width$}", width = self.digits as usize))
    }

    /// The code for now: made at the moment of the fill, never stored.
    pub(crate) fn code_now(&self) -> Zeroizing<String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.code_at(now)
    }
}

fn hmac<M: Mac + KeyInit>(key: &[u8], message: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut mac = <M as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    Zeroizing::new(mac.finalize().into_bytes().to_vec())
}

fn from_uri(uri: &str) -> Result<Totp, String> {
    let url = url::Url::parse(uri).map_err(|e| format!("the otpauth URI does not parse: {e}"))?;
    match url.host_str().map(str::to_ascii_lowercase).as_deref() {
        Some("totp") => {}
        Some("hotp") => {
            return Err("the otpauth URI is for HOTP (a counter); only TOTP (time) is kept".into());
        }
        _ => return Err("the otpauth URI is not otpauth://totp/...".into()),
    }
    let mut key = None;
    let (mut algorithm, mut digits, mut period) = (Algorithm::Sha1, 6, 30);
    for (param, value) in url.query_pairs() {
        match param.to_ascii_lowercase().as_str() {
            "secret" => key = Some(base32(&value)?),
            "algorithm" => algorithm = algorithm_named(&value)?,
            "digits" => digits = number(&value, "digits", 6..=8)? as u32,
            "period" => period = number(&value, "period", 1..=3600)?,
            // issuer, image and the like say nothing about the code.
            _ => {}
        }
    }
    let key = key.ok_or("the otpauth URI has no secret= parameter")?;
    Ok(Totp {
        key,
        algorithm,
        digits,
        period,
    })
}

fn algorithm_named(name: &str) -> Result<Algorithm, String> {
    match name.to_ascii_uppercase().replace('-', "").as_str() {
        "SHA1" => Ok(Algorithm::Sha1),
        "SHA256" => Ok(Algorithm::Sha256),
        "SHA512" => Ok(Algorithm::Sha512),
        _ => Err(format!(
            "the otpauth URI's algorithm {name:?} is not SHA1, SHA256 or SHA512"
        )),
    }
}

fn number(text: &str, what: &str, range: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "the otpauth URI's {what} {text:?} is not a number from {} to {}",
                range.start(),
                range.end()
            )
        })
}

/// RFC 4648 base32, read as authenticators read keys: any case, spaces, dashes and `=` padding
/// ignored, trailing bits dropped.
fn base32(text: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    let mut out = Zeroizing::new(Vec::with_capacity(text.len() * 5 / 8));
    let (mut bits, mut held) = (0u32, 0u32);
    for c in text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '='))
    {
        let value = match c.to_ascii_uppercase() {
            c @ 'A'..='Z' => c as u32 - 'A' as u32,
            c @ '2'..='7' => c as u32 - '2' as u32 + 26,
            _ => {
                return Err(
                    "the TOTP key is not base32 (letters A-Z and digits 2-7) nor an otpauth:// URI"
                        .into(),
                );
            }
        };
        bits = (bits << 5 | value) & 0xffff;
        held += 5;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
        }
    }
    if out.is_empty() {
        return Err("the TOTP key is empty".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(key: &[u8], algorithm: Algorithm) -> Totp {
        Totp {
            key: Zeroizing::new(key.to_vec()),
            algorithm,
            digits: 8,
            period: 30,
        }
    }

    #[test]
    fn rfc_6238_test_vectors() {
        // RFC 6238, Appendix B: the ASCII keys, 8 digits, 30 s steps.
        let sha1 = seed(b"12345678901234567890", Algorithm::Sha1);
        let sha256 = seed(b"12345678901234567890123456789012", Algorithm::Sha256);
        let sha512 = seed(
            b"1234567890123456789012345678901234567890123456789012345678901234",
            Algorithm::Sha512,
        );
        let table: [(u64, &str, &str, &str); 6] = [
            (59, "94287082", "46119246", "90693936"),
            (1111111109, "07081804", "68084774", "25091201"),
            (1111111111, "14050471", "67062674", "99943326"),
            (1234567890, "89005924", "91819424", "93441116"),
            (2000000000, "69279037", "90698825", "38618901"),
            (20000000000, "65353130", "77737706", "47863826"),
        ];
        for (time, a, b, c) in table {
            assert_eq!(*sha1.code_at(time), a, "SHA1 at {time}");
            assert_eq!(*sha256.code_at(time), b, "SHA256 at {time}");
            assert_eq!(*sha512.code_at(time), c, "SHA512 at {time}");
        }
    }

    #[test]
    fn base32_reads_keys_as_authenticators_write_them() {
        // RFC 4648's vectors, and the RFC 6238 key as base32, spaced and in lower case.
        assert_eq!(*base32("MZXW6YTBOI======").unwrap(), b"foobar");
        assert_eq!(*base32("MZXW6").unwrap(), b"foo");
        let key = "gezd gnbv gy3t qojq gezd gnbv gy3t qojq";
        assert_eq!(*base32(key).unwrap(), b"12345678901234567890");
        assert!(base32("not base32!").is_err());
        assert!(base32("  ").is_err());
    }

    #[test]
    fn a_bare_key_is_sha1_six_digits_thirty_seconds() {
        let totp = Totp::parse("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").unwrap();
        // The RFC's SHA-1 code at 59 s is 94287082: its last six digits.
        assert_eq!(*totp.code_at(59), "287082");
        assert_eq!(totp.code_now().len(), 6);
    }

    #[test]
    fn an_otpauth_uri_sets_digits_period_and_algorithm() {
        let key = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA";
        let uri = format!(
            "otpauth://totp/Example:alice@example.com?secret={key}&issuer=Other&algorithm=SHA256\
             &digits=8&period=60"
        );
        let totp = Totp::parse(&uri).unwrap();
        assert_eq!(totp.algorithm, Algorithm::Sha256);
        assert_eq!((totp.digits, totp.period), (8, 60));
        // 60 s steps: time 118 is step 1, as time 59 is with 30 s steps.
        assert_eq!(*totp.code_at(118), "46119246");
        let plain =
            Totp::parse("otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").unwrap();
        assert_eq!(*plain.code_at(59), "287082");
    }

    #[test]
    fn a_bad_uri_says_what_is_wrong_without_the_key() {
        let hotp = Totp::parse("otpauth://hotp/x?secret=GEZDGNBV&counter=1");
        assert!(hotp.err().unwrap().contains("HOTP"));
        let none = Totp::parse("otpauth://totp/x?issuer=y");
        assert!(none.err().unwrap().contains("no secret"));
        let digits = Totp::parse("otpauth://totp/x?secret=GEZDGNBV&digits=12");
        assert!(digits.err().unwrap().contains("digits"));
        let algorithm = Totp::parse("otpauth://totp/x?secret=GEZDGNBV&algorithm=MD5");
        let why = algorithm.err().unwrap();
        assert!(why.contains("MD5") && !why.contains("GEZDGNBV"), "{why}");
    }
}
