//! Share-link codec benchmark (`cargo xtask bench-codec`, or `cargo bench -p cfp-share
//! --bench codec`): how long refusing deflate bombs takes (the inflater must stop at
//! `MAX_INFLATED`, not expand 20–50 MB), and decoding 20,000 hostile fragments (random
//! bytes, random base64, mutated valid links). Reports; asserts nothing about time.

#[path = "../../../xtask/bench_line.rs"]
mod bench_line;

use base64::Engine as _;
use bench_line::{bench_line, Better};
use cfp_share::{decode, encode, ShareState};
use std::time::Instant;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// xorshift64*: deterministic inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    // A 20 MB run of spaces fits in a fragment and must be refused while inflating.
    let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 20 * 1024 * 1024], 9);
    let fragment = format!("v1.{}", B64.encode(&bomb));
    let refuse = median_ms(5, || assert!(decode(&fragment).is_err()));
    println!(
        "refuse a {} KB fragment inflating to 20 MB: median {refuse:.2} ms",
        fragment.len() / 1024
    );
    bench_line(
        "codec",
        "refuse a 20 MB deflate bomb (median)",
        refuse,
        "ms",
        Better::Lower,
        None,
    );

    let valid = encode(&ShareState {
        program: "class Main { public static void main(String[] a) { l.lock(); l.unlock(); } }"
            .into(),
        spec: "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n".into(),
        ..ShareState::default()
    });
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let inputs: Vec<String> = (0..20_000u32)
        .map(|case| match case % 3 {
            0 => {
                let n = (rng.next() % 200) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            1 => {
                let n = (rng.next() % 300) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                format!("v1.{}", B64.encode(bytes))
            }
            _ => {
                let mut b = valid.clone().into_bytes();
                let i = (rng.next() % b.len() as u64) as usize;
                b[i] = b"ABCxyz019-_."[(rng.next() % 12) as usize];
                String::from_utf8_lossy(&b).into_owned()
            }
        })
        .collect();
    let hostile = median_ms(3, || {
        for input in &inputs {
            let _ = decode(input);
        }
    });
    println!("decode 20,000 hostile fragments: median {hostile:.1} ms");
    bench_line(
        "codec",
        "decode 20,000 hostile fragments (median)",
        hostile,
        "ms",
        Better::Lower,
        None,
    );
}
