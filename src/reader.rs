//! A bounds-checked little-endian reader that knows its offset.

use crate::error::{DecodeError, DecodeErrorKind};

/// A decode error behind a pointer: results on the hot path stay as small as the values they carry.
pub type Failure = Box<DecodeError>;

/// Reads fields from a byte slice; every failure names the offset where it happened.
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    /// The current offset.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    #[inline]
    pub fn left(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// An error at the current offset.
    pub fn error(&self, kind: DecodeErrorKind) -> Failure {
        self.error_at(self.pos, kind)
    }

    /// An error at a given offset.
    #[cold]
    pub fn error_at(&self, offset: usize, kind: DecodeErrorKind) -> Failure {
        Box::new(DecodeError { offset, kind })
    }

    /// Takes `n` bytes.
    #[inline]
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], Failure> {
        if n > self.left() {
            return Err(self.error(DecodeErrorKind::Truncated {
                what,
                needed: n,
                left: self.left(),
            }));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// The bytes read since offset `start` (at most the current offset).
    pub fn since(&self, start: usize) -> &'a [u8] {
        &self.buf[start..self.pos]
    }

    /// The next `N` bytes in the input without reading them, when there are that many: loaded
    /// from the input where they are used, rather than copied out first.
    #[inline]
    pub fn peek_ref<const N: usize>(&self) -> Option<&'a [u8; N]> {
        let s = self.buf.get(self.pos..self.pos.checked_add(N)?)?;
        s.try_into().ok()
    }

    /// Skips `n` bytes that [`Reader::peek_ref`] has shown are there.
    #[inline]
    pub fn skip(&mut self, n: usize) {
        debug_assert!(n <= self.left());
        self.pos += n;
    }

    /// Skips up to `n` bytes, stopping at the end of the input.
    #[inline]
    pub fn skip_at_most(&mut self, n: usize) {
        self.pos += n.min(self.left());
    }

    #[inline]
    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], Failure> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// A little-endian u32.
    #[inline]
    pub fn u32(&mut self, what: &'static str) -> Result<u32, Failure> {
        self.array(what).map(u32::from_le_bytes)
    }

    /// A little-endian u64.
    #[inline]
    pub fn u64(&mut self, what: &'static str) -> Result<u64, Failure> {
        self.array(what).map(u64::from_le_bytes)
    }

    /// A little-endian f32.
    #[inline]
    pub fn f32(&mut self, what: &'static str) -> Result<f32, Failure> {
        self.array(what).map(f32::from_le_bytes)
    }

    /// A little-endian f64.
    #[inline]
    pub fn f64(&mut self, what: &'static str) -> Result<f64, Failure> {
        self.array(what).map(f64::from_le_bytes)
    }
}
