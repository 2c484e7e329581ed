//! The shapes the map and the legend share: the structure symbols (a little drawing on a
//! cream badge) and the figure tokens (a disc in the owner's colour with the kind's letter).

use super::super::data::{FigureKind, Structure};
use super::INK;

/// The side of a structure badge, in pixels.
pub const BADGE: i32 = 22;

/// The letter on a figure token (the presenter's small letters, as capitals).
pub fn kind_letter(kind: FigureKind) -> char {
    match kind {
        FigureKind::Mage => 'M',
        FigureKind::Hero => 'H',
        FigureKind::Monster => 'X',
        FigureKind::Army => 'A',
    }
}

/// The drawing of a structure in an 18 × 18 box: (path, fill) in drawing order.
fn drawing(structure: Structure) -> &'static [(&'static str, &'static str)] {
    match structure {
        // A thatched cottage.
        Structure::Village => &[
            ("M3.5 9.5h11v7h-11z", "#ecd3a0"),
            ("M1 10L9 2.5L17 10Z", "#caa23a"),
            ("M7.5 16.5v-4h3v4z", "#6b4226"),
        ],
        // Two houses with red roofs.
        Structure::Town => &[
            ("M1.5 10h7v6.5h-7z", "#ecd3a0"),
            ("M0.5 10.5L5 5.5L9.5 10.5Z", "#b5452b"),
            ("M9.5 8h7v8.5h-7z", "#f3e2bd"),
            ("M8.5 8.5L13 3L17.5 8.5Z", "#b5452b"),
        ],
        // Three towers of a city.
        Structure::City => &[
            (
                "M1 17V7h4.5v10zM6.5 17V2h5v15zM12.5 17V5h4.5v12z",
                "#5d7a94",
            ),
            (
                "M8 5h2v2h-2zM8 9h2v2h-2zM2.5 9h1.5v2h-1.5zM14 8h1.5v2h-1.5z",
                "#f6ecc9",
            ),
        ],
        // A crenellated wall with its gate.
        Structure::Castle => &[
            ("M1 17V4h3v3h3V4h4v3h3V4h3v13z", "#9a9a96"),
            ("M6.5 17v-4.5a2.5 2.5 0 0 1 5 0V17z", "#3b2e25"),
        ],
        // Broken columns.
        Structure::Ruins => &[
            (
                "M2 16V8l2.5-1.5V16zM7.5 16V4.5l1.5 1.5l1.5-2V16zM13.5 16v-6l2.5 1.5V16z",
                "#c2b49c",
            ),
            ("M1 17.5v-1.5h16v1.5z", "#8f826e"),
        ],
        // A hill with a mine's mouth.
        Structure::Mine => &[
            ("M0.5 17Q9 -0.5 17.5 17Z", "#8a6440"),
            ("M6 17v-4a3 3 0 0 1 6 0v4z", "#1f1a14"),
        ],
        // A temple's roof, columns and steps.
        Structure::Temple => &[
            ("M1 6.5L9 1.5L17 6.5Z", "#e0bb45"),
            (
                "M2.5 7.5h2.5v7.5h-2.5zM7.75 7.5h2.5v7.5h-2.5zM13 7.5h2.5v7.5h-2.5z",
                "#f3e7c2",
            ),
            ("M1 15h16v2.5H1z", "#e0bb45"),
        ],
        // A wizard's tower.
        Structure::Tower => &[
            (
                "M5.5 17V6.5H4.5V1.5h2v1.5h2V1.5h1v1.5h2V1.5h2v5h-1V17z",
                "#8c5bb0",
            ),
            ("M8 8.5h2v3h-2z", "#f6ecc9"),
        ],
    }
}

/// The id of a structure's badge in the picture's `<defs>`.
fn badge_id(structure: Structure) -> String {
    format!("mm-{}", structure.name().to_ascii_lowercase())
}

/// The `<defs>` of the eight structure badges (each drawn once, used on many squares).
pub fn defs(out: &mut String) {
    out.push_str("<defs>");
    for s in Structure::ALL {
        out.push_str(&format!(
            "<g id=\"{}\"><rect x=\"0\" y=\"0\" width=\"{BADGE}\" height=\"{BADGE}\" \
             rx=\"5\" fill=\"#fbf6e8\" stroke=\"{INK}\" stroke-width=\"1\" opacity=\"0.95\"/>\
             <g transform=\"translate(2 2)\" stroke=\"{INK}\" stroke-width=\"0.7\" \
             stroke-linejoin=\"round\">",
            badge_id(s)
        ));
        for (path, fill) in drawing(s) {
            out.push_str(&format!("<path d=\"{path}\" fill=\"{fill}\"/>"));
        }
        out.push_str("</g></g>");
    }
    out.push_str("</defs>");
}

/// A structure's badge with its top-left corner at (x, y).
pub fn structure(out: &mut String, structure: Structure, x: i32, y: i32) {
    out.push_str(&format!(
        "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>",
        badge_id(structure)
    ));
}

/// A figure token: a disc of radius `r` centred on (cx, cy) in `colour`, with `letter`.
pub fn token(out: &mut String, cx: i32, cy: i32, r: i32, colour: &str, letter: char) {
    let size = r + 3;
    // Roughly centres a capital on the disc's middle.
    let baseline = cy + (size * 36 + 50) / 100;
    out.push_str(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"#000\" opacity=\"0.3\"/>\
         <circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{colour}\" stroke=\"#fff\" \
         stroke-width=\"2\"/>\
         <text x=\"{cx}\" y=\"{baseline}\" font-size=\"{size}\" font-weight=\"bold\" fill=\"#fff\" \
         text-anchor=\"middle\">{letter}</text>",
        cx + 1,
        cy + 2
    ));
}

/// A garrison's flag on a pole from (x, y) (the pole's top) down `pole` pixels, in `colour`
/// with the owner's letter.
pub fn flag(out: &mut String, x: i32, y: i32, pole: i32, colour: &str, letter: char) {
    out.push_str(&format!(
        "<path d=\"M{x} {}V{y}\" stroke=\"{INK}\" stroke-width=\"1.6\" stroke-linecap=\"round\"/>\
         <path d=\"M{x} {y}h14l-3.5 6l3.5 6h-14z\" fill=\"{colour}\" stroke=\"#fff\" \
         stroke-width=\"0.8\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"9\" font-weight=\"bold\" fill=\"#fff\" \
         text-anchor=\"middle\">{}</text>",
        y + pole,
        x + 6,
        y + 9,
        crate::rules::picture::escape(&letter.to_string())
    ));
}
