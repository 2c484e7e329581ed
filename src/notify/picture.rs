//! The board picture of the HTML mail: a ruleset's SVG (`Ruleset::picture`) rendered to a PNG
//! with resvg, sent inline (`cid:`), because mail clients do not show SVG.
//!
//! Fonts are the machine's (DejaVu Sans on Debian, `fonts-dejavu-core`), read once. A picture
//! that does not render, whose renderer panics, or whose PNG would take more than the mail's
//! budget, is left out: the mail says the same in words and links the page.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};
use uuid::Uuid;

/// The width the picture is drawn at in mail (most clients show about 600 CSS pixels).
pub const MAIL_WIDTH: f32 = 480.0;
/// The most a picture may add to a mail (the whole mail must stay well under 100 KB; base64
/// adds a third).
pub const MAX_PNG_BYTES: usize = 40_000;

/// The most font data held in memory; fonts beyond it stay files, read when drawn with.
const FONT_BYTES: usize = 64 << 20;

/// The machine's fonts, each file read once and kept in memory. (A font database loaded from
/// the system lists files, and the renderer would read a font's whole file again for every
/// picture that uses it: under load that was a twentieth of the machine's time, copying
/// DejaVu Sans from the page cache.)
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut system = usvg::fontdb::Database::new();
            system.load_system_fonts();
            let mut db = in_memory(&system, FONT_BYTES);
            db.set_sans_serif_family("DejaVu Sans");
            Arc::new(db)
        })
        .clone()
}

/// The faces of `system` with the data of their files read into memory, up to `budget` bytes
/// (a file that does not fit, or cannot be read, stays a file).
fn in_memory(system: &usvg::fontdb::Database, mut budget: usize) -> usvg::fontdb::Database {
    use usvg::fontdb::Source;
    let mut db = usvg::fontdb::Database::new();
    let mut files = std::collections::HashSet::new();
    for face in system.faces() {
        match &face.source {
            Source::File(path) => {
                if !files.insert(path.clone()) {
                    continue; // another face of a collection already loaded it
                }
                match std::fs::read(path) {
                    Ok(data) if data.len() <= budget => {
                        budget -= data.len();
                        db.load_font_data(data);
                    }
                    _ => {
                        db.load_font_source(Source::File(path.clone()));
                    }
                }
            }
            other => {
                db.load_font_source(other.clone());
            }
        }
    }
    db
}

/// The board of a mail about `game`: `svg` as a PNG [`MAIL_WIDTH`] wide within
/// [`MAX_PNG_BYTES`], or `None`. It never panics: the renderer is a large library drawing
/// whatever a ruleset's picture holds, and a panic in it must cost the mail its picture, not
/// take down the worker that sends it.
pub fn mail_png(game: Uuid, svg: &str) -> Option<Vec<u8>> {
    unless_it_panics(game, || png(svg, MAIL_WIDTH, MAX_PNG_BYTES))
}

/// `render()`, or `None` if it panics (with a warning naming the game, nothing of the picture).
fn unless_it_panics(game: Uuid, render: impl FnOnce() -> Option<Vec<u8>>) -> Option<Vec<u8>> {
    catch_unwind(AssertUnwindSafe(render)).unwrap_or_else(|_| {
        tracing::warn!(%game, "drawing the board picture panicked: the mail goes without it");
        None
    })
}

/// `svg` as a PNG `width` pixels wide (never wider than drawn), or `None` if it does not parse
/// or its PNG is over `max_bytes`.
pub fn png(svg: &str, width: f32, max_bytes: usize) -> Option<Vec<u8>> {
    let options = usvg::Options {
        fontdb: fonts(),
        // Shapes without anti-aliasing: a board is squares, hexes and lines in flat colours,
        // and the in-between colours of smoothed edges were most of the PNG's bytes. Text
        // keeps its smoothing, to stay readable.
        shape_rendering: usvg::ShapeRendering::CrispEdges,
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).ok()?;
    let size = tree.size();
    let scale = (width / size.width()).min(1.0);
    let w = (size.width() * scale).ceil();
    let h = (size.height() * scale).ceil();
    if !(1.0..=4096.0).contains(&w) || !(1.0..=4096.0).contains(&h) {
        return None;
    }
    // Checked just above: both fit in u32.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32)?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let png = palette_png(pixmap.data(), pixmap.width(), pixmap.height())?;
    (png.len() <= max_bytes).then_some(png)
}

/// Colours of the palette at most: the boards are drawn in a few flat colours, and the
/// smoothed edges of the text take the nearest. Sixteen make a 4-bit PNG: half the pixel data
/// of an 8-bit one before compression.
const PALETTE: usize = 16;

/// A 4-bit palette PNG of opaque RGBA pixels.
///
/// The palette comes from a histogram of the picture's colours at 5 bits a channel: the most
/// frequent colours first, each taken only if it is not already close to one taken. A board is
/// mostly flat fills, so those are kept exactly, and the rare in-between colours of the
/// anti-aliased edges go to the nearest. (NeuQuant, used before, trained a network over the
/// pixels for every mail: it was most of the worker's time per picture.)
fn palette_png(rgba: &[u8], width: u32, height: u32) -> Option<Vec<u8>> {
    let (palette, lut) = palette_of(rgba);
    // Two pixels a byte, the first in the high nibble; each row starts on a byte.
    let row = usize::try_from(width).ok()?;
    let indices: Vec<u8> = rgba
        .chunks(row * 4)
        .flat_map(|line| {
            line.chunks(8).map(|two| {
                let first = lut[bin(&two[..4])];
                let second = two.get(4..8).map_or(0, |p| lut[bin(p)]);
                (first << 4) | second
            })
        })
        .collect();
    let mut out = Vec::with_capacity(indices.len() / 4);
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Four);
        encoder.set_palette(palette);
        // No filter: for a paletted picture of flat fills the row filters only scramble the
        // indices (a bag-of-fate board: 13.6 KB with the adaptive filter, 11.5 KB without;
        // level 9 would save 3 % more for three times the time).
        encoder.set_deflate_compression(png::DeflateCompression::Level(6));
        encoder.set_filter(png::Filter::NoFilter);
        let mut writer = encoder.write_header().ok()?;
        writer.write_image_data(&indices).ok()?;
        writer.finish().ok()?;
    }
    Some(out)
}

/// A pixel's histogram bin: 5 bits of red, green and blue.
fn bin(p: &[u8]) -> usize {
    (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
}

/// The palette (RGB triples) and, for each of the 32,768 bins, its palette index.
fn palette_of(rgba: &[u8]) -> (Vec<u8>, Vec<u8>) {
    const BINS: usize = 1 << 15;
    // Per bin: pixel count and the first colour seen in it (a flat fill's exact colour; the
    // bins are small enough that any other colour in one is within 8 a channel of it).
    let mut count = vec![0u32; BINS];
    let mut first = vec![[0u8; 3]; BINS];
    for p in rgba.chunks_exact(4) {
        let b = bin(p);
        if count[b] == 0 {
            first[b] = [p[0], p[1], p[2]];
        }
        count[b] = count[b].saturating_add(1);
    }
    let mut used: Vec<usize> = (0..BINS).filter(|b| count[*b] > 0).collect();
    used.sort_unstable_by_key(|b| std::cmp::Reverse(count[*b]));
    let colour = |b: usize| -> [i32; 3] { first[b].map(i32::from) };
    let distance = |a: [i32; 3], b: [i32; 3]| -> i32 {
        let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    };
    // Colours closer than this to one already taken are edges, not fills.
    const APART: i32 = 24 * 24;
    let mut chosen: Vec<[i32; 3]> = Vec::with_capacity(PALETTE);
    for &b in &used {
        if chosen.len() == PALETTE {
            break;
        }
        let c = colour(b);
        if chosen.iter().all(|k| distance(*k, c) >= APART) {
            chosen.push(c);
        }
    }
    if chosen.is_empty() {
        chosen.push([255, 255, 255]);
    }
    let mut lut = vec![0u8; BINS];
    for &b in &used {
        let c = colour(b);
        let nearest = (0..chosen.len())
            .min_by_key(|i| distance(chosen[*i], c))
            .unwrap_or(0);
        lut[b] = u8::try_from(nearest).unwrap_or(0);
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let palette = chosen.iter().flat_map(|c| c.map(|v| v as u8)).collect();
    (palette, lut)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 200 100\" \
        width=\"200\" height=\"100\"><rect x=\"0\" y=\"0\" width=\"100\" height=\"100\" \
        fill=\"#c0392b\"/><text x=\"110\" y=\"50\">Ann</text></svg>";

    #[test]
    fn a_picture_renders_to_a_png_of_the_asked_width_at_most() {
        let png = png(SVG, 640.0, MAX_PNG_BYTES).expect("a png");
        assert_eq!(&png[1..4], b"PNG");
        // The IHDR chunk: width and height, big-endian, at bytes 16..24.
        let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        let height = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
        assert_eq!(
            (width, height),
            (200, 100),
            "never drawn wider than the SVG"
        );
        // IHDR's bit depth and colour type: a 4-bit palette.
        assert_eq!((png[24], png[25]), (4, 3));
        let small = super::png(SVG, 100.0, MAX_PNG_BYTES).expect("a png");
        let width = u32::from_be_bytes([small[16], small[17], small[18], small[19]]);
        assert_eq!(width, 100);
    }

    #[test]
    fn fonts_are_held_in_memory_within_the_budget() {
        use usvg::fontdb::Source;
        let mut system = usvg::fontdb::Database::new();
        system.load_system_fonts();
        let files = system
            .faces()
            .filter(|f| matches!(f.source, Source::File(_)))
            .count();
        let all = in_memory(&system, usize::MAX);
        assert_eq!(all.len(), system.len(), "every face is kept");
        assert!(
            all.faces().all(|f| !matches!(f.source, Source::File(_))),
            "no face is read from its file again"
        );
        let none = in_memory(&system, 0);
        assert_eq!(none.len(), system.len());
        assert_eq!(
            none.faces()
                .filter(|f| matches!(f.source, Source::File(_)))
                .count(),
            files,
            "beyond the budget, fonts stay files"
        );
    }

    #[test]
    fn broken_or_too_large_pictures_are_left_out() {
        assert!(png("<svg", 640.0, MAX_PNG_BYTES).is_none());
        assert!(png("not svg at all", 640.0, MAX_PNG_BYTES).is_none());
        assert!(png(SVG, 640.0, 10).is_none(), "over the byte budget");
        let game = Uuid::new_v4();
        for malformed in [
            "",
            "<svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"-5\" height=\"1e40\"/>",
            "<html><body>not a picture</body></html>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"10\" height=\"10\"></svg>",
        ] {
            assert!(mail_png(game, malformed).is_none(), "{malformed}");
        }
        assert!(mail_png(game, SVG).is_some());
    }

    #[test]
    fn the_palette_keeps_the_flat_colours_exactly_and_edges_take_the_nearest() {
        // 100 red, 60 white, 30 dark blue pixels, and one in-between pixel of each edge.
        let (red, white, blue) = ([0xc0, 0x39, 0x2b], [255, 255, 255], [0x1b, 0x2a, 0x6b]);
        let near_red = [0xc4, 0x3c, 0x30];
        let mut rgba = vec![];
        for (c, n) in [(red, 100), (white, 60), (blue, 30), (near_red, 1)] {
            for _ in 0..n {
                rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        let (palette, lut) = palette_of(&rgba);
        let colours: Vec<[u8; 3]> = palette
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        assert_eq!(
            colours,
            vec![red, white, blue],
            "most frequent first, exact"
        );
        let index = |c: [u8; 3]| lut[bin(&[c[0], c[1], c[2], 255])];
        assert_eq!(index(red), 0);
        assert_eq!(index(white), 1);
        assert_eq!(index(blue), 2);
        assert_eq!(
            index(near_red),
            0,
            "an edge colour goes to the nearest fill"
        );
    }

    #[test]
    fn a_panic_while_drawing_is_no_picture() {
        let game = Uuid::new_v4();
        assert!(unless_it_panics(game, || panic!("the renderer fell over")).is_none());
        assert_eq!(unless_it_panics(game, || Some(vec![1])), Some(vec![1]));
    }

    /// Every ruleset's opening picture fits the mail's budget. With
    /// `TURNPOST_PNG_DIR=/tmp` the PNGs are written there, to look at.
    #[test]
    fn every_rulesets_opening_picture_fits_in_a_mail() {
        let registry = crate::rules::Registry::standard();
        let names: Vec<String> = ["Ann", "Bob", "Cat"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        for rules in registry.all() {
            let options = rules.normalise_options(&serde_json::Value::Null).unwrap();
            let seats = rules
                .seats(&options)
                .map(|r| 2.clamp(*r.start(), *r.end()))
                .unwrap();
            let mut state = rules.new_game(&options, seats).unwrap();
            // Past the set-up draws, to a player's first decision.
            for _ in 0..200 {
                match state.waiting() {
                    crate::rules::Waiting::Chance(_) => {
                        state.apply_chance(0).unwrap();
                    }
                    _ => break,
                }
            }
            let Some(svg) = state.picture(crate::rules::Viewer::Seat(0), &names[..seats]) else {
                continue;
            };
            let png = png(&svg, MAIL_WIDTH, usize::MAX).expect("it renders");
            if let Ok(dir) = std::env::var("TURNPOST_PNG_DIR") {
                std::fs::write(format!("{dir}/{}.png", rules.id()), &png).unwrap();
            }
            assert!(
                png.len() <= MAX_PNG_BYTES,
                "{}: {} bytes",
                rules.id(),
                png.len()
            );
        }
    }
}
