//! A tiny CLI over `search_text` for the benchmark (`scripts/bench_search.py`) and for a
//! look by hand: prints the `data` object as JSON on stdout, the totals on stderr.
//!
//! `cargo run --release -p navegador-search --example search -- ROOT QUERY [--regex]
//!  [--context N] [--limit N] [--include GLOB] [--ext .ts,.tsx] [--scope PATH]`
//!
//! `--limit` defaults to unlimited here (the tool's range is 1..=200), so every matched
//! file is materialized, as `rg --json` prints every match.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use navegador_search::{search_text, SearchData, SearchRequest};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(root), Some(query)) = (args.next(), args.next()) else {
        eprintln!("usage: search ROOT QUERY [--regex] [--context N] [--limit N] [--include GLOB] [--ext .a,.b] [--scope PATH]");
        return ExitCode::from(2);
    };
    let mut req = SearchRequest {
        query,
        regex: false,
        context: 1,
        limit: usize::MAX,
        include: None,
        extensions: None,
        language_of: |p| navegador_lang::registry().name_of_path(p),
    };
    let mut scope = None;
    while let Some(a) = args.next() {
        let mut val = || args.next().expect("flag needs a value");
        match a.as_str() {
            "--regex" => req.regex = true,
            "--context" => req.context = val().parse().expect("--context N"),
            "--limit" => req.limit = val().parse().expect("--limit N"),
            "--include" => req.include = Some(val()),
            "--ext" => req.extensions = Some(val().split(',').map(str::to_string).collect()),
            "--scope" => scope = Some(PathBuf::from(val())),
            "--plain" => {}
            other => {
                eprintln!("unknown flag {other}");
                return ExitCode::from(2);
            }
        }
    }
    let root = match std::fs::canonicalize(&root) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{root}: {e}");
            return ExitCode::from(2);
        }
    };
    let scope = scope.map(|s| std::fs::canonicalize(root.join(s)).expect("scope")).unwrap_or_else(|| root.clone());
    let start = std::time::Instant::now();
    match search_text(&root, &scope, &req) {
        Ok(out) => {
            let searched = start.elapsed();
            let stdout = std::io::stdout().lock();
            let mut w = std::io::BufWriter::with_capacity(1 << 16, stdout);
            if write_json(&mut w, &out.data).and_then(|()| w.flush()).is_err() {
                return ExitCode::SUCCESS; // a closed pipe is not a failure
            }
            eprintln!(
                "files {} / {}, matched lines {} / {}, truncated {}, search_text {:.3} s, json {:.3} s",
                out.data.file_count,
                out.data.total_file_count,
                out.data.match_count,
                out.data.total_match_count,
                out.truncated,
                searched.as_secs_f64(),
                (start.elapsed() - searched).as_secs_f64()
            );
            // The process ends here: freeing a large answer piece by piece is wasted work.
            std::mem::forget(out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// `serde_json::to_writer(w, data)`, byte for byte, with the items serialized on all cores
/// (as rg formats its JSON on its search threads). Plain serialization with `--plain`.
fn write_json(w: &mut impl Write, data: &SearchData) -> std::io::Result<()> {
    if std::env::args().any(|a| a == "--plain") {
        return serde_json::to_writer(w, data).map_err(std::io::Error::other);
    }
    write!(
        w,
        "{{\"fileCount\":{},\"matchCount\":{},\"totalFileCount\":{},\"totalMatchCount\":{},\"items\":[",
        data.file_count, data.match_count, data.total_file_count, data.total_match_count
    )?;
    // Rounds of `threads` chunks, each thread filling its own reused buffer: the output is
    // never held whole in memory (fresh pages cost as much as the formatting).
    const CHUNK: usize = 256;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); threads];
    let mut first = true;
    for round in data.items.chunks(CHUNK * threads) {
        std::thread::scope(|s| {
            for (buf, items) in bufs.iter_mut().zip(round.chunks(CHUNK)) {
                s.spawn(move || {
                    buf.clear();
                    for item in items {
                        buf.push(b',');
                        serde_json::to_writer(&mut *buf, item).expect("serializable");
                    }
                });
            }
        });
        for (buf, _) in bufs.iter().zip(round.chunks(CHUNK)) {
            // Each buffer starts with a comma; the very first item has none.
            w.write_all(if first { &buf[1..] } else { buf })?;
            first = false;
        }
    }
    w.write_all(b"]}")
}
