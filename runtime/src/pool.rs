//! Staging buffers kept from one kernel call or launch to the next: a fresh allocation of that
//! size is fresh pages, and faulting them in cost about 12% of a 4096-token forward pass (measured
//! with `attnc bench kernels`, d 128, one thread). Used by the host kernel adapter
//! (`generated.rs`: contiguous Q and KV rows, kernel scratch) and the host device (`device/host.rs`:
//! interleaved K and V, partial outputs, gradients).

use std::sync::Mutex;

/// Buffers kept beyond this many go back to the allocator.
const KEEP: usize = 64;

#[derive(Default)]
pub(crate) struct Pool(Mutex<Vec<Vec<f32>>>);

impl Pool {
    /// A buffer of `n` floats with unspecified contents (callers write before they read): the
    /// smallest kept one that holds `n`, else the largest, grown.
    pub(crate) fn take(&self, n: usize) -> Vec<f32> {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let fits = (0..kept.len()).filter(|&i| kept[i].capacity() >= n).min_by_key(|&i| kept[i].capacity());
        let pick = fits.or_else(|| (0..kept.len()).max_by_key(|&i| kept[i].capacity()));
        let mut v = pick.map(|i| kept.swap_remove(i)).unwrap_or_default();
        drop(kept);
        if v.len() >= n {
            v.truncate(n);
        } else {
            v.resize(n, 0.0);
        }
        v
    }

    /// `n` zeros.
    pub(crate) fn zeros(&self, n: usize) -> Vec<f32> {
        let mut v = self.take(n);
        v.fill(0.0);
        v
    }

    pub(crate) fn give(&self, v: Vec<f32>) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < KEEP {
            kept.push(v);
        }
    }
}
