//! The Python binding of brass-core: wrappers, error mapping, GIL release, numpy buffers. No rules here.
use pyo3::prelude::*;

#[pymodule]
fn _brass(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
