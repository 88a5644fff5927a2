//! A growable list kept in fixed-size chunks: growing never copies what is there, so a list of
//! millions of rows peaks at its own size, not at the twice of it a `Vec` briefly holds as it
//! doubles (wasm memory never shrinks back).

/// Items per chunk.
const CHUNK: usize = 1 << 14;

/// A list of `T` in chunks of [`CHUNK`] items.
pub struct Chunks<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunks<T> {
    fn default() -> Self {
        Chunks {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Chunks<T> {
    /// How many items there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `item` at the end.
    pub fn push(&mut self, item: T) {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(last) = self.chunks.last_mut() {
            last.push(item);
            self.len += 1;
        }
    }

    /// Item `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }

    /// Item `i` to change, if there is one.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.chunks.get_mut(i / CHUNK)?.get_mut(i % CHUNK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_keep_their_places_across_chunks() {
        let mut c = Chunks::default();
        assert!(c.is_empty() && c.get(0).is_none());
        for i in 0..CHUNK * 2 + 3 {
            c.push(i);
        }
        assert_eq!(c.len(), CHUNK * 2 + 3);
        assert_eq!(c.get(CHUNK), Some(&CHUNK));
        assert_eq!(c.get(CHUNK * 2 + 2), Some(&(CHUNK * 2 + 2)));
        assert!(c.get(CHUNK * 2 + 3).is_none());
        *c.get_mut(5).unwrap() = 0;
        assert_eq!(c.get(5), Some(&0));
        assert_eq!(c.chunks.len(), 3);
    }
}
