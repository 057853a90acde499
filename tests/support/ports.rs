//! Loopback port pairs for a relay's range (the first port and the next), for the end-to-end
//! tests and the benchmarks, each in a range of its own.

// Each user calls a part of it.
#![allow(dead_code)]

use std::net::TcpListener;
use std::ops::Range;

/// Whether loopback ports `port` and `port + 1` are both free now.
pub(crate) fn pair_free(port: u16) -> bool {
    TcpListener::bind(("127.0.0.1", port)).is_ok()
        && TcpListener::bind(("127.0.0.1", port + 1)).is_ok()
}

/// The first pair of consecutive free loopback ports in `range`, from its start by twos.
pub(crate) fn free_port_pair(range: Range<u16>) -> u16 {
    let (from, to) = (range.start, range.end);
    range
        .step_by(2)
        .find(|&p| pair_free(p))
        .unwrap_or_else(|| panic!("two free ports in {from}-{to}"))
}
