//! NCCL through cudarc's `nccl` module: the library's version, communicators created from a
//! unique id that rank 0 shares through the rendezvous, and the CP stream's operations.
//!
//! Every operation is enqueued on the device's dedicated CP stream (`Gpu::cp`). Grouped send/recv
//! posts both directions of a ring step between `ncclGroupStart` and `ncclGroupEnd`, as
//! TransformerEngine's `batch_isend_irecv` does; all-to-all is built from grouped send/recv (NCCL
//! has no all-to-all primitive). [`self_test`] checks each operation's result on known data, on any
//! number of ranks (one per process and GPU, NCCL's rule), a single rank included.

use cudarc::driver::CudaSlice;
use cudarc::nccl::{Comm, Id, NcclType, ReduceOp, group_end, group_start};

use super::{CudaError, Gpu, driver};

/// Whether `libnccl.so` loads.
pub fn present() -> bool {
    // SAFETY: only tries to open the library by name.
    unsafe { cudarc::nccl::sys::is_culib_present() }
}

fn nccl_err(operation: &str) -> impl Fn(cudarc::nccl::result::NcclError) -> CudaError + '_ {
    move |e| CudaError::Nccl { operation: operation.to_string(), message: format!("{e:?}") }
}

/// NCCL's version as (major, minor, patch), asked of the library (no GPU needed).
pub fn version() -> Result<(u32, u32, u32), CudaError> {
    if !present() {
        return Err(CudaError::NoNccl);
    }
    let code = cudarc::nccl::result::get_nccl_version().map_err(nccl_err("ncclGetVersion"))? as u32;
    // Since NCCL 2.9 the code is major·10000 + minor·100 + patch (before: major·1000 + minor·100 + patch).
    Ok(if code >= 20900 {
        (code / 10000, code / 100 % 100, code % 100)
    } else {
        (code / 1000, code / 100 % 10, code % 100)
    })
}

/// A fresh unique id (rank 0 makes it and shares its 128 bytes through the rendezvous).
pub fn unique_id() -> Result<Vec<u8>, CudaError> {
    if !present() {
        return Err(CudaError::NoNccl);
    }
    let id = Id::new().map_err(nccl_err("ncclGetUniqueId"))?;
    Ok(id.internal().iter().map(|&c| c as u8).collect())
}

/// Rank 0's unique id as NCCL takes it (the rendezvous carries 128 bytes).
fn id_of(bytes: &[u8]) -> Result<cudarc::nccl::sys::ncclUniqueId, CudaError> {
    let bytes: [u8; 128] = bytes.try_into().map_err(|_| CudaError::Nccl {
        operation: "ncclCommInitRank".into(),
        message: format!("a unique id has 128 bytes, not {}", bytes.len()),
    })?;
    Ok(cudarc::nccl::sys::ncclUniqueId { internal: bytes.map(|b| b as core::ffi::c_char) })
}

/// One rank's communicator of a group, on its device's CP stream.
pub struct NcclComm {
    comm: Comm,
    pub rank: usize,
    pub world: usize,
}

impl NcclComm {
    /// Joins the group `id` names (every member calls this with the same id).
    pub fn new(gpu: &Gpu, rank: usize, world: usize, id: &[u8]) -> Result<NcclComm, CudaError> {
        if !present() {
            return Err(CudaError::NoNccl);
        }
        let id = Id::uninit(id_of(id)?.internal);
        let comm = Comm::from_rank(gpu.cp.clone(), rank, world, id).map_err(nccl_err("ncclCommInitRank"))?;
        Ok(NcclComm { comm, rank, world })
    }

    /// Both directions of a ring step (or any set of transfers) as one NCCL group.
    pub fn send_recv<T: NcclType>(
        &self,
        sends: &[(usize, &CudaSlice<T>)],
        recvs: &mut [(usize, &mut CudaSlice<T>)],
    ) -> Result<(), CudaError> {
        group_start().map_err(nccl_err("ncclGroupStart"))?;
        let mut result = Ok(());
        for (peer, data) in sends {
            if result.is_ok() {
                result = self.comm.send(*data, *peer as i32).map_err(nccl_err("ncclSend"));
            }
        }
        for (peer, data) in recvs.iter_mut() {
            if result.is_ok() {
                result = self.comm.recv(*data, *peer as i32).map(|_| ()).map_err(nccl_err("ncclRecv"));
            }
        }
        // The group is closed whatever happened inside it.
        group_end().map_err(nccl_err("ncclGroupEnd"))?;
        result
    }

    /// Every member's `send`, by member, into `recv` (`world × send.len()`).
    pub fn all_gather<T: NcclType>(&self, send: &CudaSlice<T>, recv: &mut CudaSlice<T>) -> Result<(), CudaError> {
        self.comm.all_gather(send, recv).map(|_| ()).map_err(nccl_err("ncclAllGather"))
    }

    /// The sum over members of their chunk `rank` of `send` (`world × recv.len()`).
    pub fn reduce_scatter<T: NcclType>(&self, send: &CudaSlice<T>, recv: &mut CudaSlice<T>) -> Result<(), CudaError> {
        self.comm.reduce_scatter(send, recv, &ReduceOp::Sum).map(|_| ()).map_err(nccl_err("ncclReduceScatter"))
    }

    /// Chunk `j` of `send` to member `j`; chunk `j` of `recv` from member `j` (`chunk` elements
    /// each), as one group of sends and recvs.
    pub fn all_to_all<T: NcclType>(
        &self,
        send: &CudaSlice<T>,
        recv: &mut CudaSlice<T>,
        chunk: usize,
    ) -> Result<(), CudaError> {
        group_start().map_err(nccl_err("ncclGroupStart"))?;
        let mut result = Ok(());
        for peer in 0..self.world {
            if result.is_ok() {
                let view = send.slice(peer * chunk..(peer + 1) * chunk);
                result = self.comm.send(&view, peer as i32).map_err(nccl_err("ncclSend (all-to-all)"));
            }
        }
        for peer in 0..self.world {
            if result.is_ok() {
                let mut view = recv.slice_mut(peer * chunk..(peer + 1) * chunk);
                result = self.comm.recv(&mut view, peer as i32).map(|_| ()).map_err(nccl_err("ncclRecv (all-to-all)"));
            }
        }
        group_end().map_err(nccl_err("ncclGroupEnd"))?;
        result
    }
}

/// A raw NCCL communicator for the device executor's transfers between processes: device
/// addresses in, `ncclSend`/`ncclRecv` of bytes grouped per SendRecv op on the rank's CP stream.
/// Destroyed (`ncclCommDestroy`) on drop.
pub struct NcclRemote {
    comm: cudarc::nccl::sys::ncclComm_t,
    pub rank: usize,
    pub world: usize,
}

// SAFETY: NCCL communicators may be used from any thread, one call at a time; the executor issues
// a rank's transfers from its CP-stream thread alone.
unsafe impl Send for NcclRemote {}
unsafe impl Sync for NcclRemote {}

impl NcclRemote {
    /// Joins the job's communicator (every rank calls this with rank 0's id).
    pub fn new(rank: usize, world: usize, id: &[u8]) -> Result<NcclRemote, CudaError> {
        if !present() {
            return Err(CudaError::NoNccl);
        }
        let id = id_of(id)?;
        let mut comm = std::mem::MaybeUninit::uninit();
        // SAFETY: `comm` is written by NCCL before it is read; the id came from ncclGetUniqueId.
        let comm = unsafe {
            cudarc::nccl::result::comm_init_rank(comm.as_mut_ptr(), world as i32, id, rank as i32)
                .map_err(nccl_err("ncclCommInitRank"))?;
            comm.assume_init()
        };
        Ok(NcclRemote { comm, rank, world })
    }
}

impl Drop for NcclRemote {
    fn drop(&mut self) {
        // SAFETY: the communicator was initialised and is not used after this.
        let _ = unsafe { cudarc::nccl::result::comm_destroy(self.comm) };
    }
}

impl crate::device::remote::Remote<super::device::CudaDevice> for NcclRemote {
    fn send_recv(
        &self,
        device: &super::device::CudaDevice,
        rank: u32,
        stream: usize,
        sends: &[crate::device::remote::Transfer<'_, super::device::CudaMem>],
        recvs: &[crate::device::remote::Transfer<'_, super::device::CudaMem>],
    ) -> Result<(), String> {
        use cudarc::nccl::result::{recv, send};
        use cudarc::nccl::sys::ncclDataType_t::ncclUint8;
        let s = device.stream(rank, stream).map_err(|e| e.to_string())?;
        let cu = s.cu_stream() as _;
        group_start().map_err(|e| nccl_err("ncclGroupStart")(e).to_string())?;
        let mut result = Ok(());
        for (peer, region, len) in sends {
            if result.is_ok() {
                let ptr = super::device::address(*region) as *const core::ffi::c_void;
                // SAFETY: the region lies inside a live allocation of this rank's device.
                result = unsafe { send(ptr, *len, ncclUint8, *peer as i32, self.comm, cu) }.map(|_| ());
            }
        }
        for (peer, region, len) in recvs {
            if result.is_ok() {
                let ptr = super::device::address(*region) as *mut core::ffi::c_void;
                // SAFETY: as above.
                result = unsafe { recv(ptr, *len, ncclUint8, *peer as i32, self.comm, cu) }.map(|_| ());
            }
        }
        group_end().map_err(|e| nccl_err("ncclGroupEnd")(e).to_string())?;
        result.map_err(|e| nccl_err("ncclSend/ncclRecv")(e).to_string())
    }
}

/// Runs each operation on known data and checks what arrives: all-gather, reduce-scatter, a ring
/// exchange (grouped send/recv, both directions) and all-to-all. Returns one line per operation.
pub fn self_test(gpu: &Gpu, comm: &NcclComm) -> Result<Vec<String>, CudaError> {
    let (r, w, n) = (comm.rank, comm.world, 1024usize);
    let s = &gpu.cp;
    let up = |v: Vec<f32>| driver("upload", s.clone_htod(&v));
    let zeros = |len: usize| driver("alloc", s.alloc_zeros::<f32>(len));
    let read = |d: &CudaSlice<f32>| -> Result<Vec<f32>, CudaError> {
        let v = driver("read back", s.clone_dtoh(d))?;
        driver("cuStreamSynchronize (cp)", s.synchronize())?;
        Ok(v)
    };
    let expect = |what: &str, got: Vec<f32>, want: Vec<f32>| -> Result<String, CudaError> {
        match got.iter().zip(&want).position(|(a, b)| a != b) {
            None if got.len() == want.len() => Ok(format!("rank {r}/{w}: {what} ok ({} floats)", got.len())),
            at => Err(CudaError::Check(format!(
                "rank {r}/{w}: {what}: element {at:?} is {:?}, expected {:?}",
                at.map(|i| got[i]),
                at.map(|i| want[i])
            ))),
        }
    };
    let mut lines = Vec::new();

    let mine = up(vec![(r + 1) as f32; n])?;
    let mut all = zeros(w * n)?;
    comm.all_gather(&mine, &mut all)?;
    let want = (0..w).flat_map(|m| vec![(m + 1) as f32; n]).collect();
    lines.push(expect("all_gather", read(&all)?, want)?);

    let chunks = up((0..w * n).map(|i| (r * w + i / n) as f32).collect())?;
    let mut sum = zeros(n)?;
    comm.reduce_scatter(&chunks, &mut sum)?;
    let want = vec![(0..w).map(|m| (m * w + r) as f32).sum(); n];
    lines.push(expect("reduce_scatter", read(&sum)?, want)?);

    let (next, prev) = ((r + 1) % w, (r + w - 1) % w);
    let mut from_prev = zeros(n)?;
    let mut from_next = zeros(n)?;
    let to_next = up(vec![r as f32; n])?;
    let to_prev = up(vec![-(r as f32); n])?;
    comm.send_recv(&[(next, &to_next), (prev, &to_prev)], &mut [(prev, &mut from_prev), (next, &mut from_next)])?;
    lines.push(expect("ring send/recv (forward)", read(&from_prev)?, vec![prev as f32; n])?);
    lines.push(expect("ring send/recv (backward)", read(&from_next)?, vec![-(next as f32); n])?);

    let send = up((0..w * n).map(|i| (r * 100 + i / n) as f32).collect())?;
    let mut recv = zeros(w * n)?;
    comm.all_to_all(&send, &mut recv, n)?;
    let want = (0..w * n).map(|i| ((i / n) * 100 + r) as f32).collect();
    lines.push(expect("all_to_all (grouped send/recv)", read(&recv)?, want)?);
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without libnccl.so on the library path the version is an error naming the fix; with it
    /// (`attnc devices` runs under scripts/setup's NCCL in the CLI tests) a 2.x version.
    #[test]
    fn version_is_asked_of_the_library_or_its_absence_reported() {
        match version() {
            Ok((major, _, _)) => assert_eq!(major, 2),
            Err(e) => assert!(!present() && e.to_string().starts_with("NCCL not found"), "{e}"),
        }
    }
}
