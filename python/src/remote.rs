//! The executor's transport between processes (`runtime::exec::Remote`) as torch.distributed:
//! each group of sends and receives of a rank's CP stream becomes one call of a Python function
//! (`attnc._comm.send_recv`, `batch_isend_irecv` on the caller's process group), so the bytes
//! travel on the caller's gloo or NCCL, never on a second communicator of attnc's own.

use attnc_runtime::device::host::HostDevice;
use attnc_runtime::exec::{Remote, Transfer};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyList};

/// The Python transport: `send_recv(sends, recvs)` with sends as `[(peer, bytearray)]` and recvs
/// as `[(peer, nbytes)]` (peers are ranks of the plan, i.e. of the CP group), returning one
/// contiguous uint8 CPU tensor per receive, read here through its data pointer.
pub struct TorchRemote {
    pub send_recv: Py<PyAny>,
}

impl Remote<HostDevice<'_>> for TorchRemote {
    fn send_recv(
        &self,
        _device: &HostDevice<'_>,
        _rank: u32,
        _stream: usize,
        sends: &[Transfer<'_, <HostDevice<'_> as attnc_runtime::device::Device>::Mem>],
        recvs: &[Transfer<'_, <HostDevice<'_> as attnc_runtime::device::Device>::Mem>],
    ) -> Result<(), String> {
        let outgoing = sends
            .iter()
            .map(|&(peer, (mem, at), bytes)| Ok((peer, mem.read_bytes(at, bytes)?)))
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
            let result = self.send_recv.call1(py, (sends, asked))?;
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
            mem.write_bytes(at, data)?;
        }
        Ok(())
    }
}
