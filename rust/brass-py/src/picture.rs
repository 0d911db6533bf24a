//! SVG pictures turned into pixels with resvg: PNG files (`brass.svg.save(state, "x.png")`) and the RGB
//! arrays of Gymnasium's `rgb_array` render mode. The system's fonts are read once per process.
use crate::args::width_arg;
use crate::errors::detached;
use brass_core::Error;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The fonts text is drawn in: the system's, loaded on first use (a scan of the font folders).
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            // The pictures ask for Helvetica, Arial or sans-serif; fontdb maps sans-serif to Arial, which a
            // Linux machine rarely has: take the first sans-serif family that is installed instead.
            let installed = |family: &str| {
                db.faces()
                    .any(|f| f.families.iter().any(|(name, _)| name == family))
            };
            let sans = [
                "Arial",
                "Helvetica",
                "Liberation Sans",
                "DejaVu Sans",
                "Noto Sans",
                "FreeSans",
            ]
            .into_iter()
            .find(|family| installed(family))
            .map(str::to_owned)
            .or_else(|| {
                db.faces()
                    .find_map(|f| f.families.first().map(|(name, _)| name.clone()))
            });
            if let Some(family) = sans {
                db.set_sans_serif_family(family);
            }
            Arc::new(db)
        })
        .clone()
}

/// The picture drawn `width` pixels wide (its own width when None), height in proportion.
fn render(svg: &str, width: Option<u32>) -> Result<tiny_skia::Pixmap, Error> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| Error::InvalidState(format!("not an SVG picture: {e}")))?;
    let size = tree.size();
    let scale = width.map_or(1.0, |w| w as f32 / size.width());
    let (w, h) = (
        (size.width() * scale).round().max(1.0) as u32,
        (size.height() * scale).round().max(1.0) as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| Error::Config(format!("a picture of {w} x {h} pixels cannot be made")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// PNG bytes of an SVG picture, `width` pixels wide (default: the picture's own size).
#[pyfunction]
#[pyo3(signature = (svg, width = None))]
pub(crate) fn _svg_to_png<'py>(
    py: Python<'py>,
    svg: &str,
    width: Option<u32>,
) -> PyResult<Bound<'py, PyBytes>> {
    let width = width_arg(py, width)?;
    let svg = svg.to_owned();
    let png = detached(py, move || {
        render(&svg, width)?
            .encode_png()
            .map_err(|e| Error::InvalidState(format!("PNG encoding failed: {e}")))
    })?;
    Ok(PyBytes::new(py, &png))
}

/// The pixels of an SVG picture as RGB bytes, `width` pixels wide: a flat uint8 array of
/// height x width x 3 and the height (the caller reshapes it).
#[pyfunction]
#[pyo3(signature = (svg, width = None))]
pub(crate) fn _svg_to_rgb<'py>(
    py: Python<'py>,
    svg: &str,
    width: Option<u32>,
) -> PyResult<(Bound<'py, PyArray1<u8>>, u32, u32)> {
    let width = width_arg(py, width)?;
    let svg = svg.to_owned();
    let (rgb, w, h) = detached(py, move || {
        let pixmap = render(&svg, width)?;
        // The background is opaque white, so the premultiplied pixels are the colours themselves.
        let rgb = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Ok((rgb, pixmap.width(), pixmap.height()))
    })?;
    Ok((PyArray1::from_vec(py, rgb), h, w))
}
