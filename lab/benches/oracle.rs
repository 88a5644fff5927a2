//! Engine oracle throughput: small decode requests per second through one persistent engine
//! process (batched, and one request per frame) against a fresh process per request, for every
//! installed engine. Prints a markdown table.
//!
//! ```sh
//! cargo bench --bench oracle
//! cargo bench --bench oracle -- --engine 4.6 --batched-only   # one line, for scripts
//! ```

use std::time::{Duration, Instant};

use gdmarshal_lab::oracle::{
    DecodeRequest, Engine, EngineConfig, EngineSpec, EngineVerdict, Source, discover,
};

/// Small inputs of the kinds a campaign sends: an int, a string, an array, a float, a rejected one.
const INPUTS: &[&[u8]] = &[
    &[2, 0, 0, 0, 1, 0, 0, 0],
    &[4, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', b'c', 0],
    &[
        0x1c, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0,
    ],
    &[3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f],
    &[4, 0, 0, 0, 9, 0, 0, 0, b'x'],
];

const BATCH: usize = 10_000;
const ROUNDS: usize = 3;
const SINGLE: usize = 500;
const FRESH: usize = 5;

fn requests(n: usize, family3: bool) -> Vec<DecodeRequest<'static>> {
    (0..n)
        .map(|i| {
            let mut bytes = INPUTS[i % INPUTS.len()];
            // 3.x has no Array id 28: send its Array (19) instead.
            if family3 && bytes[0] == 0x1c {
                bytes = &[19, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
            }
            DecodeRequest {
                bytes,
                allow_objects: false,
            }
        })
        .collect()
}

fn rate(n: usize, t: Duration) -> f64 {
    n as f64 / t.as_secs_f64()
}

fn batched(engine: &mut Engine, family3: bool) -> f64 {
    let reqs = requests(BATCH, family3);
    engine.decode_batch(&reqs[..100]); // warm up
    let start = Instant::now();
    for _ in 0..ROUNDS {
        let results = engine.decode_batch(&reqs);
        assert!(
            results
                .iter()
                .all(|r| matches!(r.verdict, EngineVerdict::Accepted | EngineVerdict::Rejected))
        );
    }
    rate(BATCH * ROUNDS, start.elapsed())
}

fn one_per_frame(engine: &mut Engine, family3: bool) -> f64 {
    let reqs = requests(SINGLE, family3);
    let start = Instant::now();
    for r in &reqs {
        engine.decode(r.bytes, false);
    }
    rate(SINGLE, start.elapsed())
}

fn fresh_process(spec: &EngineSpec, family3: bool) -> f64 {
    let reqs = requests(FRESH, family3);
    let start = Instant::now();
    for r in &reqs {
        let mut engine =
            Engine::start(spec.clone(), EngineConfig::default()).expect("engine starts");
        engine.decode(r.bytes, false);
    }
    rate(FRESH, start.elapsed())
}

fn main() {
    // `cargo test --benches` runs this with --bench absent: keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    // `--engine NAME --batched-only`: that engine's batched rate alone, as one line for
    // scripts/bench-campaign.sh.
    let args: Vec<String> = std::env::args().collect();
    let only = args
        .iter()
        .position(|a| a == "--engine")
        .and_then(|i| args.get(i + 1));
    let specs: Vec<EngineSpec> = discover()
        .into_iter()
        .filter(|s| matches!(s.source, Source::Manifest(_)))
        .filter(|s| only.is_none_or(|n| *n == s.name))
        .collect();
    if specs.is_empty() {
        eprintln!("no installed engines: run scripts/install-engines.sh");
        return;
    }
    if args.iter().any(|a| a == "--batched-only") {
        for spec in specs {
            let mut engine =
                Engine::start(spec.clone(), EngineConfig::default()).expect("engine starts");
            let family3 = engine.info().major == 3;
            let b = batched(&mut engine, family3);
            println!(
                "GDMARSHAL_ORACLE engine={} requests_per_s={b:.0}",
                spec.name
            );
        }
        return;
    }
    println!(
        "| engine | batched ({BATCH}/frame) req/s | one request per frame req/s | fresh process per request req/s | batched / fresh |"
    );
    println!("|---|---:|---:|---:|---:|");
    for spec in specs {
        let mut engine = match Engine::start(spec.clone(), EngineConfig::default()) {
            Ok(e) => e,
            Err(e) => {
                println!("| {} | does not start: {e} | | | |", spec.name);
                continue;
            }
        };
        let family3 = engine.info().major == 3;
        let b = batched(&mut engine, family3);
        let s = one_per_frame(&mut engine, family3);
        drop(engine);
        let f = fresh_process(&spec, family3);
        println!(
            "| {} ({}) | {b:.0} | {s:.0} | {f:.1} | {:.0}x |",
            spec.name,
            spec.recorded_version.as_deref().unwrap_or("?"),
            b / f
        );
    }
}
