//! What every ruleset's picture (`Ruleset::picture`, an SVG document drawn in
//! `src/rules/<game>/picture.rs`) shares: the document's frame, escaping, the seats' colours.
//! Pure like the rest of the engine.

use std::fmt::Write as _;

/// Fill colours for seats 0, 1, … (wiz-war's seats are red, blue, green, yellow by its rules;
/// the others use the same order). Dark enough for white text, distinct for colour-blind eyes
/// as far as six colours can be.
pub const SEAT_COLOURS: [&str; 6] = [
    "#c0392b", "#2e6fd8", "#1e8449", "#d4a017", "#8e44ad", "#d35400",
];

/// The colour of `seat` (cycling past six seats).
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

/// The font every picture names (DejaVu Sans is what the PNG renderer finds on a Debian
/// machine; browsers fall back to their sans-serif).
pub const FONT: &str = "DejaVu Sans, Verdana, sans-serif";

/// `text` escaped for XML character data and attribute values (names are players' own text).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A whole SVG document of `width` × `height` user units (also its size in CSS pixels), with
/// `title` as its text alternative, around `body` (already escaped SVG elements).
pub fn document(width: u32, height: u32, title: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 400);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" role=\"img\" aria-labelledby=\"picture-title\" \
         font-family=\"{FONT}\"><title id=\"picture-title\">{}</title>{body}</svg>",
        escape(title)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_for_xml() {
        assert_eq!(
            escape("Ann <b>&\"'\u{1}"),
            "Ann &lt;b&gt;&amp;&quot;&apos; "
        );
    }

    #[test]
    fn a_document_is_well_formed_svg_with_its_title() {
        let svg = document(
            10,
            20,
            "A & B",
            "<rect x=\"0\" y=\"0\" width=\"1\" height=\"1\"/>",
        );
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.attribute("viewBox"), Some("0 0 10 20"));
        let title = root.first_element_child().unwrap();
        assert_eq!(title.text(), Some("A & B"));
    }
}
