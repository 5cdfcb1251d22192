//! Budgets: every list of an answer shows one page (`offset`, `limit`), its total is kept
//! true to the whole result, and the notes say what was left out and how to ask for it.

use crate::{Limits, Options};

/// The slice of each list one answer shows, after clamping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    pub limit: usize,
    pub offset: usize,
}

impl Page {
    /// `limit` and `offset` as asked, clamped to `1..=max_limit` and `0..`, each change
    /// noted (never a silent empty answer, never a protocol error).
    pub fn new(opts: &Options, limits: &Limits, notes: &mut Vec<String>) -> Page {
        let limit = match opts.limit {
            None => limits.default_limit,
            Some(l) if l < 1 => {
                notes.push(format!("limit {l} raised to 1"));
                1
            }
            Some(l) if l as u64 > limits.max_limit as u64 => {
                notes.push(format!("limit {l} clamped to {}", limits.max_limit));
                limits.max_limit
            }
            Some(l) => l as usize,
        };
        let offset = match opts.offset {
            None => 0,
            Some(o) if o < 0 => {
                notes.push(format!("offset {o} raised to 0"));
                0
            }
            Some(o) => usize::try_from(o).unwrap_or(usize::MAX),
        };
        Page { limit, offset }
    }

    /// The range of a list of `len` entries this page shows.
    pub fn range(&self, len: usize) -> std::ops::Range<usize> {
        let start = self.offset.min(len);
        start..start.saturating_add(self.limit).min(len)
    }

    /// True when a list of `len` entries continues after this page.
    pub fn more(&self, len: usize) -> bool {
        self.offset.saturating_add(self.limit) < len
    }

    pub fn next_offset(&self) -> usize {
        self.offset.saturating_add(self.limit)
    }
}

/// Notes for lists cut by the page: `caller: 20 of 653 listed` and how to get the rest;
/// an offset past the end of every list is said, so an empty page is never silent.
/// `lists` is (name, total); `arg` names the argument that picks one list.
pub(crate) fn page_notes(page: &Page, lists: &[(&str, usize)], arg: &str, notes: &mut Vec<String>) -> Option<usize> {
    let cut: Vec<String> = lists
        .iter()
        .filter(|(_, total)| page.more(*total) || (page.offset > 0 && *total > 0))
        .map(|(name, total)| {
            let r = page.range(*total);
            if r.is_empty() {
                format!("{name}: none of {total} at offset {}", page.offset)
            } else {
                format!("{name}: {}-{} of {total}", r.start + 1, r.end)
            }
        })
        .collect();
    let more = lists.iter().any(|(_, total)| page.more(*total));
    let largest = lists.iter().map(|(_, t)| *t).max().unwrap_or(0);
    if page.offset > 0 && page.offset >= largest {
        notes.push(format!(
            "offset {} is past the end of every list (the longest has {largest}); start again at offset 0",
            page.offset
        ));
    } else if !cut.is_empty() {
        let how = if more {
            format!("; pass offset={} for the next page (add {arg} to page one list), or a larger limit", page.next_offset())
        } else {
            String::new()
        };
        notes.push(format!("listed {}{how}", cut.join(", ")));
    }
    more.then(|| page.next_offset())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_clamp_and_say_so() {
        let l = Limits::default();
        let mut notes = Vec::new();
        let p = Page::new(&Options { limit: Some(0), offset: Some(-3), ..Default::default() }, &l, &mut notes);
        assert_eq!(p, Page { limit: 1, offset: 0 });
        assert_eq!(notes, ["limit 0 raised to 1", "offset -3 raised to 0"]);
        let p = Page::new(&Options { limit: Some(i64::MAX), offset: Some(i64::MAX), ..Default::default() }, &l, &mut notes);
        assert_eq!(p.limit, l.max_limit);
        assert!(p.range(10).is_empty() && !p.more(10));
        let mut n = Vec::new();
        assert_eq!(page_notes(&p, &[("caller", 10)], "relation", &mut n), None);
        assert!(n[0].contains("past the end"), "{n:?}");
        let p = Page { limit: 20, offset: 0 };
        let mut n = Vec::new();
        assert_eq!(page_notes(&p, &[("caller", 653), ("callee", 3)], "relation", &mut n), Some(20));
        assert_eq!(n, ["listed caller: 1-20 of 653; pass offset=20 for the next page (add relation to page one list), or a larger limit"]);
    }
}
