//! What the board and the legend both draw: unit tokens (a Leader's cone, a Clan's disc), the
//! action dice with their faces, the crystal gem.

use super::super::data::Face;
use super::{CRYSTAL, INK, n};
use crate::rules::picture::escape;

/// A unit token centred at (cx, cy) of radius `r` in `colour` with `label` in white: a cone
/// (a rounded triangle) for a Leader, a disc for a Clan; `attrs` go on the shape itself (a
/// `data-target` and the pointer events that make it clickable).
pub fn token(
    out: &mut String,
    (cx, cy): (f64, f64),
    r: f64,
    colour: &str,
    label: &str,
    leader: bool,
    attrs: &str,
) {
    let size = if leader { r * 0.8 } else { r * 0.95 }.clamp(6.5, 13.0);
    let shape = |dx: f64, dy: f64, fill: &str, extra: &str| {
        if leader {
            // A cone: tip up, wide base, a little taller than the disc.
            let top = cy - r * 1.3 + dy;
            let base = cy + r * 0.95 + dy;
            format!(
                "<path d=\"M{} {}L{} {}Q{} {} {} {}Z\" fill=\"{fill}\" {extra}/>",
                n(cx + dx),
                n(top),
                n(cx + r * 1.05 + dx),
                n(base),
                n(cx + dx),
                n(base + r * 0.5),
                n(cx - r * 1.05 + dx),
                n(base),
            )
        } else {
            format!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" {extra}/>",
                n(cx + dx),
                n(cy + dy),
                n(r)
            )
        }
    };
    out.push_str(&shape(1.0, 1.5, "#000", "opacity=\"0.3\""));
    out.push_str(&shape(
        0.0,
        0.0,
        colour,
        &format!("stroke=\"#fff\" stroke-width=\"1.6\" {attrs}"),
    ));
    let baseline = if leader {
        cy + r * 0.3 + size * 0.36
    } else {
        cy + size * 0.36
    };
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"#fff\" \
         text-anchor=\"middle\" pointer-events=\"none\">{}</text>",
        n(cx),
        n(baseline),
        n(size),
        escape(label)
    ));
}

/// A crystal gem of width `w` centred at (cx, cy).
pub fn crystal(out: &mut String, (cx, cy): (f64, f64), w: f64) {
    let h = w / 2.0;
    out.push_str(&format!(
        "<path d=\"M{} {}L{} {}H{}L{} {}L{} {}Z\" fill=\"#c9b3f2\" stroke=\"{CRYSTAL}\" \
         stroke-width=\"1.2\" stroke-linejoin=\"round\"/><path d=\"M{} {}H{}M{} {}L{} {}L{} {}\" \
         fill=\"none\" stroke=\"{CRYSTAL}\" stroke-width=\"0.8\"/>",
        n(cx - h),
        n(cy - h * 0.35),
        n(cx - h * 0.5),
        n(cy - h * 0.9),
        n(cx + h * 0.5),
        n(cx + h),
        n(cy - h * 0.35),
        n(cx),
        n(cy + h * 1.1),
        n(cx - h),
        n(cy - h * 0.35),
        n(cx + h),
        n(cx - h * 0.5),
        n(cy - h * 0.35),
        n(cx),
        n(cy + h * 1.1),
        n(cx + h * 0.5),
        n(cy - h * 0.35),
    ));
}

/// How a die is drawn.
pub struct Die<'a> {
    pub face: Option<Face>,
    /// A pink bonus die (else black).
    pub bonus: bool,
    /// Already assigned (or gone to the reserve): faded.
    pub used: bool,
    /// Marked for a re-roll: a dashed red frame.
    pub marked: bool,
    /// The `data-target` of the die, if any.
    pub target: Option<&'a str>,
}

/// A die of side `s` with its top-left corner at (x, y).
pub fn die(out: &mut String, x: f64, y: f64, s: f64, d: &Die) {
    let fill = if d.bonus { "#d9468f" } else { "#2b2622" };
    let target = d
        .target
        .map(|t| format!(" data-target=\"{}\" pointer-events=\"all\"", escape(t)))
        .unwrap_or_default();
    let opacity = if d.used { " opacity=\"0.35\"" } else { "" };
    out.push_str(&format!("<g{opacity}>"));
    out.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"{fill}\" \
         stroke=\"{INK}\" stroke-width=\"1\"{target}/>",
        n(x),
        n(y),
        n(s),
        n(s)
    ));
    let (cx, cy) = (x + s / 2.0, y + s / 2.0);
    face(out, d.face, (cx, cy), s / 30.0, "#fff");
    out.push_str("</g>");
    if d.marked {
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"7\" fill=\"none\" \
             stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
            n(x - 3.0),
            n(y - 3.0),
            n(s + 6.0),
            n(s + 6.0),
            super::ALARM
        ));
    }
}

/// A die face's symbol centred at `c`, `k` times its 30-pixel size: crossed swords for
/// move/attack, a shield, a crystal, a horn; "?" not rolled yet.
pub fn face(out: &mut String, face: Option<Face>, (cx, cy): (f64, f64), k: f64, ink: &str) {
    let p = |x: f64, y: f64| format!("{} {}", n(cx + x * k), n(cy + y * k));
    match face {
        Some(Face::MoveAttack) => out.push_str(&format!(
            "<path d=\"M{}L{}M{}L{}M{}L{}M{}L{}\" fill=\"none\" stroke=\"{ink}\" \
             stroke-width=\"{}\" stroke-linecap=\"round\"/>",
            p(-8.0, 8.0),
            p(8.0, -8.0),
            p(8.0, 8.0),
            p(-8.0, -8.0),
            p(-9.0, 3.0),
            p(-3.0, 9.0),
            p(9.0, 3.0),
            p(3.0, 9.0),
            n(2.4 * k)
        )),
        Some(Face::Shield) => out.push_str(&format!(
            "<path d=\"M{}L{}V{}C{} {} {}C{} {} {}V{}Z\" fill=\"{ink}\"/>",
            p(0.0, -9.0),
            p(8.0, -6.0),
            n(cy + 1.0 * k),
            p(8.0, 6.0),
            p(4.0, 8.0),
            p(0.0, 10.0),
            p(-4.0, 8.0),
            p(-8.0, 6.0),
            p(-8.0, 1.0),
            n(cy - 6.0 * k)
        )),
        Some(Face::Crystal) => out.push_str(&format!(
            "<path d=\"M{}L{}H{}L{}L{}Z\" fill=\"{ink}\"/><path d=\"M{}H{}\" stroke=\"#888\" \
             stroke-width=\"{}\"/>",
            p(-8.0, -2.0),
            p(-4.0, -8.0),
            n(cx + 4.0 * k),
            p(8.0, -2.0),
            p(0.0, 10.0),
            p(-8.0, -2.0),
            n(cx + 8.0 * k),
            n(k)
        )),
        Some(Face::Horn) => out.push_str(&format!(
            "<path d=\"M{}Q{} {}L{}Q{} {}Z\" fill=\"{ink}\"/>",
            p(-10.0, -3.0),
            p(0.0, -3.0),
            p(8.0, -10.0),
            p(9.0, 8.0),
            p(0.0, 3.0),
            p(-10.0, 3.0)
        )),
        None => out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" fill=\"{ink}\" \
             text-anchor=\"middle\">?</text>",
            n(cx),
            n(cy + 6.0 * k),
            n(18.0 * k)
        )),
    }
}
