//! Where each byte of a text with its macros expanded came from: copied
//! from the file, or written by the expansion of an invocation; and
//! positions and ranges mapped between the two texts.

use std::ops::Range;

/// Where each byte of an expanded text came from.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub segments: Vec<Segment>,
}

/// A stretch of expanded text: copied from the source, or written by the
/// expansion of the invocation at `source`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub expanded: Range<usize>,
    pub source: Range<usize>,
    pub copied: bool,
}

impl SourceMap {
    pub fn push(&mut self, expanded: Range<usize>, source: Range<usize>, copied: bool) {
        if expanded.is_empty() {
            return;
        }
        if let Some(last) = self.segments.last_mut() {
            let contiguous = last.expanded.end == expanded.start && last.source.end == source.start;
            if last.copied && copied && contiguous {
                last.expanded.end = expanded.end;
                last.source.end = source.end;
                return;
            }
        }
        self.segments.push(Segment { expanded, source, copied });
    }

    /// Where the file's byte `at` is in the expanded text, if it was
    /// copied there.
    pub fn expanded_position(&self, at: usize) -> Option<usize> {
        let s = self.segments.iter().find(|s| s.copied && s.source.contains(&at))?;
        Some(s.expanded.start + (at - s.source.start))
    }

    /// Whether any macro was expanded: some text was written by an
    /// expansion, or some source text is missing (an invocation that only
    /// copies its argument, PolyBench's `SCALAR_VAL(x) x`, leaves a gap
    /// where its name and parentheses were).
    pub fn expanded_any(&self) -> bool {
        self.segments.iter().any(|s| !s.copied)
            || self.segments.windows(2).any(|w| w[0].source.end != w[1].source.start)
    }

    fn segment_at(&self, at: usize) -> Option<&Segment> {
        let k = self.segments.partition_point(|s| s.expanded.end <= at);
        self.segments.get(k).filter(|s| s.expanded.start <= at)
    }

    /// Whether the expanded bytes `range` were all copied from the source
    /// (an empty range: the byte before it was).
    pub fn is_copied(&self, range: &Range<usize>) -> bool {
        let last = range.end.max(range.start + 1) - 1;
        match (self.segment_at(range.start), self.segment_at(last)) {
            (Some(a), Some(b)) => a.copied && b.copied,
            _ => false,
        }
    }

    /// The source position of an expanded position: exact in copied text,
    /// the start of the invocation in expanded text.
    pub fn source_start(&self, at: usize) -> usize {
        match self.segment_at(at) {
            Some(s) if s.copied => s.source.start + (at - s.expanded.start),
            Some(s) => s.source.start,
            None => self.segments.last().map_or(at, |s| s.source.end + (at - s.expanded.end)),
        }
    }

    /// The source range of an expanded range: each end mapped, an end in
    /// expanded text to its invocation's end.
    pub fn source_range(&self, range: &Range<usize>) -> Range<usize> {
        let start = self.source_start(range.start);
        let end = match range.end.checked_sub(1).and_then(|last| self.segment_at(last)) {
            Some(s) if s.copied => s.source.start + (range.end - s.expanded.start),
            Some(s) => s.source.end,
            None => self.source_start(range.end),
        };
        start..end.max(start)
    }
}
