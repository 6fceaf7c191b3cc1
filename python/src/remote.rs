//! The executor's transport between processes (`runtime::exec::Remote`) as torch.distributed:
//! each group of sends and receives of a rank's CP stream, and each collective, becomes one call
//! of the Python transport (`attnc._comm.Transport`: `batch_isend_irecv`, `all_to_all_single`,
//! `all_gather_into_tensor` on the caller's process groups), so the bytes travel on the caller's
//! gloo or NCCL, never on a second communicator of attnc's own.

use attnc_runtime::device::Device;
use attnc_runtime::device::host::HostDevice;
use attnc_runtime::exec::{Collective, Remote, Transfer};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyList};

type Mem<'d> = <HostDevice<'d> as Device>::Mem;

/// The Python transport: called as `transport(sends, recvs)` for a group of point-to-point
/// transfers and as `transport.collective(kind, members, sends, recvs)` for a collective, with
/// sends as `[(peer, bytearray)]` and recvs as `[(peer, nbytes)]` (peers are ranks of the plan,
/// i.e. of the CP group); either returns one contiguous uint8 CPU tensor per receive, read here
/// through its data pointer.
pub struct TorchRemote {
    pub transport: Py<PyAny>,
}

impl TorchRemote {
    /// Packs the sends, calls the transport (`collective`: `(kind, members)` of a collective) and
    /// writes what it returns into the receive regions.
    fn exchange(
        &self,
        sends: &[Transfer<'_, Mem<'_>>],
        recvs: &[Transfer<'_, Mem<'_>>],
        collective: Option<(&str, &[u32])>,
    ) -> Result<(), String> {
        let outgoing = sends
            .iter()
            .map(|&(peer, (mem, at), bytes)| Ok((peer, mem.read_bytes(at, bytes).map_err(|e| e.to_string())?)))
            .collect::<Result<Vec<_>, String>>()?;
        let received: Vec<Vec<u8>> = Python::attach(|py| -> PyResult<Vec<Vec<u8>>> {
            let sends = PyList::empty(py);
            for (peer, data) in &outgoing {
                sends.append((*peer, PyByteArray::new(py, data)))?;
            }
            let asked = PyList::empty(py);
            for &(peer, _, bytes) in recvs {
                asked.append((peer, bytes))?;
            }
            let result = match collective {
                None => self.transport.call1(py, (sends, asked))?,
                Some((kind, members)) => {
                    self.transport.call_method1(py, "collective", (kind, members.to_vec(), sends, asked))?
                }
            };
            let list = result.bind(py).cast::<PyList>()?.clone();
            list.iter()
                .map(|tensor| {
                    // A contiguous uint8 CPU tensor, alive while the GIL is held here.
                    let ptr: usize = tensor.call_method0("data_ptr")?.extract()?;
                    let n: usize = tensor.call_method0("numel")?.extract()?;
                    if n == 0 {
                        return Ok(Vec::new());
                    }
                    // SAFETY: `ptr` is the tensor's data of `n` bytes (uint8), which the list keeps
                    // alive and nothing writes while it is copied.
                    Ok(unsafe { std::slice::from_raw_parts(ptr as *const u8, n) }.to_vec())
                })
                .collect()
        })
        .map_err(|e| format!("torch.distributed: {e}"))?;
        if received.len() != recvs.len() {
            return Err(format!("torch.distributed: {} receives answered, {} asked", received.len(), recvs.len()));
        }
        for (&(peer, (mem, at), bytes), data) in recvs.iter().zip(&received) {
            if data.len() != bytes {
                return Err(format!("torch.distributed: {} bytes from rank {peer}, {bytes} expected", data.len()));
            }
            mem.write_bytes(at, data).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

impl<'d> Remote<HostDevice<'d>> for TorchRemote {
    fn send_recv(
        &self,
        _device: &HostDevice<'d>,
        _rank: u32,
        _stream: usize,
        sends: &[Transfer<'_, Mem<'d>>],
        recvs: &[Transfer<'_, Mem<'d>>],
    ) -> Result<(), String> {
        self.exchange(sends, recvs, None)
    }

    fn collective(
        &self,
        _device: &HostDevice<'d>,
        _rank: u32,
        _stream: usize,
        c: &Collective<'_, Mem<'d>>,
    ) -> Result<(), String> {
        self.exchange(&c.sends, &c.recvs, Some((c.kind.name(), &c.members)))
    }
}
