//! `code.search_text`: ripgrep's searcher and matcher over a parallel `ignore` walk.
//!
//! The walk starts at the scope. The ignore files between the root and the scope are read
//! once up front (`AncestorIgnores`), none above the root, and hard-ignored names are
//! matched relative to the root. Files up to 16 MiB are read whole into a per-thread buffer
//! and searched as a slice. Only the first `limit` files in path order keep their
//! lines; the others are searched by a cheaper counting searcher (no context, no line
//! numbers), so a broad query costs little more memory than a narrow one and the totals
//! stay exact.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::{Match, WalkBuilder, WalkState};

use crate::{
    rel_path, under_hard_ignored, ContextLine, SearchData, SearchError, SearchFile, SearchMatch,
    SearchOutcome, SearchRequest, Submatch, HARD_IGNORED,
};

/// Searches the files under `scope` (a directory, or one file) for `req.query`.
///
/// `root` is the canonical workspace root; `scope` an absolute path inside it (or the root).
/// Hidden files and directories are skipped (ripgrep's default), as are `.gitignore`d and
/// `.ignore`d ones, hard-ignored names, symlinks and binary files (a NUL byte). The scope
/// itself, file or directory, is searched even if hidden or ignored, as `rg` does with an
/// explicit path (ignore rules still apply below it), unless it lies under a hard-ignored
/// name; `include` and `extensions` apply to a file scope too.
pub fn search_text(root: &Path, scope: &Path, req: &SearchRequest) -> Result<SearchOutcome, SearchError> {
    if !scope.starts_with(root) {
        return Err(SearchError::Io("the scope is not inside the workspace root".into()));
    }
    let matcher = build_matcher(req)?;
    let filter = FileFilter::new(root, req)?;
    let shared = Shared {
        language_of: req.language_of,
        limit: req.limit,
        kept: Mutex::new(BTreeMap::new()),
        total_files: AtomicUsize::new(0),
        total_matches: AtomicUsize::new(0),
    };
    let meta = std::fs::metadata(scope).map_err(|e| SearchError::Io(format!("cannot read the scope: {e}")))?;
    if meta.is_file() {
        if let Some(rel) = rel_path(root, scope) {
            if !under_hard_ignored(root, scope) && filter.accepts(&rel, scope.file_name().unwrap_or_default()) {
                Worker::new(&matcher, req.context, &shared).search_file(scope, rel);
            }
        }
    } else {
        walk(root, scope, &matcher, &filter, req.context, &shared);
    }

    let items: Vec<SearchFile> = shared.kept.into_inner().unwrap_or_else(|p| p.into_inner()).into_values().collect();
    let total_file_count = shared.total_files.into_inner();
    let data = SearchData {
        file_count: items.len(),
        match_count: items.iter().map(|f| f.match_count).sum(),
        total_file_count,
        total_match_count: shared.total_matches.into_inner(),
        items,
    };
    let truncated = data.total_file_count > data.file_count;
    Ok(SearchOutcome { data, truncated })
}

fn build_matcher(req: &SearchRequest) -> Result<RegexMatcher, SearchError> {
    let mut b = RegexMatcherBuilder::new();
    b.line_terminator(Some(b'\n')).fixed_strings(!req.regex);
    b.build(&req.query).map_err(|e| {
        // grep-regex reports on its own rewrite of the pattern (`(?:foo()`); the parser's
        // message points into the pattern as the caller wrote it.
        let own = if req.regex { regex_syntax::Parser::new().parse(&req.query).err().map(|e| e.to_string()) } else { None };
        SearchError::InvalidRegex(own.unwrap_or_else(|| e.to_string()))
    })
}

fn walk(root: &Path, scope: &Path, matcher: &RegexMatcher, filter: &FileFilter, context: usize, shared: &Shared) {
    if under_hard_ignored(root, scope) {
        return;
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(12);
    let above = AncestorIgnores::new(root, scope);
    let mut wb = WalkBuilder::new(scope);
    wb.hidden(true)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .parents(false) // never above the root: `AncestorIgnores` reads root..scope
        .threads(threads)
        .filter_entry(move |e| {
            let name = e.file_name();
            // The scope's own path was checked against the root, relative to it.
            e.depth() == 0
                || (!HARD_IGNORED.iter().any(|h| name == *h)
                    && !above.ignores(e.path(), e.file_type().is_some_and(|ft| ft.is_dir())))
        });
    wb.build_parallel().run(|| {
        let mut worker = Worker::new(matcher, context, shared);
        Box::new(move |res| {
            let Ok(ent) = res else { return WalkState::Continue };
            if !ent.file_type().is_some_and(|ft| ft.is_file()) {
                return WalkState::Continue;
            }
            let abs = ent.path();
            if let Some(rel) = rel_path(root, abs) {
                if filter.accepts(&rel, ent.file_name()) {
                    worker.search_file(abs, rel);
                }
            }
            WalkState::Continue
        })
    });
}

/// The `.gitignore` and `.ignore` files of the directories from the root down to the
/// scope's parent (and `.git/info/exclude` of the root), which the walk, starting at the
/// scope so as never to read above the root, does not see itself. As for `rg` given an
/// explicit path, they apply to the entries below the scope, not to the scope itself.
struct AncestorIgnores(Vec<Gitignore>);

impl AncestorIgnores {
    fn new(root: &Path, scope: &Path) -> AncestorIgnores {
        let mut found = Vec::new();
        let Ok(rel) = scope.strip_prefix(root) else { return AncestorIgnores(found) };
        if rel.as_os_str().is_empty() {
            return AncestorIgnores(found);
        }
        let mut add = |dir: &Path, file: &Path| {
            if file.is_file() {
                let mut b = GitignoreBuilder::new(dir);
                let _ = b.add(file);
                if let Ok(gi) = b.build() {
                    found.push(gi);
                }
            }
        };
        add(root, &root.join(".git/info/exclude"));
        let mut dir = root.to_path_buf();
        let comps: Vec<_> = rel.components().collect();
        for c in &comps {
            add(&dir, &dir.join(".gitignore"));
            add(&dir, &dir.join(".ignore"));
            dir.push(c);
        }
        AncestorIgnores(found)
    }

    /// The deepest file with an opinion decides, as in git.
    fn ignores(&self, path: &Path, is_dir: bool) -> bool {
        for gi in self.0.iter().rev() {
            match gi.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }
}

/// `include` AND `extensions`, applied to files only.
struct FileFilter {
    include: Option<Override>,
    /// Lower-cased, without the dot.
    extensions: Option<Vec<String>>,
}

impl FileFilter {
    fn new(root: &Path, req: &SearchRequest) -> Result<FileFilter, SearchError> {
        let include = match req.include.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(glob) => {
                let mut ob = OverrideBuilder::new(root);
                ob.add(glob).map_err(|e| SearchError::InvalidGlob(e.to_string()))?;
                Some(ob.build().map_err(|e| SearchError::InvalidGlob(e.to_string()))?)
            }
        };
        let extensions = req.extensions.as_ref().map(|exts| {
            exts.iter().map(|e| e.trim().trim_start_matches('.').to_lowercase()).filter(|e| !e.is_empty()).collect()
        });
        Ok(FileFilter { include, extensions })
    }

    /// `rel`: the workspace-relative path, which `include` is matched against.
    fn accepts(&self, rel: &str, name: &OsStr) -> bool {
        if let Some(exts) = &self.extensions {
            let Some(ext) = Path::new(name).extension() else { return false };
            let ext = ext.as_encoded_bytes();
            if !exts.iter().any(|e| e.as_bytes().eq_ignore_ascii_case(ext)) {
                return false;
            }
        }
        match &self.include {
            // Used as a filter after the walk (not as the walk's override), so a whitelist
            // glob never un-ignores a gitignored file: `include` only narrows.
            Some(ov) => !matches!(ov.matched(rel, false), Match::Ignore(_)),
            None => true,
        }
    }
}

/// State shared by the walker threads: the kept files and the totals.
struct Shared {
    limit: usize,
    language_of: fn(&str) -> Option<&'static str>,
    /// The first `limit` matched files in path order seen so far.
    kept: Mutex<BTreeMap<String, SearchFile>>,
    total_files: AtomicUsize,
    total_matches: AtomicUsize,
}

impl Shared {
    /// Whether a file at `rel` could still be among the first `limit` files.
    fn wants_lines(&self, rel: &str) -> bool {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.len() < self.limit || kept.last_key_value().is_some_and(|(last, _)| rel < last.as_str())
    }

    fn add(&self, count: usize, file: Option<SearchFile>) {
        self.total_files.fetch_add(1, Ordering::Relaxed);
        self.total_matches.fetch_add(count, Ordering::Relaxed);
        if let Some(file) = file {
            let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            kept.insert(file.path.clone(), file);
            if kept.len() > self.limit {
                kept.pop_last();
            }
        }
    }
}

/// One thread's searchers, reused for every file it visits.
struct Worker<'a> {
    matcher: &'a RegexMatcher,
    context: usize,
    /// Line numbers and context: for files that may be returned.
    lines: Searcher,
    /// Neither: for files that only count towards the totals.
    count: Searcher,
    shared: &'a Shared,
    /// The start of the file being searched (all of it when it fits), kept from file to
    /// file so that it is rarely grown.
    buf: Vec<u8>,
}

/// Files up to this size are read whole and searched as a slice; past it, the bytes read so
/// far and the rest of the file are streamed.
const SLICE_MAX: usize = 16 << 20;

impl<'a> Worker<'a> {
    fn new(matcher: &'a RegexMatcher, context: usize, shared: &'a Shared) -> Worker<'a> {
        let build = |line_number: bool, context: usize| {
            SearcherBuilder::new()
                .binary_detection(BinaryDetection::quit(b'\x00'))
                .line_number(line_number)
                .before_context(context)
                .after_context(context)
                .build()
        };
        Worker { matcher, context, lines: build(true, context), count: build(false, 0), shared, buf: Vec::new() }
    }

    /// Searches one file. A file that fits in `SLICE_MAX` is searched as a slice: the
    /// searcher then counts lines only up to the last match, where a streaming search
    /// counts every line it rolls past.
    fn search_file(&mut self, abs: &Path, rel: String) {
        let Ok(mut file) = File::open(abs) else { return };
        let Ok((n, whole)) = fill(&mut self.buf, &mut file) else { return };
        let head = &self.buf[..n];
        if self.shared.wants_lines(&rel) {
            let mut sink = LineSink::new(self.matcher, self.context);
            let res = if whole {
                self.lines.search_slice(self.matcher, head, &mut sink)
            } else {
                self.lines.search_reader(self.matcher, head.chain(&mut file), &mut sink)
            };
            if res.is_err() || sink.binary || sink.matches.is_empty() {
                return;
            }
            let language = (self.shared.language_of)(&rel);
            let n = sink.matches.len();
            self.shared.add(n, Some(SearchFile { path: rel, language, match_count: n, matches: sink.matches }));
        } else {
            let mut sink = CountSink { lines: 0, binary: false };
            let res = if whole {
                self.count.search_slice(self.matcher, head, &mut sink)
            } else {
                self.count.search_reader(self.matcher, head.chain(&mut file), &mut sink)
            };
            if res.is_err() || sink.binary || sink.lines == 0 {
                return;
            }
            self.shared.add(sink.lines, None);
        }
    }
}

/// Reads `file` into `buf` up to its end or `SLICE_MAX` bytes: (bytes read, whole file?).
/// No stat and no seek (`File::read_to_end` does both to size its buffer): the buffer is
/// usually already large enough for one read plus the one that finds the end, as in rg.
fn fill(buf: &mut Vec<u8>, file: &mut File) -> std::io::Result<(usize, bool)> {
    let mut n = 0;
    loop {
        if n == buf.len() {
            if n >= SLICE_MAX {
                return Ok((n, false));
            }
            buf.resize(n + n.max(64 << 10), 0);
        }
        match file.read(&mut buf[n..]) {
            Ok(0) => return Ok((n, true)),
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Counts matched lines; gives up on binary data.
struct CountSink {
    lines: usize,
    binary: bool,
}

impl Sink for CountSink {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, _: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        self.lines += 1;
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> Result<bool, std::io::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// Collects matched lines with their submatches and context; gives up on binary data.
///
/// The searcher reports every line within `context` of a match (as a match or as context),
/// so the last `context` lines seen are exactly a new match's `before`, and each line seen
/// is the `after` of every earlier match less than `context` lines above it.
struct LineSink<'m> {
    matcher: &'m RegexMatcher,
    context: u64,
    recent: VecDeque<ContextLine>,
    matches: Vec<SearchMatch>,
    /// Index of the first match that may still take `after` lines.
    open: usize,
    /// The last submatch's bytes and text, reused while they repeat.
    last_sub: (Vec<u8>, Arc<str>),
    binary: bool,
}

impl<'m> LineSink<'m> {
    fn new(matcher: &'m RegexMatcher, context: usize) -> LineSink<'m> {
        LineSink {
            matcher,
            context: context as u64,
            recent: VecDeque::with_capacity(context),
            matches: Vec::new(),
            open: 0,
            last_sub: (Vec::new(), Arc::from("")),
            binary: false,
        }
    }

    fn line(&mut self, number: u64, raw: &[u8], is_match: bool) {
        let bytes = strip_terminator(raw);
        let text = shared_text(bytes);
        let c = self.context;
        if c > 0 {
            while self.open < self.matches.len() && self.matches[self.open].line + c < number {
                self.open += 1;
            }
            for m in &mut self.matches[self.open..] {
                m.after.push(ContextLine { line: number, text: text.clone() });
            }
        }
        if is_match {
            let before = self.recent.iter().filter(|l| l.line + c >= number).cloned().collect();
            let mut submatches = Vec::with_capacity(1);
            let last_sub = &mut self.last_sub;
            let _ = self.matcher.find_iter(bytes, |m| {
                let sub = &bytes[m];
                // A literal query (and most regexes) matches the same text again and again.
                if last_sub.0 != sub {
                    *last_sub = (sub.to_vec(), shared_text(sub));
                }
                submatches.push(Submatch { start: m.start(), end: m.end(), text: last_sub.1.clone() });
                true
            });
            let after = Vec::with_capacity(self.context as usize);
            self.matches.push(SearchMatch { line: number, text: text.clone(), submatches, before, after });
        }
        if c > 0 {
            if self.recent.len() as u64 == c {
                self.recent.pop_front();
            }
            self.recent.push_back(ContextLine { line: number, text });
        }
    }
}

/// The text of a line, lossily decoded, in one allocation.
fn shared_text(bytes: &[u8]) -> Arc<str> {
    match String::from_utf8_lossy(bytes) {
        Cow::Borrowed(s) => Arc::from(s),
        Cow::Owned(s) => Arc::from(s),
    }
}

impl Sink for LineSink<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        let first = mat.line_number().unwrap_or(0);
        for (i, line) in mat.lines().enumerate() {
            self.line(first + i as u64, line, true);
        }
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, std::io::Error> {
        self.line(ctx.line_number().unwrap_or(0), ctx.bytes(), false);
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> Result<bool, std::io::Error> {
        self.binary = true;
        Ok(false)
    }
}

fn strip_terminator(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
